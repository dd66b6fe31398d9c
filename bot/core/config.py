"""The bot's settings, read once from the environment and `.env` (pydantic-settings).

Every setting is checked when it is read: a bad one is refused with `SettingsError`, one line per
bad setting naming it, what is wrong and a good value (`python -m bot` prints them and exits 2).
An empty value (`METRICS_PORT=` as `.env.example` leaves some) means unset.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError

from engine.players import LEVELS

SQLITE_EXAMPLE = "sqlite+aiosqlite:///pachisi.sqlite3"
POSTGRES_EXAMPLE = "postgresql+asyncpg://pachisi:SECRET@localhost:5432/pachisi"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9-]{1,63})*$")

EXAMPLES = {
    "discord_token": "DISCORD_TOKEN=the token from the Developer Portal's Bot page",
    "database_url": f"DATABASE_URL={SQLITE_EXAMPLE} or {POSTGRES_EXAMPLE}",
    "log_level": "LOG_LEVEL=INFO (one of " + ", ".join(LOG_LEVELS) + ")",
    "turn_timeout_seconds": "TURN_TIMEOUT_SECONDS=300",
    "computer_pace_seconds": "COMPUTER_PACE_SECONDS=1.0",
    "dev_guild_id": "DEV_GUILD_ID=123456789012345678 (a server's id; unset in production)",
    "shard_count": "SHARD_COUNT=2",
    "shard_ids": "SHARD_IDS=0,1 (with SHARD_COUNT=2)",
    "default_level": "DEFAULT_LEVEL=normal (one of " + ", ".join(LEVELS) + ")",
    "default_thread": "DEFAULT_THREAD=true (or false)",
    "default_auto_throw": "DEFAULT_AUTO_THROW=true (or false)",
    "metrics_port": "METRICS_PORT=9464",
    "metrics_host": "METRICS_HOST=127.0.0.1 (0.0.0.0 in a container)",
    "workers": "WORKERS=2 (0: no worker processes)",
    "guild_ready_seconds": "GUILD_READY_SECONDS=2.0",
    "project_url": "PROJECT_URL=https://github.com/you/pachisi",
    "discord_api_base": "DISCORD_API_BASE=http://127.0.0.1:8080 (unset: Discord itself)",
    "discord_gateway_url": "DISCORD_GATEWAY_URL=ws://127.0.0.1:8080/gateway (unset: Discord's)",
    "discord_bucket_seconds": "DISCORD_BUCKET_SECONDS=5.0 (less only on a stand-in without Discord's limit)",
}
"""A good value of each setting, shown when it is refused."""

TYPE_WORDS = {
    "int_parsing": "not a whole number",
    "int_from_float": "not a whole number",
    "float_parsing": "not a number",
    "bool_parsing": "not true or false",
    "finite_number": "not a finite number",
}


class SettingsError(ValueError):
    """Bad settings: one line per bad setting (`str(error)`)."""


class Settings(BaseSettings):
    """Every knob the bot has. The token may be missing at import; the bot refuses to start without it."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = None
    database_url: str = SQLITE_EXAMPLE
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
    guild_ready_seconds: float = 2.0
    """After connecting, how long no new guild must arrive before the bot counts itself ready and
    resumes its games (discord.py's `guild_ready_timeout`); a stand-in that sends every guild at once
    may take less."""
    project_url: str | None = None
    """The project's page (its rules and records in full), linked from `/pachisi rules` and the export."""
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    discord_bucket_seconds: float = 5.0
    """The seconds in which Discord lets a channel take 5 posts and 5 edits (bot/table/writes.py),
    which the bot spaces its writes by; a stand-in without that limit (the tests') may say less."""

    @model_validator(mode="before")
    @classmethod
    def _empty_is_unset(cls, values: Any) -> Any:
        """`NAME=` in `.env` leaves the setting at its default."""
        if isinstance(values, dict):
            return {name: value for name, value in values.items() if value != ""}
        return values

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        """`SHARD_IDS=0,1,2` in the environment; a list when given in code."""
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",") if part.strip()]
            if not all(part.isdigit() for part in parts):
                raise ValueError("not a comma-separated list of shard numbers")
            return [int(part) for part in parts] or None
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        database_problem(value)
        return value

    @field_validator("log_level")
    @classmethod
    def _log_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError("not a logging level")
        return value.upper()

    @field_validator("default_level")
    @classmethod
    def _default_level(cls, value: str) -> str:
        if value.lower() not in LEVELS:
            raise ValueError("not a computer level")
        return value.lower()

    @field_validator("turn_timeout_seconds")
    @classmethod
    def _positive(cls, value: float) -> float:
        if not value > 0:
            raise ValueError("must be more than 0 seconds")
        return value

    @field_validator("computer_pace_seconds", "guild_ready_seconds", "discord_bucket_seconds")
    @classmethod
    def _not_negative(cls, value: float) -> float:
        if not value >= 0:
            raise ValueError("must be 0 seconds or more")
        return value

    @field_validator("dev_guild_id", "shard_count")
    @classmethod
    def _one_or_more(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError("must be 1 or more")
        return value

    @field_validator("workers")
    @classmethod
    def _workers(cls, value: int | None) -> int | None:
        if value is not None and value < 0:
            raise ValueError("must be 0 or more")
        return value

    @field_validator("metrics_port")
    @classmethod
    def _port(cls, value: int | None) -> int | None:
        if value is not None and not 1 <= value <= 65535:
            raise ValueError("not a TCP port (1-65535)")
        return value

    @field_validator("metrics_host")
    @classmethod
    def _host(cls, value: str) -> str:
        try:
            ipaddress.ip_address(value)
        except ValueError:
            if not HOSTNAME.match(value):
                raise ValueError("not an IP address or host name") from None
        return value

    @field_validator("project_url", "discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return web_address(value, ("http", "https"))

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        return web_address(value, ("ws", "wss"))

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard_ids: needs SHARD_COUNT set too")
            if any(shard >= self.shard_count for shard in self.shard_ids):
                raise ValueError(f"shard_ids: every shard must be below SHARD_COUNT={self.shard_count}")
        return self


def web_address(value: str | None, schemes: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.netloc:
        raise ValueError(f"not a {' or '.join(schemes)} address")
    return value


def database_problem(value: str) -> None:
    """Raise ValueError saying what is wrong with DATABASE_URL: not a URL, a database this bot does
    not speak, a SQLite file in a missing folder, a PostgreSQL address with an empty password."""
    try:
        url = make_url(value)
    except ArgumentError:
        raise ValueError("not a database URL") from None
    if url.drivername == "sqlite+aiosqlite":
        if not url.database:
            raise ValueError("names no SQLite file")
    elif url.drivername == "postgresql+asyncpg":
        if url.password == "":
            raise ValueError("the PostgreSQL password is empty (POSTGRES_PASSWORD unset in .env?)")
        if not url.database:
            raise ValueError("names no PostgreSQL database")
    else:
        raise ValueError(f"{url.drivername} is not a database this bot speaks (SQLite or PostgreSQL)")


def shown(name: str, value: Any) -> str:
    """A refused value as the operator wrote it, never a secret."""
    if name == "discord_token":
        return "(hidden)"
    if name == "database_url" and isinstance(value, str):
        try:
            return make_url(value).render_as_string(hide_password=True)
        except ArgumentError:
            return value
    return str(value)


def problems(error: ValidationError) -> list[str]:
    """One line per refused setting: the setting, what was wrong, a good value."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        reason = TYPE_WORDS.get(problem["type"]) or str(problem["msg"]).removeprefix("Value error, ")
        value = problem.get("input")
        if not field and ": " in reason:  # a check across settings names its setting first
            field, reason = reason.split(": ", 1)
            value = None
        lines.append(line(field, value, reason))
    return lines


def line(field: str, value: Any, reason: str) -> str:
    """The line that refuses `field`'s `value`, with a good value."""
    shown_value = "" if value is None else f"={shown(field, value)!r}"
    return f"setting {field.upper()}{shown_value}: {reason}; a good value: {EXAMPLES.get(field, '')}"


def check_database_folder(settings: Settings) -> None:
    """Refuse a SQLite file in a folder that does not exist (checked where the bot runs, not when
    the settings are read: a container's folder is not on the host that reads compose.yaml)."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        folder = Path(url.database).parent
        if not folder.is_dir():
            reason = f"the SQLite file's folder {folder} does not exist (create it, or name another)"
            raise SettingsError(line("database_url", settings.database_url, reason))


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment and `.env`, with `overrides` (field names) taking
    precedence; raises SettingsError, one line per bad setting."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise SettingsError("\n".join(problems(error))) from None
