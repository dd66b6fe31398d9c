"""The bot's settings, read once from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """Every knob the bot has. The token may be missing at import; the bot refuses to start without it."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = None
    database_url: str = "sqlite+aiosqlite:///pachisi.sqlite3"
    log_level: str = "INFO"
    turn_timeout_seconds: float = 300
    computer_pace_seconds: float = 1.0
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    default_level: str = "normal"
    default_thread: bool = True
    """`/pachisi start` opens a thread per table unless its `thread` option says otherwise."""
    default_auto_throw: bool = True
    """The bot throws for members who never chose with `/pachisi auto`."""
    metrics_port: int | None = None
    """Serve /healthz and Prometheus /metrics on this port (bot/health.py); unset: not served."""
    metrics_host: str = "127.0.0.1"
    """Where the metrics listen: this machine only unless told otherwise (0.0.0.0 in a container)."""
    workers: int | None = None
    """Worker processes for the board pictures and the computers' decisions (bot/core/workers.py);
    unset: one per core; 0: in the bot's own process."""
    project_url: str | None = None
    """The project's page (its rules and records in full), linked from `/pachisi rules` and the export."""
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        """`SHARD_IDS=0,1,2` in the environment; a list when given in code."""
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",") if part.strip()]
            return [int(part) for part in parts] or None
        return value


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment and `.env`, with `overrides` (field names) taking precedence."""
    return Settings(**overrides)
