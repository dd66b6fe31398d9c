"""The bot as a process of its own on the stand-in (localdiscord/child.py), the databases it
writes, and what it stored, read as another process would."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import inspect, make_url, select

from bot.core.config import Settings
from bot.core.records import game_record
from bot.core.snapshot import stored_position
from bot.core.store import GameRow, Store
from engine.record import read_record
from localdiscord import child
from tests.support import play
from tests.support.driver import TIMEOUT, BotProcess, FakeDiscord
from tests.support.play import StoredGame

if TYPE_CHECKING:  # the `cli` fixture's type; importing it here would bring pytest into the benchmarks
    from tests.support.command_line import CommandLine

T = TypeVar("T")

REPO_ROOT = child.REPO_ROOT
BOT_READY = child.READY_LINE
PLAY_SETTINGS = {
    "COMPUTER_PACE_SECONDS": "0",
    "DEFAULT_LEVEL": "easy",
    "DEFAULT_THREAD": "false",
    "DEFAULT_AUTO_THROW": "false",
    "LOG_LEVEL": "INFO",
}
"""Fast computers, easy level, games in the channel with the members throwing (as
`table.bot_settings`): the bot as the end-to-end tests and the latency benchmarks run it."""
QUICK_BUCKET_SECONDS = 0.05
"""A channel's bucket of writes renewed this fast, for every bot of the tests (processes, bots in the
tests' own process, the table layer's tests): Discord's five writes in five seconds, which the bot
keeps to and the stand-ins do not enforce, made a test that opens several tables in one channel,
types after a run of clicks, or plays a game out, wait seconds for nothing it checks. The pacing
is tested in tests/table/test_writes.py."""
TEST_SETTINGS = {
    **PLAY_SETTINGS,
    "WORKERS": "1",
    "GUILD_READY_SECONDS": "0.1",
    "DISCORD_BUCKET_SECONDS": str(QUICK_BUCKET_SECONDS),
}
"""The tests' bot has one worker process, not one per core: the pool is there, at a part of the
start-up's cost (the benchmarks keep the bot's default). It counts itself ready a tenth of a second
after the stand-in's guilds, which come right after READY (the bots in the tests' own process wait
as long), not discord.py's two seconds: each start's and restart's wait. Its channels' buckets
renew every QUICK_BUCKET_SECONDS."""


def bot_argv() -> list[str]:
    return child.bot_argv()


def bot_process(fake: FakeDiscord, env: dict[str, str]) -> BotProcess:
    """`python -m bot` as a subprocess on the fake (not started), ready once it logs BOT_READY."""
    return BotProcess(fake, bot_argv(), env=env, cwd=str(REPO_ROOT), ready_line=BOT_READY)


def running_bot(fake: FakeDiscord, env: dict[str, str]) -> AbstractAsyncContextManager[BotProcess]:
    """`async with running_bot(fake, env) as bot:` a bot process, ready on entry, killed on exit."""
    return fake.process(bot_argv(), env=env, cwd=str(REPO_ROOT), ready_line=BOT_READY)


def bot_env(
    fake: FakeDiscord, database_url: str, *, base: dict[str, str] = TEST_SETTINGS, **extra: str
) -> dict[str, str]:
    """Environment for `python -m bot` on the fake: `base` settings, our database, `extra`."""
    return child.bot_env(fake.server, database_url, **{**base, **extra})


async def stored_games(database_url: str) -> list[StoredGame]:
    """Every game in the database (read as another process would)."""
    return await play.StoredGames(database_url).all()


async def check_records(database_url: str) -> None:
    """Each stored game's record (docs/RULES.md, Game records), written and read back, replays to
    the stored position (a resignation's result included, kept apart from the live position as the
    bot stores it): run after every end-to-end test, so every game the suite plays is checked."""
    store = Store(database_url)
    try:
        async with store.transaction() as session:
            if not await session.run_sync(lambda s: inspect(s.connection()).has_table("games")):
                return
            for row in (await session.execute(select(GameRow).order_by(GameRow.id))).scalars().all():
                seats, moves = await store.seats(session, row.id), await store.moves(session, row.id)
                text = game_record(row, seats, moves).text()
                again = read_record(text)
                assert again.final == stored_position(row), f"game {row.id}: the record replays elsewhere"
                assert len(again.throws) == row.turn_number
    finally:
        await store.close()


POLL_SECONDS = 0.05
"""How often a condition that nobody announces (a database row) is checked again."""


async def wait_for(check: Callable[[], Awaitable[T | None]], *, what: str, timeout: float = TIMEOUT) -> T:
    """Wait until `await check()` is truthy and return its value: for the database, which tells
    nobody of a change, read again every POLL_SECONDS until the deadline."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (found := await check()):
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(POLL_SECONDS)  # the database announces nothing: look again shortly
    return found


async def wait_for_game(
    database_url: str, condition: Callable[[StoredGame], bool], *, what: str
) -> StoredGame:
    """The database's only game, once `condition` holds for it."""

    async def check() -> StoredGame | None:
        [game] = await stored_games(database_url)
        return game if condition(game) else None

    return await wait_for(check, what=what)


def check_move_log(game: StoredGame) -> None:
    """The log has one row per throw, numbered 0..n-1, and replaying it gives the stored position."""
    assert play.replays(game), f"game {game.snapshot.id}: the move log does not replay to the stored position"


class PostgresServer:
    """A PostgreSQL server of the test's own (PG_BIN: the server's programs, which
    scripts/postgres-up exports), which the test may stop and start again without the tests that
    run beside it on the shared server noticing."""

    def __init__(self, programs: str, data: str, port: int) -> None:
        self.bin, self.data, self.port = programs, data, port
        self.user = "postgres" if os.getuid() == 0 else getpass.getuser()
        self.url = f"postgresql+asyncpg://{self.user}@127.0.0.1:{port}/pachisi_test"

    @classmethod
    def create(cls) -> PostgresServer:
        """A new server, running on a free port with an empty `pachisi_test` database (LookupError
        without PG_BIN); `remove` stops it and deletes its files."""
        programs = os.environ.get("PG_BIN", "")
        if not Path(programs, "initdb").is_file():
            raise LookupError("PG_BIN is not set: the server's programs are unknown (scripts/postgres-up)")
        server = cls(programs, tempfile.mkdtemp(prefix="pachisi-pg."), free_port())
        try:
            if os.getuid() == 0:  # the server refuses to run as root
                shutil.chown(server.data, server.user)
            server._run("initdb", "--no-sync", "-D", server.data, "-U", server.user, "--auth=trust")
            server._run("pg_ctl", *server._start_args())
            server._run(
                "createdb", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user, "pachisi_test"
            )
        except BaseException:
            server.remove()
            raise
        return server

    def remove(self) -> None:
        if self.running:
            self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        shutil.rmtree(self.data, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        argv = [f"{self.bin}/{program}", *args]
        if os.getuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, timeout=TIMEOUT)

    @property
    def running(self) -> bool:
        return Path(self.data, "postmaster.pid").exists()

    async def stop(self) -> None:
        await asyncio.to_thread(self._run, "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    async def start(self) -> None:
        await asyncio.to_thread(self.restart)

    def restart(self) -> None:
        self._run("pg_ctl", *self._start_args())

    def _start_args(self) -> list[str]:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.data} -c fsync=off -c max_connections=200"
        return ["-D", self.data, "-l", f"{self.data}/server.log", "-w", "-o", options, "start"]


async def listens(bot: BotProcess, host: str, port: int, cli: CommandLine) -> None:
    """The bot process serves on `host`:`port` and says so, and `python -m bot healthcheck`, with
    the bot's settings, finds it healthy there."""
    await bot.wait_for_output(f"health and metrics on http://{host}:{port}")
    listening = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True)
    assert f"{host}:{port}" in listening.stdout, listening.stdout
    settings = {name: value for name, value in bot.child.env.items() if name.lower() in Settings.model_fields}
    check = await asyncio.to_thread(cli, "healthcheck", **settings)
    assert check.status == 0, check.err
    assert '"status": "ok"' in check.out


@contextlib.asynccontextmanager
async def sqlite_locked(database_url: str) -> AsyncIterator[None]:
    """Another process holds SQLite's write lock on the database until the block ends: past the
    bot's busy timeout (SQLITE_BUSY_TIMEOUT_MS), which the bot waits out before it answers."""
    path = make_url(database_url).database
    locker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({path!r}, isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()\n",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert locker.stdout is not None and await locker.stdout.readline() == b"locked\n"
        yield
    finally:
        locker.kill()
        await locker.wait()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that the system reports free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
