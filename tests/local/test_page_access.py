"""The page by keyboard and for assistive technology: a whole game played with the keyboard alone,
and axe-core's WCAG 2 A/AA check in each state it meets (the name dialog, the channel, a game, a
finished game, Hindi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.texts import ENGLISH, answers
from localdiscord.table import LocalTable
from tests.local import axe
from tests.local.tabs import WON, Tab
from tests.support.browser import DESKTOP

pytestmark = pytest.mark.xdist_group("local-page-access")
"""One worker runs the module: its tests share one Chromium (and one table), conftest.py."""

START = "/pachisi start players:2 pieces:1 level:easy"


async def test_a_whole_game_is_played_with_the_keyboard_alone_and_axe_finds_nothing_serious(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    """axe-core is run in each state the game passes: the name dialog, the channel, a game, a
    finished game, and the page in Hindi."""
    table = shared_table
    axe.need_axe()
    found: dict[str, list[dict[str, Any]]] = {}
    context = await browser.new_context(viewport=DESKTOP, bypass_csp=True)  # for axe.min.js alone
    page = await context.new_page()
    await page.goto(table.url)
    await page.wait_for_selector("#join[open]")
    found["name dialog"] = await axe.serious(page)
    asha = Tab(page, named("Asha"))
    assert await page.evaluate("document.activeElement.id") == "join-name"
    await page.keyboard.type(asha.name)  # the name box has the focus
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#bot-status.online")
    await asha.focus_by_keyboard("el.id === 'box'", key="Tab")
    await page.keyboard.type("/pachisi help")
    await page.keyboard.press("Enter")
    await asha.message_with("Only you can see this").locator("img.picture").wait_for()
    found["channel"] = await axe.serious(page)
    await page.keyboard.type("/pachisi auto mode:off")
    await page.keyboard.press("Enter")
    await asha.message_with(answers.auto_throw(ENGLISH, False)).wait_for()
    await page.keyboard.type(START)
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#channel-name:has-text('›')")
    await page.wait_for_selector("#messages img.picture")
    await asha.turn()
    found["game"] = await axe.serious(page)
    assert await asha.play_to_the_end(table.database, keyboard=True) > 0
    await asha.message_with(WON).first.wait_for()
    found["finished game"] = await axe.serious(page)
    thread = page.url
    await asha.focus_by_keyboard(
        "el.classList.contains('channel') && el.textContent === '# pachisi'", key="Tab"
    )
    await page.keyboard.press("Enter")  # the channel, where the table card offers a rematch
    await asha.focus_by_keyboard("el.textContent.includes('Rematch') && !el.disabled")
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        "(old) => location.pathname !== old && document.querySelector('#channel-name')"
        ".textContent.includes('›')",
        arg=thread.removeprefix(table.url),
    )
    await page.select_option("#locale", "hi")
    await asha.command("/pachisi help")
    await asha.message_with("पच्चीसी").first.wait_for()
    found["Hindi"] = await axe.serious(page)
    counts = {state: len(v) for state, v in found.items()}
    print("axe-core serious+critical violations:", counts)
    assert found == {state: [] for state in found}, found
    assert asha.errors == []
