"""The database goes away mid-game: clicks get a clear answer, nothing is lost or doubled, and play
goes on once it is back, without restarting the bot."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import pytest

from bot.client import PachisiBot
from bot.core.store import database as store_database
from tests.e2e.fakediscord import FakeDiscord
from tests.support.processes import PostgresServer, check_move_log, sqlite_locked, stored_games
from tests.support.table import Table, bot_settings, live_buttons, play_out, turn_state, wait_for_turn_or_end

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
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The bot waits out a lock for 10 s; a second here (before its connection is made): what is
    # checked is what comes after the wait, not its length.
    monkeypatch.setattr(store_database, "SQLITE_BUSY_TIMEOUT_MS", 1_000)
    async with start_table() as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        await play_one_turn(table)
        [before] = await stored_games(table.database_url)
        async with sqlite_locked(table.database_url):  # past the bot's busy timeout
            await refused_while_down(table)
            assert outages_logged(caplog) == 1
        [after] = await stored_games(table.database_url)
        assert (after.snapshot.turn_number, len(after.moves)) == (
            before.snapshot.turn_number,
            len(before.moves),
        )
        await play_one_turn(table)  # the lock is gone: the same click works
    assert errors_logged(caplog) == []
