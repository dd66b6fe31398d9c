"""Several bot processes on one PostgreSQL database, as the README's sharded deployment runs them."""

from __future__ import annotations

import asyncio
import contextlib

from tests.e2e.conftest import REPO_ROOT, bot_argv, bot_env
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.driver import BotProcess


async def test_processes_started_together_on_an_empty_database_all_start(
    fake: FakeDiscord, postgres_url: str
) -> None:
    """Each process migrates the database at start-up; they must not race in the migrations."""
    fake.add_guild("Pachisi club").add_text_channel("games")
    bots = [
        BotProcess(fake, bot_argv(), env=bot_env(fake, postgres_url), cwd=str(REPO_ROOT)) for _ in range(3)
    ]
    try:
        await asyncio.gather(*(bot.start(timeout=60) for bot in bots))
        await fake.wait_until(
            lambda: (
                fake.server.identifies >= len(bots)
                or any(b.popen and b.popen.poll() is not None for b in bots)
            ),
            timeout=60,
            what="every process connected",
        )
        for bot in bots:
            assert bot.popen is not None and bot.popen.poll() is None, bot.output()
            assert "Traceback" not in bot.output(), bot.output()
        assert fake.server.identifies == len(bots)
        syncs = [r for r in fake.server.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == 1, "each process overwrote the same commands"
    finally:
        for bot in bots:
            with contextlib.suppress(Exception):
                await bot.kill()
            bot.log.close()
