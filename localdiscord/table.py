"""`python -m bot play`: the Discord stand-in, the unmodified bot connected to it, and the page.

The bot runs as its own process, `python -m bot`, exactly as it runs against Discord (child.py):
only its settings point it at the stand-in, so nothing in it knows it is local, a bot that
crashes is restarted without taking the page down, and its CPU work (computer players, board
pictures) never holds up the page. The stand-in listens on 127.0.0.1 only (the bot is its one
client); the page listens where `--host` says. Beside the database: `<name>.discord.sqlite3`
(the stand-in's state, see saved.py) and `<name>.log` (the bot's log).
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import signal
import socket
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TextIO

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the table runs without the guard
    fcntl = None  # type: ignore[assignment]

from localdiscord import child
from localdiscord.child import Child
from localdiscord.objects import PUBLIC_THREAD, GuildRecord
from localdiscord.page import Page
from localdiscord.saved import Saved, forget_unused
from localdiscord.server import FakeDiscordServer

DEFAULT_DATABASE = "pachisi-local.sqlite3"
DEFAULT_PORT = 8150
SAVE_AFTER = 0.3  # seconds of quiet before a change is written (and at most this late)
RESTART_AFTER = 2.0
QUICK_DEATH = 15.0  # a bot that stops sooner after starting has a problem a restart won't fix...
GIVE_UP_AFTER = 5  # ...this many times in a row
STOP_WITHIN = 30.0
SHARE_WARNING = (
    "WARNING: shared on your network: anyone who can reach port {port} of this computer can watch every game "
    "and join as a new member. Each member is held by the browser that made it (nobody else can play "
    "as them), but the traffic is plain HTTP: it does not protect against someone who can read your "
    "network. Stop it with Ctrl-C when you are done."
)


def play_command(
    database: Path = Path(DEFAULT_DATABASE), host: str = "127.0.0.1", port: int = DEFAULT_PORT
) -> str:
    """`.venv/bin/python -m bot play` with the options given: this very interpreter, so the command
    works from a shell where the virtual environment is not active (bare `python` may lack the bot)."""
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(Path.cwd())
    words = [str(python) if "/" in str(python) else f"./{python}", "-m", "bot", "play"]
    if database != Path(DEFAULT_DATABASE):
        words += ["--database", str(database)]
    if host != "127.0.0.1":
        words += ["--host", host]
    if port != DEFAULT_PORT:
        words += ["--port", str(port)]
    return shlex.join(words)


def network_address() -> str:
    """This computer's address on its network (the one a friend's device reaches), found by asking
    the system which interface would route outwards; nothing is sent."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return socket.gethostname()


def shared(host: str) -> bool:
    return host not in ("127.0.0.1", "localhost", "::1")


def local_paths(database: Path) -> tuple[Path, Path]:
    """The stand-in's state file and the bot's log, beside the database."""
    stem = database.name.removesuffix(database.suffix) if database.suffix else database.name
    return database.with_name(stem + ".discord.sqlite3"), database.with_name(stem + ".log")


def lock_path(database: Path) -> Path:
    """The lock that keeps a second table off the same files, beside the database."""
    stem = database.name.removesuffix(database.suffix) if database.suffix else database.name
    return database.with_name(stem + ".lock")


class TableRunning(RuntimeError):
    """A table already runs on these files; the message says where to find it."""


class TableLock:
    """One table per database: an advisory lock (flock) on `<name>.lock`, which holds the running
    table's address. The system releases it when the process ends, however it ends, so a lock file
    left behind by a crash is stale and simply taken over."""

    def __init__(self, database: Path) -> None:
        self.database, self.path = database, lock_path(database)
        self._file: TextIO | None = None

    def acquire(self) -> None:
        """Hold the lock, or raise TableRunning naming the running table's address."""
        file = self.path.open("a+", encoding="utf-8")
        if fcntl is None:
            self._file = file
            return
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.seek(0)
            address = file.read().strip() or "an address it has not printed yet"
            file.close()
            raise TableRunning(
                f"a table already runs on {self.database}, at {address}: open that address, "
                "or stop that table first"
            ) from None
        self._file = file

    def tell(self, address: str) -> None:
        """Write the running table's address for a second command to name."""
        if self._file is not None:
            self._file.truncate(0)
            self._file.write(address + "\n")
            self._file.flush()

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._file.close()  # closing drops the lock
            self._file = None


class BotChild:
    """`python -m bot` as a child process (child.py): started, restarted when it dies, stopped on
    request."""

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        log: IO[bytes],
        say: Callable[[str], None],
        cwd: Path | None = None,
    ) -> None:
        self.child, self.log, self.say = Child(argv, env, log, cwd), log, say
        self.stopping = asyncio.Event()

    @property
    def runs(self) -> int:
        return self.child.starts

    async def run(self) -> None:
        """Keep the bot running until `stop`; a bot that dies is started again after a pause,
        unless it keeps dying at once (then its log says why)."""
        quick_deaths = 0
        while not self.stopping.is_set() and quick_deaths < GIVE_UP_AFTER:
            began = time.monotonic()
            self.child.spawn()
            code = await self.child.wait()
            with contextlib.suppress(TimeoutError):  # a Ctrl-C reaches the bot and us at once
                await asyncio.wait_for(self.stopping.wait(), RESTART_AFTER)
            if self.stopping.is_set():
                return
            quick_deaths = quick_deaths + 1 if time.monotonic() - began < QUICK_DEATH else 0
            if quick_deaths == GIVE_UP_AFTER:
                self.say(f"the bot keeps stopping as it starts (exit status {code}): see {self.log.name}")
            else:
                self.say(
                    f"the bot stopped (exit status {code}); starting it again (its log: {self.log.name})"
                )

    async def stop(self) -> None:
        """Ask the bot to shut down in order (SIGTERM); kill it if it takes too long."""
        self.stopping.set()
        await self.child.stop(STOP_WITHIN)


class LocalTable:
    """The three parts, started and stopped in order; the same code serves the command and tests.
    `bot_cwd`: the folder the bot runs in (where it reads a .env), by default this process's."""

    def __init__(
        self,
        database: Path,
        *,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        bot_argv: Sequence[str] = tuple(child.bot_argv()),
        say: Callable[[str], None] = print,
        bot_cwd: Path | None = None,
    ) -> None:
        self.database, self.host, self.port, self.bot_argv, self.say = database, host, port, bot_argv, say
        self.bot_cwd = bot_cwd
        self.state_path, self.log_path = local_paths(database)
        self.lock = TableLock(database)
        self.server = FakeDiscordServer()
        self.guild: GuildRecord | None = None
        self.page: Page | None = None
        self.saved: Saved | None = None
        self.bot: BotChild | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._save_task: asyncio.Task[None] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return self.page.url if self.page else ""

    @property
    def share_url(self) -> str:
        """The page's address as a friend's device reaches it (`--host 0.0.0.0`: this computer's
        network address), else the local one."""
        if not self.page or self.host not in ("0.0.0.0", "::"):
            return self.url
        return self.url.replace("127.0.0.1", network_address(), 1)

    def announce_tables(self) -> None:
        """Print each table's link as its thread opens: the link to send a friend."""
        told: set[int] = {c.id for c in self.server.channels.values()}

        def opened(kind: str, ident: int) -> None:
            channel = self.server.channels.get(ident)
            if kind != "channel" or ident in told or channel is None or channel.type != PUBLIC_THREAD:
                return
            told.add(ident)
            self.say(f"  table {channel.name!r}: send {self.share_url}/t/{ident} to seat a friend")

        self.server.observers.append(opened)

    async def start(self) -> None:
        self.database.parent.mkdir(parents=True, exist_ok=True)
        self.lock.acquire()
        self.saved = Saved(self.state_path)
        if self.saved.load(self.server):
            self.guild = next(iter(self.server.guilds.values()))
        else:
            self.guild = self.server.add_guild("Pachisi at home")
            self.server.add_channel(self.guild, "pachisi")
            self.saved.save(self.server)
        self.server.observers.append(self._changed)
        await self.server.start()
        self.page = Page(self.server, self.guild, self.saved.page_owners())
        await self.page.start(self.host, self.port)
        self.lock.tell(self.share_url)
        self._log = self.log_path.open("ab")
        self.bot = BotChild(self.bot_argv, self.bot_env(), self._log, self.say, self.bot_cwd)
        self._bot_task = asyncio.get_running_loop().create_task(self.bot.run())

    def bot_env(self) -> dict[str, str]:
        """The bot's settings: the user's (environment, .env), pointed at the stand-in and the
        local database; its commands go to the table's guild, where they appear at once."""
        assert self.guild is not None
        database_url = f"sqlite+aiosqlite:///{self.database.resolve()}"
        return child.bot_env(self.server, database_url, DEV_GUILD_ID=str(self.guild.id))

    async def wait_ready(self, timeout: float = 60.0) -> None:
        """Until the bot is connected and its commands are synced to the guild."""
        assert self.guild is not None
        guild_id = self.guild.id
        await self.server.wait_until(
            lambda: self.server.ready() and self.server.commands.get(guild_id),
            timeout,
            f"the bot to connect (its log: {self.log_path})",
        )

    async def stop(self) -> None:
        """The bot first (it finishes what it is doing), then the state is saved, then the page
        and the stand-in stop."""
        if self.bot is not None:
            await self.bot.stop()
        if self._bot_task is not None:
            await asyncio.gather(self._bot_task, return_exceptions=True)
        if self._save_task is not None:
            self._save_task.cancel()
        if self.saved is not None:
            self._save()
            self.saved.close()
        if self.page is not None:
            await self.page.stop()
        await self.server.stop()
        if self._log is not None:
            self._log.close()
        self.lock.release()

    def _changed(self, kind: str, ident: int) -> None:
        if self._save_task is None or self._save_task.done():
            self._save_task = asyncio.get_running_loop().create_task(self._save_soon())

    async def _save_soon(self) -> None:
        await asyncio.sleep(SAVE_AFTER)
        if self.saved is not None:
            self._save()
            forget_unused(self.server)

    def _save(self) -> None:
        assert self.saved is not None
        self.saved.save(self.server)
        if self.page is not None:
            self.saved.save_page_owners(self.page.members.owners)


async def play(database: Path, host: str, port: int) -> None:
    """Run the table until Ctrl-C (SIGINT) or SIGTERM, then stop everything in order."""
    began = time.monotonic()
    table = LocalTable(database, host=host, port=port, say=lambda text: print(text, flush=True))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await table.start()
    except TableRunning as running:
        raise SystemExit(str(running)) from None
    except OSError as exc:
        await table.stop()
        raise SystemExit(
            f"cannot listen on {host}:{port} ({exc.strerror}): another program uses that port; "
            "stop it, or give this table another --port"
        ) from exc
    print(f"Pachisi's local table: {table.share_url}   (Ctrl-C stops it)", flush=True)
    if shared(host):
        print(SHARE_WARNING.format(host=host, port=port), flush=True)
        table.announce_tables()
    print(f"  database {database}, Discord stand-in {table.state_path}, bot log {table.log_path}", flush=True)
    ready = loop.create_task(table.wait_ready())
    stopped = loop.create_task(stop.wait())
    await asyncio.wait({ready, stopped}, return_when=asyncio.FIRST_COMPLETED)
    if ready.done() and ready.exception() is None:
        print(f"  the bot is ready ({time.monotonic() - began:.1f} s): open the address above", flush=True)
    elif ready.done():
        print(f"  the bot is not connected yet: see {table.log_path}", flush=True)
    await stopped
    ready.cancel()
    print("stopping...", flush=True)
    await table.stop()
    print(f"stopped; `{play_command(database, host, port)}` again picks up where it was", flush=True)
