"""The databases the store tests run on: a SQLite file, and a real PostgreSQL server when one is
reachable (PACHISI_TEST_POSTGRES_URL; `source scripts/postgres-up` starts one), each migrated to
head by the real migrations."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy import make_url, text

from bot.core.store import Store, make_engine, upgrade

POSTGRES_ENV = "PACHISI_TEST_POSTGRES_URL"


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'pachisi.sqlite3'}"


def postgres_server_url() -> str | None:
    """The test server's URL, or None when there is none."""
    return os.environ.get(POSTGRES_ENV) or None


async def own_database(url: str, owner: str) -> str:
    """The URL of a database of `owner`'s own on the server at `url` (created when missing): tests
    that run at once in several processes (pytest-xdist's workers, `owner`) each empty and
    migrate a database of their own. Raises OSError when the server does not answer."""
    name = f"{make_url(url).database}_{owner}"
    engine = make_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            found = await connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
            )
            if found.first() is None:
                await connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    finally:
        await engine.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


async def empty_postgres(url: str) -> None:
    """Empty the database at `url`: an empty `public` schema (raises OSError when unreachable)."""
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
            await connection.exec_driver_sql("CREATE SCHEMA public")
    finally:
        await engine.dispose()


async def migrated_store(url: str) -> AsyncIterator[Store]:
    """A store on the database at `url`, migrated to head by the real migrations."""
    await upgrade(url)
    store = Store(url)
    yield store
    await store.close()
