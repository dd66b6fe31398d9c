"""The bot as a child process on the stand-in: its command line, its environment, and the process
itself (started, killed, stopped in order, its output in a file). The local table (table.py), the
end-to-end tests and the benchmarks (tests/support/) all start the bot here.

The bot runs exactly as against Discord: only its settings point it at the stand-in
(DISCORD_API_BASE, DISCORD_GATEWAY_URL and the stand-in's token).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from localdiscord.state import State

REPO_ROOT = Path(__file__).resolve().parents[1]
READY_LINE = "msg=ready "
"""The line the bot logs once it is connected with its guilds loaded (`PachisiBot.on_ready`), just
before it resumes their games: a bot process is ready, and its state may be read, after it."""
WAIT_SECONDS = 60.0
"""How long a killed or stopped process may take to end."""


def bot_argv() -> list[str]:
    """`python -m bot` with this interpreter."""
    return [sys.executable, "-m", "bot"]


def stand_in_env(server: State) -> dict[str, str]:
    """Where the stand-in is, and the token to use."""
    return {
        "DISCORD_API_BASE": server.url,
        "DISCORD_GATEWAY_URL": server.gateway.url,
        "DISCORD_TOKEN": server.token,
    }


def bot_env(server: State, database_url: str, **settings: str) -> dict[str, str]:
    """The bot's whole environment: ours, pointed at the stand-in and the database, plus `settings`
    (environment names: COMPUTER_PACE_SECONDS="0", ...); its output unbuffered, so a log is current."""
    return {
        **os.environ,
        **stand_in_env(server),
        "DATABASE_URL": database_url,
        "PYTHONUNBUFFERED": "1",
        **settings,
    }


class Child:
    """One command as a child process at a time, its output (stdout and stderr) appended to `log`."""

    def __init__(
        self, argv: Sequence[str], env: dict[str, str], log: IO[bytes], cwd: str | Path | None = None
    ) -> None:
        self.argv, self.env, self.log, self.cwd = list(argv), env, log, cwd
        self.popen: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def spawn(self) -> None:
        """Start the command (the previous process must have ended)."""
        if self.running:
            raise RuntimeError("the bot process is still running")
        self.popen = subprocess.Popen(
            self.argv,
            env=self.env,
            cwd=self.cwd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        self.starts += 1

    async def wait(self, timeout: float | None = None) -> int:
        """The exit status, once the process has ended."""
        assert self.popen is not None, "the bot was never started"
        return await asyncio.to_thread(self.popen.wait, timeout)

    async def kill(self) -> int | None:
        """SIGKILL the process (no clean shutdown) and reap it; returns its exit status."""
        if self.popen is None:
            return None
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
        return await self.wait(WAIT_SECONDS)

    async def terminate(self, timeout: float = WAIT_SECONDS) -> int:
        """SIGTERM the process (a clean shutdown, as a service manager asks) and reap it."""
        assert self.popen is not None, "the bot was never started"
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
        return await self.wait(timeout)

    async def stop(self, timeout: float) -> None:
        """A clean shutdown if it comes within `timeout`, else a kill."""
        if not self.running:
            return
        try:
            await self.terminate(timeout)
        except subprocess.TimeoutExpired:
            await self.kill()
