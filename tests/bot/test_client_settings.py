"""Settings that reach discord.py when the bot is built (bot/client.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.client import PachisiBot
from bot.core.config import load_settings
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.workers import Workers
from bot.table import Table
from tests.support.chat import Chat, MovedClock


def test_guild_ready_seconds_is_how_long_discord_py_waits_for_guilds() -> None:
    default, short = load_settings(_env_file=None), load_settings(_env_file=None, guild_ready_seconds=0.5)
    for settings, seconds in ((default, 2.0), (short, 0.5)):
        bot = PachisiBot(settings)
        try:
            assert bot._connection.guild_ready_timeout == seconds
        finally:
            bot.render_pool.shutdown()
            bot.workers.shutdown()


async def test_discord_bucket_seconds_is_how_the_table_spaces_its_writes(tmp_path: Path) -> None:
    """Discord's 5 s by default; a stand-in without the limit lets the tests' bot processes say less."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'pachisi.sqlite3'}")
    clock, workers = MovedClock(), Workers(0)
    chat = Chat(clock)
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            for overrides, seconds in (({}, 5.0), ({"discord_bucket_seconds": 0.05}, 0.05)):
                settings = load_settings(_env_file=None, **overrides)
                service = GameService(store, clock=clock.now, workers=workers)
                table = Table(
                    service=service,
                    store=store,
                    clock=clock,
                    settings=settings,
                    workers=workers,
                    channels=chat,
                    pool=pool,
                )
                assert table.flow.writer.pacer.seconds == seconds
                await table.close()
    finally:
        await store.close()
        workers.shutdown()
