"""Fixtures that run the real Pachisi bot (store, service, renderer) against the fake Discord; the
helpers the tests share are in tests/support/."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.client import PachisiBot
from bot.core.clock import Clock
from bot.core.store import upgrade
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.pseudolanguage import pseudo_language  # noqa: F401  (a fixture of the language tests)
from tests.support import stores
from tests.support.command_line import cli  # noqa: F401  (`python -m bot` called in this process)
from tests.support.processes import PostgresServer, check_records
from tests.support.table import Table, bot_settings


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated to head by the real migrations, once (a fifth of a second each
    time): each test's database is a copy, which the bot finds at its revision. A bot migrating an
    empty database at its start is tested where the database is new: test_processes.py (two
    processes at once, PostgreSQL), test_container.py (the image's volume) and tests/store/."""
    path = tmp_path_factory.mktemp("migrated") / "pachisi.sqlite3"
    asyncio.run(upgrade(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture
async def database_url(tmp_path: Path, migrated: Path) -> AsyncIterator[str]:
    """The test's database, migrated; afterwards, every game it holds must write a record that
    replays."""
    path = tmp_path / "pachisi.sqlite3"
    shutil.copyfile(migrated, path)
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
    (and `clock=`, a clock the test moves; `database_url=` another database than the test's)."""
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")

    @asynccontextmanager
    async def run(clock: Clock | None = None, **overrides: Any) -> AsyncIterator[Table]:
        settings = bot_settings(fake, **{"database_url": database_url, **overrides})
        bot = PachisiBot(settings, clock=clock, guild_ready_timeout=0.1)
        async with fake.running(bot):
            yield Table(fake, bot, guild, channel, alice, bob, settings.database_url)

    return run


@pytest.fixture
async def table(start_table: Callable[..., AbstractAsyncContextManager[Table]]) -> AsyncIterator[Table]:
    async with start_table() as table_:
        yield table_


@pytest.fixture(scope="session")
def private_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the tests that stop it (one per worker; they run in one group)."""
    if stores.postgres_server_url() is None:
        pytest.skip(
            f"{stores.POSTGRES_ENV} is not set: no PostgreSQL server (run `source scripts/postgres-up`)"
        )
    try:
        server = PostgresServer.create()
    except LookupError as exc:
        pytest.skip(str(exc))
    yield server
    server.remove()


@pytest.fixture
def postgres_server(private_postgres: PostgresServer) -> Iterator[PostgresServer]:
    """A server of the test's own, which it may stop: its `postgres_url` is on this server."""
    yield private_postgres
    if not private_postgres.running:
        private_postgres.restart()  # leave the server running for the tests after this one
