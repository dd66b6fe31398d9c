"""Settings that reach discord.py when the bot is built (bot/client.py)."""

from __future__ import annotations

from bot.client import PachisiBot
from bot.core.config import load_settings


def test_guild_ready_seconds_is_how_long_discord_py_waits_for_guilds() -> None:
    default, short = load_settings(_env_file=None), load_settings(_env_file=None, guild_ready_seconds=0.5)
    for settings, seconds in ((default, 2.0), (short, 0.5)):
        bot = PachisiBot(settings)
        try:
            assert bot._connection.guild_ready_timeout == seconds
        finally:
            bot.render_pool.shutdown()
            bot.workers.shutdown()
