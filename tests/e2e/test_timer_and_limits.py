"""The turn timer plays for an absent member; Discord's rate limits delay posts but lose none."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from tests.support.processes import check_move_log, stored_games
from tests.support.table import (
    WHOLE_GAME,
    MovableClock,
    Table,
    click_until_acknowledged,
    final_message,
    is_final,
    live_buttons,
    play_out,
    time_passes,
    turn_state,
    wait_for_turn_or_end,
)


async def test_the_computer_plays_for_an_absent_member_and_takes_the_seat_after_three_misses(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    clock = MovableClock()
    async with start_table(clock=clock, turn_timeout_seconds=60) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        for missed in (1, 2):
            game = await time_passes(
                table, clock, 61, then=lambda g, m=missed: g.snapshot.seats[0].missed == m
            )
            assert game.snapshot.seats[0].user_id == table.alice.id
        await time_passes(table, clock, 61, then=lambda g: g.snapshot.seats[0].user_id is None)
        final = await table.fake.wait_until(
            lambda: final_message(table.channel),
            timeout=WHOLE_GAME,  # the computers play the whole game
            what="the game played out without Alice",
        )
        [game] = await stored_games(table.database_url)
    check_move_log(game)
    black = [m for m in game.moves if m.seat == 0]
    assert [m.by_timer for m in black[:3]] == [True, True, True]
    assert all(m.actor_id is None for m in game.moves)
    assert not any(m.by_timer for m in black[3:])  # after three misses the computer owns the seat
    assert "(time ran out)" in "\n".join(m.content for m in table.channel.messages)
    assert "Throws:" in final.content


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
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
        [game] = await stored_games(table.database_url)
    check_move_log(game)
    assert game.snapshot.seats[0].user_id == table.alice.id and game.snapshot.seats[0].missed == 0
    assert any(m.actor_id == table.alice.id for m in game.moves)


async def test_rate_limited_posts_are_delayed_not_lost(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
    await wait_for_turn_or_end(table)
    before = turn_state(table.channel)
    table.fake.fail_next("POST", "/channels/{c}/messages", status=429, retry_after=0.2, times=3)
    await table.alice.slash(table.channel, "pachisi throw")  # typed: the turn is posted anew
    await wait_for_turn_or_end(table, after=before)
    # A click is answered through its interaction: what follows the computers' turns is an edit of
    # that answer, and the result its followup (webhook routes, with rate limits of their own).
    table.fake.fail_next("PATCH", "/webhooks/{a}/{t}/messages/{m}", status=429, retry_after=0.2, times=2)
    table.fake.fail_next("POST", "/webhooks/{a}/{t}", status=429, retry_after=0.2, times=1)
    final = await play_out(table, [table.alice], by="buttons")
    assert "Throws:" in final.content
    limited = [r for r in table.fake.server.requests if r.status == 429]
    assert len(limited) == 6
    [game] = await stored_games(table.database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    # Every post that was refused got through on a retry: one stored message per accepted post.
    posted = [r for r in table.fake.server.requests if r.method == "POST" and r.path.endswith("/messages")]
    accepted = [r for r in posted if r.status == 200]
    assert len(posted) == len(accepted) + 3
    assert len(accepted) == len([m for m in table.channel.messages if m.interaction_id is None])


async def test_a_solo_game_goes_on_past_the_hour_within_discords_limits(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    """Posts and edits through the channel are limited (5 per 5 s each); a message over an hour
    old takes only a few more edits (30046). A member's clicks are answered through their own
    interactions, and the turn moves to a new message before its message grows old."""
    clock = MovableClock()
    # Turns time out after a day: the hours that pass here are spent playing, not waiting.
    async with start_table(
        clock=clock, default_auto_throw=True, default_thread=False, turn_timeout_seconds=86_400
    ) as table:
        table.fake.enforce_message_limit(5, 5.0)
        await table.alice.slash(table.channel, "pachisi start", players=2, level="easy")
        message = await wait_for_turn_or_end(table)
        rng, clicks, first = random.Random(3), 0, message.id
        while not is_final(message):
            if clicks in (3, 6):  # an hour goes by, for Discord and for the bot
                clock.advance(3700)
                table.fake.advance_clock(3700)
            before = turn_state(table.channel)
            label = rng.choice([b.label or "" for b in live_buttons(message)])
            message = await click_until_acknowledged(table, table.alice, message, label, before)
            clicks += 1
        server = table.fake.server
        assert server.old_message_refusals == 0 and server.rate_limited == 0
        assert message.id != first  # the turn moved on to newer messages
        channel_writes = [
            r for r in server.requests if r.path.startswith("/channels/") and r.method in ("POST", "PATCH")
        ]
        # The start, a new turn message twice (once an hour), the result; a click costs none.
        assert len(channel_writes) <= 2 + 2 * 2 + 1 < clicks
        [game] = await stored_games(table.database_url)
    check_move_log(game)


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
