"""Backups that lose nothing: `python -m bot backup` of a live database, `restore` of it into a
stopped bot, for SQLite and (through pg_dump and pg_restore) PostgreSQL; each restored game resumes
and finishes. Damaged, mismatched or ill-timed restores are refused and change nothing.

The commands run in this process (`cli`, tests/support/command_line.py) and so does the bot, holding
the lock `python -m bot run` holds for its life (`backup.running_on`): a backup's copy and check are
the same beside a bot in this process as beside one in another. That a bot process holds the lock,
and that a SIGKILL releases it, is tested on a real process in test_restart.py."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager, closing
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import make_url

from bot import backup
from bot.backup import head_revision
from tests.support.command_line import CommandLine, Done
from tests.support.play import StoredGame
from tests.support.processes import PostgresServer, check_move_log, stored_games
from tests.support.table import Table, play_out, play_turns

T = TypeVar("T")


async def in_a_thread(cli: CommandLine, *args: str, **settings: str) -> Done:
    """The command run beside the bot, as an operator's `python -m bot` runs beside its process."""
    return await asyncio.to_thread(cli, *args, **settings)


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


StartTable = Callable[..., AbstractAsyncContextManager[Table]]


@asynccontextmanager
async def bot_running(start_table: StartTable, database_url: str) -> AsyncIterator[Table]:
    """The bot in this process, holding the lock `python -m bot run` holds while it runs."""
    with backup.running_on(database_url):
        async with start_table() as table:
            yield table


async def test_a_backup_taken_during_play_restores_and_the_game_resumes(
    start_table: StartTable, database_url: str, tmp_path: Path, cli: CommandLine
) -> None:
    copy = tmp_path / "backup.sqlite3"
    async with bot_running(start_table, database_url) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        await play_turns(table, 3)
        taken = await while_playing(table, in_a_thread(cli, "backup", str(copy), DATABASE_URL=database_url))
        assert taken.status == 0, taken.err
        assert f"backed up to {copy}: revision" in taken.out and "games: 1," in taken.out
        [backed_up] = await stored_games(sqlite_url(copy))
        check_move_log(backed_up)

        refused = cli("restore", str(copy), DATABASE_URL=database_url)
        assert refused.status == 1
        assert f"restore refused: a bot is running on {make_url(database_url).database}" in refused.err
        [live] = await stored_games(database_url)
        assert live.snapshot.turn_number > backed_up.snapshot.turn_number  # the refusal changed nothing

    restored = cli("restore", str(copy), DATABASE_URL=database_url)
    assert restored.status == 0, restored.err
    [game] = await stored_games(database_url)
    assert moves_of(game) == moves_of(backed_up)
    assert (game.snapshot.turn_number, game.snapshot.pending_throw) == (
        backed_up.snapshot.turn_number,
        backed_up.snapshot.pending_throw,
    )
    async with bot_running(start_table, database_url) as table:
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    assert moves_of(game)[: len(backed_up.moves)] == moves_of(backed_up)
    kept = f"{make_url(database_url).database}.before-restore"
    [before] = await stored_games(sqlite_url(Path(kept)))  # what the restore replaced
    assert moves_of(before)[: len(backed_up.moves)] == moves_of(backed_up)


async def played_database(start_table: StartTable, turns: int = 3) -> None:
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
    start_table: StartTable, database_url: str, tmp_path: Path, cli: CommandLine
) -> None:
    await played_database(start_table)
    target = Path(make_url(database_url).database or "")
    taken = tmp_path / "backup.sqlite3"
    assert cli("backup", str(taken), DATABASE_URL=database_url).status == 0
    for how, says in REFUSALS.items():
        copy = tmp_path / f"{how}.sqlite3"
        shutil.copyfile(taken, copy)
        damage(copy, how)
        before = target.read_bytes()
        refused = cli("restore", str(copy), DATABASE_URL=database_url)
        assert refused.status == 1, (how, refused.out)
        assert refused.err.startswith(f"restore refused: {copy}"), refused.err
        assert says in refused.err, (how, refused.err)
        assert target.read_bytes() == before, how
    assert not list(tmp_path.glob("*.before-restore"))


async def test_a_damaged_database_is_not_backed_up(
    start_table: StartTable, database_url: str, tmp_path: Path, cli: CommandLine
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
    refused = cli("backup", str(copy), DATABASE_URL=sqlite_url(broken))
    assert refused.status == 1 and "game 1's move log " in refused.err, refused.err
    assert not copy.exists() and not list(tmp_path.glob("*.partial"))


async def test_backup_and_restore_never_take_the_database_for_its_backup(
    start_table: StartTable, database_url: str, tmp_path: Path, cli: CommandLine
) -> None:
    await played_database(start_table, turns=1)
    database = Path(make_url(database_url).database or "")
    before = database.read_bytes()
    for target, says in (
        (database, "is the database itself"),
        (tmp_path / ".." / tmp_path.name / database.name, "is the database itself"),
        (tmp_path / "backups" / "pachisi.sqlite3", "backups is not a folder: create it first"),
    ):
        refused = cli("backup", str(target), DATABASE_URL=database_url)
        assert refused.status == 1 and says in refused.err, refused.err
    refused = cli("restore", str(database), DATABASE_URL=database_url)
    assert refused.status == 1 and "is the database itself: name a backup" in refused.err
    assert database.read_bytes() == before


async def test_a_postgres_backup_taken_during_play_restores_and_the_game_resumes(
    start_table: StartTable,
    postgres_url: str,
    postgres_server: PostgresServer,
    tmp_path: Path,
    cli: CommandLine,
) -> None:
    """The same commands drive pg_dump while the bot plays and pg_restore with it stopped; `--keep`
    holds the folder to the newest backups."""
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "pachisi-20200101T000000Z.dump").write_text("an old backup, deleted by --keep 1")
    path = f"{postgres_server.bin}:/usr/bin:/bin"
    async with start_table(database_url=postgres_url) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        await play_turns(table, 3)
        backing_up = in_a_thread(
            cli, "backup", str(folder), "--keep", "1", DATABASE_URL=postgres_url, PATH=path
        )
        taken = await while_playing(table, backing_up)
        assert taken.status == 0, taken.err
        [dump] = folder.iterdir()
        assert taken.out.startswith(f"backed up to {dump}: revision {head_revision()}; games: 1, moves: ")
        assert f"removed {folder / 'pachisi-20200101T000000Z.dump'} (--keep 1)" in taken.out
        backed_up_moves = int(taken.out.split("moves: ")[1].split()[0])

        refused = await in_a_thread(cli, "restore", str(dump), DATABASE_URL=postgres_url, PATH=path)
        assert refused.status == 1
        assert "other connection(s) to database" in refused.err, refused.err
        [live] = await stored_games(postgres_url)
        assert len(live.moves) > backed_up_moves  # the refusal changed nothing

    restored = await in_a_thread(cli, "restore", str(dump), DATABASE_URL=postgres_url, PATH=path)
    assert restored.status == 0, restored.err
    assert f"games: 1, moves: {backed_up_moves}" in restored.out
    [game] = await stored_games(postgres_url)
    check_move_log(game)
    assert moves_of(game) == moves_of(live)[:backed_up_moves]
    [kept] = folder.glob("before-restore-*.dump")  # the database the restore replaced
    assert kept.stat().st_size > 0
    async with start_table(database_url=postgres_url) as table:
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(postgres_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"


async def test_a_postgres_restore_refuses_what_is_not_a_dump(
    postgres_url: str, postgres_server: PostgresServer, tmp_path: Path, cli: CommandLine
) -> None:
    path = f"{postgres_server.bin}:/usr/bin:/bin"
    empty = await in_a_thread(
        cli, "backup", str(tmp_path / "empty.dump"), DATABASE_URL=postgres_url, PATH=path
    )
    assert empty.status == 1
    assert not list(tmp_path.iterdir())  # no revision in an empty database: nothing kept
    (tmp_path / "bad.dump").write_bytes(b"not a dump" * 100)
    refused = await in_a_thread(
        cli, "restore", str(tmp_path / "bad.dump"), DATABASE_URL=postgres_url, PATH=path
    )
    assert refused.status == 1
    assert "bad.dump is not a readable pg_dump archive" in refused.err
    missing = await in_a_thread(
        cli, "backup", str(tmp_path / "x.dump"), DATABASE_URL=postgres_url, PATH=str(tmp_path)
    )
    assert "pg_dump is not installed" in missing.err
