"""Backups an operator can leave running (bot/backup.py): into a folder, named by the time, with
`--keep N` deleting all but the newest N of those, and nothing else in the folder."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import backup, backups
from bot.core.store import upgrade

ROOT = Path(__file__).resolve().parents[2]
NOON = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
async def database(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'pachisi.sqlite3'}"
    await upgrade(url)
    return url


async def test_keep_deletes_only_the_oldest_time_named_backups(database: str, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    others = [
        "notes.txt",
        "pachisi-20200101T000000Z.dump",
        "pachisi-old.sqlite3",
        "pachisi-20200101T000000Z.sqlite3.partial",
    ]
    for name in others:
        (folder / name).write_text("not ours to delete")
    taken = [backups.take(database, folder, keep=2, now=NOON + timedelta(hours=hour)) for hour in range(4)]
    assert [Path(t.checked.path).name for t in taken] == [
        f"pachisi-20261206T{12 + h}0000Z.sqlite3" for h in range(4)
    ]
    assert [[p.name for p in t.removed] for t in taken] == [
        [],
        [],
        ["pachisi-20261206T120000Z.sqlite3"],
        ["pachisi-20261206T130000Z.sqlite3"],
    ]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [*others, "pachisi-20261206T140000Z.sqlite3", "pachisi-20261206T150000Z.sqlite3"]
    )
    assert backup.check(folder / "pachisi-20261206T150000Z.sqlite3").revision == backup.head_revision()


async def test_a_failed_backup_deletes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    for hour in range(3):
        (folder / f"pachisi-20261206T0{hour}0000Z.sqlite3").write_text("an older backup")
    missing = f"sqlite+aiosqlite:///{tmp_path / 'missing.sqlite3'}"
    with pytest.raises(backup.BackupError, match="does not exist: nothing to back up"):
        backups.take(missing, folder, keep=1, now=NOON)
    assert len(list(folder.iterdir())) == 3


async def test_keep_needs_a_folder(database: str, tmp_path: Path) -> None:
    with pytest.raises(backup.BackupError, match="--keep needs a folder"):
        backups.take(database, tmp_path / "one.sqlite3", keep=3)
    assert not (tmp_path / "one.sqlite3").exists()


async def test_the_command_keeps_the_newest(database: str, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "pachisi-20200101T000000Z.sqlite3").write_text("an old backup")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | {
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": database,
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(folder), "--keep", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    [kept] = folder.iterdir()
    assert done.stdout.splitlines() == [
        f"backed up to {kept}: revision {backup.head_revision()}; games: 0, moves: 0, "
        "each replayed to its stored position",
        f"removed {folder / 'pachisi-20200101T000000Z.sqlite3'} (--keep 1)",
    ]
