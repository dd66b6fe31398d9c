"""Every fault an operator can make in the settings is one line on standard error and exit status 2,
naming the setting, what is wrong and a good value; a database that does not answer at start is one
line and exit status 1 (`python -m bot` called in this process, bot/core/config.py, bot/preflight.py;
the real process: tests/bot/test_main.py)."""

from __future__ import annotations

import functools
import re
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.core.config import Settings, load_settings
from tests.support.command_line import CommandLine, Done

ROOT = Path(__file__).resolve().parents[2]

BAD = [
    ("DATABASE_URL", "notaurl", "not a database URL"),
    ("DATABASE_URL", "mysql://pachisi:hunter2@db/pachisi", "not a database this bot speaks"),
    ("DATABASE_URL", "sqlite:///pachisi.sqlite3", "not a database this bot speaks"),
    ("DATABASE_URL", "sqlite+aiosqlite:///missing/pachisi.sqlite3", "folder missing does not exist"),
    ("DATABASE_URL", "postgresql+asyncpg://pachisi:@postgres:5432/pachisi", "password is empty"),
    ("LOG_LEVEL", "LOUD", "not a logging level"),
    ("TURN_TIMEOUT_SECONDS", "soon", "not a number"),
    ("TURN_TIMEOUT_SECONDS", "0", "more than 0"),
    ("COMPUTER_PACE_SECONDS", "-1", "0 seconds or more"),
    ("GUILD_READY_SECONDS", "-1", "0 seconds or more"),
    ("DISCORD_BUCKET_SECONDS", "-1", "0 seconds or more"),
    ("WORKERS", "many", "not a whole number"),
    ("WORKERS", "-2", "0 or more"),
    ("PROJECT_URL", "github.com/you/pachisi", "not a http or https address"),
    ("DEV_GUILD_ID", "my-server", "not a whole number"),
    ("SHARD_COUNT", "0", "1 or more"),
    ("SHARD_IDS", "0,one", "not a comma-separated list"),
    ("SHARD_IDS", "0,1", "needs SHARD_COUNT"),
    ("METRICS_PORT", "abc", "not a whole number"),
    ("METRICS_PORT", "70000", "not a TCP port"),
    ("METRICS_HOST", "my host", "not an IP address or host name"),
    ("DEFAULT_LEVEL", "impossible", "not a computer level"),
    ("DEFAULT_THREAD", "maybe", "not true or false"),
    ("DEFAULT_AUTO_THROW", "sometimes", "not true or false"),
    ("DISCORD_API_BASE", "ftp://example.com", "not a http or https address"),
    ("DISCORD_GATEWAY_URL", "https://example.com/gateway", "not a ws or wss address"),
]


@pytest.fixture
def run_bot(cli: CommandLine) -> Callable[..., Done]:
    """`python -m bot ARGS` (in this process, in an empty folder) with a token and `settings` only."""
    return functools.partial(cli, DISCORD_TOKEN="not-a-real-token")


@pytest.mark.parametrize(("name", "value", "wrong"), BAD, ids=[f"{n}={v}" for n, v, _ in BAD])
def test_a_bad_setting_is_one_line_and_exit_2(
    run_bot: Callable[..., Done], tmp_path: Path, name: str, value: str, wrong: str
) -> None:
    done = run_bot(**{name: value})
    assert done.status == 2, done.err
    [line] = done.err.splitlines()
    assert line.startswith(f"setting {name}"), line
    assert wrong in line
    assert f"a good value: {name}=" in line
    assert "hunter2" not in line  # a password is never printed
    assert not (tmp_path / "pachisi.sqlite3").exists()  # nothing was started


def test_every_bad_setting_is_its_own_line(run_bot: Callable[..., Done]) -> None:
    done = run_bot(LOG_LEVEL="LOUD", METRICS_PORT="abc")
    assert done.status == 2
    assert sorted(line.split("=")[0] for line in done.err.splitlines()) == [
        "setting LOG_LEVEL",
        "setting METRICS_PORT",
    ]


def test_postgres_refusing_is_one_line_and_exit_1(run_bot: Callable[..., Done]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run_bot(DATABASE_URL=f"postgresql+asyncpg://pachisi:secret@127.0.0.1:{port}/pachisi")
    assert done.status == 1, done.err
    [line] = done.err.splitlines()
    assert line.startswith(f"database unreachable: PostgreSQL at 127.0.0.1:{port} (database pachisi")
    assert "connection refused" in line and "does not retry" in line
    assert "secret" not in line


def test_the_example_env_file_holds_only_good_values() -> None:
    """Every setting `.env.example` shows, commented out or not, is accepted, and each of the
    bot's settings is shown there (the Discord stand-in's three are for tests)."""
    shown = dict(re.findall(r"^#? ?([A-Z_]+)=(.*)$", (ROOT / ".env.example").read_text(), flags=re.MULTILINE))
    fields = {name.upper() for name in Settings.model_fields}
    assert fields - set(shown) == {"DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DISCORD_BUCKET_SECONDS"}
    values = {k.lower(): v for k, v in shown.items() if k in fields}
    values["shard_count"] = values["shard_count"] or "2"  # SHARD_IDS=0,1 needs it
    load_settings(_env_file=None, **values)


def test_a_metrics_port_in_use_is_one_line_and_exit_2(run_bot: Callable[..., Done]) -> None:
    """The port is found taken only when the bot starts serving (bot/health.py), past the settings."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_bot(METRICS_PORT=str(port))
    assert done.status == 2, done.err
    line = done.err.splitlines()[-1]  # after the log's start-up lines, if they went to stderr
    assert line.startswith(f"setting METRICS_PORT={port}: cannot listen on 127.0.0.1:{port} (")
