"""`/healthz` and `/metrics` over HTTP, for a container's health check and for Prometheus, and
the counting at the Discord edge (`install`): clicks by action and commands by name as they arrive,
lost gateway connections; the gateway's state, latency and guilds are read at each scrape.

Served by `python -m bot` when METRICS_PORT is set, on METRICS_HOST (127.0.0.1 unless told
otherwise: the metrics name no secrets, but nobody outside needs them). `/healthz` answers 200 when
the gateway is connected and the database answers, else 503, with a JSON body saying which.
The database is asked on a connection of its own with a short timeout, so a locked SQLite file or
a stopped PostgreSQL server makes the check fail fast instead of queueing behind the game's work.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.core import metrics
from bot.core.store import Status

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Mapping, Sequence

    from bot.core.config import Settings


class Served(Protocol):
    """What the checks read of the bot (its class imports this module)."""

    settings: Settings

    @property
    def shards(self) -> Mapping[int, Any]: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...

    @property
    def latencies(self) -> list[tuple[int, float]]: ...

    @property
    def guilds(self) -> Sequence[Any]: ...

    def add_listener(self, func: Callable[..., Coroutine[Any, Any, Any]], name: str = ...) -> None: ...


log = logging.getLogger(__name__)

PROBE_SECONDS = 2.0
"""How long the health check waits for the database before calling it unreachable."""


def http_trace() -> aiohttp.TraceConfig:
    """Counts Discord's 429 answers by bucket; discord.py waits and retries them itself."""

    async def on_request_end(_session: Any, _context: SimpleNamespace, params: Any) -> None:
        if params.response.status == 429:
            headers = params.response.headers
            metrics.rate_limited(headers.get("X-RateLimit-Bucket"), headers.get("X-RateLimit-Scope"))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


def install(bot: Served) -> None:
    """Count what members send and what the gateway does, from discord.py's events (listeners
    beside the bot's own handlers, which stay the cogs')."""

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        if interaction.type == discord.InteractionType.component:
            metrics.clicked(action_of(str(data.get("custom_id", ""))))
        elif interaction.type == discord.InteractionType.application_command:
            metrics.commanded(command_of(data))

    async def on_shard_disconnect(_shard_id: int) -> None:
        metrics.disconnected()

    bot.add_listener(on_interaction)
    bot.add_listener(on_shard_disconnect)


ACTION_LENGTH = 32


def action_of(custom_id: str) -> str:
    """A button's action: `pachisi:move:12:7:b3` -> `move`; another id's first part
    (`confirm:yes` -> `confirm`). Never the game or the turn: one series per action."""
    parts = custom_id.split(":")
    action = parts[1] if parts[0] == "pachisi" and len(parts) > 1 else parts[0]
    return action[:ACTION_LENGTH] or "none"


def command_of(data: dict[str, Any]) -> str:
    """A slash command's full name (`pachisi move`) from the interaction's data: the command,
    then the sub-command group and sub-command the member chose (option types 2 and 1)."""
    words = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    return " ".join(words)


def gateway_connected(bot: Served) -> bool:
    """Ready, not closed, and every shard's websocket open."""
    if not bot.is_ready() or bot.is_closed():
        return False
    return all(not shard.is_closed() for shard in bot.shards.values())


OPEN_GAMES = f"SELECT count(*) FROM games WHERE status = '{Status.ACTIVE}'"


async def database_answers(url: str) -> bool:
    """Whether the database takes a write now (SQLite: the write lock within PROBE_SECONDS;
    PostgreSQL: a query on a new connection)."""
    sqlite = make_url(url).get_backend_name() == "sqlite"
    try:
        await ask(url, ("BEGIN IMMEDIATE", "ROLLBACK") if sqlite else ("SELECT 1",))
    except Exception as exc:  # the drivers' and SQLAlchemy's errors alike: it does not answer
        log.warning("health: database does not answer (%s: %s)", type(exc).__name__, exc)
        return False
    return True


async def count_open_games(url: str) -> None:
    """Set the open-games gauge from the database (left as it was when the database is down)."""
    try:
        metrics.games_open(int(await ask(url, (OPEN_GAMES,)) or 0))
    except Exception as exc:
        log.warning("metrics: open games not counted (%s: %s)", type(exc).__name__, exc)


async def ask(url: str, statements: tuple[str, ...]) -> Any:
    """Run `statements` on a connection of their own and return the last one's first value; raises
    when the database does not answer within PROBE_SECONDS. Never the game's pool: a probe given
    up on cannot leave a pooled connection half-used."""
    address = make_url(url)
    if address.get_backend_name() == "sqlite":
        return await asyncio.to_thread(_sqlite_ask, address.database or "", statements)
    return await asyncio.wait_for(postgres_ask(url, statements), PROBE_SECONDS)


def _sqlite_ask(path: str, statements: tuple[str, ...]) -> Any:
    if not Path(path).exists():
        raise FileNotFoundError(path)  # connecting would create an empty database
    with closing(sqlite3.connect(path, timeout=PROBE_SECONDS, isolation_level=None)) as connection:
        value = None
        for statement in statements:
            row = connection.execute(statement).fetchone()
            value = row[0] if row else None
        return value


async def postgres_ask(url: str, statements: tuple[str, ...], timeout: float = PROBE_SECONDS) -> Any:
    """`ask` on PostgreSQL, on a new connection that gives up after `timeout`."""
    engine = create_async_engine(url, poolclass=NullPool, connect_args={"timeout": timeout})
    try:
        async with engine.connect() as connection:
            value = None
            for statement in statements:
                value = (await connection.exec_driver_sql(statement)).scalar()
            return value
    finally:
        await engine.dispose()


def application(bot: Served) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        gateway = gateway_connected(bot)
        database = await database_answers(bot.settings.database_url)
        healthy = gateway and database
        body = {"status": "ok" if healthy else "unhealthy", "gateway": gateway, "database": database}
        return web.json_response(body, status=200 if healthy else 503)

    async def scrape(_request: web.Request) -> web.Response:
        await count_open_games(bot.settings.database_url)
        metrics.gateway(gateway_connected(bot), bot.latencies, len(bot.guilds))
        return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", scrape)
    return app


class CannotListen(Exception):
    """METRICS_HOST:METRICS_PORT cannot be listened on (taken, or no such address here)."""


@asynccontextmanager
async def serving(bot: Served, host: str, port: int) -> AsyncIterator[None]:
    """Serve /healthz and /metrics for the block's duration."""
    runner = web.AppRunner(application(bot), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        reason = exc.strerror or str(exc)
        raise CannotListen(
            f"setting METRICS_PORT={port}: cannot listen on {host}:{port} ({reason}); a good value: a "
            "port nothing else uses (or correct METRICS_HOST)"
        ) from None
    log.info("health and metrics on http://%s:%d (/healthz, /metrics)", host, port)
    try:
        yield
    finally:
        await runner.cleanup()
