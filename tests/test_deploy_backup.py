"""The backup schedule in deploy/systemd/: the timer's calendar is valid, the units load, and the
service runs a backup command the bot's own command line accepts (`backup FOLDER --keep N`)."""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.__main__ import parser

UNITS = Path(__file__).resolve().parents[1] / "deploy" / "systemd"


def unit(name: str) -> configparser.RawConfigParser:
    read = configparser.RawConfigParser(strict=False, interpolation=None)
    read.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    read.read(UNITS / name)
    return read


def test_the_service_runs_a_backup_with_retention_outside_the_database() -> None:
    service = unit("pachisi-backup.service")["Service"]
    program, *args = shlex.split(service["ExecStart"])
    assert program.endswith("/pachisi-bot")
    options = parser("pachisi-bot").parse_args(args)
    assert (options.command, options.keep) == ("backup", 14)
    assert not options.target.startswith(service["WorkingDirectory"])  # not beside the database
    assert options.target in service["ExecStartPre"]  # the folder is made before the backup
    assert service["Type"] == "oneshot"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units() -> None:
    calendar = unit("pachisi-backup.timer")["Timer"]["OnCalendar"]
    checked = subprocess.run(["systemd-analyze", "calendar", calendar], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    verified = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "pachisi-backup.timer", "pachisi-backup.service"],
        cwd=UNITS,
        capture_output=True,
        text=True,
    )
    # Everything but the installed bot's absence on this machine would be a fault in the units.
    problems = [line for line in verified.stderr.splitlines() if "/opt/pachisi/" not in line]
    assert problems == [], verified.stderr
