"""The command line (bot/__main__.py): every command has its own --help, `--version` comes from the
package, the exit status says what happened (0 done, 1 failed, 2 usage or settings), and the
console script `pachisi-bot` is `python -m bot` by another name. Called in this process (`cli`,
tests/bot/conftest.py); tests/bot/test_main.py runs both as processes."""

from __future__ import annotations

import ast
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.support.command_line import MODULE, CommandLine

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["run", "sync", "ratings", "play", "backup", "restore", "healthcheck"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help(cli: CommandLine, tmp_path: Path, command: str) -> None:
    done = cli(command, "--help")
    assert done.status == 0, done.err
    assert done.out.startswith(f"usage: python -m bot {command} "), done.out
    assert done.err == ""
    assert list(tmp_path.iterdir()) == []  # `backup --help` once wrote a backup named --help


def test_the_help_lists_every_command(cli: CommandLine) -> None:
    done = cli("--help")
    assert done.status == 0
    listed = [
        line.split()[0]
        for line in done.out.split("commands:")[1].splitlines()[2:]
        if line[:4] == "    " and line[4] != " "
    ]
    assert listed == COMMANDS


def test_version_comes_from_the_package(cli: CommandLine) -> None:
    done = cli("--version")
    assert (done.status, done.out) == (0, f"python -m bot {version('pachisi-discord')}\n")


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
    cli: CommandLine, args: list[str], settings: dict[str, str], status: int, said: str
) -> None:
    """Each refusal is its exit status and a sentence (an unexpected exception would fail here)."""
    done = cli(*args, **settings)
    assert done.status == status, done.err
    assert said in done.err


def test_an_unknown_command_is_refused_with_the_usage(cli: CommandLine) -> None:
    done = cli("synk")
    assert done.status == 2
    assert done.err.startswith("usage: python -m bot [-h] [--version] COMMAND ...\n")
    assert "invalid choice: 'synk' (choose from 'run', 'sync', " in done.err


@pytest.mark.parametrize(
    ("argv0", "name"),
    [
        (MODULE, "python -m bot"),
        (str(Path(sys.executable).with_name("pachisi-bot")), "pachisi-bot"),
        ("-c", "python -m bot"),
    ],
    ids=["module", "console script", "-c"],
)
@pytest.mark.parametrize("args", [["--help"], ["backup", "--help"], ["play", "--help"], ["--version"]])
def test_the_program_is_named_as_it_was_called(
    cli: CommandLine, argv0: str, name: str, args: list[str]
) -> None:
    """The console script names itself `pachisi-bot`, the module `python -m bot`; otherwise they
    say the same (the console script as a process: tests/bot/test_main.py)."""
    done = cli(*args, argv0=argv0)
    module = cli(*args)
    assert done.status == module.status == 0
    assert done.out.startswith((f"usage: {name} ", f"{name} ")), done.out
    assert done.out.replace(name, "python -m bot").split() == module.out.split()


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
