"""Settings: defaults, the environment, `.env`, and the comma list of shard ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.config import load_settings

NAMES = [
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "LOG_LEVEL",
    "TURN_TIMEOUT_SECONDS",
    "COMPUTER_PACE_SECONDS",
    "DEV_GUILD_ID",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DEFAULT_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting leaks in from the machine, and `.env` is read from an empty folder."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults_need_no_token() -> None:
    settings = load_settings()
    assert settings.discord_token is None
    assert settings.database_url == "sqlite+aiosqlite:///pachisi.sqlite3"
    assert (settings.log_level, settings.turn_timeout_seconds, settings.computer_pace_seconds) == (
        "INFO",
        300,
        1.0,
    )
    assert (settings.dev_guild_id, settings.shard_count, settings.shard_ids) == (None, None, None)
    assert settings.default_level == "normal"
    assert (settings.discord_api_base, settings.discord_gateway_url) == (None, None)


def test_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nSHARD_COUNT=4\nDEV_GUILD_ID=99\n")
    monkeypatch.setenv("SHARD_IDS", "0, 2")
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "30")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:8765/api")
    settings = load_settings()
    assert settings.discord_token == "from-dotenv"
    assert (settings.shard_count, settings.shard_ids, settings.dev_guild_id) == (4, [0, 2], 99)
    assert settings.turn_timeout_seconds == 30
    assert settings.discord_api_base == "http://127.0.0.1:8765/api"


def test_overrides_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///env.sqlite3")
    settings = load_settings(database_url="postgresql+asyncpg://db/pachisi", shard_count=2, shard_ids=[1])
    assert settings.database_url == "postgresql+asyncpg://db/pachisi"
    assert settings.shard_ids == [1]


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_IDS", "0,x")
    with pytest.raises(ValueError):
        load_settings()
