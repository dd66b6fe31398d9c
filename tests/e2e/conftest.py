"""Fixtures that run the real Pachisi bot (store, service, renderer) against the fake Discord; the
helpers the tests share are in tests/support/."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.client import PachisiBot
from bot.core.clock import Clock
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.pseudolanguage import pseudo_language  # noqa: F401  (a fixture of the language tests)
from tests.support.processes import PostgresServer, check_records
from tests.support.table import Table, bot_settings


@pytest.fixture
async def database_url(tmp_path: Path) -> AsyncIterator[str]:
    """The test's database; afterwards, every game it holds must write a record that replays."""
    path = tmp_path / "pachisi.sqlite3"
    yield f"sqlite+aiosqlite:///{path}"
    if path.exists():
        await check_records(f"sqlite+aiosqlite:///{path}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.start() as fake_:
        yield fake_


@pytest.fixture
async def start_table(
    fake: FakeDiscord, database_url: str
) -> Callable[..., AbstractAsyncContextManager[Table]]:
    """`async with start_table(turn_timeout_seconds=1) as table:` runs the bot with those settings
    (and `clock=`, a clock the test moves)."""
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")

    @asynccontextmanager
    async def run(clock: Clock | None = None, **overrides: Any) -> AsyncIterator[Table]:
        settings = bot_settings(fake, database_url, **overrides)
        bot = PachisiBot(settings, clock=clock, guild_ready_timeout=0.1)
        async with fake.running(bot):
            yield Table(fake, bot, guild, channel, alice, bob, database_url)

    return run


@pytest.fixture
async def table(start_table: Callable[..., AbstractAsyncContextManager[Table]]) -> AsyncIterator[Table]:
    async with start_table() as table_:
        yield table_


@pytest.fixture
async def postgres_server(postgres_url: str) -> AsyncIterator[PostgresServer]:
    server = PostgresServer(postgres_url)
    if not server.available:
        pytest.skip(
            "PG_BIN and PACHISI_PG_DATA are not set: the server was not started by scripts/postgres-up"
        )
    yield server
    if not Path(server.data, "postmaster.pid").exists():
        await server.start()  # leave the server running for the tests after this one
