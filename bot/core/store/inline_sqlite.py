"""SQLite through aiosqlite's interface, on the event loop's own thread.

aiosqlite hands every call to a thread of its own and waits for the answer: a statement of ours
takes microseconds on a local file, and the two hand-offs (a queue, a wake-up of the loop, the
GIL) cost more than the statement itself (`python bench/store_bench.py`, `sqlite_cpu_ms`: 2.0 ms a
move through the thread, 0.9 ms here). SQLAlchemy's aiosqlite dialect drives this connection
unchanged. The one wait that can be long, for the write lock another connection holds (another
process's, or another pool's), is made on the loop instead of in SQLite's busy handler
(`begin_immediate`).
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

import aiosqlite
from sqlalchemy import exc as sa_exc
from sqlalchemy import make_url
from sqlalchemy.dialects.sqlite.aiosqlite import SQLiteDialect_aiosqlite
from sqlalchemy.engine import Connection
from sqlalchemy.util import await_

LOCK_NAPS_S = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
"""How long to wait before trying the write lock again (the last one repeats)."""


class _RunNow:
    """Stands in for aiosqlite's queue to its thread: what is put in runs at once."""

    def put_nowait(self, item: tuple[asyncio.Future[Any] | None, Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except Exception as error:
            if future is not None:
                future.set_exception(error)
            return
        if future is not None:
            future.set_result(result)


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose calls run where they are awaited: no thread is started."""

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._tx = _RunNow()  # type: ignore[assignment]  # SQLAlchemy sets isolation_level through it

    @property
    def sqlite(self) -> sqlite3.Connection:
        return self._conn

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._connection is None:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)

    async def _connect(self) -> InlineConnection:
        if self._connection is None:
            self._connection = self._connector()
        return self

    def __await__(self) -> Generator[Any, None, InlineConnection]:
        return self._connect().__await__()

    def stop(self) -> None:
        self._running = False
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def connector(url: str, connect_args: dict[str, Any]) -> Callable[[], InlineConnection]:
    """`create_async_engine`'s `async_creator` for the SQLite file at `url` (as the dialect reads it)."""
    args, options = SQLiteDialect_aiosqlite().create_connect_args(make_url(url))
    connect = partial(sqlite3.connect, *args, **{**options, **connect_args})
    return lambda: InlineConnection(connect)


def begin_immediate(connection: Connection, busy_timeout_ms: int) -> None:
    """BEGIN IMMEDIATE: take the write lock at once, or nap on the loop while another connection
    holds it, up to `busy_timeout_ms`. SQLite's own busy handler would sleep on the loop's thread
    and stop everything else the process serves."""
    sqlite = connection.connection.driver_connection.sqlite  # type: ignore[union-attr]
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
