"""Run the bot: `python -m bot` or `pachisi-bot`. Settings come from the environment and `.env`.

`python -m bot sync` syncs the slash commands to Discord and exits (the bot itself syncs only when
they changed since the last sync recorded in the database). `python -m bot ratings --rebuild`
recomputes every member's rating, all time and per season, from the stored games (no Discord
needed). `python -m bot play` runs the bot at a local table in the browser instead of Discord
(localdiscord/table.py). `python -m bot backup FILE` and `restore FILE` copy the SQLite database
out and in (bot/backup.py); `python -m bot healthcheck` asks a running bot's /healthz (the
container's HEALTHCHECK).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import urllib.error
import urllib.request
from pathlib import Path

import discord

from bot import backup, eventloop, health, preflight, probe
from bot.client import PachisiBot, point_discord_at
from bot.core.config import Settings, SettingsError, check_database_folder, load_settings
from engine import build


def token_help() -> str:
    """What to do without a token; the local table's command names this interpreter, so it works
    from a shell where the virtual environment is not active."""
    from localdiscord.table import play_command

    return (
        "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
        "add a bot, copy its token into .env as DISCORD_TOKEN=... (see .env.example), and run again; "
        f"or try it without Discord, in your browser: {play_command()}"
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
    (`PachisiBot.close`), awaited here: nothing is left for `eventloop.run` to cancel halfway."""
    bot = PachisiBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    probe.install(bot)
    async with bot, serving(bot, settings):
        running = asyncio.create_task(bot.start(settings.discord_token or ""))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        await bot.close()
        await running  # raises what stopped the bot, if something did (a refused token)


def serving(bot: PachisiBot, settings: Settings) -> contextlib.AbstractAsyncContextManager[None]:
    """/healthz and /metrics while the bot runs, when METRICS_PORT is set."""
    if settings.metrics_port is None:
        return contextlib.nullcontext()
    return health.serving(bot, settings.metrics_host, settings.metrics_port)


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
    "usage: python -m bot [sync | ratings --rebuild | backup FILE | restore FILE | healthcheck]\n"
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
    eventloop.run(table.play(options.database, options.host, options.port))


def copy(command: str, file: str, settings: Settings) -> None:
    """`backup FILE` or `restore FILE`: a refusal is one sentence and exit status 1."""
    try:
        if command == "backup":
            print(f"backed up to {backup.backup(settings.database_url, Path(file))}")
        else:
            print(f"restored {backup.restore(Path(file), settings.database_url)}")
    except backup.BackupError as exc:
        print(f"{command} refused: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


def healthcheck(settings: Settings) -> None:
    """Exit 0 when the running bot's /healthz says healthy, 1 otherwise (what it said on stderr)."""
    if settings.metrics_port is None:
        print("METRICS_PORT is not set: the bot serves no /healthz", file=sys.stderr)
        raise SystemExit(1)
    host = "127.0.0.1" if settings.metrics_host in ("0.0.0.0", "::") else settings.metrics_host
    try:
        with urllib.request.urlopen(f"http://{host}:{settings.metrics_port}/healthz", timeout=5) as answer:
            print(answer.read().decode())
    except (urllib.error.URLError, OSError) as exc:
        body = exc.read().decode() if isinstance(exc, urllib.error.HTTPError) else str(exc)
        print(f"unhealthy: {body}", file=sys.stderr)
        raise SystemExit(1) from None


def checked_settings() -> Settings:
    """The settings, or exit 2 with one line per bad setting."""
    try:
        settings = load_settings()
        check_database_folder(settings)
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None
    return settings


def reachable(settings: Settings) -> None:
    """Exit 1 with one line when the database does not answer."""
    try:
        eventloop.run(preflight.check_database(settings.database_url))
    except preflight.DatabaseUnreachable as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(1) from None


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["play"]:
        play(args[1:])
        return
    known = args in ([], ["sync"], ["ratings", "--rebuild"], ["healthcheck"])
    if not known and not (len(args) == 2 and args[0] in ("backup", "restore")):
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    settings = checked_settings()
    if args == ["ratings", "--rebuild"]:
        reachable(settings)
        eventloop.run(rebuild_ratings(settings))
        return
    if args == ["healthcheck"]:
        healthcheck(settings)
        return
    if args[:1] in (["backup"], ["restore"]):
        copy(args[0], args[1], settings)
        return
    if not settings.discord_token:
        print(token_help(), file=sys.stderr)
        raise SystemExit(2)
    build.exit_if_stale()
    reachable(settings)
    configure_logging(settings.log_level)
    logging.getLogger("bot").info("engine: %s; event loop: %s", build.describe(), eventloop.NAME)
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        with backup.running_on(settings.database_url):  # `restore` refuses while this runs
            eventloop.run(sync(settings) if args == ["sync"] else run(settings))
    except discord.LoginFailure as exc:
        print(f"Discord refused the token: {exc}. Check DISCORD_TOKEN in .env.", file=sys.stderr)
        raise SystemExit(2) from exc


if __name__ == "__main__":
    main()
