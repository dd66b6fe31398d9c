"""The real migrations: upgrade from empty, down and up again, no drift from the models, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.core.store import Base, downgrade, make_engine, upgrade
from bot.core.store.database import ROOT

pytestmark = pytest.mark.smoke  # on the lowest versions too: every migration, on SQLite and PostgreSQL

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
    "puzzle_answers",
    "puzzle_streaks",
    "puzzle_channels",
    "puzzle_pings",
    "season_ratings",
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_tables",
    "tournament_seats",
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


TWO = "black:0,0,0,5 yellow:0,0,0,0 turn:yellow captured:- rules:classic"
FOUR = "black:0,0,0,5 red:3,84,84,84 yellow:0,0,0,0 green:0,0,0,1 turn:red captured:red+green rules:classic"
WON = "black:84,84,84,84 yellow:0,0,0,3 turn:yellow captured:- rules:classic result:black"
OLD_ROWS = {
    1: (f"{TWO} result:yellow", TWO, 1),  # a two-player resignation
    2: (TWO, TWO, None),  # a game in play
    3: (f"{FOUR} result:black+yellow", FOUR, 0),  # a four-player resignation
    4: (WON, WON, None),  # a real win keeps its result
    5: (f"{TWO} result:draw", f"{TWO} result:draw", None),  # the throw limit's draw
}
"""Positions as the notation wrote them before 0006: (stored, after the upgrade, conceded_to)."""


async def test_a_resignation_stored_the_old_way_is_rewritten(db_url: str) -> None:
    """Before 0006 a conceded game kept `result:` on its live position, which the notation refuses;
    0006 reads the old notation itself, so wins, draws and games in play are left as they were."""
    await upgrade(db_url, "0005_tables")
    engine = make_engine(db_url)
    try:
        async with engine.begin() as connection:
            for game_id, (position, _, _) in OLD_ROWS.items():
                await connection.execute(
                    sa.text(
                        "INSERT INTO games (id, guild_id, channel_id, started_by, rules, status, position,"
                        " turn_number, version, created_at, updated_at, hints) VALUES (:id, 1, :channel, 1,"
                        " 'classic', 'finished', :position, 9, 1, :now, :now, true)"
                    ),
                    {
                        "id": game_id,
                        "channel": 100 + game_id,
                        "position": position,
                        "now": datetime(2026, 12, 1, tzinfo=UTC),
                    },
                )
        await upgrade(db_url, "0006_conceded")
        async with engine.connect() as connection:
            rows = (
                await connection.execute(sa.text("SELECT id, position, conceded_to FROM games ORDER BY id"))
            ).all()
    finally:
        await engine.dispose()
    assert {game_id: (position, conceded) for game_id, position, conceded in rows} == {
        game_id: (after, conceded) for game_id, (_, after, conceded) in OLD_ROWS.items()
    }


async def test_games_stored_before_the_language_column_are_english(db_url: str) -> None:
    """0007 adds the table's language: an older game reads as English, a new one keeps its own, and
    downgrading drops the column with the games intact."""
    await upgrade(db_url, "0006_conceded")
    engine = make_engine(db_url)
    insert = (
        "INSERT INTO games (id, guild_id, channel_id, started_by, rules, status, position, turn_number,"
        " version, created_at, updated_at, hints) VALUES (:id, 1, :channel, 1, 'classic', 'active',"
        " :position, 0, 1, :now, :now, true)"
    )
    start = "black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    values = {"position": start, "now": datetime(2026, 12, 1, tzinfo=UTC)}
    try:
        async with engine.begin() as connection:
            await connection.execute(sa.text(insert), {"id": 1, "channel": 101, **values})
        await upgrade(db_url)
        async with engine.begin() as connection:
            await connection.execute(sa.text(insert), {"id": 2, "channel": 102, **values})
            await connection.execute(sa.text("UPDATE games SET language = 'hi' WHERE id = 2"))
            rows = (await connection.execute(sa.text("SELECT id, language FROM games ORDER BY id"))).all()
        assert [tuple(row) for row in rows] == [(1, "en"), (2, "hi")]
        await downgrade(db_url, "0006_conceded")
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda c: {col["name"] for col in sa.inspect(c).get_columns("games")}
            )
            count = (await connection.execute(sa.text("SELECT count(*) FROM games"))).scalar_one()
    finally:
        await engine.dispose()
    assert "language" not in columns and count == 2


async def test_games_that_ended_before_seasons_end_at_their_last_throw(db_url: str) -> None:
    """0009 gives every game that had ended an `ended_at`: its last throw's time, or its last change's."""
    await upgrade(db_url, "0008_puzzles")
    engine = make_engine(db_url)
    start, last, changed = (datetime(2026, 1, 31, 23, 50, tzinfo=UTC), datetime(2026, 2, 1, 0, 5, tzinfo=UTC),
                            datetime(2026, 2, 1, 0, 10, tzinfo=UTC))  # fmt: skip
    try:
        async with engine.begin() as connection:
            for game_id, status in ((1, "finished"), (2, "abandoned"), (3, "active")):
                await connection.execute(
                    sa.text(
                        "INSERT INTO games (id, guild_id, channel_id, started_by, rules, status, position,"
                        " turn_number, version, created_at, updated_at, hints) VALUES (:id, 1, :channel, 1,"
                        " 'classic', :status, :position, 2, 1, :start, :changed, true)"
                    ),
                    {
                        "id": game_id,
                        "channel": 100 + game_id,
                        "status": status,
                        "position": "black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black"
                        " captured:- rules:classic",
                        "start": start,
                        "changed": changed,
                    },
                )
            for turn, moment in ((0, start), (1, last)):
                await connection.execute(
                    sa.text(
                        "INSERT INTO moves (game_id, turn_number, seat, throw, cowries, move, captures,"
                        " by_timer, created_at) VALUES (1, :turn, 0, 2, '110000', NULL, 0, false, :at)"
                    ),
                    {"turn": turn, "at": moment},
                )
        await upgrade(db_url)
        async with engine.connect() as connection:
            rows = (await connection.execute(sa.text("SELECT id, ended_at FROM games ORDER BY id"))).all()
    finally:
        await engine.dispose()
    ended = {game_id: None if at is None else aware_time(at) for game_id, at in rows}
    assert ended == {1: last, 2: changed, 3: None}


def aware_time(value: object) -> datetime:
    """A timestamp as read back: SQLite gives text or a naive datetime, PostgreSQL an aware one."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    assert isinstance(moment, datetime)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def test_names_are_stored_with_seats_and_go_again_on_downgrade(db_url: str) -> None:
    """0010 adds a seat's member name and the starter's: older games have none (NULL), a new one
    keeps them, and downgrading drops both columns with the games and seats intact."""
    await upgrade(db_url, "0009_seasons")
    engine = make_engine(db_url)
    start = "black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    now = datetime(2026, 12, 1, tzinfo=UTC)
    game = (
        "INSERT INTO games (id, guild_id, channel_id, started_by, rules, status, position, turn_number,"
        " version, created_at, updated_at, hints, language) VALUES (:id, 1, :channel, 7, 'classic',"
        " 'active', :position, 0, 1, :now, :now, true, 'en')"
    )
    seat = (
        "INSERT INTO seats (game_id, seat, user_id, level, missed, joined_at, hints_used)"
        " VALUES (:id, 0, 7, 'easy', 0, :now, 0)"
    )
    try:
        async with engine.begin() as connection:
            await connection.execute(sa.text(game), {"id": 1, "channel": 101, "position": start, "now": now})
            await connection.execute(sa.text(seat), {"id": 1, "now": now})
        await upgrade(db_url)
        async with engine.begin() as connection:
            await connection.execute(sa.text(game), {"id": 2, "channel": 102, "position": start, "now": now})
            await connection.execute(sa.text(seat), {"id": 2, "now": now})
            await connection.execute(sa.text("UPDATE seats SET name = 'Asha' WHERE game_id = 2"))
            await connection.execute(sa.text("UPDATE games SET starter_name = 'Asha' WHERE id = 2"))
            query = (
                "SELECT games.id, starter_name, name FROM games JOIN seats ON seats.game_id = games.id"
                " ORDER BY games.id"
            )
            rows = (await connection.execute(sa.text(query))).all()
        assert [tuple(row) for row in rows] == [(1, None, None), (2, "Asha", "Asha")]
        await downgrade(db_url, "0009_seasons")
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda c: {
                    table: {col["name"] for col in sa.inspect(c).get_columns(table)}
                    for table in ("games", "seats")
                }
            )
            count = (await connection.execute(sa.text("SELECT count(*) FROM seats"))).scalar_one()
    finally:
        await engine.dispose()
    assert "starter_name" not in columns["games"] and "name" not in columns["seats"] and count == 2
