"""Backups that lose nothing: `python -m bot backup` of a live database, `restore` of it into a
stopped bot, for SQLite and (through pg_dump and pg_restore) PostgreSQL; each restored game resumes
and finishes. Damaged, mismatched or ill-timed restores are refused and change nothing."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, closing
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import make_url

from bot.backup import head_revision
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT
from tests.support.play import StoredGame
from tests.support.processes import (
    REPO_ROOT,
    PostgresServer,
    bot_env,
    check_move_log,
    running_bot,
    stored_games,
)
from tests.support.table import (
    Table,
    play_out,
    play_turns,
    subprocess_table,
)

T = TypeVar("T")


def cli(*args: str, database_url: str, path: str = "/usr/bin:/bin") -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` on DATABASE_URL, as an operator types it."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env={"PATH": path, "DATABASE_URL": database_url},
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


async def while_playing(table: Table, work: Coroutine[Any, Any, T]) -> T:
    """Alice plays turn after turn while `work` runs, and three more turns after it."""
    task = asyncio.ensure_future(work)
    while not task.done():
        await play_turns(table, 1)
    await play_turns(table, 3)
    return await task


def moves_of(game: StoredGame) -> list[tuple[int, int, int, str | None]]:
    return [(m.turn_number, m.seat, m.throw, m.move) for m in game.moves]


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def test_a_backup_taken_during_play_restores_and_the_game_resumes(
    fake: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    table = subprocess_table(fake, database_url)
    copy = tmp_path / "backup.sqlite3"
    async with running_bot(fake, bot_env(fake, database_url)) as bot:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        await play_turns(table, 3)
        taken = await while_playing(
            table, asyncio.to_thread(cli, "backup", str(copy), database_url=database_url)
        )
        assert taken.returncode == 0, taken.stderr
        assert f"backed up to {copy}: revision" in taken.stdout and "games: 1," in taken.stdout
        [backed_up] = await stored_games(sqlite_url(copy))
        check_move_log(backed_up)

        refused = cli("restore", str(copy), database_url=database_url)
        assert refused.returncode == 1
        assert refused.stderr.startswith("restore refused: a bot is running on "), refused.stderr
        [live] = await stored_games(database_url)
        assert live.snapshot.turn_number > backed_up.snapshot.turn_number  # the refusal changed nothing

        assert await bot.terminate() == 0
        restored = cli("restore", str(copy), database_url=database_url)
        assert restored.returncode == 0, restored.stderr
        [game] = await stored_games(database_url)
        assert moves_of(game) == moves_of(backed_up)
        assert (game.snapshot.turn_number, game.snapshot.pending_throw) == (
            backed_up.snapshot.turn_number,
            backed_up.snapshot.pending_throw,
        )
        await bot.start()
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    assert moves_of(game)[: len(backed_up.moves)] == moves_of(backed_up)
    kept = f"{make_url(database_url).database}.before-restore"
    [before] = await stored_games(sqlite_url(Path(kept)))  # what the restore replaced
    assert moves_of(before)[: len(backed_up.moves)] == moves_of(backed_up)


async def played_database(
    start_table: Callable[..., AbstractAsyncContextManager[Table]], turns: int = 3
) -> None:
    """A game in the test's database, a few turns in, the bot stopped."""
    async with start_table() as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=4, level="easy")
        await play_turns(table, turns)


def damage(path: Path, how: str) -> None:
    if how == "not a database":
        path.write_bytes(b"these are not the pages you are looking for" * 100)
    elif how in ("an index page", "a table page"):
        with closing(sqlite3.connect(path)) as db:
            size = db.execute("PRAGMA page_size").fetchone()[0]
            name = "sqlite_autoindex_moves_1" if how == "an index page" else "moves"
            page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
        data = bytearray(path.read_bytes())
        if how == "an index page":  # an index entry's bytes: the index no longer matches its table
            data[page * size - 12 : page * size - 8] = b"\x07" * 4
        else:  # the page's type byte: SQLite cannot read the table at all
            data[(page - 1) * size] = 0xFF
        path.write_bytes(bytes(data))
    elif how == "revision":
        with closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE alembic_version SET version_num = '0008_puzzles'")
    elif how == "move log":
        with closing(sqlite3.connect(path)) as db, db:
            db.execute("DELETE FROM moves WHERE turn_number = 0")  # the first throw is lost


REFUSALS = {
    "not a database": "is damaged or not a SQLite database (file is not a database)",
    "an index page": "is damaged (SQLite's integrity check: ",
    "a table page": "is damaged or not a SQLite database (database disk image is malformed)",
    "revision": f"is at migration revision 0008_puzzles, this bot at {head_revision()}: restore it with "
    "the version of the bot that made it",
    "move log": "game 1's move log ",
}


@pytest.mark.smoke
async def test_a_damaged_or_mismatched_backup_is_refused_and_changes_nothing(
    start_table: Callable[..., AbstractAsyncContextManager[Table]], database_url: str, tmp_path: Path
) -> None:
    await played_database(start_table)
    target = Path(make_url(database_url).database or "")
    taken = tmp_path / "backup.sqlite3"
    assert cli("backup", str(taken), database_url=database_url).returncode == 0
    for how, says in REFUSALS.items():
        copy = tmp_path / f"{how}.sqlite3"
        shutil.copyfile(taken, copy)
        damage(copy, how)
        before = target.read_bytes()
        refused = cli("restore", str(copy), database_url=database_url)
        assert refused.returncode == 1, (how, refused.stdout)
        assert refused.stderr.startswith(f"restore refused: {copy}"), refused.stderr
        assert says in refused.stderr, (how, refused.stderr)
        assert target.read_bytes() == before, how
    assert not list(tmp_path.glob("*.before-restore"))


async def test_a_damaged_database_is_not_backed_up(
    start_table: Callable[..., AbstractAsyncContextManager[Table]], database_url: str, tmp_path: Path
) -> None:
    """The copy is checked before it takes the backup's name: a broken move log leaves no backup."""
    await played_database(start_table)
    broken = tmp_path / "broken.sqlite3"
    with (
        closing(sqlite3.connect(make_url(database_url).database or "")) as db,
        closing(sqlite3.connect(broken)) as to,
    ):
        db.backup(to)
    damage(broken, "move log")
    copy = tmp_path / "backup.sqlite3"
    refused = cli("backup", str(copy), database_url=sqlite_url(broken))
    assert refused.returncode == 1 and "game 1's move log " in refused.stderr, refused.stderr
    assert not copy.exists() and not list(tmp_path.glob("*.partial"))


async def test_backup_and_restore_never_take_the_database_for_its_backup(
    start_table: Callable[..., AbstractAsyncContextManager[Table]], database_url: str, tmp_path: Path
) -> None:
    await played_database(start_table, turns=1)
    database = Path(make_url(database_url).database or "")
    before = database.read_bytes()
    for target, says in (
        (database, "is the database itself"),
        (tmp_path / ".." / tmp_path.name / database.name, "is the database itself"),
        (tmp_path / "backups" / "pachisi.sqlite3", "backups is not a folder: create it first"),
    ):
        refused = cli("backup", str(target), database_url=database_url)
        assert refused.returncode == 1 and says in refused.stderr, refused.stderr
    refused = cli("restore", str(database), database_url=database_url)
    assert refused.returncode == 1 and "is the database itself: name a backup" in refused.stderr
    assert database.read_bytes() == before


async def test_a_postgres_backup_taken_during_play_restores_and_the_game_resumes(
    fake: FakeDiscord, postgres_url: str, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """The same commands drive pg_dump while the bot plays and pg_restore with it stopped; `--keep`
    holds the folder to the newest backups."""
    table = subprocess_table(fake, postgres_url)
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "pachisi-20200101T000000Z.dump").write_text("an old backup, deleted by --keep 1")
    path = f"{postgres_server.bin}:/usr/bin:/bin"
    async with running_bot(fake, bot_env(fake, postgres_url)) as bot:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        await play_turns(table, 3)
        backing_up = asyncio.to_thread(
            cli, "backup", str(folder), "--keep", "1", database_url=postgres_url, path=path
        )
        taken = await while_playing(table, backing_up)
        assert taken.returncode == 0, taken.stderr
        [dump] = folder.iterdir()
        assert taken.stdout.startswith(f"backed up to {dump}: revision {head_revision()}; games: 1, moves: ")
        assert f"removed {folder / 'pachisi-20200101T000000Z.dump'} (--keep 1)" in taken.stdout
        backed_up_moves = int(taken.stdout.split("moves: ")[1].split()[0])

        refused = cli("restore", str(dump), database_url=postgres_url, path=path)
        assert refused.returncode == 1
        assert "other connection(s) to database" in refused.stderr, refused.stderr
        [live] = await stored_games(postgres_url)
        assert len(live.moves) > backed_up_moves  # the refusal changed nothing

        assert await bot.terminate() == 0
        restored = cli("restore", str(dump), database_url=postgres_url, path=path)
        assert restored.returncode == 0, restored.stderr
        assert f"games: 1, moves: {backed_up_moves}" in restored.stdout
        [game] = await stored_games(postgres_url)
        check_move_log(game)
        assert moves_of(game) == moves_of(live)[:backed_up_moves]
        [kept] = folder.glob("before-restore-*.dump")  # the database the restore replaced
        assert kept.stat().st_size > 0
        await bot.start()
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(postgres_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"


async def test_a_postgres_restore_refuses_what_is_not_a_dump(
    postgres_url: str, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    path = f"{postgres_server.bin}:/usr/bin:/bin"
    assert cli("backup", str(tmp_path / "empty.dump"), database_url=postgres_url, path=path).returncode == 1
    assert not list(tmp_path.iterdir())  # no revision in an empty database: nothing kept
    (tmp_path / "bad.dump").write_bytes(b"not a dump" * 100)
    refused = cli("restore", str(tmp_path / "bad.dump"), database_url=postgres_url, path=path)
    assert refused.returncode == 1
    assert "bad.dump is not a readable pg_dump archive" in refused.stderr
    missing = cli("backup", str(tmp_path / "x.dump"), database_url=postgres_url, path=str(tmp_path))
    assert "pg_dump is not installed" in missing.stderr
