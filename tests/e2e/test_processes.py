"""Several bot processes on one PostgreSQL database, as the README's sharded deployment runs them."""

from __future__ import annotations

import asyncio
import contextlib

from tests.e2e.fakediscord import FakeDiscord
from tests.support.processes import bot_env, bot_process, check_move_log, stored_games
from tests.support.table import (
    WHOLE_GAME,
    Table,
    final_message,
    is_final,
    live_buttons,
    play_out,
    play_turns,
    wait_for_turn_or_end,
)


async def test_processes_started_together_on_an_empty_database_all_start(
    fake: FakeDiscord, postgres_url: str
) -> None:
    """Each process migrates the database at start-up; they must not race in the migrations. Two
    are the race: the schema's lock (`lock_schema`) lets one migrate and sync the commands while
    the other waits and then finds both done, which is what any further process would do. (No
    worker processes: they have no part in the start's race.)"""
    fake.add_guild("Pachisi club").add_text_channel("games")
    bots = [bot_process(fake, bot_env(fake, postgres_url, WORKERS="0")) for _ in range(2)]
    try:
        await asyncio.gather(*(bot.start() for bot in bots))  # each says it is ready, or raises
        for bot in bots:
            assert bot.child.popen is not None and bot.child.popen.poll() is None, bot.output()
            assert "Traceback" not in bot.output(), bot.output()
        assert fake.server.identifies == len(bots)
        syncs = [r for r in fake.server.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == 1, "each process overwrote the same commands"
    finally:
        for bot in bots:
            with contextlib.suppress(Exception):
                await bot.kill()
            bot.log.close()


def shard_env(fake: FakeDiscord, database_url: str, shard: int, **extra: str) -> dict[str, str]:
    return bot_env(fake, database_url, SHARD_COUNT="2", SHARD_IDS=str(shard), **extra)


def guild_table(fake: FakeDiscord, shard: int, database_url: str) -> Table:
    guild = fake.add_guild(f"Shard {shard} club", shard=(shard, 2))
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
    return Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]


GIVE_UP_SECONDS = 0.5
"""Discord's deadline for the click nobody can answer: what is shown is that it fails, not when."""


async def test_two_shard_processes_one_killed_and_replaced(fake: FakeDiscord, postgres_url: str) -> None:
    """Each process gets only its shard's guild; killing one stops only its games, and the new
    process for that shard resumes them while the other guild's game never notices."""
    tables = [guild_table(fake, shard, postgres_url) for shard in (0, 1)]
    first = bot_process(fake, shard_env(fake, postgres_url, 0))
    second = bot_process(fake, shard_env(fake, postgres_url, 1))
    try:
        await asyncio.gather(first.start(), second.start())
        for shard, bot in enumerate((first, second)):
            assert bot.ready_report is not None and f"guilds=1 shards=[{shard}]" in bot.ready_report
        for table in tables:
            await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
            await play_turns(table, 3)
        answered_by_second = len(fake.interactions)

        await first.kill()
        await play_turns(tables[1], 3)  # the other shard plays on meanwhile
        message = await wait_for_turn_or_end(tables[0])  # nobody serves shard 0: its clicks fail
        deadline, fake.server.interaction_timeout = fake.server.interaction_timeout, GIVE_UP_SECONDS
        try:  # only this click is in flight: Discord may give up on it sooner than after 3 s
            reply = await tables[0].alice.click(message, live_buttons(message)[0].label, wait=False)
            await fake.wait_until(lambda: fake.expired(reply), what="Discord to give up on the click")
        finally:
            fake.server.interaction_timeout = deadline

        await first.start()
        assert first.ready_report is not None and "guilds=1 shards=[0]" in first.ready_report
        finals = await asyncio.gather(*(play_out(table, [table.alice], by="buttons") for table in tables))
        assert all("Throws:" in final.content for final in finals)
        assert len(fake.interactions) > answered_by_second
        for bot in (first, second):
            assert "level=ERROR" not in bot.output() and "Traceback" not in bot.output(), bot.output()
    finally:
        for bot in (first, second):
            await bot.kill()
            bot.log.close()
    games = await stored_games(postgres_url)
    assert len(games) == 2
    for game in games:
        check_move_log(game)
        assert game.snapshot.status == "finished"


async def test_a_second_process_for_a_live_shard_plays_no_turn_twice(
    fake: FakeDiscord, postgres_url: str
) -> None:
    """Two live processes both think they serve shard 1 (a deploy overlapping the old process):
    both arm the same turn timers, and the version check lets exactly one play each turn."""
    table = guild_table(fake, 1, postgres_url)
    env = shard_env(fake, postgres_url, 1, TURN_TIMEOUT_SECONDS="1")
    old, new = bot_process(fake, env), bot_process(fake, env)
    try:
        await old.start()
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        await wait_for_turn_or_end(table)
        await new.start()  # resumes the game: arms the same timer as the old process
        # Alice plays nothing: her turns time out (both processes' timers fire), she loses her seat
        # after three misses, and the computers finish the game.
        final = await fake.wait_until(
            lambda: final_message(table.channel),
            timeout=WHOLE_GAME,  # three turn timers of 1 s, then the computers play the whole game
            what="the end",
        )
        assert "Throws:" in final.content
        for bot in (old, new):
            assert bot.child.popen is not None and bot.child.popen.poll() is None
            assert "Traceback" not in bot.output(), bot.output()
    finally:
        for bot in (old, new):
            await bot.kill()
            bot.log.close()
    [game] = await stored_games(postgres_url)
    check_move_log(game)  # every turn once, in order
    assert game.snapshot.status == "finished"
    assert len([m for m in table.channel.messages if is_final(m)]) == 1, "the result was posted twice"
