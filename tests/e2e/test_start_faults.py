"""A database the bot cannot migrate (one of a newer bot) stops `python -m bot` with one line and
exit status 1, after Discord accepted the token (the migrations run in the bot's setup).

The command runs in this process, on this thread as it would in its own (its event loop, its
signal handlers), while the stand-in answers from a thread of its own; `python -m bot` as a
process: tests/bot/test_main.py."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from bot.core.config import Settings
from bot.core.store import upgrade
from tests.e2e.fakediscord import FakeDiscord
from tests.support.command_line import CommandLine
from tests.support.driver import TIMEOUT
from tests.support.processes import bot_env


@contextmanager
def stand_in_on_a_thread() -> Iterator[FakeDiscord]:
    """The stand-in Discord served from an event loop on another thread, until the block ends."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="stand-in", daemon=True)
    thread.start()
    serving = FakeDiscord.start()
    try:
        yield asyncio.run_coroutine_threadsafe(serving.__aenter__(), loop).result(TIMEOUT)
    finally:
        asyncio.run_coroutine_threadsafe(serving.__aexit__(None, None, None), loop).result(TIMEOUT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(TIMEOUT)
        loop.close()


def test_a_database_of_a_newer_bot_is_one_line_and_exit_1(cli: CommandLine, tmp_path: Path) -> None:
    path = tmp_path / "pachisi.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    asyncio.run(upgrade(url))
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    with stand_in_on_a_thread() as fake:
        env = bot_env(fake, url, WORKERS="0")  # it stops before any computer plays
        done = cli("run", **{k: v for k, v in env.items() if k.lower() in Settings.model_fields})
        assert any(r.path.endswith("/users/@me") for r in fake.server.requests), "logged in first"
        assert fake.server.identifies == 0  # stopped in the setup, before the gateway
    assert done.status == 1, done.err
    line = done.err.splitlines()[-1]  # after the log's start-up lines, if they went to stderr
    assert line.startswith("the database cannot be migrated to this bot's version: ")
    assert "9999_from_the_future" in line
