"""PostgreSQL backups through the same command as SQLite's (`python -m bot backup` / `restore`).

`backup` runs `pg_dump --format=custom` while the bots run (one consistent snapshot) into
FILE.partial, which becomes FILE once `pg_restore` reads it back: its migration revision, and its
games and moves counted. `restore` checks the dump the same way, refuses a dump of another revision
than this bot's and refuses while anyone else is connected to the database (stop every bot first),
keeps the database it replaces as a dump beside the backup (`before-restore-<time>.dump`), then
runs `pg_restore --clean --single-transaction` (all or nothing) and counts the rows again.

pg_dump and pg_restore are PostgreSQL's client programs, found on PATH, of the server's major
version or newer. The password goes to them in PGPASSWORD, never on a command line.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import make_url

from bot.backup import BackupError, head_revision

COPY = re.compile(r"^COPY (?:\w+\.)?(\w+) ")
OTHERS = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
)
COUNTS = "SELECT (SELECT count(*) FROM games) || ',' || (SELECT count(*) FROM moves)"


@dataclass(frozen=True)
class Dumped:
    """What a checked dump (or a restored database) holds."""

    path: Path | str
    revision: str
    games: int
    moves: int

    def __str__(self) -> str:
        return f"{self.path}: revision {self.revision}; games: {self.games}, moves: {self.moves}"


def connection(database_url: str) -> tuple[str, dict[str, str]]:
    """The address as libpq takes it, and the environment that carries the password."""
    url = make_url(database_url)
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return url.set(drivername="postgresql", password=None).render_as_string(hide_password=False), env


def program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client programs (Debian: postgresql-client), "
            "of the server's major version or newer"
        )
    return found


def run(argv: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise BackupError(f"{Path(argv[0]).name} failed: {said[-1] if said else done.returncode}")


def contents(path: Path) -> Dumped:
    """Read the dump back with pg_restore: the revision, and the games' and moves' rows."""
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    argv = [program("pg_restore"), "--data-only", "--file=-", str(path)]
    argv[2:2] = ["--table=alembic_version", "--table=games", "--table=moves"]
    rows: Counter[str] = Counter()
    revision = None
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as reading:
        assert reading.stdout is not None and reading.stderr is not None
        table = None
        for line in reading.stdout:  # streamed: a dump may hold millions of moves
            if table is None:
                found = COPY.match(line)
                table = found.group(1) if found else None
            elif line == "\\.\n":
                table = None
            else:
                rows[table] += 1
                revision = line.strip() if table == "alembic_version" else revision
        said = reading.stderr.read().strip().splitlines()
    if reading.returncode != 0:
        raise BackupError(f"{path} is not a readable pg_dump archive ({said[-1] if said else 'pg_restore'})")
    if revision is None:
        raise BackupError(f"{path} has no migration revision: not a dump of a Pachisi database")
    return Dumped(path, revision, rows["games"], rows["moves"])


def backup(database_url: str, target: Path) -> Dumped:
    """pg_dump the database to `target`, kept only once pg_restore reads it back."""
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder: create it first")
    address, env = connection(database_url)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        run([program("pg_dump"), "--format=custom", f"--file={partial}", f"--dbname={address}"], env)
        dumped = contents(partial)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return Dumped(target, dumped.revision, dumped.games, dumped.moves)


def restore(backup_file: Path, database_url: str) -> Dumped:
    """Write a checked dump of this bot's revision over the database, with nobody else connected."""
    from bot import health  # with discord.py and aiohttp: only a PostgreSQL restore asks the server

    dumped = contents(backup_file)
    head = head_revision()
    if dumped.revision != head:
        raise BackupError(
            f"{backup_file} is at migration revision {dumped.revision}, this bot at {head}: restore it "
            "with the version of the bot that made it"
        )
    others = int(asyncio.run(health.postgres_ask(database_url, (OTHERS,), 10.0)))
    url = make_url(database_url)
    if others:
        raise BackupError(
            f"{others} other connection(s) to database {url.database} at {url.host}: stop every bot "
            "using DATABASE_URL and restore again"
        )
    address, env = connection(database_url)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = backup_file.resolve().with_name(f"before-restore-{stamp}.dump")
    run([program("pg_dump"), "--format=custom", f"--file={kept}", f"--dbname={address}"], env)
    restore_argv = ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error"]
    run([program("pg_restore"), *restore_argv, f"--dbname={address}", str(backup_file)], env)
    games, moves = map(int, asyncio.run(health.postgres_ask(database_url, (COUNTS,), 10.0)).split(","))
    if (games, moves) != (dumped.games, dumped.moves):
        raise BackupError(
            f"database {url.database} holds {games} games and {moves} moves after the restore, "
            f"the dump {dumped.games} and {dumped.moves}"
        )
    return Dumped(f"database {url.database} (the one it replaced is kept in {kept})", head, games, moves)
