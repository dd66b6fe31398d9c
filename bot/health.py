"""`/healthz` and `/metrics` over HTTP, for a container's health check and for Prometheus.

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
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, make_url, select
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.core import metrics
from bot.core.store import GameRow, Status

if TYPE_CHECKING:
    from bot.client import PachisiBot

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


def gateway_connected(bot: PachisiBot) -> bool:
    """Ready, not closed, and every shard's websocket open."""
    if not bot.is_ready() or bot.is_closed():
        return False
    return all(not shard.is_closed() for shard in bot.shards.values())


async def database_answers(url: str) -> bool:
    """Whether the database takes a write now (SQLite: the write lock within PROBE_SECONDS;
    PostgreSQL: a query on a new connection)."""
    address = make_url(url)
    try:
        if address.get_backend_name() == "sqlite":
            return await asyncio.to_thread(_sqlite_writable, address.database or "")
        return await asyncio.wait_for(_postgres_answers(url), PROBE_SECONDS)
    except (TimeoutError, OSError, sqlite3.Error) as exc:
        log.warning("health: database does not answer (%s)", type(exc).__name__)
        return False
    except Exception as exc:  # asyncpg's and SQLAlchemy's connection errors: unreachable all the same
        log.warning("health: database does not answer (%s: %s)", type(exc).__name__, exc)
        return False


def _sqlite_writable(path: str) -> bool:
    if not Path(path).exists():
        return False
    connection = sqlite3.connect(path, timeout=PROBE_SECONDS, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        return True
    finally:
        connection.close()


async def _postgres_answers(url: str) -> bool:
    engine = create_async_engine(url, poolclass=NullPool, connect_args={"timeout": PROBE_SECONDS})
    try:
        async with engine.connect() as connection:
            await connection.exec_driver_sql("SELECT 1")
        return True
    finally:
        await engine.dispose()


async def count_open_games(bot: PachisiBot) -> None:
    """Set the open-games gauge from the database (left as it was when the database is down)."""
    store = getattr(bot, "store", None)
    if store is None:
        return
    try:
        async with asyncio.timeout(PROBE_SECONDS), store.transaction() as session:
            count = await session.scalar(select(func.count()).where(GameRow.status == Status.ACTIVE))
    except Exception as exc:
        log.warning("metrics: open games not counted (%s)", type(exc).__name__)
        return
    metrics.games_open(int(count or 0))


def application(bot: PachisiBot) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        gateway = gateway_connected(bot)
        database = await database_answers(bot.settings.database_url)
        healthy = gateway and database
        body = {"status": "ok" if healthy else "unhealthy", "gateway": gateway, "database": database}
        return web.json_response(body, status=200 if healthy else 503)

    async def scrape(_request: web.Request) -> web.Response:
        await count_open_games(bot)
        return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", scrape)
    return app


@asynccontextmanager
async def serving(bot: PachisiBot, host: str, port: int) -> AsyncIterator[None]:
    """Serve /healthz and /metrics for the block's duration."""
    runner = web.AppRunner(application(bot), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("health and metrics on http://%s:%d (/healthz, /metrics)", host, port)
    try:
        yield
    finally:
        await runner.cleanup()
