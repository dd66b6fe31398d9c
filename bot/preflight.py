"""Before the bot starts: is the database there? One line saying why not, instead of the drivers'
tracebacks from deep inside the migrations.

The bot does not wait for a database that is not there at start: it stops (exit status 1) and its
supervisor (Docker's restart policy, systemd) starts it again. Once running, a database that stops
answering is retried per transaction and members are told (bot/core/store, docs/RELIABILITY.md).
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
from contextlib import closing

from sqlalchemy import make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from bot import health

WAIT_SECONDS = 10.0
"""How long the first connection may take before the database counts as unreachable."""


class DatabaseUnreachable(Exception):
    """The database did not answer at start; the message is the one line an operator reads."""


async def check_database(database_url: str) -> None:
    """Connect once and ask `SELECT 1`; raise DatabaseUnreachable naming where and why."""
    url = make_url(database_url)
    try:
        if url.get_backend_name() == "sqlite":
            await asyncio.to_thread(_sqlite_opens, url.database or "")
        else:
            await asyncio.wait_for(
                health.postgres_ask(database_url, ("SELECT 1",), WAIT_SECONDS), WAIT_SECONDS
            )
    except Exception as exc:
        raise DatabaseUnreachable(
            f"database unreachable: {where(url)}: {reason(exc)}; the bot does not retry at start: it "
            "stops now (exit status 1); start the database or correct DATABASE_URL, then start the bot "
            "again (Docker's restart policy or systemd does it by itself)"
        ) from None


def _sqlite_opens(path: str) -> None:
    with closing(sqlite3.connect(path, timeout=WAIT_SECONDS)) as connection:
        connection.execute("PRAGMA schema_version").fetchone()


def where(url: URL) -> str:
    if url.get_backend_name() == "sqlite":
        return f"SQLite file {url.database}"
    address = f"{url.host or 'localhost'}:{url.port or 5432}"
    return f"PostgreSQL at {address} (database {url.database}, user {url.username})"


def reason(exc: BaseException) -> str:
    """The driver's reason, short: what refused and how."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    if isinstance(exc, TimeoutError):
        return f"no answer within {WAIT_SECONDS:.0f} s"
    if isinstance(exc, socket.gaierror):
        return f"host name not found ({exc.strerror})"
    if isinstance(exc, ConnectionRefusedError) or "Connect call failed" in str(exc):
        return "connection refused (is PostgreSQL running, on this host and port?)"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]
