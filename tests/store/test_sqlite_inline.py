"""SQLite on the event loop's own thread: no driver thread, and a wait for the write lock that
leaves the loop free."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import threading

import pytest

from bot.core.store import Store, StoreUnavailable
from bot.core.store import database as store_database

pytestmark = pytest.mark.smoke


async def test_statements_run_on_the_loops_thread(sqlite_store: Store) -> None:
    threads = threading.active_count()
    async with sqlite_store.transaction() as session:
        assert await sqlite_store.game(session, 1) is None
    async with sqlite_store.transaction() as session:
        assert await sqlite_store.active_games(session, None) == []
    assert threading.active_count() == threads


async def test_a_writer_waits_for_another_connections_lock_with_the_loop_running(
    sqlite_store: Store, sqlite_url: str
) -> None:
    """Two pools on one file, one process: the second BEGIN IMMEDIATE naps on the loop, so the first
    transaction (which needs the loop to finish) ends and lets it in."""
    other = Store(sqlite_url)
    loop = asyncio.get_running_loop()
    held = asyncio.Event()
    ticks: list[float] = []
    times: dict[str, float] = {}

    async def hold() -> None:
        async with sqlite_store.transaction() as session:
            await sqlite_store.game(session, 1)  # BEGIN IMMEDIATE runs with the first statement
            held.set()
            await asyncio.sleep(0.3)  # holding the write lock for a while is the point
            times["releasing"] = loop.time()  # the commit, with no await before it, comes next

    async def wait() -> None:
        await held.wait()
        async with other.transaction() as session:
            await other.game(session, 1)
            times["entered"] = loop.time()

    async def tick() -> None:
        while True:
            ticks.append(loop.time())
            await asyncio.sleep(0.01)  # a tick of time, noted while the other waits

    ticker = asyncio.create_task(tick())
    try:
        await asyncio.wait_for(asyncio.gather(hold(), wait()), timeout=5)
        ticks.append(loop.time())  # the end: a block just before it leaves its gap too
    finally:
        ticker.cancel()
        await other.close()
    assert times["entered"] >= times["releasing"]
    # The loop kept running through the 0.3 s wait: no gap between ticks as long as the hold (a
    # wait blocking the loop leaves one of 0.3 s at least; a busy machine only spaces them out).
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(gaps) < 0.25, max(gaps)


async def test_a_lock_held_past_the_busy_timeout_is_store_unavailable(
    sqlite_store: Store, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_database, "SQLITE_BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite+aiosqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable):
            async with sqlite_store.transaction() as session:
                await sqlite_store.game(session, 1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    async with sqlite_store.transaction() as session:  # the lock is free: the store works again
        assert await sqlite_store.game(session, 1) is None


async def test_the_store_drives_the_standard_librarys_sqlite3_itself(sqlite_store: Store) -> None:
    """No aiosqlite between the store and SQLite: the dialect's connection is sqlite3's own."""
    async with sqlite_store.transaction() as session:
        connection = await session.connection()
        raw = await connection.get_raw_connection()
        assert isinstance(raw.driver_connection, sqlite3.Connection)
        assert connection.dialect.driver == "inline" and connection.dialect.is_async
