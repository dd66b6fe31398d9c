"""Backups of the SQLite database that lose nothing: `python -m bot backup FILE` and `restore FILE`.

The copy is made with SQLite's online backup (one step, one read snapshot: a running bot keeps
writing in WAL mode meanwhile) into FILE.partial, which becomes FILE only once it passes the
check: SQLite's integrity check, a migration revision, and every game's move log replaying to its
stored position. A restore checks the backup the same way, refuses a backup of another schema
revision than this bot's and refuses while a bot runs on the target (each `python -m bot` holds a
shared lock on DATABASE.lock for its life, see `running_on`), then writes it in through SQLite's
backup API too, so the target's WAL is handled by SQLite; the database it replaces is kept as
DATABASE.before-restore. PostgreSQL goes through the same command to pg_dump and pg_restore
(bot/pgbackup.py).

Which database a backup is of, where it goes and how many are kept: bot/backups.py.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, make_url, select
from sqlalchemy.orm import Session

from bot.core.snapshot import game_snapshot
from bot.core.store import GameRow, MoveRow, alembic_config
from engine import Position, parse_move
from engine.errors import PachisiError
from engine.game import Game


class BackupError(Exception):
    """A backup or restore refused; the message says why and what to do."""


@dataclass(frozen=True)
class Checked:
    """What a checked database holds."""

    path: Path
    revision: str
    games: int
    moves: int

    def __str__(self) -> str:
        return (
            f"{self.path}: revision {self.revision}; games: {self.games}, moves: {self.moves}, "
            "each replayed to its stored position"
        )


def sqlite_path(database_url: str) -> Path:
    """The SQLite file of DATABASE_URL; PostgreSQL is refused with where to look instead."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database:
        raise BackupError("DATABASE_URL is not a SQLite file")
    return Path(url.database)


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextmanager
def running_on(database_url: str) -> Iterator[None]:
    """Held by a running bot: a shared lock on the SQLite database's lock file, so several
    processes may run, and `restore` (which needs it alone) knows to refuse. Released by the
    kernel when the process ends, however it ends. Nothing for PostgreSQL."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        yield
        return
    with open(lock_path(Path(url.database)), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)  # waits while a restore runs
        yield


def head_revision() -> str:
    """The migration revision this bot's code expects."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def check(path: Path) -> Checked:
    """SQLite's integrity check, the migration revision, and every game replayed from its move log
    to its stored position; raises BackupError naming the first problem."""
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise BackupError(f"{path} is damaged (SQLite's integrity check: {'; '.join(problems)})")
            revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is damaged or not a SQLite database ({exc})") from exc
    if revision is None:
        raise BackupError(f"{path} has no migration revision: not a Pachisi database")
    games, moves = replay_all(path)
    return Checked(path, revision[0], games, moves)


def replay_all(path: Path) -> tuple[int, int]:
    """Replay every game's move log; (games, moves) when all end where the games say they are."""
    engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    games = moves = 0
    try:
        with Session(engine) as session:
            for row in session.scalars(select(GameRow).order_by(GameRow.id)):
                log = list(
                    session.scalars(
                        select(MoveRow).where(MoveRow.game_id == row.id).order_by(MoveRow.turn_number)
                    )
                )
                game = game_snapshot(row, [])
                numbers = [move.turn_number for move in log]
                if numbers != list(range(game.turn_number)):
                    raise BackupError(
                        f"{path}: game {row.id}'s move log has a gap or a double: {len(numbers)} "
                        f"throws stored, the game counts {game.turn_number}"
                    )
                try:
                    throws = [(m.throw, None if m.move is None else parse_move(m.move)) for m in log]
                    replayed = Game.replay(Position.initial(game.rules), throws).position
                except PachisiError as exc:
                    raise BackupError(f"{path}: game {row.id}'s move log does not replay ({exc})") from exc
                # The stored live position: a resignation's result is kept apart (`conceded_to`).
                if replayed != Position.parse(row.position):
                    raise BackupError(f"{path}: game {row.id}'s move log replays to another position")
                games, moves = games + 1, moves + len(log)
    finally:
        engine.dispose()
    return games, moves


def backup(database_url: str, target: Path) -> Checked:
    """Copy the live database to `target` and check the copy (FILE.partial until it passes)."""
    source = sqlite_path(database_url)
    if not source.is_file():
        raise BackupError(f"{source} does not exist: nothing to back up (DATABASE_URL)")
    own = {source.resolve().with_name(source.name + suffix) for suffix in ("", "-wal", "-shm", "-journal")}
    if target.resolve() in own:
        raise BackupError(f"{target} is the database itself: name another file")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder: create it first")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
        live.backup(copy)  # all pages in one step: one consistent snapshot
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    try:
        checked = check(partial)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return Checked(target, checked.revision, checked.games, checked.moves)


def restore(backup_file: Path, database_url: str) -> Checked:
    """Write a checked backup of this bot's revision over the database, with no bot running on it."""
    target = sqlite_path(database_url)
    if backup_file.resolve() == target.resolve():
        raise BackupError(f"{backup_file} is the database itself: name a backup")
    checked = check(backup_file)
    head = head_revision()
    if checked.revision != head:
        raise BackupError(
            f"{backup_file} is at migration revision {checked.revision}, this bot at {head}: restore it "
            f"with the version of the bot that made it, or upgrade a copy first "
            f"(alembic -x url=sqlite:///COPY upgrade head) and restore the copy"
        )
    with open(lock_path(target), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                f"a bot is running on {target}: stop it (every process using DATABASE_URL) and restore again"
            ) from None
        if target.exists():
            keep(target, target.with_name(target.name + ".before-restore"))
        with closing(sqlite3.connect(backup_file)) as source, closing(sqlite3.connect(target)) as live:
            source.backup(live)
    return check_restored(target, checked)


def keep(database: Path, copy: Path) -> None:
    """A copy of the database a restore replaces, unchecked: it may be the damaged one."""
    copy.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(database)) as live, closing(sqlite3.connect(copy)) as kept:
            live.backup(kept)
    except sqlite3.DatabaseError:  # too damaged for SQLite to read: the files as they are
        for suffix in ("", "-wal"):
            if Path(f"{database}{suffix}").exists():
                shutil.copyfile(f"{database}{suffix}", f"{copy}{suffix}")


def check_restored(target: Path, expected: Checked) -> Checked:
    """The restored database holds what the backup held."""
    games, moves = replay_all(target)
    if (games, moves) != (expected.games, expected.moves):
        raise BackupError(
            f"{target} holds {games} games and {moves} moves after the restore, "
            f"the backup {expected.games} and {expected.moves}"
        )
    return Checked(target, expected.revision, games, moves)
