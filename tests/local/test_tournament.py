"""A small tournament on the local table in a real browser: the table's runner (a moderator from
the start) opens it with the command box, another member may not, both sign up with the card's
Join button, the organizer starts it, each member finds their table's thread, where the first to
move throws and then resigns (how long a game plays is not the tournament's part; whole games
played by clicks are test_table.py's and test_page_access.py's), and every page shows the final
standings' picture and the podium. Two entrants, the fewest an event starts with: one table shows
all the page does (events of several tables, their pairings and rounds: tests/table/
test_tournaments.py; a Swiss of seven through the stand-in: tests/e2e/test_tournaments.py)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from localdiscord.table import LocalTable
from tests.local.conftest import RUNNER
from tests.local.tabs import Tab

pytestmark = pytest.mark.xdist_group("local-tournament")
"""One worker runs the module: it shares the worker's Chromium and table, conftest.py."""

OPEN = "/pachisi tournament open name:Cup rounds:1 players:2 pieces:1 level:easy"
SCREENSHOT = os.environ.get("PACHISI_TOURNAMENT_SCREENSHOT")
"""Where to save the organizer's page at the end (the picture in docs/TOURNAMENTS.md)."""


async def test_two_members_play_a_tournament_to_its_podium(
    browser: Any, shared_table: LocalTable, named: Callable[[str], str]
) -> None:
    table = shared_table
    assert table.guild is not None  # a channel of its own: other tests' posts do not pace its writes
    channel = "# " + table.server.add_channel(table.guild, named("cup").replace(" ", "-")).name
    asha = await Tab.join(browser, table.url, named("Asha"), secret=RUNNER)  # she runs the table
    bala = await Tab.join(browser, table.url, named("Bala"))
    for tab in (asha, bala):
        await tab.open_channel(channel)
    await bala.command(OPEN)
    refused = bala.message_with("Only a member who may manage the server")
    await refused.wait_for()  # not the table's runner: refused, only to him
    await asha.command(OPEN)
    card = asha.message_with("organized by")
    await card.wait_for()
    tabs = [asha, bala]
    for tab in tabs:
        await tab.message_with("organized by").locator("button:has-text('Join')").click()
        await tab.message_with("You are in the tournament Cup").wait_for()
    await asha.message_with("2 entrants").wait_for()  # the card, edited for each join
    await asha.command("/pachisi tournament start")
    await asha.page.wait_for_selector("#channel-name:has-text('›')")  # her table's thread opens
    await asyncio.gather(*(play_own_game(tab) for tab in tabs))
    for tab in tabs:
        await tab.open_channel(channel)
        await tab.message_with("Congratulations to the podium").wait_for()
        final = tab.message_with("final standings")
        await final.wait_for()
        assert await final.locator("img.picture").count() == 1  # the standings' picture
    tables = asha.page.locator("#channels button.thread", has_text="Cup: round 1, table")
    assert await tables.count() == 1  # the table's thread
    if SCREENSHOT:
        await asha.message_with("final standings").scroll_into_view_if_needed()
        await asha.page.screenshot(path=str(Path(SCREENSHOT)))
    assert all(tab.errors == [] for tab in tabs)


async def play_own_game(tab: Tab) -> None:
    """The member finds the thread of the table (its first message names them, the first side
    first: Black, who moves first). That one throws, then resigns: the other wins."""
    await tab.open_thread("Cup: round 1, table 1")
    welcome = tab.message_with(" vs ").first  # the table's first message, who plays whom
    said = await welcome.locator(".body").inner_text()
    assert f"@{tab.name}" in said, said
    if said.index(f"@{tab.name}") > said.index(" vs "):
        return  # the second side: the first one's resignation ends the game
    turn = await tab.turn()
    assert await tab.names_me(turn["message"]), said
    await tab.click(turn["id"])
    await tab.wait_gone(turn["id"])
    await tab.command("/pachisi resign")
    await tab.page.locator("#messages button:has-text('Resign'):not([disabled])").last.click()
