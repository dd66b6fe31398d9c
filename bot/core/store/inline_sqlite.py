"""SQLite on the event loop's own thread: the standard library's sqlite3 under SQLAlchemy's asyncio
engine, through a dialect of ours.

aiosqlite hands every call to a thread of its own and waits for the answer: a statement of ours
takes microseconds on a local file, and the two hand-offs (a queue, a wake-up of the loop, the
GIL) cost more than the statement itself (`python bench/store_bench.py`, `sqlite_cpu_ms`: 2.0 ms a
move through the thread, under 1 ms here). So the dialect is SQLAlchemy's own pysqlite one, marked
`is_async`: the asyncio engine then runs it in its greenlet on the loop's thread, and its calls
into sqlite3 run where they are made. It reaches only public interfaces: SQLAlchemy's dialect
registry, pool classes and `do_execute` hooks, and sqlite3's connection and cursor factories. One
method the asyncio engine calls on a driver's cursor (`_async_soft_close`) is ours to provide:
pyproject.toml bounds SQLAlchemy below 2.2 for it, and every store test runs through it. The one
wait that can be long, for the write lock another connection holds (another process's, or
another pool's), is made on the loop instead of in SQLite's busy handler (`begin_immediate`).
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy import make_url, pool
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL, Connection
from sqlalchemy.util import await_

DRIVER = "inline"
"""`sqlite+inline://` names the dialect below (registered with SQLAlchemy on import)."""

LOCK_NAPS_S = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
"""How long to wait before trying the write lock again (the last one repeats)."""


class InlineCursor(sqlite3.Cursor):
    """A sqlite3 cursor the asyncio engine can finish with: it awaits `_async_soft_close` on a
    result's cursor to let an async driver close it early; this one is read where it is, later."""

    async def _async_soft_close(self) -> None:
        """Nothing to do: the rows are read from this cursor on the loop's thread as needed."""


class InlineConnection(sqlite3.Connection):
    """A sqlite3 connection whose cursors are `InlineCursor`s."""

    def cursor(self, factory: Any = InlineCursor) -> Any:
        return super().cursor(factory)


class SQLiteDialectInline(SQLiteDialect_pysqlite):
    """pysqlite for the asyncio engine: the same SQL, types and connect arguments, no thread."""

    driver = DRIVER
    is_async = True
    supports_statement_cache = True

    def do_execute(self, cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        await_(_run(cursor.execute, statement, parameters))

    def do_executemany(self, cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        await_(_run(cursor.executemany, statement, parameters))

    def do_execute_no_params(self, cursor: Any, statement: str, context: Any = None) -> None:
        await_(_run(cursor.execute, statement))

    def create_connect_args(self, url: URL) -> Any:
        args, options = super().create_connect_args(url)
        return args, {**options, "factory": InlineConnection}

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        """The asyncio pool (it waits for a free connection on the loop); one shared connection for
        an in-memory database, which exists only in its connection."""
        memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
        return pool.StaticPool if memory else pool.AsyncAdaptedQueuePool


async def _run(function: Callable[..., object], *args: Any) -> None:
    """Run `function` as the engine's awaited work: the asyncio engine checks that a statement was
    awaited (an async driver), and it is, on the loop's thread, without suspending."""
    function(*args)


registry.register(f"sqlite.{DRIVER}", __name__, SQLiteDialectInline.__name__)


def inline_url(url: str) -> URL:
    """`url` (any SQLite driver, e.g. `sqlite+aiosqlite://`) with this module's dialect."""
    return make_url(url).set(drivername=f"sqlite+{DRIVER}")


def begin_immediate(connection: Connection, busy_timeout_ms: int) -> None:
    """BEGIN IMMEDIATE: take the write lock at once, or nap on the loop while another connection
    holds it, up to `busy_timeout_ms`. SQLite's own busy handler would sleep on the loop's thread
    and stop everything else the process serves."""
    sqlite = connection.connection.driver_connection
    assert isinstance(sqlite, sqlite3.Connection), sqlite
    deadline = time.monotonic() + busy_timeout_ms / 1000
    for attempt in itertools.count():
        sqlite.execute("PRAGMA busy_timeout=0")
        try:
            sqlite.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise sa_exc.OperationalError("BEGIN IMMEDIATE", None, error) from error
        finally:
            sqlite.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        await_(asyncio.sleep(LOCK_NAPS_S[min(attempt, len(LOCK_NAPS_S) - 1)]))
