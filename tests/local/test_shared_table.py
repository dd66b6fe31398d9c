"""The local table shared as a web game: Hindi with the served font and Hindi commands, members
held by their browsers, and a page that follows the game (a table's link seating a friend and
showing an onlooker the game live: test_page_slips.py)."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from localdiscord import page as page_module
from localdiscord import words
from localdiscord.table import LocalTable
from tests.local import regulars
from tests.local.languages import lang, member, resigned
from tests.local.tabs import Tab
from tests.support.browser import DESKTOP

pytestmark = pytest.mark.xdist_group("local-shared-table")
"""One worker runs the module: its tests share the worker's Chromium and table, conftest.py."""

REGULAR = "Tara"
"""The module's member (regulars.py), who carries on from test to test."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def regular(chromium: Any, shared_table: LocalTable) -> AsyncIterator[Tab]:
    async with regulars.regular(chromium, shared_table.url, REGULAR) as tab:
        yield tab


SCREENSHOTS = (
    Path(os.environ["PACHISI_SCREENSHOTS"]).resolve() if os.environ.get("PACHISI_SCREENSHOTS") else None
)
"""A folder for the Hindi page's screenshot besides the test's own (docs/images remakes the doc's)."""
START = "/pachisi start players:2 pieces:1 level:easy"
HINDI_START = "/पच्चीसी शुरू खिलाड़ी:2 गोटियाँ:1 स्तर:आसान"
DEVANAGARI_LOADED = """() => { const faces = [...document.fonts].filter(
    (f) => f.family.replaceAll('"', '') === 'Pachisi Devanagari');
    return faces.length === 2 && faces.every((f) => f.status === 'loaded'); }"""
"""Both weights (the regular for text, the bold for names and headings) are in use on a Hindi page."""
REGULAR_DEVANAGARI = """() => [...document.fonts].some((f) => {
    const weights = f.weight.split(' ').map(Number);  // a face for regular text only, not up to bold
    return f.family.replaceAll('"', '') === 'Pachisi Devanagari' && Math.max(...weights) <= 500
        && f.status === 'loaded'; })"""


async def hindi_member(browser: Any, url: str, name: str) -> Tab:
    """A member who chose Hindi in the page's language menu."""
    member = await Tab.join(browser, url, name)
    await member.page.select_option("#locale", "hi")
    await member.page.wait_for_selector("html[lang='hi']")
    return member


async def test_hindi_is_drawn_in_the_served_font_and_hindi_commands_are_sent_and_named(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Hindi command starts a game, drawn in the served font; then one the bot leaves unanswered
    is named in her words. (The stand-in gives up sooner than Discord's client, whose 3 s are not
    the point here.)"""
    monkeypatch.setattr(page_module, "ANSWER_WITHIN", 0.5)
    table = shared_table
    asha = await hindi_member(browser, table.url, named("Asha"))
    assert await asha.page.inner_text("#switch") == "किसी और के नाम से खेलें"  # the page's own words
    await asha.page.fill("#box", "/प")
    await asha.page.wait_for_selector("#suggestions li:has-text('/पच्चीसी')")
    await asha.page.fill("#box", "/पच्चीसी शु")
    await asha.page.wait_for_selector("#suggestions li:has-text('/पच्चीसी शुरू')")
    sent_before = len(table.server.interactions)
    await asha.command("/पच्चीसी अपनेआप ढंग:बंद")
    await asha.message_with("इसे सिर्फ़ आप देख सकते हैं").first.wait_for()
    await asha.command(HINDI_START)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await asha.page.wait_for_selector("#messages img.picture")
    await asha.turn()
    sent = [i.payload["data"] for i in list(table.server.interactions.values())[sent_before:] if i.type == 2]
    assert [d["options"][0]["name"] for d in sent] == ["auto", "start"]  # as Discord sends them
    await asha.page.wait_for_function(DEVANAGARI_LOADED)
    glyphs = await asha.page.evaluate("document.fonts.check('16px \"Pachisi Devanagari\"', 'पच्चीसी')")
    assert glyphs
    await asha.page.wait_for_function(REGULAR_DEVANAGARI)  # the regular face, for regular text
    weights = await asha.page.evaluate(
        """() => { const p = document.querySelector('#messages .markdown p');
            return [getComputedStyle(p).fontWeight, document.fonts.check('400 16px "Pachisi Devanagari"', 'आप')]; }"""
    )
    assert weights == ["400", True]  # Hindi at the regular weight is drawn regular beside Latin
    await asha.page.wait_for_function(
        "() => [...document.querySelectorAll('#messages img.picture')].every((i) => i.complete)"
    )
    for folder in [table.database.parent, *([SCREENSHOTS] if SCREENSHOTS else [])]:
        await asha.page.screenshot(path=str(folder / "local-hindi.png"))
    await unanswered_is_named(asha, table)
    assert asha.errors == []


async def unanswered_is_named(asha: Tab, table: LocalTable) -> None:
    """The bot hangs: Discord's client gives up (after 3 s), and names the command as she typed it."""
    assert table.bot is not None
    pid = table.bot.child.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        await asha.command("/पच्चीसी नियम")
        await asha.page.wait_for_selector("#toast:not([hidden])", timeout=10_000)
        assert await asha.page.inner_text("#toast") == "पच्चीसी ने /पच्चीसी नियम का जवाब नहीं दिया।"
    finally:
        os.kill(pid, signal.SIGCONT)


async def test_another_browsers_member_is_refused_by_name_and_hers_may_switch(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """The other browser reads the page in Hindi (the refusal in each language, and a forged hello
    or click for her, without a browser: tests/local/test_members.py)."""
    table, locale = shared_table, "hi"
    asha = regular
    await regulars.carry_on(asha, table, named("names"))
    assert table.guild is not None
    members, sent = len(table.guild.members), len(table.server.interactions)
    context = await browser.new_context(viewport=DESKTOP, locale=locale)  # a browser in its language
    page = await context.new_page()
    await page.goto(table.url)
    await page.fill("#join-name", asha.name.lower())  # her name, from another browser
    await page.click("#join-button")
    taken = words.name_taken(words.language_of(locale), asha.name)
    await page.wait_for_selector(f"#join-error:text-is({taken!r})")
    assert await page.locator("#join[open]").count() == 1  # still asked for a name
    assert len(table.guild.members) == members  # nobody new
    assert len(table.server.interactions) == sent  # nothing reached the bot
    await asha.page.click("#switch")  # at her own computer she can still switch members...
    brother = named("Asha's brother")
    await asha.page.fill("#join-name", brother)
    await asha.page.click("#join-button")
    await asha.page.wait_for_selector(f"#me-name:has-text({brother!r})")
    await asha.page.click("#switch")  # ...and back: this browser holds both
    await asha.page.click(f"#known-members button:text-is({'Continue as ' + asha.name!r})")
    await asha.page.wait_for_selector(f"#me-name:text-is({'You are ' + asha.name!r})")
    assert asha.errors == []


async def test_the_newest_message_stays_in_view_unless_scrolled_up_and_the_command_list_scrolls(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """In a short window: the game's messages follow the newest unless she scrolls up, its end
    included (the rematch it offers: test_a_second_member_takes_a_seat_from_the_card_and_a_rematch
    _opens_for_both); the command list, longer than its box, scrolls with a cue and reaches every
    sub-command."""
    table = shared_table
    asha = regular
    await regulars.carry_on(asha, table, named("newest"), viewport={"width": 900, "height": 560})
    await asha.manual()
    await asha.command(START)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    thread = asha.page.url
    for _ in range(3):
        turn = await asha.turn()
        await asha.click(turn["id"])
        await asha.wait_gone(turn["id"])
        await asha.page.wait_for_function(NEWEST_IN_VIEW)  # the next turn in view, by itself
    await asha.page.wait_for_function(OVERFLOWING)  # room to scroll: a short list stays pinned
    await asha.page.hover("#messages")
    await asha.page.mouse.wheel(0, -3000)  # she scrolls up to read
    await asha.page.wait_for_function("() => document.querySelector('#messages').scrollTop === 0")
    await say(table, int(thread.rsplit("/", 1)[1]), "still here?")  # a new message meanwhile
    await asha.page.wait_for_selector("#new-messages:not([hidden])")
    assert not await newest_in_view(asha)
    await asha.page.click("#new-messages")
    await asha.page.wait_for_function(NEWEST_IN_VIEW)
    await asha.command("/pachisi resign")  # the game's end (two players: hers concedes it)...
    await asha.page.locator("#messages button:has-text('Resign'):not([disabled])").last.click()
    await asha.message_with(RESIGNED).first.wait_for()  # "Yellow wins by resignation: ..."
    await asha.page.wait_for_function(NEWEST_IN_VIEW)  # ...in view as well
    await command_list_scrolls(asha, table)
    assert asha.errors == []


async def command_list_scrolls(asha: Tab, table: LocalTable) -> None:
    """`/pachisi ` typed: every sub-command listed, more than fit with a cue, the last one reached
    by the keyboard, scrolled into sight, and taken."""
    assert table.guild is not None
    command = next(iter(table.server.commands[table.guild.id].values()))
    subs = [o["name"] for o in command["options"]]
    await asha.page.fill("#box", "/pachisi ")
    await asha.page.wait_for_function(
        f"() => document.querySelectorAll('#suggestions li').length === {len(subs)}"
    )
    await asha.page.wait_for_selector("#suggestions-more:not([hidden])")  # more than fits
    await asha.page.press("#box", "ArrowUp")  # the last one, scrolled into sight
    last = asha.page.locator("#suggestions li").last
    assert await last.get_attribute("aria-selected") == "true"
    assert subs[-1] in await last.inner_text()
    inside = """() => { const list = document.querySelector('#suggestions').getBoundingClientRect();
        const item = document.querySelector('#suggestions li:last-child').getBoundingClientRect();
        return item.top >= list.top && item.bottom <= list.bottom + 1; }"""
    assert await asha.page.evaluate(inside)
    await asha.page.wait_for_selector("#suggestions-more", state="hidden")
    await asha.page.press("#box", "Enter")  # takes it
    assert await asha.page.input_value("#box") == f"/pachisi {subs[-1]} "


async def say(table: LocalTable, channel: int, text: str) -> None:
    """A message in `channel` from the bot's side (someone else's words arriving)."""
    from localdiscord.objects import API

    headers = {"Authorization": f"Bot {table.server.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{table.server.url}{API}/channels/{channel}/messages"
        async with http.post(url, json={"content": text}, headers=headers) as response:
            assert response.status == 200


RESIGNED = re.compile(r"wins? by resignation")
"""A resigned game's headline in English."""
NEWEST_IN_VIEW = """() => {
    const list = document.querySelector('#messages');
    const last = list.lastElementChild;
    if (!last) return true;
    const box = list.getBoundingClientRect(), item = last.getBoundingClientRect();
    return item.bottom <= box.bottom + 2 && item.bottom >= box.top;
}"""

OVERFLOWING = """() => {
    const list = document.querySelector('#messages');
    const pictures = [...list.querySelectorAll('img')];
    return pictures.every((img) => img.complete) && list.scrollHeight - list.clientHeight > 200;
}"""
"""The list's pictures are loaded and it is taller than its box: scrolling up leaves the bottom."""


async def newest_in_view(tab: Tab) -> bool:
    return bool(await tab.page.evaluate(NEWEST_IN_VIEW))


async def test_a_second_member_takes_a_seat_from_the_card_and_a_rematch_opens_for_both(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """At a table that speaks Hindi, Asha's language: Bala takes the computer's seat with the table
    card's button in the channel, and sees the game's thread as she does (the card's words:
    tests/table/transcripts/hi.txt; a seat taken from the thread's offer: test_page_slips.py). Her
    resignation ends the game (two players), the result in her language; the table's card in the
    channel leads back to the thread and offers a rematch, which calls him in too. (A whole game
    clicked to its win on the page: test_page_access.py, by the keyboard; a game's course to its
    end in each language: tests/table.)"""
    locale = "hi"
    words_of = lang(locale)
    bala = regular  # (the module's member)
    channel = "# " + await regulars.carry_on(bala, shared_table, named("rematch"))
    asha = await member(browser, shared_table.url, named("Asha"), locale)
    await asha.open_channel(channel)
    await asha.manual()
    await asha.command(START)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")  # her new table's thread opens
    thread = asha.page.url
    await asha.turn()
    take = f"#messages button:has-text({words_of.gettext('Take a seat')!r}):not([disabled])"
    await bala.page.locator(take).last.click()  # the newest card: Asha's
    await bala.page.wait_for_selector(f"#messages li.message:has-text({bala.name!r})")
    await bala.open_thread(await asha.thread_name())
    for tab in (asha, bala):  # the thread's news of his seat
        await tab.page.wait_for_selector(f"#messages li.message:not(.ephemeral):has-text({bala.name!r})")
    boards = "(i) => i.map((x) => x.src)"
    bala_boards = await bala.page.locator("#messages img.picture").evaluate_all(boards)
    asha_boards = await asha.page.locator("#messages img.picture").evaluate_all(boards)
    assert bala_boards and bala_boards[-1] == asha_boards[-1]
    assert await asha.page.inner_text("#channel-name") == await bala.page.inner_text("#channel-name")
    assert bala.page.url == thread
    await asha.command("/pachisi resign")
    resign = f"#messages button:has-text({words_of.gettext('Resign')!r}):not([disabled])"
    await asha.page.locator(resign).last.click()
    await asha.message_with(resigned(locale)).first.wait_for()  # the result, in her language
    name = await bala.page.inner_text("#channel-name")
    await asha.open_channel(channel)
    rematch = f"button:has-text({words_of.gettext('Rematch')!r})"
    card = asha.message_with(asha.name).filter(has=asha.page.locator(rematch)).last
    await card.wait_for()
    await asha.page.locator("#messages a.mention").last.click()  # "Playing in #<thread>": hers, the newest
    await asha.page.wait_for_function("(url) => location.href === url", arg=thread)
    await asha.open_channel(channel)
    await card.locator(f"{rematch}:not([disabled])").click()
    await asha.page.wait_for_function("(old) => location.href !== old", arg=thread)
    new_table = "([old, name]) => location.href !== old && document.querySelector('#channel-name').textContent === name"
    called = [thread, f"{name} 2"]  # Asha's second table off the channel: numbered
    for _ in range(20):  # her throws (a grace throw is hers again) until the table calls Bala in
        if await bala.page.evaluate(new_table, called):
            break
        turn = await asha.turn()
        if await asha.names_me(turn["message"]):
            await asha.click(turn["id"])
            await asha.wait_gone(turn["id"])
        await bala.page.wait_for_timeout(200)
    for tab in (asha, bala):  # Bala, still at the old table, is taken to the new one when called in
        await tab.page.wait_for_function(new_table, arg=called)
    assert asha.page.url == bala.page.url
    assert asha.errors == bala.errors == []
