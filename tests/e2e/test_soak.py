"""Soak: the bot is SIGKILLed again and again while members play in several channels, game after
game. The kills go through every kind of moment a process can die at (KILL_POINTS), each hit once:
while it starts, as it resumes its games, while it answers a member, exactly after a turn's post
reached Discord and before the bot heard back, and at a random moment of play."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT, BotProcess, Member, Reply
from tests.support.processes import (
    BOT_READY,
    POLL_SECONDS,
    TEST_SETTINGS,
    bot_env,
    check_move_log,
    running_bot,
    stored_games,
)
from tests.support.table import (
    Table,
    is_final,
    live_buttons,
    play_out,
    to_move,
    turn_or_end,
    turn_state,
    wait_for_turn_or_end,
)

KILL_POINTS = ("resuming", "starting", "answering", "after a post", "playing")
"""Where in its life the bot is killed: just after it said it was ready (it resumes its games,
computers play); connected but not yet ready (discord.py waits for its guilds); while a member's
click or command is being answered (sent to it, not answered); a turn's post carried out by Discord
but never answered to the bot; a random moment up to PLAYING_WINDOW seconds into play. The last
kill comes as a game has ended (its result shown), so that the kills span a game's end and the next
one's start too."""
SCHEDULE = [*KILL_POINTS, "a game ended"]
"""Each kind of moment once, each kill a restart (the soak's time is the restarts'). Removing the
retirement of orphaned turn messages on resume (bot/table/resume.py) fails the soak at this count,
as it did with each kind hit twice and at 50 random kills."""
STARTING_TRIES = 3
"""A kill meant to come while the bot starts may, on a slow machine, find it ready already (then it
is one more kill as it resumes): it is tried again, up to this often, until one hits the start."""
PLAYING_WINDOW = 0.8
STARTING_WINDOW = "0.5"
"""GUILD_READY_SECONDS of a start the "starting" kill comes to: the time between its connection and
its ready, where that kill must land. The other starts wait a tenth of a second, as in the other
tests."""
TURN_WAIT = 3 * TIMEOUT
"""How long a channel may wait for its next turn: through several kills in a row, each a restart of
the bot, which a machine busy with other tests makes slow (what is checked is that no move is lost
or played twice, not how soon)."""


@dataclass
class Seating:
    """Who plays in a channel, and how its games start: the first member starts, the second joins;
    with `leaves`, the starter leaves at once and the computers play the game out by themselves."""

    members: list[Member]
    start: dict[str, Any]
    second_seat: str | None = None
    leaves: bool = False


async def until_answered(fake: FakeDiscord, bot: BotProcess, send: Callable[[], Awaitable[Reply]]) -> Reply:
    """Send a command until the bot answers it: again when Discord gave up on it or the bot was
    killed before answering, as a member would."""
    while True:
        reply = await send()
        starts = bot.starts

        def settled(reply: Reply = reply, starts: int = starts) -> bool:
            return reply.done or fake.expired(reply) or bot.starts > starts

        await fake.wait_until(settled, timeout=TURN_WAIT, what="the answer, or the command lost")
        if reply.done:
            return reply


async def play_turns(table: Table, members: list[Member], rng: random.Random, bot: BotProcess) -> None:
    """Play this channel's human turns by buttons until the game ends. A click Discord gave up on, or
    one made to a process killed since, is made again on the turn as it then stands."""
    while not is_final(message := await wait_for_turn_or_end(table, timeout=TURN_WAIT)):
        before = turn_state(table.channel)
        labels = [b.label or "" for b in live_buttons(message)]
        member = await to_move(table, message, members)
        if member is None or turn_state(table.channel) != before:
            # The stored game is past this message (a restarted bot plays on and will show it), or
            # the turn moved on while it was read: look again shortly.
            await asyncio.sleep(POLL_SECONDS)  # the bot will show the game as it stands
            continue
        reply = await member.click(
            message, "Throw" if labels == ["Throw"] else rng.choice(labels), wait=False
        )
        starts = bot.starts

        def settled(reply: Reply = reply, before: object = before, starts: int = starts) -> bool:
            moved_on = turn_or_end(table.channel, before) is not None
            return moved_on or table.fake.expired(reply) or bot.starts > starts

        await table.fake.wait_until(settled, timeout=TURN_WAIT, what="the next turn, or the click lost")


async def keep_playing(
    table: Table, seating: Seating, rng: random.Random, bot: BotProcess, played: list[tuple[Table, Seating]]
) -> None:
    """Game after game, each in a channel of its own (listed in `played`), until cancelled: the bot
    never runs out of games to lose moves of."""
    first, *others = seating.members
    for round_ in itertools.count(1):
        played.append((table, seating))
        channel = table.channel
        start = functools.partial(first.slash, channel, "pachisi start", wait=False, **seating.start)
        await until_answered(table.fake, bot, start)
        await wait_for_turn_or_end(table, timeout=TURN_WAIT)
        if seating.second_seat:
            join = functools.partial(
                others[0].slash, channel, "pachisi join", wait=False, seat=seating.second_seat
            )
            await until_answered(table.fake, bot, join)
        if seating.leaves:
            leave = functools.partial(first.slash, channel, "pachisi leave", wait=False)
            await until_answered(table.fake, bot, leave)
        await play_turns(table, seating.members, rng, bot)
        table = replace(table, channel=table.guild.add_text_channel(f"{channel.name.split('.')[0]}.{round_}"))


async def stop(drivers: list[asyncio.Task[None]]) -> None:
    """Cancel the drivers and wait until they stopped; one that failed before fails the test."""
    for task in drivers:
        task.cancel()
    _, running = await asyncio.wait(drivers, timeout=TIMEOUT)
    assert not running, "a driver did not stop when cancelled"
    for task in drivers:
        if not task.cancelled() and (error := task.exception()) is not None:
            raise error


def answering(fake: FakeDiscord, since: float) -> bool:
    """A member's interaction, sent since `since`, waits for the bot's answer."""
    return any(not i.done.is_set() and i.created > since for i in fake.server.interactions.values())


def still_coming(fake: FakeDiscord, since: float) -> bool:
    """A command or click sent to the running process since `since` may still act: not answered,
    and Discord has not given up on it. (A start a driver sent just before it was stopped opens a
    game after it, which then must be played out too.)"""
    limit = fake.server.interaction_timeout or 0.0
    now = asyncio.get_running_loop().time()
    return any(
        not i.done.is_set()
        and i.created > since
        and (i.callback_type is not None or now - i.created <= limit)
        for i in fake.server.interactions.values()
    )


async def kill_point(
    fake: FakeDiscord, bot: BotProcess, point: str, rng: random.Random, game_ended: Callable[[], bool]
) -> str:
    """Wait for the moment `point` names, and return what was seen there (what the kill hit)."""
    if point == "a game ended":
        await fake.wait_until(game_ended, timeout=TURN_WAIT, what="a game's end")
        return point
    if point == "after a post":
        hold = fake.hold_next("POST", "/channels/{c}/messages")
        await fake.wait_until(hold.reached.is_set, timeout=TURN_WAIT, what="a post")
        return point
    if point == "starting":
        return "starting" if BOT_READY not in bot.output(since_start=True) else "ready already"
    await bot.wait_for_output(BOT_READY, timeout=TURN_WAIT)
    if point == "answering":
        since = asyncio.get_running_loop().time()  # sent to this process, now it is connected
        await fake.wait_until(lambda: answering(fake, since), timeout=TURN_WAIT, what="an answer due")
    elif point == "playing":
        await asyncio.sleep(rng.uniform(0.0, PLAYING_WINDOW))  # time itself: a random moment to kill
    return point


@pytest.mark.slow
async def test_kills_at_every_kind_of_moment_lose_no_move_and_play_no_turn_twice(
    fake: FakeDiscord, database_url: str
) -> None:
    rng = random.Random(2026)
    guild = fake.add_guild("Soak club")
    alice, bob, carol = guild.add_member("Alice"), guild.add_member("Bob"), guild.add_member("Carol")
    seatings = [
        Seating([alice], {"players": 2, "pieces": 1, "level": "easy"}),
        Seating([alice, bob], {"players": 2, "pieces": 1, "level": "easy"}, "yellow"),
        Seating([carol], {"players": 4, "pieces": 1, "level": "easy"}),
        Seating([bob, carol], {"players": 4, "pieces": 1, "level": "random"}, "red"),
        Seating([alice], {"players": 2, "pieces": 1, "level": "easy"}, leaves=True),
    ]
    played: list[tuple[Table, Seating]] = []
    hit: Counter[str] = Counter()
    async with running_bot(fake, bot_env(fake, database_url)) as bot:
        drivers = []
        for n, seating in enumerate(seatings):
            channel = guild.add_text_channel(f"games-{n}")
            table = Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]
            drivers.append(asyncio.create_task(keep_playing(table, seating, random.Random(n), bot, played)))
        loop = asyncio.get_running_loop()
        slowest_start = 0.0
        connected = loop.time()
        kills = 0
        try:
            for index, point in enumerate(SCHEDULE):
                for _ in range(STARTING_TRIES if point == "starting" else 1):
                    seen = await kill_point(fake, bot, point, rng, lambda: len(played) > len(seatings))
                    hit[seen] += 1
                    await bot.kill()
                    kills += 1
                    fake.server.release_holds()  # after the kill: the bot never hears back
                    upcoming = point if seen != point else next(iter(SCHEDULE[index + 1 :]), None)
                    bot.child.env["GUILD_READY_SECONDS"] = (
                        STARTING_WINDOW if upcoming == "starting" else TEST_SETTINGS["GUILD_READY_SECONDS"]
                    )
                    started = loop.time()
                    await bot.start(ready=False)  # connected: the next kill may come before it is ready
                    connected = loop.time()
                    slowest_start = max(slowest_start, connected - started)
                    if seen == point:
                        break
        finally:
            await stop(drivers)
        await fake.wait_until(lambda: not still_coming(fake, connected), what="the last commands' answers")
        assert all(hit[point] >= 1 for point in SCHEDULE), hit  # every kind of moment was hit
        assert hit["a game ended"] == 1, hit  # a channel finished a game during the kills
        assert bot.starts == kills + 1
        # Every game left can be finished, by the same members, after all that.
        with_a_game = {game.snapshot.channel_id for game in await stored_games(database_url)}
        for table, seating in played:
            if table.channel.id not in with_a_game:
                continue  # the kills ended before its start was answered
            try:
                final = await play_out(table, seating.members, by="buttons")
            except (TimeoutError, AssertionError):
                last = table.channel.last_message()
                print("last message:", last and (last.content, last.buttons))
                print(bot.output()[-6000:])
                raise
            assert "Throws:" in final.content
        stale = [  # a finished game's table card (in its channel: no threads here) offers the rematch
            m.id
            for t, _ in played
            for m in t.channel.messages
            if any(
                not b.disabled and not (b.custom_id or "").startswith("pachisi:rematch:") for b in m.buttons
            )
        ]
        shown = [
            (m.content[:80], [b.custom_id for b in m.buttons])
            for t, _ in played
            for m in t.channel.messages
            if m.id in stale
        ]
        assert stale == [], f"finished games' messages with live buttons: {shown}"
    games = await stored_games(database_url)
    for game in games:
        check_move_log(game)  # each throw once, numbered in order, replaying to the stored position
        assert game.snapshot.status == "finished", f"game {game.snapshot.id} is {game.snapshot.status}"
    moves = sum(len(game.moves) for game in games)
    print(
        f"soak: kills={kills} {dict(hit)} games={len(games)} throws={moves} lost=0 doubled=0 "
        f"stale_buttons=0 slowest_start={slowest_start:.1f}s"
    )
