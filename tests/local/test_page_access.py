"""The page by keyboard and for assistive technology: axe-core's WCAG 2 A/AA check in each state
a member meets (the name dialog, the channel, a game, a finished game, Hindi), and a whole game
played with the keyboard alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from localdiscord.table import LocalTable
from tests.local import axe
from tests.local.tabs import WON, Tab
from tests.support.browser import DESKTOP

pytestmark = pytest.mark.xdist_group("local-page-access")
"""One worker runs the module: its tests share one Chromium (and one table), conftest.py."""

START = "/pachisi start players:2 pieces:1 level:easy"


async def test_axe_finds_nothing_serious_in_any_state_of_the_page(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    table = shared_table
    axe.need_axe()
    found: dict[str, list[dict[str, Any]]] = {}
    context = await browser.new_context(viewport=DESKTOP, bypass_csp=True)  # for axe.min.js alone
    page = await context.new_page()
    await page.goto(table.url)
    await page.wait_for_selector("#join[open]")
    found["name dialog"] = await axe.serious(page)
    asha = Tab(page, named("Asha"))
    await page.fill("#join-name", asha.name)
    await page.click("#join-button")
    await page.wait_for_selector("#bot-status.online")
    await asha.command("/pachisi help")
    await asha.message_with("Only you can see this").locator("img.picture").wait_for()
    found["channel"] = await axe.serious(page)
    await asha.manual()
    await asha.command(START)
    await page.wait_for_selector("#channel-name:has-text('›')")
    await page.wait_for_selector("#messages img.picture")
    await asha.turn()
    found["game"] = await axe.serious(page)
    await asha.play_to_the_end(table.database)
    await asha.message_with(WON).first.wait_for()
    found["finished game"] = await axe.serious(page)
    await page.select_option("#locale", "hi")
    await asha.command("/pachisi help")
    await asha.message_with("पच्चीसी").first.wait_for()
    found["Hindi"] = await axe.serious(page)
    counts = {state: len(v) for state, v in found.items()}
    print("axe-core serious+critical violations:", counts)
    assert found == {state: [] for state in found}, found


async def test_a_whole_game_is_played_with_the_keyboard_alone(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    table = shared_table
    context = await browser.new_context(viewport=DESKTOP)
    page = await context.new_page()
    await page.goto(table.url)
    await page.wait_for_selector("#join[open]")
    asha = Tab(page, named("Asha"))
    await page.keyboard.type(asha.name)  # the name box has the focus
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#bot-status.online")
    await asha.focus_by_keyboard("el.id === 'box'", key="Tab")
    await page.keyboard.type("/pachisi auto mode:off")
    await page.keyboard.press("Enter")
    await asha.message_with("Only you can see this").first.wait_for()
    await page.keyboard.type(START)
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#channel-name:has-text('›')")
    assert await asha.play_to_the_end(table.database, keyboard=True) > 0
    await asha.message_with(WON).first.wait_for()
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
    assert asha.errors == []
