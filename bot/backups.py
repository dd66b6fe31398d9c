"""The backup command over either database: `python -m bot backup TARGET [--keep N]` and `restore FILE`.

Backups an operator can leave running: given a folder, `backup` names the file by the time
(`pachisi-20261206T031500Z.sqlite3`, `.dump` for PostgreSQL) and, with `keep`, deletes the oldest of
those beyond the newest `keep` once the new one has passed its check. Nothing else in the folder is
touched. SQLite's copy and check are bot/backup.py's, PostgreSQL's bot/pgbackup.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import make_url

from bot import backup, pgbackup
from bot.backup import BackupError, Checked
from bot.pgbackup import Dumped

STAMPED = re.compile(r"^pachisi-\d{8}T\d{6}Z\.(sqlite3|dump)$")
"""The names `backup` gives in a folder; retention deletes nothing else."""


@dataclass(frozen=True)
class Taken:
    """A backup written (`Checked`, or PostgreSQL's `Dumped`), and the older ones retention removed."""

    checked: Checked | Dumped
    removed: list[Path] = field(default_factory=list)


def take(database_url: str, target: Path, keep: int | None = None, now: datetime | None = None) -> Taken:
    """`backup TARGET [--keep N]`: TARGET a file, or a folder to write a file named by the time
    into, keeping the newest `keep` of those."""
    postgres = make_url(database_url).get_backend_name() == "postgresql"
    write = pgbackup.backup if postgres else backup.backup
    if not target.is_dir():
        if keep is not None:
            raise BackupError(f"--keep needs a folder to keep backups in; {target} is not one")
        return Taken(write(database_url, target))
    suffix = "dump" if postgres else "sqlite3"
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    written = write(database_url, target / f"pachisi-{stamp}.{suffix}")
    return Taken(written, [] if keep is None else prune(target, suffix, keep))


def prune(folder: Path, suffix: str, keep: int) -> list[Path]:
    """Delete all but the newest `keep` of the time-named backups in `folder` (by their names)."""
    stamped = sorted(p for p in folder.iterdir() if STAMPED.match(p.name) and p.suffix == f".{suffix}")
    old = stamped[: max(0, len(stamped) - keep)]
    for path in old:
        path.unlink()
    return old


def put_back(backup_file: Path, database_url: str) -> Checked | Dumped:
    """`restore FILE`: into SQLite or PostgreSQL, whichever DATABASE_URL names."""
    if make_url(database_url).get_backend_name() == "postgresql":
        return pgbackup.restore(backup_file, database_url)
    return backup.restore(backup_file, database_url)
