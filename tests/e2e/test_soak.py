"""Soak: the bot is SIGKILLed 50 times while members play in several channels: at random moments,
and every fifth time exactly after a turn's post reached Discord and before the bot heard back."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from localdiscord.driver import Member
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.helpers import (
    REPO_ROOT,
    Table,
    bot_argv,
    bot_env,
    check_move_log,
    is_final,
    live_buttons,
    play_out,
    player_to_move,
    stored_games,
    turn_state,
    wait_for_turn_or_end,
)

KILLS = 50
AFTER_A_POST = 5
"""Every AFTER_A_POST-th kill waits for a turn's post to reach the fake, which never answers it."""


async def keep_playing(table: Table, members: list[Member], rng: random.Random) -> None:
    """Play this channel's human turns by buttons until the game ends; the bot may be dead at any
    moment, so every wait is short and a click that got no answer is simply made again."""
    while True:
        try:
            message = await wait_for_turn_or_end(table, timeout=2)
            if is_final(message):
                return
            member = player_to_move(message, members)
            before = turn_state(table.channel)
            labels = [b.label or "" for b in live_buttons(message)]
            await member.click(message, "Throw" if labels == ["Throw"] else rng.choice(labels), wait=False)
            await wait_for_turn_or_end(table, after=before, timeout=2)
        except (TimeoutError, LookupError, ValueError):
            await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_fifty_kills_lose_no_move_and_play_no_turn_twice(fake: FakeDiscord, database_url: str) -> None:
    rng = random.Random(2026)
    guild = fake.add_guild("Soak club")
    alice, bob, carol = guild.add_member("Alice"), guild.add_member("Bob"), guild.add_member("Carol")
    setups: list[tuple[list[Member], dict[str, Any], str | None]] = [
        ([alice], {"players": 2, "pieces": 1, "level": "easy"}, None),
        ([alice, bob], {"players": 2, "pieces": 1, "level": "easy"}, "yellow"),
        ([carol], {"players": 4, "pieces": 1, "level": "easy"}, None),
        ([bob, carol], {"players": 4, "pieces": 1, "level": "random"}, "red"),
    ]
    tables = []
    async with (
        asyncio.timeout(900),  # a safety net: 51 starts take minutes on a loaded machine
        fake.process(bot_argv(), env=bot_env(fake, database_url), cwd=str(REPO_ROOT)) as bot,
    ):
        for n, (members, start, second_seat) in enumerate(setups):
            channel = guild.add_text_channel(f"games-{n}")
            table = Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]
            await members[0].slash(channel, "pachisi start", **start)
            await wait_for_turn_or_end(table)
            if second_seat:
                await members[1].slash(channel, "pachisi join", seat=second_seat)
            tables.append(table)
        drivers = [
            asyncio.create_task(keep_playing(table, members, random.Random(n)))
            for n, (table, (members, _, _)) in enumerate(zip(tables, setups, strict=True))
        ]
        try:
            held = 0
            for n in range(KILLS):
                if n % AFTER_A_POST == AFTER_A_POST - 1:
                    hold = fake.hold_next("POST", "/channels/{c}/messages")
                    with contextlib.suppress(TimeoutError):
                        await fake.wait_until(hold.reached.is_set, timeout=5, what="a post")
                        held += 1
                else:
                    await asyncio.sleep(rng.uniform(0.0, 0.8))
                await bot.kill()
                fake.server.release_holds()  # after the kill: the bot never hears back
                await bot.start(timeout=90)  # a loaded machine can take more than 30 s
        finally:
            for task in drivers:
                task.cancel()
            for task in drivers:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        assert bot.starts == KILLS + 1
        assert held >= KILLS // AFTER_A_POST // 2, f"only {held} kills came right after a post"
        # Every game left can be finished, by the same members, after all that.
        for table, (members, _, _) in zip(tables, setups, strict=True):
            try:
                final = await play_out(table, members, by="buttons")
            except (TimeoutError, AssertionError):
                last = table.channel.last_message()
                print("last message:", last and (last.content, last.buttons))
                print(bot.output()[-6000:])
                raise
            assert "Throws:" in final.content
        stale = [m.id for t in tables for m in t.channel.messages if any(not b.disabled for b in m.buttons)]
        assert stale == [], f"finished games' messages with live buttons: {stale}"
    games = await stored_games(database_url)
    assert len(games) == len(setups)
    for game in games:
        check_move_log(game)  # each throw once, numbered in order, replaying to the stored position
        assert game.view.status == "finished", f"game {game.view.id} is {game.view.status}"
    moves = sum(len(game.moves) for game in games)
    print(
        f"soak: kills={KILLS} after_a_post={held} games={len(games)} throws={moves} lost=0 doubled=0 stale_buttons=0"
    )
