"""The turn timer plays for an absent member; Discord's rate limits delay posts but lose none."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from tests.support.processes import check_move_log, stored_games
from tests.support.table import (
    MovableClock,
    Table,
    click_until_acknowledged,
    live_buttons,
    time_passes,
    turn_state,
    wait_for_turn_or_end,
)


async def test_a_missed_turn_is_forgiven_when_the_member_comes_back(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    clock = MovableClock()
    async with start_table(clock=clock, turn_timeout_seconds=60) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        game = await time_passes(table, clock, 61, then=lambda g: g.snapshot.seats[0].missed == 1)
        assert game.snapshot.seats[0].user_id == table.alice.id  # one miss: still Alice's seat
        await table.fake.wait_until(
            lambda: "(time ran out)" in "\n".join(m.content for m in table.channel.messages),
            what="the turn the timer played, told",
        )
        for _ in range(10):  # she comes back: her next throw played (with its move, if any)
            message = await wait_for_turn_or_end(table)
            before = turn_state(table.channel)
            label = live_buttons(message)[0].label or ""
            await click_until_acknowledged(table, table.alice, message, label, before)
            [game] = await stored_games(table.database_url)
            if any(m.actor_id == table.alice.id for m in game.moves):
                break
    check_move_log(game)
    assert game.snapshot.seats[0].user_id == table.alice.id and game.snapshot.seats[0].missed == 0
    assert any(m.actor_id == table.alice.id for m in game.moves)


COUNTDOWN = re.compile(r"<t:\d+:R>")
"""Discord's self-updating relative time ("in 2 minutes", later "12 minutes ago")."""


async def test_only_the_live_turn_message_counts_down(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    """A message whose turn is over keeps no countdown: the reminder at half time is the turn
    itself moved to a new message, closed with the turn (a reminder of its own kept "time runs
    out 12 minutes ago" once the turn was played)."""
    clock = MovableClock()
    async with start_table(clock=clock, turn_timeout_seconds=60) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=4, level="easy")
        first = await wait_for_turn_or_end(table)
        assert COUNTDOWN.search(first.content)
        await time_passes(table, clock, 31, then=lambda g: True)
        await table.fake.wait_until(
            lambda: any(
                f"<@{table.alice.id}>" in m.content for m in table.channel.messages if m.id > first.id
            ),
            what="the reminder at half time",
        )
        before = turn_state(table.channel)
        message = await wait_for_turn_or_end(table)
        await click_until_acknowledged(
            table, table.alice, message, live_buttons(message)[0].label or "", before
        )
        live = await wait_for_turn_or_end(table, after=before)
        counting = [m.id for m in table.channel.messages if COUNTDOWN.search(m.content)]
        assert counting in ([], [live.id]), [m.content for m in table.channel.messages]
