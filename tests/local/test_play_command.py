"""`python -m bot play` as a person runs it: the address printed (and the warning when shared on
the network), Ctrl-C stops everything in order, and the next run finds the server, its threads
and the game where they were (the page saying the bot is still starting meanwhile). Its
refusals (a busy port, a table already running on its files) are called in this process: a
child process's imports are seconds, the line it prints is the interpreter's."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from localdiscord.table import (
    DEFAULT_DATABASE,
    LocalTable,
    TableLock,
    TableRunning,
    local_paths,
    lock_path,
)
from tests.local.conftest import QUICK_BOT
from tests.local.languages import lang
from tests.local.tabs import Tab
from tests.support.processes import free_port

pytestmark = pytest.mark.xdist_group("local-play-command")
"""One worker runs the module: its tests share the worker's Chromium, conftest.py."""

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = {"PYTHONPATH": str(ROOT)}
"""The command run from another folder still runs this checkout's code (not another installed copy)."""


class Play:
    """One run of `python -m bot play`, in a process group of its own, as a terminal starts it."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        env = {**os.environ, **QUICK_BOT, **CHECKOUT}
        env.pop("DISCORD_TOKEN", None)
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.lines: list[str] = []

    async def line(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """The first printed line (from now on) matching `pattern`."""
        assert self.process.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                raw = await asyncio.to_thread(self.process.stdout.readline)
                if not raw:
                    raise AssertionError("the command ended:\n" + "".join(self.lines))
                self.lines.append(raw.decode())
                if found := re.search(pattern, self.lines[-1]):
                    return found

    async def ctrl_c(self) -> int:
        """SIGINT to the whole group, as Ctrl-C in a terminal sends it; the exit status."""
        os.killpg(self.process.pid, signal.SIGINT)
        code = await asyncio.to_thread(self.process.wait, 60)
        assert self.process.stdout is not None
        self.lines += [raw.decode() for raw in self.process.stdout.readlines()]
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@asynccontextmanager
async def play(tmp_path: Path, *options: str, ready: bool = True) -> AsyncIterator[tuple[Play, str]]:
    """The command with `options`, until the bot is ready (`ready`), else until the address is
    printed; the run and the address."""
    run = Play([sys.executable, "-m", "bot", "play", *options], tmp_path)
    try:
        url = (await run.line(r"(http://\S+)"))[1]
        if ready:
            await run.line(r"the bot is ready")
        yield run, url
    finally:
        run.kill()


async def bot_of(run: Play) -> int:
    """The process id of the run's bot (the command's one child), once it runs `python -m bot`:
    a child stopped before that (forked, not yet executed) would hold up its parent."""
    tasks = Path(f"/proc/{run.process.pid}/task")
    async with asyncio.timeout(30):
        while True:
            for task in tasks.iterdir():
                for pid in (task / "children").read_text().split():
                    with contextlib.suppress(OSError):
                        if Path(f"/proc/{pid}/cmdline").read_bytes().endswith(b"-m\0bot\0"):
                            return int(pid)
            await asyncio.sleep(0.01)  # /proc has no event for a child's exec: look again


async def starting_refused(tab: Tab, locale: str) -> None:
    """A command of `tab`'s member is refused as the bot still starting, in their language (not
    "there is no command /pachisi")."""
    await tab.command("/pachisi help")
    assert await tab.refusal() == lang(locale).gettext(
        "Pachisi is still starting; try again in a few seconds."
    )


async def test_ctrl_c_and_play_again_resumes_the_game_and_the_page_reconnects(
    browser: Any, tmp_path: Path
) -> None:
    """Shared on the network, on a database of its own choosing: the warning, and each new
    table's link. The goodbye names the command that finds the same table again: bare `python` in
    a shell without the virtual environment active lacks the bot's packages, so it names this
    interpreter. While the bot of the second run starts, a command is refused as "still starting",
    and the notice goes once the bot is there (in each language, for a member who joins meanwhile:
    test_page_answers.py). (The default address, this computer only:
    test_a_busy_port_is_a_clear_message.)"""
    port = free_port()
    options = ["--database", "shared/table.sqlite3", "--host", "0.0.0.0", "--port", str(port)]
    async with play(tmp_path, *options) as (first, url):
        assert any("WARNING" in line and "anyone who can reach" in line for line in first.lines), first.lines
        assert any("does not protect against someone who can read" in line for line in first.lines)
        assert (tmp_path / "shared" / "table.discord.sqlite3").is_file()
        asha = await Tab.join(browser, url, "Asha")  # at the network address printed
        await asha.manual()
        await asha.command("/pachisi start players:2 pieces:1 level:easy")
        await asha.page.wait_for_selector("#channel-name:has-text('›')")
        link = (await first.line(r"table .*: send (\S+) to seat a friend"))[1]
        assert link == url + asha.page.url.removeprefix(url)  # the thread's own address
        assert "/t/" in link
        turn = await asha.turn()
        await asha.click(turn["id"])
        await asha.wait_gone(turn["id"])
        thread = await asha.page.inner_text("#channel-name")
        before = await asha.texts()
        assert await first.ctrl_c() == 0
        await asha.page.wait_for_selector("#banner:not([hidden])")  # reconnecting...
    [goodbye] = [line for line in first.lines if line.startswith("stopped;")]
    quoted = re.search(r"`([^`]+)`", goodbye)
    assert quoted is not None, goodbye
    python, *rest = shlex.split(quoted[1])
    assert Path(os.path.normpath(tmp_path / python)) == Path(sys.executable)  # the venv, not what it links
    assert rest == ["-m", "bot", "play", *options]
    assert (tmp_path / "shared" / "table.sqlite3").is_file()

    async with play(tmp_path, *options, ready=False) as (second, again):
        assert again == url
        bot = await bot_of(second)
        os.kill(bot, signal.SIGSTOP)  # the bot is slow to start
        try:
            await asha.page.wait_for_selector("#banner", state="hidden", timeout=20_000)  # by itself
            await starting_refused(asha, "en-US")
        finally:
            os.kill(bot, signal.SIGCONT)
        await asha.page.wait_for_selector("#bot-status.online")
        await asha.page.wait_for_selector("#refused", state="hidden")  # stale once the bot is there
        await asha.command("/pachisi help")
        await asha.message_with("Only you can see this").locator("img.picture").first.wait_for()
        assert await asha.page.inner_text("#channel-name") == thread
        assert len(await asha.texts()) >= len(before)
        turn = await asha.turn()  # the game goes on where it was: her throw is taken...
        await asha.click(turn["id"])
        await asha.wait_gone(turn["id"])
        await asha.turn()  # ...and her next turn comes
        assert await second.ctrl_c() == 0
    assert asha.errors == []


def play_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> str:
    """`python -m bot play OPTIONS` in `tmp_path`, called in this process (bot/__main__.py's
    `main`, as tests/bot/test_command_line.py calls it): the message it exits with, which the
    interpreter prints as the one line of its error output, with exit status 1. The signal
    handlers the command sets are put back."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [sys.argv[0]])  # `play` replaces it; this restores it
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    try:
        with pytest.raises(SystemExit) as exited:
            main(["play", *options])
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(wakeup)
    assert isinstance(exited.value.code, str), exited.value.code  # exit status 1, the message said
    return exited.value.code


def test_a_busy_port_is_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        said = play_here(tmp_path, monkeypatch, "--port", str(port))
    assert f"cannot listen on 127.0.0.1:{port}" in said and "another program" in said
    assert len(said.splitlines()) == 1
    assert not lock_path(tmp_path / DEFAULT_DATABASE).exists()  # what it had started is stopped


def test_the_local_tables_files_are_ignored_by_git() -> None:
    """`python -m bot play` in the checkout leaves its database, the stand-in's state and the log."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    database = Path(DEFAULT_DATABASE)
    names = [str(p) for p in (database, *local_paths(database), lock_path(database))] + [
        DEFAULT_DATABASE + "-wal"
    ]
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *names], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == names


async def test_a_second_table_on_the_same_files_refuses_at_once_and_names_the_first(tmp_path: Path) -> None:
    """Two tables on one database would both resume the same games: the second one stops at once
    naming the running table's address (the command's line:
    test_the_command_on_a_running_tables_files_says_where_it_runs); once the first stops, the files
    are free."""
    sleeper = (sys.executable, "-c", "import time; time.sleep(120)")  # the bot is not the point here
    first = LocalTable(tmp_path / DEFAULT_DATABASE, port=0, bot_argv=sleeper, say=lambda text: None)
    await first.start()
    try:
        assert first.share_url == first.url  # the address told: this computer's alone, by default
        assert first.url.startswith("http://127.0.0.1:")
        again = LocalTable(tmp_path / DEFAULT_DATABASE, port=0, bot_argv=sleeper, say=lambda text: None)
        with pytest.raises(TableRunning, match=re.escape(first.url)):
            await again.start()
        assert lock_path(tmp_path / DEFAULT_DATABASE).read_text() == first.url + "\n"
    finally:
        await first.stop()
    assert not lock_path(tmp_path / DEFAULT_DATABASE).exists()  # released on the way out
    lock_path(tmp_path / DEFAULT_DATABASE).write_text("http://127.0.0.1:1\n")  # left by a crash
    later = LocalTable(tmp_path / DEFAULT_DATABASE, port=0, bot_argv=sleeper, say=lambda text: None)
    await later.start()  # a stale lock file is taken over
    await later.stop()


def test_the_command_on_a_running_tables_files_says_where_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock a running table holds (its address in it), and `python -m bot play` on the same
    files: one line naming that address. (Its port is taken too: a command that got past the lock
    would say so instead of running on.)"""
    running = TableLock(tmp_path / DEFAULT_DATABASE)
    running.acquire()
    running.tell("http://127.0.0.1:8150")
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            said = play_here(tmp_path, monkeypatch, "--port", str(taken.getsockname()[1]))
    finally:
        running.release()
    assert len(said.splitlines()) == 1, said
    assert "already runs" in said and "http://127.0.0.1:8150" in said
