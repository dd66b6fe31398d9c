"""Run the bot: `python -m bot` or `pachisi-bot`. Settings come from the environment and `.env`.

`python -m bot sync` syncs the slash commands to Discord and exits (the bot itself syncs only when
they changed since the last sync recorded in the database). `python -m bot ratings --rebuild`
recomputes every member's rating, all time and per season, from the stored games (no Discord
needed). `python -m bot play` runs the bot at a local table in the browser instead of Discord
(localdiscord/table.py).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

import discord

from bot.client import PachisiBot, point_discord_at
from bot.core.config import Settings, load_settings
from engine import build

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "add a bot, copy its token into .env as DISCORD_TOKEN=... (see .env.example), and run again; "
    "or try it without Discord, in your browser: python -m bot play"
)


def configure_logging(level: str) -> None:
    """One line per record, key=value where it matters, so logs can be grepped and parsed."""
    logging.basicConfig(
        level=level.upper(),
        format="time=%(asctime)s level=%(levelname)s logger=%(name)s msg=%(message)s",
        stream=sys.stderr,
    )


async def run(settings: Settings) -> None:
    """Run until the gateway gives up or SIGINT/SIGTERM arrives, then shut down in order
    (`PachisiBot.close`), awaited here: nothing is left for `asyncio.run` to cancel halfway."""
    bot = PachisiBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(settings.discord_token or ""))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        await bot.close()
        await running  # raises what stopped the bot, if something did (a refused token)


async def sync(settings: Settings) -> None:
    """Log in, migrate the database, sync the slash commands whatever the database says, log out."""
    bot = PachisiBot(settings)
    bot.force_sync = True
    async with bot:
        await bot.login(settings.discord_token or "")  # runs setup_hook, which syncs


async def rebuild_ratings(settings: Settings) -> None:
    """Migrate the database, then recompute every rating, all time and per season, from the finished
    games in the order they ended."""
    from bot.core.records import rebuild_ratings as rebuild
    from bot.core.store import Store, upgrade

    await upgrade(settings.database_url)
    store = Store(settings.database_url)
    try:
        count = await rebuild(store)
    finally:
        await store.close()
    print(f"ratings rebuilt from {count} rated games (all time and per season)")


USAGE = (
    "usage: python -m bot [sync | ratings --rebuild]\n"
    "       python -m bot play [--port N] [--host H] [--database FILE]   (a local table in the browser)"
)


def play(args: list[str]) -> None:
    """The bot at a local table in the browser, with its own SQLite database (no Discord needed)."""
    from localdiscord import table

    parser = argparse.ArgumentParser(
        prog="python -m bot play", description="Play Pachisi in the browser, the real bot behind it."
    )
    parser.add_argument("--port", type=int, default=table.DEFAULT_PORT, help="the page's port (default 8150)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="where the page listens (default 127.0.0.1: this computer only; 0.0.0.0: your network)",
    )
    parser.add_argument(
        "--database",
        type=Path,
        default=Path(table.DEFAULT_DATABASE),
        help=f"the table's own SQLite file (default {table.DEFAULT_DATABASE}; never DATABASE_URL)",
    )
    options = parser.parse_args(args)
    build.exit_if_stale()
    asyncio.run(table.play(options.database, options.host, options.port))


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["play"]:
        play(args[1:])
        return
    if args not in ([], ["sync"], ["ratings", "--rebuild"]):
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    settings = load_settings()
    if args == ["ratings", "--rebuild"]:
        asyncio.run(rebuild_ratings(settings))
        return
    if not settings.discord_token:
        print(TOKEN_HELP, file=sys.stderr)
        raise SystemExit(2)
    build.exit_if_stale()
    configure_logging(settings.log_level)
    logging.getLogger("bot").info("engine: %s", build.describe())
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(sync(settings) if args == ["sync"] else run(settings))
    except discord.LoginFailure as exc:
        print(f"Discord refused the token: {exc}. Check DISCORD_TOKEN in .env.", file=sys.stderr)
        raise SystemExit(2) from exc


if __name__ == "__main__":
    main()
