"""Slash commands are synced when they changed, once, however many processes start; or on demand."""

from __future__ import annotations

import asyncio
import subprocess

from sqlalchemy import update

from bot.client import PachisiBot
from bot.core.store import CommandSyncRow, Store
from bot.sync import GLOBAL_SCOPE, command_payload, payload_hash
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT
from tests.support.processes import REPO_ROOT, bot_argv, bot_env
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


async def test_python_m_bot_sync_syncs_whatever_the_database_says(
    fake: FakeDiscord, database_url: str
) -> None:
    fake.add_guild("Pachisi club")
    await start_and_stop(fake, database_url)
    del fake.server.commands[None]["pachisi"]  # an operator deleted the command by hand
    result = await asyncio.to_thread(
        subprocess.run,
        [*bot_argv(), "sync"],
        env={**bot_env(fake, database_url), "PATH": "/usr/bin:/bin"},
        cwd=str(REPO_ROOT),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, result.stderr
    assert "msg=commands synced" in result.stderr and "level=ERROR" not in result.stderr, result.stderr
    assert command_syncs(fake) == 2
    assert "pachisi" in fake.server.commands[None]
    assert fake.server.identifies == 1  # it logged in over REST only; no gateway session


async def test_an_unknown_argument_is_refused_with_the_usage() -> None:
    result = await asyncio.to_thread(
        subprocess.run,
        [*bot_argv(), "synk"],
        cwd=str(REPO_ROOT),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("usage: python -m bot [-h] [--version] COMMAND ...\n")
    assert "invalid choice: 'synk' (choose from 'run', 'sync', " in result.stderr
