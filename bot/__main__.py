"""The bot's command line: `pachisi-bot` or `python -m bot`, the same (`--help` lists the commands,
each has its own `--help`). Without a command it runs the bot; settings come from the environment
and `.env` (bot/core/config.py). Exit status: 0 done, 1 a runtime failure (a refused backup, an
unreachable database, an unhealthy bot), 2 a usage or settings error (a bad option or setting, no
token, a token Discord refuses).

`play` hands its arguments to `python -m localdiscord` (the local table in the browser): the bot
and the stand-in never import each other. Each command imports what it needs when it runs: `backup`,
`healthcheck` or a refused setting do not load discord.py and the cogs (a second or more of start).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import runpy
import shlex
import signal
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from bot import eventloop
from bot.core.config import Settings, SettingsError, check_database_folder, load_settings
from engine import build

if TYPE_CHECKING:
    from bot.client import PachisiBot


def token_help() -> str:
    """What to do without a token; the local table's command names this interpreter, so it works
    from a shell where the virtual environment is not active."""
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(Path.cwd())
    play = shlex.join([str(python) if "/" in str(python) else f"./{python}", "-m", "bot", "play"])
    return (
        "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
        "add a bot, copy its token into .env as DISCORD_TOKEN=... (see .env.example), and run again; "
        f"or try it without Discord, in your browser: {play}"
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
    from bot import health, probe
    from bot.client import PachisiBot

    bot = PachisiBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    probe.install(bot)
    health.install(bot)  # counts clicks, commands and lost connections for /metrics
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
    from bot import health

    return health.serving(bot, settings.metrics_host, settings.metrics_port)


async def sync(settings: Settings) -> None:
    """Log in, migrate the database, sync the slash commands whatever the database says, log out."""
    from bot.client import PachisiBot

    bot = PachisiBot(settings)
    bot.force_sync = True
    async with bot:
        await bot.login(settings.discord_token or "")  # runs setup_hook, which syncs


async def rebuild_ratings(settings: Settings) -> None:
    """Migrate the database, then recompute every rating, all time and per season, from the finished
    games in the order they ended."""
    from bot.core.stats import rebuild_ratings as rebuild
    from bot.core.store import Store, upgrade

    await upgrade(settings.database_url)
    store = Store(settings.database_url)
    try:
        count = await rebuild(store)
    finally:
        await store.close()
    print(f"ratings rebuilt from {count} rated games (all time and per season)")


def copy(command: str, options: argparse.Namespace, settings: Settings) -> None:
    """`backup TARGET [--keep N]` or `restore FILE`: a refusal is one sentence and exit status 1."""
    from bot import backup, backups

    if command == "backup" and options.keep is not None and not Path(options.target).is_dir():
        print(f"backup: --keep needs TARGET to be a folder ({options.target} is not one)", file=sys.stderr)
        raise SystemExit(2)
    try:
        if command == "backup":
            taken = backups.take(settings.database_url, Path(options.target), options.keep)
            print(f"backed up to {taken.checked}")
            for removed in taken.removed:
                print(f"removed {removed} (--keep {options.keep})")
        else:
            print(f"restored {backups.put_back(Path(options.file), settings.database_url)}")
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
    from bot import preflight

    try:
        eventloop.run(preflight.check_database(settings.database_url))
    except preflight.DatabaseUnreachable as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(1) from None


def start(settings: Settings, forced_sync: bool) -> None:
    """`run` or `sync`: the bot connected to Discord (exit 2 without a token or with a refused one)."""
    if not settings.discord_token:
        print(token_help(), file=sys.stderr)
        raise SystemExit(2)
    build.exit_if_stale()
    reachable(settings)
    import alembic.util
    import discord

    from bot import backup, health
    from bot.client import point_discord_at

    configure_logging(settings.log_level)
    logging.getLogger("bot").info("engine: %s; event loop: %s", build.describe(), eventloop.NAME)
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        with backup.running_on(settings.database_url):  # `restore` refuses while this runs
            eventloop.run(sync(settings) if forced_sync else run(settings))
    except discord.LoginFailure as exc:
        print(f"Discord refused the token: {exc}. Check DISCORD_TOKEN in .env.", file=sys.stderr)
        raise SystemExit(2) from exc
    except health.CannotListen as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None
    except alembic.util.CommandError as exc:
        print(
            f"the database cannot be migrated to this bot's version: {exc} (a database of a newer bot? "
            "restore a backup of this version or run the newer bot)",
            file=sys.stderr,
        )
        raise SystemExit(1) from None


def ratings(settings: Settings, _options: argparse.Namespace) -> None:
    reachable(settings)
    eventloop.run(rebuild_ratings(settings))


COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], None]] = {
    "run": lambda settings, _options: start(settings, forced_sync=False),
    "sync": lambda settings, _options: start(settings, forced_sync=True),
    "ratings": ratings,
    "backup": lambda settings, options: copy("backup", options, settings),
    "restore": lambda settings, options: copy("restore", options, settings),
    "healthcheck": lambda settings, _options: healthcheck(settings),
}


def program() -> str:
    """`pachisi-bot` as the console script, `python -m bot` as a module."""
    name = Path(sys.argv[0]).name
    return "python -m bot" if name in ("__main__.py", "-c", "-m", "") else name


def package_version() -> str:
    try:
        return version("pachisi-discord")
    except PackageNotFoundError:
        return "unknown (not installed)"


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of backups (1 or more): {text!r}")
    return int(text)


def parser(prog: str) -> argparse.ArgumentParser:
    """The commands, each with its own --help."""
    top = argparse.ArgumentParser(
        prog=prog,
        description="Pachisi for Discord: run the bot (the default command), or look after it.",
        epilog="Settings come from the environment and .env (README, Settings). "
        "Exit status: 0 done, 1 a runtime failure, 2 a usage or settings error.",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=summary, description=f"{summary}: {description}")

    command("run", "run the bot (the default)", "connect to Discord and play until SIGINT or SIGTERM.")
    command(
        "sync",
        "sync the slash commands to Discord and exit",
        "the bot itself syncs only when they changed since the last sync recorded in the database.",
    )
    command(
        "ratings", "recompute the ratings", "every member's, all time and per season, from the stored games."
    ).add_argument("--rebuild", action="store_true", required=True, help="recompute them (required)")
    commands.add_parser(
        "play",
        help="play at a local table in the browser, no Discord needed (see: play --help)",
        add_help=False,
    )
    backing_up = command(
        "backup",
        "back up the database",
        "SQLite copied online, PostgreSQL with pg_dump; kept only once checked (README, Backups).",
    )
    backing_up.add_argument(
        "target", metavar="TARGET", help="the file to write, or a folder: a file named by the time in it"
    )
    backing_up.add_argument(
        "--keep",
        type=positive,
        metavar="N",
        help="with a folder: keep its newest N backups, delete older ones",
    )
    command(
        "restore",
        "restore a backup",
        "checked first (pg_restore for PostgreSQL); refused while a bot runs on the database.",
    ).add_argument("file", metavar="FILE", help="the backup to restore")
    command("healthcheck", "ask a running bot's /healthz", "exit 0 when healthy (needs METRICS_PORT).")
    return top


def play(prog: str, args: list[str]) -> None:
    """`play ARGS` is `python -m localdiscord ARGS`, in this process (its own options and --help)."""
    sys.argv = [f"{prog} play", *args]
    runpy.run_module("localdiscord", run_name="__main__", alter_sys=False)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    prog = program()
    if args[:1] == ["play"]:
        play(prog, args[1:])
        return
    options = parser(prog).parse_args(args)
    COMMANDS[options.command or "run"](checked_settings(), options)


if __name__ == "__main__":
    main()
