"""Slash commands are synced when they changed, once, however many processes start; or on demand."""

from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy import update

from bot.client import PachisiBot
from bot.core.config import Settings
from bot.core.store import CommandSyncRow, Store
from bot.sync import GLOBAL_SCOPE, command_payload, payload_hash
from tests.e2e.fakediscord import FakeDiscord
from tests.support.command_line import CommandLine
from tests.support.processes import bot_env
from tests.support.table import bot_settings


def command_syncs(fake: FakeDiscord) -> int:
    """Bulk overwrites of the commands the fake has answered."""
    return sum(r.method == "PUT" and r.path.endswith("/commands") for r in fake.server.requests)


async def start_and_stop(fake: FakeDiscord, database_url: str) -> str:
    """Run the bot until it is ready; returns the hash of its commands' payload."""
    bot = PachisiBot(bot_settings(fake, database_url), guild_ready_timeout=0.1)
    async with fake.running(bot):
        return payload_hash(await command_payload(bot.tree, None))


async def stored_hash(database_url: str) -> str | None:
    store = Store(database_url)
    try:
        async with store.transaction() as session:
            return await store.synced_hash(session, GLOBAL_SCOPE)
    finally:
        await store.close()


async def test_a_restart_syncs_the_commands_only_when_they_changed(
    fake: FakeDiscord, database_url: str
) -> None:
    fake.add_guild("Pachisi club")
    digest = await start_and_stop(fake, database_url)
    assert command_syncs(fake) == 1
    assert "pachisi" in fake.server.commands[None]
    assert await stored_hash(database_url) == digest

    await start_and_stop(fake, database_url)
    assert command_syncs(fake) == 1, "the same commands were overwritten again"

    # The database says an older command tree was synced (the deploy before this one).
    store = Store(database_url)
    try:
        async with store.transaction() as session:
            await session.execute(update(CommandSyncRow).values(payload_hash="0" * 64))
    finally:
        await store.close()
    await start_and_stop(fake, database_url)
    assert command_syncs(fake) == 2
    assert await stored_hash(database_url) == digest


async def test_the_sync_command_syncs_whatever_the_database_says(
    fake: FakeDiscord, database_url: str, cli: CommandLine, caplog: pytest.LogCaptureFixture
) -> None:
    """`python -m bot sync`, called in this process (its own event loop, on a thread, while the
    stand-in answers on this one); the command line as a process: tests/bot/test_main.py."""
    fake.add_guild("Pachisi club")
    await start_and_stop(fake, database_url)
    del fake.server.commands[None]["pachisi"]  # an operator deleted the command by hand
    env = bot_env(fake, database_url, WORKERS="0")  # sync computes nothing: no worker processes
    settings = {k: v for k, v in env.items() if k.lower() in Settings.model_fields}
    caplog.set_level(logging.INFO)
    done = await asyncio.to_thread(cli, "sync", **settings)
    assert done.status == 0, done.err
    assert any(r.getMessage().startswith("commands synced") for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert command_syncs(fake) == 2
    assert "pachisi" in fake.server.commands[None]
    assert fake.server.identifies == 1  # it logged in over REST only; no gateway session
