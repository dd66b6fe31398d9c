"""The database goes away mid-game: clicks get a clear answer, nothing is lost or doubled, and play
goes on once it is back, without restarting the bot."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest
from sqlalchemy import make_url

from bot.client import PachisiBot
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.helpers import (
    PostgresServer,
    Table,
    bot_settings,
    check_move_log,
    live_buttons,
    play_out,
    stored_games,
    turn_state,
    wait_for_turn_or_end,
)

SAVED = "The database is not answering right now. The game is saved; try again in a moment."


async def refused_while_down(table: Table) -> None:
    """A click during the outage: answered, ephemerally, with the sentence that says to retry."""
    message = await wait_for_turn_or_end(table)
    label = live_buttons(message)[0].label
    reply = await table.alice.click(message, label, wait=False)
    answer = await table.fake.wait_until(
        lambda: reply.followups[-1] if reply.followups else reply.message, what="the answer to the click"
    )
    assert answer.ephemeral and answer.content == SAVED, answer.content


async def play_one_turn(table: Table) -> None:
    message = await wait_for_turn_or_end(table)
    before = turn_state(table.channel)
    labels = [b.label or "" for b in live_buttons(message)]
    await table.alice.click(message, labels[0], wait=False)
    await wait_for_turn_or_end(table, after=before)


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def outages_logged(caplog: pytest.LogCaptureFixture) -> int:
    """The clicks the bot reported it could not serve because the database did not answer."""
    return sum(r.getMessage().startswith("database unavailable: ") for r in caplog.records)


async def test_postgres_stopped_mid_game(
    fake: FakeDiscord, postgres_url: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    alice = guild.add_member("Alice")
    bot = PachisiBot(bot_settings(fake, postgres_url), guild_ready_timeout=0.1)
    async with fake.running(bot):
        table = Table(fake, bot, guild, channel, alice, alice, postgres_url)
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        for _ in range(3):
            await play_one_turn(table)
        [before] = await stored_games(postgres_url)
        await postgres_server.stop()
        try:
            for _ in range(3):
                await refused_while_down(table)
            assert outages_logged(caplog) == 3  # each reported before its answer
        finally:
            await postgres_server.start()
        [after] = await stored_games(postgres_url)
        assert after.snapshot.turn_number == before.snapshot.turn_number and len(after.moves) == len(
            before.moves
        )
        final = await play_out(table, [table.alice], by="buttons")  # the same bot plays on
        assert "Throws:" in final.content
    [game] = await stored_games(postgres_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    assert errors_logged(caplog) == []


async def test_sqlite_locked_by_another_process_past_the_busy_timeout(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
    await play_one_turn(table)
    [before] = await stored_games(table.database_url)
    path = make_url(table.database_url).database
    # Another process holds SQLite's write lock until its standard input closes: past the bot's
    # busy timeout (SQLITE_BUSY_TIMEOUT_MS), which the bot waits out before it answers.
    locker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({path!r}, isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()\n",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert locker.stdout is not None and await locker.stdout.readline() == b"locked\n"
        await refused_while_down(table)
        assert outages_logged(caplog) == 1
    finally:
        locker.kill()
        await locker.wait()
    [after] = await stored_games(table.database_url)
    assert (after.snapshot.turn_number, len(after.moves)) == (before.snapshot.turn_number, len(before.moves))
    await play_one_turn(table)  # the lock is gone: the same click works
    assert errors_logged(caplog) == []
