"""A new member's first hour at the shared table, in English and in Hindi: who moderates, a name
the page refuses, the seat offer and the table's language, the phone's width, and what an empty
channel says (a hint that goes with its throw: test_page_slips.py; a bot not ready yet:
test_play_command.py's second run; Hindi's font at each weight: test_shared_table.py). The tests share one table (conftest.py), the empty channel's
test a channel of its own there."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from localdiscord.objects import MANAGE_CHANNELS, InteractionType
from localdiscord.table import LocalTable
from tests.local import axe, regulars
from tests.local.conftest import RUNNER
from tests.local.languages import LANGUAGES, lang, member
from tests.local.tabs import Tab
from tests.support.browser import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("local-first-hour")
"""One worker runs the module: its tests share one Chromium (and one table), conftest.py."""

START = "/pachisi start players:2 pieces:1 level:easy"
REGULAR = "Uma"
"""The module's member (regulars.py), in English, who carries on from test to test where a test's
point is another member's first hour (her browser lets axe-core in, as a newcomer's does here)."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def regular(chromium: Any, shared_table: LocalTable) -> AsyncIterator[Tab]:
    async with regulars.regular(chromium, shared_table.url, REGULAR, bypass_csp=True) as tab:
        yield tab


async def test_the_tables_runner_moderates_and_nobody_ticks_it_for_themselves(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """Bala reads why in English, then in Hindi, the language of the rest (the end's button in
    English: tests/table/transcripts/en.txt)."""
    table, words = shared_table, lang("hi")
    bala = regular  # (the module's member)
    await regulars.carry_on(bala, table, named("runner"))
    asha = await member(browser, table.url, named("Asha"), "hi", secret=RUNNER)  # she runs the table
    assert await asha.page.is_checked("#moderator")  # granted, not ticked
    assert await bala.page.is_disabled("#moderator")
    assert not await bala.page.is_checked("#moderator")
    for locale in LANGUAGES:
        await bala.page.select_option("#locale", locale)
        await bala.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
        who = lang(locale).gettext("Whoever runs this table moderates it.")
        await bala.page.wait_for_selector(f"#moderator-who:text-is({who!r})")
    await bala.manual()  # else the bot may throw for him, and a game of one piece plays itself out
    await bala.command(START)
    await bala.page.wait_for_selector("#channel-name:has-text('›')")
    await bala.turn()
    await asha.open_thread(await bala.thread_name())
    await asha.command("/pachisi end")  # Bala's game, ended by the table's runner
    await asha.page.locator(f"button:has-text({words.gettext('End the game')!r})").click()
    assert await bala.no_turn()
    sent = [i.payload for i in table.server.interactions.values() if i.user.name == bala.name]
    assert all(int(p["member"]["permissions"]) & MANAGE_CHANNELS == 0 for p in sent)  # never Manage Channels
    assert asha.errors == bala.errors == []


async def test_joining_with_an_empty_name_says_so_and_old_errors_go(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """In a Hindi browser, whose page asks in Hindi: axe-core finds nothing serious in the name
    dialog with its error (WCAG 2 A/AA). (The dialog in English, by axe-core:
    test_page_access.py; the refusals' words in each language: test_members.py,
    test_page_slips.py's name tests and test_page_words.py.)"""
    locale = "hi"
    words = lang(locale)
    context = await browser.new_context(viewport=DESKTOP, locale=locale, bypass_csp=True)  # for axe alone
    page = await context.new_page()
    await page.goto(shared_table.url)
    await page.wait_for_selector(f"html[lang='{words.code}']")
    assert await page.get_attribute("#box", "placeholder") == words.gettext(
        "Type / for commands"
    )  # behind it
    await page.fill("#join-name", "Pachisi")  # reads as the bot's name: refused
    await page.click("#join-button")
    refused = words.gettext(
        "That name looks like {name}, who is already here; pick a name that looks different.", name="Pachisi"
    )
    await page.wait_for_selector(f"#join-error:text-is({refused!r})")
    await page.fill("#join-name", "   ")
    await page.click("#join-button")  # no name: said, not ignored, and the old error is gone
    needed = words.gettext("Type a name first: 1 to 32 characters.")
    await page.wait_for_selector(f"#join-error:text-is({needed!r})")
    assert await page.locator("#join[open]").count() == 1
    assert await axe.serious(page) == []
    await page.fill("#join-name", named("Bala"))  # typing makes the error stale
    await page.wait_for_selector("#join-error", state="hidden")
    await page.click("#join-button")
    await page.wait_for_selector("#bot-status.online")


async def stranger(browser: Any, url: str, name: str, locale: str) -> Tab:
    """Someone opening a link in a browser of their own, in their language; the page's dialogs may
    be open when this returns."""
    page = await (await browser.new_context(viewport=DESKTOP, locale=locale)).new_page()
    await page.goto(url)
    await page.fill("#join-name", name)
    await page.click("#join-button")
    await page.wait_for_selector("#bot-status.online")
    return Tab(page, name)


async def test_the_seat_offer_is_only_for_someone_without_a_seat_and_answers_in_their_language(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """Asha's table speaks her language, English; Bala, a stranger with its link, reads the page,
    the offer and the bot's answer at her table in his, Hindi, where he looks. (A table that
    speaks Hindi, told to an English reader: test_page_slips.py's seat test.)"""
    table, starter, visitor = shared_table, "en-US", "hi"
    asha = regular  # (the module's member)
    home = await regulars.carry_on(asha, table, named("offer"), starter)
    await asha.manual()
    await asha.command("/pachisi start players:4 pieces:1 level:easy")
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await asha.turn()
    link = asha.page.url
    await asha.page.reload()  # she plays here: nothing covers her board
    await asha.page.wait_for_selector("#bot-status.online")
    await asha.turn()
    bala = await stranger(browser, link, named("Bala"), visitor)
    await bala.page.wait_for_selector("#offer[open]")  # he has no seat: offered one
    assert await bala.page.inner_text("#offer-take") == lang(visitor).gettext("Take a seat")
    assert await asha.page.locator("#offer[open]").count() == 0  # (no offer came her way meanwhile)
    spoken = {"hi": "Hindi", "en-US": "English"}[starter]
    for tab, locale in [(asha, starter), (bala, visitor)]:
        words = lang(locale)
        said = words.gettext(
            "This table speaks {language}", language=words.pgettext("a table's language", spoken)
        )
        await tab.page.wait_for_selector(f"#table-language:text-is({said!r})")
    cards = [m for m in table.server.messages.values() if "pachisi:join:" in json.dumps(m.components)]
    card = max(cards, key=lambda m: m.id)  # her table's, the newest
    button = next(
        c for row in card.components for c in row["components"] if c["custom_id"].startswith("pachisi:join:")
    )
    assert table.guild is not None
    seated = next(m for m in table.guild.members.values() if m.user.name == bala.name)
    channel = table.server.channels[card.channel_id]
    payload = {"custom_id": button["custom_id"], "component_type": 2}
    await table.server.send_interaction(InteractionType.MESSAGE_COMPONENT, seated, channel, payload, card)
    await bala.page.wait_for_selector(f"#messages li.message:has-text({bala.name!r})")  # "@Bala takes ..."
    await bala.page.click("#offer-take")  # meanwhile seated (another tab, say): the bot says so...
    already = lang(visitor).gettext("You already play {colour}: /pachisi leave first to change seats.")
    answer = bala.message_with(already.split("{colour}")[0].strip())  # ...in his words, where he looks
    await answer.wait_for()
    assert await answer.locator(".only-you").count() == 1
    assert "›" in await bala.page.inner_text("#channel-name")
    await bala.page.reload()  # seated now: no offer after a reload
    await bala.page.wait_for_selector("#bot-status.online")
    await bala.turn()  # the offer is weighed as the page's snapshot comes, which holds the card
    assert await bala.page.locator("#offer[open]").count() == 0
    await bala.open_channel(f"# {home}")
    await bala.page.wait_for_selector("#table-language", state="hidden")  # a channel is no table
    codes = await asha.page.locator("#messages .markdown code").count()
    turn = await asha.turn()
    await asha.click(turn["id"])
    await asha.wait_gone(turn["id"])
    measured = await asha.page.wait_for_function(  # "` 4` Asha, Black: ..." (the page redraws it as it goes)
        """(before) => { const all = [...document.querySelectorAll('#messages .markdown code')];
            return all.length > before && all.map((c) => [parseFloat(getComputedStyle(c).fontSize),
                parseFloat(getComputedStyle(c.parentElement).fontSize)]); }""",
        arg=codes,
    )
    sizes = await measured.json_value()
    assert all(code >= 0.9 * text for code, text in sizes), sizes  # a throw reads at full size
    assert asha.errors == bala.errors == []


OVERLAPS = """([a, sel]) => { const box = document.querySelector(a).getBoundingClientRect();
    return [...document.querySelectorAll(sel)].some((el) => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom; }); }"""


BOARD = """() => { const all = [...document.querySelectorAll('#messages img.picture')];
    const last = all[all.length - 1]; if (!last || !last.complete) return {width: 0, left: 0, right: 0};
    const r = last.getBoundingClientRect(); return {width: r.width, left: r.left, right: r.right}; }"""
"""The newest board's box, once its picture is loaded."""
BOARD_FITS = f"(w) => {{ const b = ({BOARD})(); return b.width >= 0.9 * w && b.left >= 0 && b.right <= w; }}"


async def fits_a_phone(tab: Tab, locale: str, channel: str) -> None:
    """The game's page at a phone's width, in `locale`: the header reads whole in two rows, the
    board fits, and the link's notice (in the member's language) covers no move nor the box."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    page = tab.page
    await page.wait_for_function(
        "() => [...document.querySelectorAll('#messages img.picture')].every((i) => i.complete)"
    )
    name = page.locator("#channel-name")
    assert await name.evaluate(
        "(h) => h.scrollWidth <= h.clientWidth && h.scrollHeight <= h.clientHeight + 1"
    )
    header = await name.inner_text()  # the channel and the thread, named as in the list
    assert header.startswith(f"# {channel} › ")
    assert (
        "↳ " + header.removeprefix(f"# {channel} › ")
        in await page.locator("#channels .thread").all_inner_texts()
    )
    await page.wait_for_selector("#table-language:not([hidden])")
    middles = await page.evaluate(  # the header's second row holds the rest: two rows in all
        """() => ['#table-language', '#copy-link', '#bot-status'].map((s) => {
            const r = document.querySelector(s).getBoundingClientRect(); return r.top + r.height / 2; })"""
    )
    assert max(middles) - min(middles) < 4, (locale, middles)
    with contextlib.suppress(PlaywrightTimeout):  # (a board being redrawn is waited for)
        await page.wait_for_function(BOARD_FITS, arg=PHONE["width"], timeout=10_000)
    board = await page.evaluate(BOARD, PHONE["width"])
    assert board["width"] >= 0.9 * PHONE["width"], (locale, board)  # its panels as large as they can be
    assert board["left"] >= 0 and board["right"] <= PHONE["width"], (locale, board)  # and on the screen
    await page.click("#copy-link")
    await page.wait_for_selector("#toast:not([hidden])")
    copied = lang(locale).gettext("Link copied: {link}").split("{link}")[0]
    assert (await page.inner_text("#toast")).startswith(copied)  # in the member's language
    assert not await page.evaluate(OVERLAPS, ["#toast", "#messages button.button:not([disabled])"])
    assert not await page.evaluate(OVERLAPS, ["#toast", "#box"])
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_at_a_phones_width_the_game_fits_plays_by_keyboard_and_axe_finds_nothing_serious(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """A game at a phone's width, in English: the header reads whole, the board fits, the notice
    covers no move, and a move is played with the keyboard. A newcomer at one with its link, in
    Hindi: the same fit in his words, and axe-core finds nothing serious (WCAG 2 A/AA) in his
    seat offer or either member's game with its notice (the seat offer in English:
    test_page_slips.py's seat test; the name dialog with an error:
    test_joining_with_an_empty_name_says_so_and_old_errors_go; the empty channel's welcome:
    test_an_empty_channel_says_what_to_type)."""
    table = shared_table
    axe.need_axe()
    asha = regular  # (the module's member)
    channel = await regulars.carry_on(asha, table, named("phone"), "en-US", PHONE)
    await asha.manual()
    await asha.command("/pachisi start players:4 pieces:1 level:easy")
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await asha.turn()
    await fits_a_phone(asha, "en-US", channel)
    await asha.page.screenshot(path=str(table.database.parent / "phone-en-US.png"))
    found: dict[str, list[dict[str, Any]]] = {"game, phone, notice, en-US": await axe.serious(asha.page)}
    phone = await (await browser.new_context(viewport=PHONE, locale="hi", bypass_csp=True)).new_page()
    await phone.goto(asha.page.url)
    await phone.fill("#join-name", named("Bala"))
    await phone.click("#join-button")
    await phone.wait_for_selector("#offer[open]")
    found["seat offer, phone, hi"] = await axe.serious(phone)
    await phone.click("#offer-take")
    await phone.wait_for_selector(f"#messages li.message:has-text({named('Bala')!r})")
    bala = Tab(phone, named("Bala"))
    await fits_a_phone(bala, "hi", channel)
    await phone.screenshot(path=str(table.database.parent / "phone-hi.png"))
    found["game, phone, notice, hi"] = await axe.serious(phone)
    assert found == {state: [] for state in found}, found
    turn = await asha.turn()  # her move, by the keyboard
    await asha.page.focus("#box")
    await asha.focus_by_keyboard(f"el.dataset.customId === {turn['id']!r}")  # back from the box
    await asha.page.keyboard.press("Enter")
    await asha.wait_gone(turn["id"])
    assert asha.errors == bala.errors == []


async def test_an_empty_channel_says_what_to_type(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """A member of each language; one's answer (only hers) leaves the channel empty for the other.
    axe-core finds nothing serious in the welcome (WCAG 2 A/AA). (A throw's line at full size: the
    seat offer's test, at a table of each language.)"""
    table = shared_table
    assert table.guild is not None
    empty = await regulars.carry_on(regular, table, named("first-hour"))  # Bala, the module's member
    asha = await member(browser, table.url, named("Asha"), "hi", bypass_csp=True)  # (for axe alone)
    tabs = [(asha, "hi"), (regular, "en-US")]
    command = next(iter(table.server.commands[table.guild.id].values()))
    start = next(o for o in command["options"] if o["name"] == "start")
    found: dict[str, list[dict[str, Any]]] = {}
    for tab, locale in tabs:
        await tab.open_channel(f"# {empty}")
        welcome = tab.page.locator("#messages .welcome")
        await welcome.wait_for()
        assert lang(locale).gettext("Welcome to #{channel}!", channel=empty) in await welcome.inner_text()
        found[f"welcome, {locale}"] = await axe.serious(tab.page)
        names = [(n.get("name_localizations") or {}).get(locale) or n["name"] for n in (command, start)]
        typed = "/{} {}".format(*names)  # in the member's language: "/पच्चीसी शुरू"
        await welcome.locator(f"button:text-is({typed!r})").click()
        assert await tab.page.input_value("#box") == typed + " "  # one click from typing it
        await tab.manual()
        await welcome.wait_for(state="detached")  # the channel is empty no more
    assert found == {state: [] for state in found}, found
    assert all(tab.errors == [] for tab, _ in tabs)
