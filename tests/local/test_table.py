"""The local table in a real browser, in English and in Hindi: members type commands and click
buttons on the page, and the real bot, connected to the stand-in, answers. The tests share one
table (conftest.py), each under names of its own."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from localdiscord import commandline
from localdiscord import table as table_module
from localdiscord.objects import API
from localdiscord.table import LocalTable
from localdiscord.words import language_of
from tests.local import regulars
from tests.local.languages import LANGUAGES, lang, member
from tests.local.tabs import Tab
from tests.support.browser import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("local-table")
"""One worker runs the module: its tests share the worker's Chromium and table, conftest.py."""

REGULAR = "<img src=x onerror=alert(1)> T"
"""The module's member (regulars.py), who carries on from test to test: her name is markup, which
every page she meets shows as text."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def regular(chromium: Any, shared_table: LocalTable) -> AsyncIterator[Tab]:
    async with regulars.regular(chromium, shared_table.url, REGULAR) as tab:
        yield tab


START = "/pachisi start players:2 pieces:1 level:easy"


def localized(table: LocalTable, locale: str, *path: str) -> list[str]:
    """The names of `/pachisi <sub-command> <option>` as a member of `locale` types them."""
    assert table.guild is not None
    found: list[str] = []
    options = list(table.server.commands[table.guild.id].values())
    for name in path:
        option = next(o for o in options if o["name"] == name)
        found.append((option.get("name_localizations") or {}).get(locale) or name)
        options = option.get("options", [])
    return found


async def test_the_command_box_suggests_and_completes_in_the_members_language(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """In English, then in Hindi (she switches the page's language)."""
    asha = regular
    await regulars.carry_on(asha, shared_table, named("suggest"))
    for locale in LANGUAGES:
        if locale != "en-US":
            await asha.page.select_option("#locale", locale)
            await asha.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
        command, start, players = localized(shared_table, locale, "pachisi", "start", "players")
        await asha.page.fill("#box", f"/{command} {start[:2]}")
        await asha.page.wait_for_selector(f"#suggestions li:has-text('/{command} {start}')")
        await asha.page.press("#box", "Tab")  # takes the first suggestion
        assert await asha.page.input_value("#box") == f"/{command} {start} "
        await asha.page.type("#box", f"{players}:")
        await asha.page.wait_for_selector("#suggestions li:has-text('2')")
    assert asha.errors == []


async def test_an_ephemeral_answer_shows_only_on_its_members_page(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """Asha reads the page in Hindi, Bala (the module's member) in English: each one's notice in
    their words."""
    hers, his = lang("hi"), lang("en-US")
    bala = regular
    channel = await regulars.carry_on(bala, shared_table, named("ephemeral"))
    asha = await member(browser, shared_table.url, named("Asha"), "hi")
    await asha.open_channel(f"# {channel}")
    pictures = await bala.page.locator("#messages img.picture").count()
    await asha.command("/pachisi help")
    answer = asha.message_with(hers.gettext("Only you can see this"))
    await answer.locator("img.picture").wait_for()  # the board's key (after a moment of thinking)
    assert await answer.locator("img.picture").count() == 1
    await bala.command("/pachisi auto mode:on")  # a later answer of Bala's own, to wait for
    only_him = bala.message_with(his.gettext("Only you can see this"))
    await only_him.wait_for()
    assert await only_him.count() == 1
    assert await bala.page.locator("#messages img.picture").count() == pictures  # her help's key is not his
    assert await answer.locator("img.picture").count() == 1
    await answer.locator(f"button:has-text({hers.gettext('Dismiss message')!r})").click()
    await answer.wait_for(state="detached")
    await only_him.locator(f"button:has-text({his.gettext('Dismiss message')!r})").wait_for()
    await asha.command(f"good luck, *{bala.name}*")  # a line without / is a chat message, for everyone
    said = bala.message_with(f"good luck, {bala.name}")
    await said.wait_for()
    assert await said.locator(".author").inner_text() == asha.name
    assert await said.locator("em").inner_text() == bala.name
    await asha.command("/pachisi help")  # the bot is still there after hearing it
    await answer.locator("img.picture").wait_for()  # her new answer (the old one was dismissed)


REFUSED = [
    ("/pachisi start players:3", "players must be 2 or 4."),
    ("/pachisi start pieces:9", "pieces must be from 1 to 4"),
    ("/pachisi start pieces:two", "pieces must be a whole number"),
    ("/pachisi start thread:maybe", "thread must be True or False"),
    ("/pachisi begin", "no sub-command begin"),
    ("/chess start", "no command /chess"),
    ("/pachisi start colour:red", "has no option colour"),
    ("/pachisi move", "needs the option choice"),
]
"""Lines the command box refuses, and (in English) why."""


async def test_commands_the_bot_does_not_have_are_refused_on_the_page(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """In English, then in Hindi (she switches the page's language)."""
    asha = regular
    await regulars.carry_on(asha, shared_table, named("refused"))
    assert shared_table.guild is not None
    sent = len(shared_table.server.interactions)
    for locale in LANGUAGES:
        if locale != "en-US":
            await asha.page.select_option("#locale", locale)
            await asha.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
        commands = commandline.localized(
            list(shared_table.server.commands[shared_table.guild.id].values()), locale
        )
        for line, reason in REFUSED:
            await asha.command(line)
            shown = await asha.refusal()
            with pytest.raises(commandline.Refused) as read:  # the reader's reason, in her language
                commandline.read(line, commands, {}, language_of(locale))
            assert shown == str(read.value), line
            assert reason in shown if locale == "en-US" else any("\u0900" <= c <= "\u097f" for c in shown), (
                line
            )
            assert await asha.page.input_value("#box") == line  # kept, to be corrected
    assert len(shared_table.server.interactions) == sent  # nothing reached the bot
    await asha.command("/pachisi help")
    await asha.message_with(lang(LANGUAGES[-1]).gettext("Only you can see this")).wait_for()
    assert len(shared_table.server.interactions) == sent + 1
    assert asha.errors == []


IN_MINUTES = {"en-US": ("in 5 minutes", "in 4 minutes"), "hi": ("5 मिनट में", "4 मिनट में")}
"""A time five minutes ahead, as each language says it (a minute may pass meanwhile)."""


async def test_markdown_mentions_and_times_are_shown_and_names_are_only_text(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """In English, then in Hindi (she switches the page's language: the time is said again)."""
    table, asha, evil = shared_table, regular, REGULAR
    name = await regulars.carry_on(asha, table, named("markdown"))
    assert table.guild is not None
    member_id = next(m.user.id for m in table.guild.members.values() if m.user.name == evil)
    channel = next(c.id for c in table.guild.channels.values() if c.name == name)
    soon = int(time.time()) + 300
    content = (
        f"**bold** *italics* `code` <t:{soon}:R> <@{member_id}>\n> quoted <b>not bold</b>\n```\nblock\n```"
    )
    headers = {"Authorization": f"Bot {table.server.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{table.server.url}{API}/channels/{channel}/messages"
        async with http.post(url, json={"content": content}, headers=headers) as response:
            assert response.status == 200
    for locale in LANGUAGES:
        if locale != "en-US":
            await asha.page.select_option("#locale", locale)
            await asha.page.wait_for_selector(f"html[lang='{lang(locale).code}']")  # (and redrawn)
        message = asha.message_with("quoted").last
        await message.wait_for()
        assert await message.locator("strong").inner_text() == "bold"
        assert await message.locator("em").inner_text() == "italics"
        assert await message.locator("p code").inner_text() == "code"
        assert await message.locator("pre code").inner_text() == "block"
        assert "quoted <b>not bold</b>" in await message.locator("blockquote").inner_text()
        assert await message.locator("time.timestamp").inner_text() in IN_MINUTES[locale]  # in her language
        assert await message.locator(".mention").inner_text() == "@" + evil
        assert await asha.page.locator("img:not(.picture)").count() == 0  # no element from any text
    assert evil in await asha.page.inner_text("#me-name")
    assert asha.errors == []


CARD_OVERFLOW = """() => [...document.querySelectorAll('#messages .embed')].flatMap((card) => {
    const edge = card.getBoundingClientRect().right + 1;
    return [...card.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > edge)
        .map((e) => e.textContent.slice(0, 40)); })"""
"""What of a card (an embed) reaches past its right edge."""


async def test_the_rules_card_keeps_its_text_inside_it_on_a_desktop_and_a_phone(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """The rules' long position line (inline code) wraps as Discord wraps it: it once stretched the
    card's text past the card, and on a phone off the screen. In English on a desktop, then (her
    window made a phone's) in Hindi, beside the English card."""
    asha = regular
    await regulars.carry_on(asha, shared_table, named("rules"), "en-US", DESKTOP)
    for locale, viewport in [("en-US", DESKTOP), ("hi", PHONE)]:
        if locale != "en-US":
            await asha.page.set_viewport_size(viewport)
            await asha.page.select_option("#locale", locale)
            await asha.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
        cards = await asha.page.locator("#messages .embed").count()
        command, rules = localized(shared_table, locale, "pachisi", "rules")
        await asha.command(f"/{command} {rules}")
        await asha.page.locator("#messages .embed").nth(cards).locator("code").first.wait_for()
        assert await asha.page.evaluate(CARD_OVERFLOW) == [], locale
        assert await asha.page.evaluate(
            "(m) => m.scrollWidth <= m.clientWidth", await asha.page.query_selector("#messages")
        ), locale
    assert asha.errors == []


async def test_a_bot_that_dies_is_started_again_and_the_game_goes_on(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The later tests of the worker meet the bot started again, as members of a table do.) The
    pause before the restart is cut short: the bot's own start keeps the page offline a while."""
    monkeypatch.setattr(table_module, "RESTART_AFTER", 0.1)
    asha = regular
    await regulars.carry_on(asha, shared_table, named("restart"))
    await asha.manual()
    await asha.command(START)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await asha.turn()
    bot = shared_table.bot
    assert bot is not None and bot.child.running
    runs = bot.runs
    await bot.child.kill()  # SIGKILL: no clean shutdown
    await asha.page.wait_for_selector("#bot-status.offline")
    await asha.page.wait_for_selector("#bot-status.online")
    assert bot.runs == runs + 1
    turn = await asha.turn()  # her throw is taken after the restart...
    await asha.click(turn["id"])
    await asha.wait_gone(turn["id"])
    await asha.turn()  # ...and the game offers the next turn
    assert asha.errors == []
