"""The real migrations: upgrade from empty, down and up again, no drift from the models, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.store import ROOT, Base, downgrade, make_engine, upgrade

TABLES = {
    "games",
    "seats",
    "resignations",
    "moves",
    "user_stats",
    "command_sync",
    "ratings",
    "game_players",
    "player_settings",
}


async def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            names = await connection.run_sync(lambda c: sa.inspect(c).get_table_names())
    finally:
        await engine.dispose()
    return set(names) - {"alembic_version"}


async def _drift(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(
                lambda c: compare_metadata(
                    MigrationContext.configure(c, opts={"compare_type": True}), Base.metadata
                )
            )
    finally:
        await engine.dispose()


async def test_upgrade_from_empty_creates_every_table(db_url: str) -> None:
    assert await _tables(db_url) == set()
    await upgrade(db_url)
    assert await _tables(db_url) == TABLES


async def test_downgrade_then_upgrade_again(db_url: str) -> None:
    await upgrade(db_url)
    await downgrade(db_url)
    assert await _tables(db_url) == set()
    await upgrade(db_url)
    assert await _tables(db_url) == TABLES


async def test_autogenerate_finds_no_difference_from_the_models(db_url: str) -> None:
    await upgrade(db_url)
    assert await _drift(db_url) == []


async def test_upgrade_is_idempotent(db_url: str) -> None:
    await upgrade(db_url)
    await upgrade(db_url)
    assert await _tables(db_url) == TABLES


def test_alembic_command_line_uses_database_url_from_settings(tmp_path: Path) -> None:
    """`alembic upgrade head` by hand, run elsewhere, with DATABASE_URL in the environment."""
    database = tmp_path / "by-hand.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), "upgrade", "head"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    import sqlite3

    with sqlite3.connect(database) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names >= TABLES | {"alembic_version"}
