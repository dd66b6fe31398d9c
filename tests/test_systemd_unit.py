"""deploy/pachisi-bot.service, the way to run the bot without Docker: read as systemd reads it, and
checked by systemd's own `systemd-analyze verify` and `security` where systemd-analyze exists."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.core.config import Settings
from tests.support.processes import REPO_ROOT

UNIT = REPO_ROOT / "deploy" / "pachisi-bot.service"
INSTALL = Path("/opt/pachisi")
"""Where the unit expects the checkout, its .venv and its .env."""


def unit(text: str | None = None) -> dict[str, dict[str, str]]:
    """Sections of key=value lines (systemd's syntax as far as this file goes: comments start with
    # or ;, a line's last assignment wins)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for raw in (text if text is not None else UNIT.read_text()).splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, equals, value = line.partition("=")
        assert equals, f"not a key=value line: {raw!r}"
        current[key.strip()] = value.strip()
    return sections


def seconds(value: str) -> float:
    units = {"ms": 0.001, "s": 1, "min": 60}
    for suffix, factor in units.items():
        if value.endswith(suffix) and value[: -len(suffix)].replace(".", "").isdigit():
            return float(value[: -len(suffix)]) * factor
    return float(value)


def test_the_unit_runs_the_bot_from_its_environment_with_env_as_settings() -> None:
    service = unit()["Service"]
    assert service["ExecStart"] == f"{INSTALL}/.venv/bin/python -m bot"
    assert service["EnvironmentFile"] == f"{INSTALL}/.env"
    assert service["WorkingDirectory"] == f"/var/lib/{service['StateDirectory']}"
    assert service["Restart"] == "on-failure"
    assert service["User"] not in ("root", "0") and service["Group"] not in ("root", "0")
    # Long enough for the bot's own shutdown, as the compose file allows it.
    grace = yaml.safe_load((REPO_ROOT / "compose.yaml").read_text())["services"]["bot"]["stop_grace_period"]
    assert seconds(service["TimeoutStopSec"]) >= seconds(grace)
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_is_hardened() -> None:
    service = unit()["Service"]
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "PrivateDevices": "yes",
        "CapabilityBoundingSet": "",
        "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
        "SystemCallFilter": "@system-service",
    }.items():
        assert service.get(key) == value, key


def test_env_example_reads_as_an_environment_file() -> None:
    """systemd takes .env as it is: KEY=VALUE lines and comments, every key one the bot or
    Compose reads."""
    settings = {name.upper() for name in Settings.model_fields} | {"COMPOSE_FILE", "POSTGRES_PASSWORD"}
    for line in (REPO_ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, equals, _ = line.partition("=")
            assert equals and key in settings and " " not in key, line


def test_the_backup_job_runs_the_same_install_as_the_same_user_with_the_same_settings() -> None:
    """deploy/systemd/pachisi-backup.service reads .env from its working folder, the bot's
    EnvironmentFile: one settings file, so one DATABASE_URL (the README has it absolute, since the
    two run in different folders)."""
    bot = unit()["Service"]
    backup = unit((REPO_ROOT / "deploy" / "systemd" / "pachisi-backup.service").read_text())["Service"]
    assert (backup["User"], backup["Group"]) == (bot["User"], bot["Group"])
    assert backup["ExecStart"].startswith(f"{INSTALL}/.venv/bin/")
    assert Path(backup["WorkingDirectory"]) / ".env" == Path(bot["EnvironmentFile"])
    assert backup["WorkingDirectory"] != bot["WorkingDirectory"]  # hence the absolute DATABASE_URL


def systemd_analyze() -> str | None:
    return shutil.which("systemd-analyze")


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """The unit as it would be with the checkout at `tmp_path` (a real environment's python and a
    .env), so that systemd-analyze can check every path it names."""
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (tmp_path / ".env").write_text((REPO_ROOT / ".env.example").read_text())
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace(str(INSTALL), str(tmp_path)))
    return copy


@pytest.mark.skipif(systemd_analyze() is None, reason="systemd-analyze is not installed (package systemd)")
def test_systemd_analyze_verifies_the_unit(installed: Path) -> None:
    env = os.environ | {"SYSTEMD_LOG_LEVEL": "notice"}
    done = subprocess.run(
        [str(systemd_analyze()), "verify", str(installed)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.skipif(systemd_analyze() is None, reason="systemd-analyze is not installed (package systemd)")
def test_systemd_rates_the_units_exposure_ok(installed: Path) -> None:
    """systemd's own score of what the service may reach: 0 is locked down, 10 is everything;
    under 3 is what it calls OK."""
    done = subprocess.run(
        [str(systemd_analyze()), "security", "--offline=yes", "--threshold=30", str(installed)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "Overall exposure level" in done.stdout and " OK" in done.stdout.splitlines()[-1]
