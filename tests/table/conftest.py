"""Fixtures of the table layer's tests: the real store on a SQLite file, the in-memory chat, a
moved clock, and the layer built over them as the bot builds it (`bot.table.Table`); `restart`
builds a new layer over the same file and the same chat, as a new process would."""

from __future__ import annotations

import asyncio
import random
import shutil
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import render
from bot.core.config import Settings
from bot.core.members import MemberSettings
from bot.core.service import GameService
from bot.core.store import Store, upgrade
from bot.core.workers import Workers
from bot.table import Table
from bot.table.writes import Pacer
from engine import Position
from tests.support.chat import Chat, MovedClock
from tests.support.processes import QUICK_BUCKET_SECONDS
from tests.support.world import CHANNEL, World


@pytest.fixture(scope="session", autouse=True)
def warm_renderer() -> None:
    """The renderer builds its caches on its first picture (seconds); once for every test."""
    render.board_png(Position.initial())


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file migrated to head by the real migrations, once; each test gets a copy."""
    path = tmp_path_factory.mktemp("migrated") / "pachisi.sqlite3"
    asyncio.run(upgrade(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture
def workers() -> Iterator[Workers]:
    pool = Workers(0)  # in this process: the pictures on threads, the computers inline
    yield pool
    pool.shutdown()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-render")
    yield executor
    executor.shutdown(wait=True)


@pytest.fixture
async def world(
    tmp_path: Path, migrated: Path, workers: Workers, pool: ThreadPoolExecutor
) -> AsyncIterator[World]:
    """A table layer over a migrated SQLite file, with the chat's game channel ready; its channels'
    buckets renew every QUICK_BUCKET_SECONDS (test_writes.py paces on purpose: `restart(pacer)`)."""
    path = tmp_path / "pachisi.sqlite3"
    shutil.copyfile(migrated, path)
    url = f"sqlite+aiosqlite:///{path}"
    clock = MovedClock()
    chat = Chat(clock)
    chat.room(CHANNEL)
    settings = Settings(
        database_url=url,
        turn_timeout_seconds=60,
        computer_pace_seconds=0,
        default_level="easy",
        discord_bucket_seconds=QUICK_BUCKET_SECONDS,
    )
    stores: list[Store] = []
    seeds = iter(range(1000))

    def build(pacer: Pacer | None = None) -> Table:
        store = Store(url)
        stores.append(store)
        service = GameService(
            store,
            rng=random.Random(next(seeds)),
            turn_timeout=settings.turn_timeout_seconds,
            clock=clock.now,
            members=MemberSettings(store, default_auto_throw=False),
            workers=workers,
        )
        return Table(
            service=service,
            store=store,
            clock=clock,
            settings=settings,
            workers=workers,
            channels=chat,
            pool=pool,
            pacer=pacer,
            threads=chat,
            roster=chat,
        )

    made = World(clock, chat, build)
    yield made
    for table in made.tables:
        await table.close()
    for store in stores:
        await store.close()
