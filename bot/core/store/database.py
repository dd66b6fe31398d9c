"""The database itself: the engine and its sessions, one transaction at a time, and the migrations.

On SQLite every transaction takes the write lock at BEGIN, so a read-then-write never meets a
stale snapshot; on PostgreSQL processes take turns to migrate under an advisory lock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, make_url
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from bot.core import metrics
from bot.core.store import inline_sqlite

ROOT = Path(__file__).resolve().parents[3]

SQLITE_BUSY_TIMEOUT_MS = 10_000
SCHEMA_LOCK_KEY = 0x5041_4348_4953_4931  # "PACHISI1": any fixed bigint shared by every process


class StoreUnavailable(Exception):
    """The database did not answer (PostgreSQL down or unreachable, SQLite locked past the busy
    timeout): the transaction was rolled back, nothing was written, the request can be repeated."""

    def __init__(self) -> None:
        super().__init__("The database is not answering right now. The game is saved; try again in a moment.")


def unavailable(error: BaseException) -> bool:
    """Whether `error` means the database could not be used (rather than a bug or a conflict)."""
    if isinstance(error, sa_exc.OperationalError | sa_exc.InterfaceError | sa_exc.TimeoutError | OSError):
        return True
    if isinstance(error, sa_exc.DBAPIError):
        return error.connection_invalidated or isinstance(error.orig, OSError)
    return type(error).__module__.startswith("asyncpg") and "Connection" in type(error).__name__


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine; on SQLite, run on the loop's thread (`inline_sqlite`), with WAL, a busy
    timeout, foreign keys and write-locking transactions.

    SQLite transactions begin with BEGIN IMMEDIATE: a transaction that reads a game and then writes it
    holds the write lock from the start, so a concurrent writer waits (busy timeout) instead of failing
    to upgrade a stale read snapshot.
    """
    backend = make_url(url).get_backend_name()
    if backend == "postgresql":
        kwargs.setdefault("pool_pre_ping", True)  # after a server restart, pooled connections are dead
    engine = create_async_engine(inline_sqlite.inline_url(url) if backend == "sqlite" else url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (_sqlite_begin)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    inline_sqlite.begin_immediate(connection, SQLITE_BUSY_TIMEOUT_MS)


def lock_schema(connection: Connection) -> None:
    """Hold the one schema lock until this transaction ends: processes starting together take turns
    to migrate (and to sync the slash commands) instead of racing. On PostgreSQL an advisory lock;
    SQLite's BEGIN IMMEDIATE already lets one writer in at a time."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})")


class Database:
    """An engine and one session maker; `transaction` is the only way in."""

    def __init__(self, url: str, **engine_kwargs: Any) -> None:
        self.url = url
        self.engine = make_engine(url, **engine_kwargs)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.transactions = 0
        """Transactions begun so far (the bot logs it when it stops; the benchmark reads it)."""

    async def close(self) -> None:
        await self.engine.dispose()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One transaction: committed when the block ends, rolled back if it raises; a database
        that does not answer raises StoreUnavailable."""
        self.transactions += 1
        try:
            async with self.sessions() as session, session.begin():
                yield session
        except Exception as exc:
            if unavailable(exc):
                metrics.database_error()
                raise StoreUnavailable() from exc
            raise

    @asynccontextmanager
    async def schema_locked(self) -> AsyncIterator[AsyncSession]:
        """A transaction holding the schema lock of the migrations (`lock_schema`)."""
        async with self.transaction() as session:
            await (await session.connection()).run_sync(lock_schema)
            yield session


# --- migrations ----------------------------------------------------------------------------


def alembic_config(url: str | None = None) -> Any:
    """Alembic's config for our migrations folder, pointing at `url` when given."""
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` to `revision` (the bot calls this at start-up)."""
    await _run_alembic(url, "upgrade", revision)


async def downgrade(url: str, revision: str = "base") -> None:
    await _run_alembic(url, "downgrade", revision)


async def _run_alembic(url: str, command_name: str, revision: str) -> None:
    """Run an Alembic command on a connection of ours (migrations/env.py uses it when given one)."""
    from alembic import command

    config = alembic_config(url)
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:

            def run(sync_connection: Connection) -> None:
                config.attributes["connection"] = sync_connection
                getattr(command, command_name)(config, revision)

            await connection.run_sync(run)
    finally:
        await engine.dispose()
