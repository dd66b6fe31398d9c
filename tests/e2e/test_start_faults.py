"""A database the bot cannot migrate (one of a newer bot) stops `python -m bot` with one line and
exit status 1, after Discord accepted the token (the migrations run in the bot's setup)."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

from bot.core.store import upgrade
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT
from tests.support.processes import REPO_ROOT, bot_env


async def test_a_database_of_a_newer_bot_is_one_line_and_exit_1(fake: FakeDiscord, tmp_path: Path) -> None:
    path = tmp_path / "pachisi.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade(url)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=bot_env(fake, url),
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(bot.communicate(), TIMEOUT)
    assert bot.returncode == 1, err.decode()
    stderr = err.decode()
    assert "Traceback" not in stderr
    line = stderr.splitlines()[-1]
    assert line.startswith("the database cannot be migrated to this bot's version: ")
    assert "9999_from_the_future" in line
