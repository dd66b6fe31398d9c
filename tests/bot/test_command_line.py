"""The command line (bot/__main__.py): every command has its own --help, `--version` comes from the
package, the exit status says what happened (0 done, 1 failed, 2 usage or settings), and the
console script `pachisi-bot` is `python -m bot`."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from bot.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["run", "sync", "ratings", "play", "backup", "restore", "healthcheck"]
CONSOLE_SCRIPT = Path(sys.executable).with_name("pachisi-bot")


def run(
    tmp_path: Path, *args: str, argv0: list[str] | None = None, settings: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command in an empty folder, with no setting from this machine but `settings`."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    env |= {"PYTHONPATH": str(ROOT)} | (settings or {})
    command = argv0 or [sys.executable, "-m", "bot"]
    return subprocess.run(
        [*command, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help(tmp_path: Path, command: str) -> None:
    done = run(tmp_path, command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m bot {command} "), done.stdout
    assert done.stderr == ""
    assert list(tmp_path.iterdir()) == []  # `backup --help` once wrote a backup named --help


def test_the_help_lists_every_command(tmp_path: Path) -> None:
    done = run(tmp_path, "--help")
    assert done.returncode == 0
    listed = [
        line.split()[0]
        for line in done.stdout.split("commands:")[1].splitlines()[2:]
        if line[:4] == "    " and line[4] != " "
    ]
    assert listed == COMMANDS


def test_version_comes_from_the_package(tmp_path: Path) -> None:
    done = run(tmp_path, "--version")
    assert (done.returncode, done.stdout) == (0, f"python -m bot {version('pachisi-discord')}\n")


@pytest.mark.parametrize(
    ("args", "settings", "status", "said"),
    [
        (["bogus"], {}, 2, "invalid choice: 'bogus'"),
        (["ratings"], {}, 2, "the following arguments are required: --rebuild"),
        (["backup"], {}, 2, "the following arguments are required: TARGET"),
        (["backup", "copy.sqlite3", "--keep", "2"], {}, 2, "--keep needs TARGET to be a folder"),
        (["backup", ".", "--keep", "0"], {}, 2, "not a number of backups (1 or more): '0'"),
        (["backup", "a", "b"], {}, 2, "unrecognized arguments: b"),
        (["play", "--port", "many"], {}, 2, "argument --port: invalid int value: 'many'"),
        (["run"], {}, 2, "DISCORD_TOKEN is not set"),
        (["backup", "copy.sqlite3"], {}, 1, "backup refused: pachisi.sqlite3 does not exist"),
        (["healthcheck"], {}, 1, "METRICS_PORT is not set"),
        (["healthcheck"], {"METRICS_PORT": "1"}, 1, "unhealthy: "),
        (["sync"], {"LOG_LEVEL": "LOUD"}, 2, "setting LOG_LEVEL='LOUD'"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_exit_status(
    tmp_path: Path, args: list[str], settings: dict[str, str], status: int, said: str
) -> None:
    done = run(tmp_path, *args, settings=settings)
    assert done.returncode == status, done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not CONSOLE_SCRIPT.exists(), reason="the package is not installed in this interpreter")
@pytest.mark.parametrize("args", [["--help"], ["backup", "--help"], ["play", "--help"], ["--version"]])
def test_the_console_script_is_the_module(tmp_path: Path, args: list[str]) -> None:
    script = run(tmp_path, *args, argv0=[str(CONSOLE_SCRIPT)])
    module = run(tmp_path, *args)
    assert script.returncode == module.returncode == 0
    assert script.stdout.replace("pachisi-bot", "python -m bot").split() == module.stdout.split()


def test_the_bot_and_the_stand_in_never_import_each_other() -> None:
    """`play` hands over by module name (runpy); the stand-in's entry imports nothing of the bot."""

    def imported(path: Path) -> set[str]:
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module.split(".")[0])
        return found

    assert all("localdiscord" not in imported(path) for path in (ROOT / "bot").rglob("*.py"))
    assert "bot" not in imported(ROOT / "localdiscord" / "__main__.py")
