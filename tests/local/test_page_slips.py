"""Slips a fresh look found on the local table's page: Devanagari in every font the page draws
with, notices and hints that go with their throw, a seat taken where the member looks (and the
game watched live by an onlooker), the command named in each viewer's language, and the small
ones (the phone's panel, the moderator box, the name dialog, names that pass for the bot)."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from localdiscord import commandline, words
from localdiscord.members import Members, Refused
from localdiscord.objects import MemberRecord
from localdiscord.server import FakeDiscordServer
from localdiscord.table import LocalTable
from tests.local import axe, regulars
from tests.local.languages import LANGUAGES, lang
from tests.local.tabs import Tab
from tests.support.browser import PHONE

pytestmark = pytest.mark.xdist_group("local-page-slips")
"""One worker runs the module's browser tests: they share its Chromium and table, conftest.py."""

REGULAR = "Veda"
"""The module's member (regulars.py), who carries on from test to test."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def regular(chromium: Any, shared_table: LocalTable) -> AsyncIterator[Tab]:
    async with regulars.regular(chromium, shared_table.url, REGULAR) as tab:
        yield tab


STYLE = Path(__file__).resolve().parents[2] / "localdiscord" / "static" / "style.css"
DEVANAGARI_FACE = "Pachisi Devanagari"


def test_every_font_the_page_names_draws_devanagari() -> None:
    """Each font stack in the style sheet starts with the page's Devanagari font (its
    unicode-range keeps Latin for the next one): no text style shows Hindi as empty boxes."""
    css = re.sub(r"/\*.*?\*/", "", STYLE.read_text(), flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    stacks = []
    for selector, body in rules:
        if selector.strip().startswith("@font-face"):
            continue
        for prop, value in re.findall(r"(font-family|font)\s*:\s*([^;]+)", body):
            if prop == "font" and value.strip() == "inherit":
                continue
            stacks.append((selector.strip(), value))
    assert len(stacks) >= 2  # the body's and inline code's at least
    for selector, value in stacks:
        first = re.search(r'"([^"]+)"', value)
        assert first and first.group(1) == DEVANAGARI_FACE, (selector, value)


def test_a_commands_path_is_named_in_the_members_language() -> None:
    synced = {
        "name": "pachisi",
        "name_localizations": {"hi": "पच्चीसी"},
        "description": "Pachisi",
        "options": [
            {"type": 1, "name": "move", "name_localizations": {"hi": "चलें"}, "description": "a move"},
            {
                "type": 2,
                "name": "tournament",
                "name_localizations": {"hi": "टूर्नामेंट"},
                "description": "t",
                "options": [{"type": 1, "name": "open", "description": "o"}],
            },
            {"type": 3, "name": "note", "description": "not a sub-command"},
        ],
    }
    [hindi] = commandline.localized([synced], "hi")
    assert commandline.paths(hindi) == {
        "pachisi": "पच्चीसी",
        "pachisi move": "पच्चीसी चलें",
        "pachisi tournament": "पच्चीसी टूर्नामेंट",
        "pachisi tournament open": "पच्चीसी टूर्नामेंट open",  # no Hindi name given: its own
    }
    [english] = commandline.localized([synced], "en-US")
    assert commandline.paths(english)["pachisi move"] == "pachisi move"


CHOICES_SOON = "/pachisi start players:2 pieces:4 level:easy rules:start_on_board=2"
"""Two pieces on the board from the start: once one has moved, a throw has two moves (and a Hint),
where from an empty board it takes a grace throw (8 in 64) to have a choice."""
HINT_OFFERED = """() => { const b = [...document.querySelectorAll('#messages button.button:not([disabled])')]
    .find((x) => (x.dataset.customId || '').startsWith('pachisi:hint:')); return b ? b.dataset.customId : null; }"""
"""The custom id of the Hint offered, if one is."""
NOTICES = "#messages li.message.ephemeral"
IN_VIEW = """(sel) => { const list = document.querySelector('#messages').getBoundingClientRect();
    const r = [...document.querySelectorAll(sel)].pop().getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, list.bottom) - Math.max(r.top, list.top)) / r.height; }"""


async def used_fonts(page: Any, selector: str, *, pierce: bool = False) -> list[str]:
    """The fonts Chromium drew the text of the last `selector` with (its own account, not a guess
    from the style); `pierce`: of the text inside it (an input's, in its own shadow tree). The page
    may redraw the node between the query and the question (a message edited meanwhile): then the
    question is asked again of the new node."""
    from playwright.async_api import Error as PlaywrightError

    cdp = await page.context.new_cdp_session(page)
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    for _ in range(10):
        try:
            return await _fonts_of_last(cdp, selector, pierce)
        except PlaywrightError as error:
            if "Could not find node" not in str(error):
                raise
    raise AssertionError(f"{selector} was redrawn at every look")


async def _fonts_of_last(cdp: Any, selector: str, pierce: bool) -> list[str]:
    root = await cdp.send("DOM.getDocument", {"depth": -1, "pierce": pierce})
    found = await cdp.send("DOM.querySelectorAll", {"nodeId": root["root"]["nodeId"], "selector": selector})
    node = found["nodeIds"][-1]
    if pierce:
        described = await cdp.send("DOM.describeNode", {"nodeId": node, "depth": -1, "pierce": True})
        inner = described["node"]["shadowRoots"][0]["children"][0]["backendNodeId"]
        pushed = await cdp.send("DOM.pushNodesByBackendIdsToFrontend", {"backendNodeIds": [inner]})
        node = pushed["nodeIds"][0]
    fonts = await cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})
    return [f["familyName"] for f in fonts["fonts"]]


def synced_name(table: LocalTable, path: str, locale: str) -> str:
    """`path` ("pachisi move") as the bot synced it for `locale` (its own name where none)."""
    node: dict[str, Any] = {
        "options": [c for found in table.server.commands.values() for c in found.values()]
    }
    names = []
    for word in path.split():
        node = next(o for o in node.get("options", []) if o["name"] == word)
        names.append((node.get("name_localizations") or {}).get(locale) or word)
    return "/" + " ".join(names)


async def turn_with_a_choice(tab: Tab) -> None:
    """Throw, and take the only move, until a throw offers a choice (and a Hint)."""
    for _ in range(60):
        turn = await tab.turn()
        if await tab.page.evaluate(HINT_OFFERED):
            return
        await tab.click(turn["id"])
        await tab.wait_gone(turn["id"])
    raise AssertionError("no throw with a choice in 60 turns")


async def test_a_refused_move_and_a_hint_go_with_their_throw_and_the_move_reads_in_devanagari(
    regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """On a phone, in English, then (the same throw) in Hindi: a refused move's notice names the
    command in her language, its Devanagari drawn in the Devanagari font on either page."""
    table = shared_table
    asha = regular  # (the module's member)
    await regulars.carry_on(asha, table, named("refused"), "en-US", PHONE)
    await asha.manual()
    await asha.command(CHOICES_SOON)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await turn_with_a_choice(asha)
    await asha.command("/pachisi move choice:Z")
    await asha.page.locator(NOTICES, has_text="Z").wait_for()
    for locale in LANGUAGES:
        if locale != "en-US":
            await asha.page.select_option("#locale", locale)
            await asha.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
        before = await asha.page.locator(NOTICES).last.get_attribute("data-id")
        await asha.command("/pachisi move choice:क")  # typed in English: named in her language
        newest = asha.page.locator(f"{NOTICES}:not([data-id='{before}'])", has_text="क")
        await newest.wait_for()  # the new notice, in place of the one before
        await asha.page.wait_for_function(f"() => document.querySelectorAll({NOTICES!r}).length === 1")
        used = await newest.locator(".invoked .command").inner_text()
        assert used == synced_name(table, "pachisi move", locale)
        fonts = await used_fonts(asha.page, f"{NOTICES} code")  # the typed "क" echoed in a code span
        assert fonts and set(fonts) == {"Noto Sans Devanagari"}, (locale, fonts)
    assert await asha.page.evaluate(IN_VIEW, "#messages img.picture") > 0.5  # the board in view
    await asha.click(await asha.page.evaluate(HINT_OFFERED))  # the throw's hint, beside the notice
    await asha.page.wait_for_function(f"() => document.querySelectorAll({NOTICES!r}).length === 2")
    turn = await asha.turn()
    await asha.click(turn["id"])  # the throw is played: its notice goes, and its hint (whose letters
    await asha.wait_gone(turn["id"])  # would name other moves) with it
    await asha.page.wait_for_selector(NOTICES, state="detached")
    await asha.page.reload()
    await asha.page.wait_for_selector("#bot-status.online")
    await asha.page.wait_for_selector("#messages img.picture")
    assert await asha.page.locator(NOTICES).count() == 0
    assert asha.errors == []


async def test_a_seat_taken_from_the_offer_is_told_in_the_thread_and_an_onlooker_sees_the_game_live(
    browser: Any, regular: Tab, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """Asha's table speaks Hindi; Bala, an English-speaking stranger with its link, is told so in
    his words, axe-core finds nothing serious in his seat offer (WCAG 2 A/AA), and he takes a seat
    in one click and is not sent anywhere: each reads the news's command in their language (the
    toast's words in English: test_first_hour.py's phone test). Chandra, with the same link,
    watches: the turn Asha plays is played on his page too."""
    table, locale = shared_table, "hi"
    asha = regular  # (the module's member)
    await regulars.carry_on(asha, table, named("offer"), locale)  # her table speaks her language
    await asha.manual()
    await asha.command("/pachisi start players:4 pieces:1 level:easy")
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    await asha.turn()
    link = asha.page.url
    thread = link.rsplit("/", 1)[1]
    bala = await Tab.join(browser, link, named("Bala"), bypass_csp=True)  # (for axe alone)
    await bala.page.locator("#offer[open]").wait_for()
    assert await axe.serious(bala.page) == []  # the seat offer, in English (in Hindi: test_first_hour.py)
    assert await bala.page.inner_text("#channel-name") == await asha.page.inner_text("#channel-name")
    for tab, reader in [(asha, locale), (bala, "en-US")]:  # the table's language, in each one's words
        words_of = lang(reader)
        said = words_of.gettext(
            "This table speaks {language}", language=words_of.pgettext("a table's language", "Hindi")
        )
        await tab.page.wait_for_selector(f"#table-language:text-is({said!r})")
    await bala.page.click("#offer-take")
    news = f"#messages li.message:not(.ephemeral):has(.invoked) .mention:text-is({'@' + bala.name!r})"
    await bala.page.wait_for_selector(news)  # the thread's news, as the answer to what he did there
    heard = time.monotonic()
    await asha.page.wait_for_selector(news)
    assert await bala.page.locator("#messages .invoked .command").last.inner_text() == "/pachisi join"
    shown = await asha.page.locator("#messages .invoked .command").last.inner_text()
    assert shown == synced_name(table, "pachisi join", locale)  # each viewer, their own language
    chandra = await Tab.join(browser, link, named("Chandra"))
    await chandra.page.click("#offer-watch")
    await chandra.page.wait_for_selector("#messages img.picture")
    waited = time.monotonic() - heard
    await bala.page.wait_for_timeout(max(0, 1000 * (1 - waited)))  # (any notice of his seat has come by now)
    assert await bala.page.locator(f'a.mention[href="#channel={thread}"]').count() == 0  # he is there
    assert await bala.page.locator(".message.ephemeral").count() == 0
    everything = "() => document.querySelector('#messages').innerText"
    turn = await asha.turn()
    before = await chandra.page.evaluate(everything)
    await asha.click(turn["id"])
    await asha.wait_gone(turn["id"])
    await chandra.page.wait_for_function(f"(old) => ({everything})() !== old", arg=before)  # live
    await chandra.wait_gone(turn["id"])  # the turn she played is played on his page too
    await asha.page.click("#copy-link")  # the page's own notice covers no message
    toast = await asha.page.locator("#toast:not([hidden])").bounding_box()
    messages = await asha.page.locator("#messages").bounding_box()
    assert toast is not None and messages is not None
    assert toast["y"] >= messages["y"] + messages["height"] - 1
    assert (await asha.page.inner_text("#toast")).startswith(lang(locale).gettext("Link copied: {link}")[:6])
    assert asha.errors == bala.errors == chandra.errors == []


def greet(members: Members, name: str, browser: str, locale: str = "en-US") -> MemberRecord:
    return members.greet({"name": name, "secret": browser * 32, "locale": locale})


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("name", ["pachisi bot", "Pachisi", "PACHISI_BOT", "the pachisi", "Pachisi 2"])
async def test_a_name_with_the_bots_name_among_its_words_is_refused(name: str, locale: str) -> None:
    server = FakeDiscordServer()
    members = Members(server, server.add_guild("Pachisi at home"))
    bot = next(m.user.name for m in members.guild.members.values() if m.user.bot)
    before = dict(members.guild.members)
    with pytest.raises(Refused) as refused:
        greet(members, name, "a", locale)
    assert str(refused.value) == words.looks_like(words.language_of(locale), bot)
    assert members.guild.members == before
    for welcome in ("Pachisiwala", "Asha", "Bala the player"):  # its letters inside a word pass
        assert greet(members, welcome, "a").user.name == welcome


async def on_a_phone(browser: Any, url: str, locale: str) -> Any:
    """A phone's browser in `locale` opening the page: its name dialog asks in that language."""
    words_of = lang(locale)
    page = await (await browser.new_context(viewport=PHONE, locale=locale)).new_page()
    await page.goto(url)
    await page.wait_for_selector(f"html[lang='{words_of.code}']")
    assert await page.inner_text("#join-title") == words_of.gettext("Pick your name")
    assert await page.eval_on_selector("#locale", "(s) => s.value.split('-')[0]") == words_of.code
    return page


async def test_the_phones_panel_closes_like_a_drawer_and_the_name_dialog_says_what_it_does(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """Asha's phone speaks English, her guest's Hindi: the name dialog says what it does in each."""
    table = shared_table
    page = await on_a_phone(browser, table.url, "en-US")
    asha = named("Asha")
    await page.fill("#join-name", asha)
    await page.click("#join-button")
    await page.wait_for_selector("#bot-status.online")
    opened = "body.menu-open"
    await page.click("#menu")
    await page.wait_for_selector(opened)
    await page.mouse.click(PHONE["width"] - 20, PHONE["height"] // 2)  # the dimmed page beside it
    await page.wait_for_selector(opened, state="detached")
    await page.click("#menu")
    await page.wait_for_selector(opened)
    await page.keyboard.press("Escape")
    await page.wait_for_selector(opened, state="detached")
    assert await page.evaluate("document.activeElement.id") == "menu"
    guest = await on_a_phone(browser, table.url, "hi")
    lookalike = "Ａ" + asha[1:]  # a full-width Ａ: refused, and still shown as a letter
    await guest.fill("#join-name", lookalike)
    await guest.click("#join-button")
    await guest.wait_for_selector("#join-error:not([hidden])")
    assert await guest.input_value("#join-name") == lookalike
    assert "Pachisi Fullwidth" in await used_fonts(guest, "#join-name", pierce=True)
    await guest.fill("#join-name", named("Bala"))
    await guest.click("#join-button")
    await guest.wait_for_selector("#bot-status.online")
    await guest.click("#menu")
    await guest.eval_on_selector("#moderator", "(box) => { box.disabled = false; }")  # a tampered page
    await guest.click("#moderator")
    await guest.wait_for_selector("#refused:not([hidden])")
    assert not await guest.is_checked("#moderator") and await guest.is_disabled("#moderator")
    await page.click("#menu")
    for tab, locale in [(guest, "hi"), (page, "en-US")]:
        await tab.click("#switch")
        assert await tab.inner_text("#join-title") == lang(locale).gettext("Play as someone else")
