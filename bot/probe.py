"""What a benchmark may ask a running bot (bench/bot_bench.py): SIGUSR1 logs the database
transactions begun so far, so a phase's count is the difference of two readings; with
`PACHISI_PROFILE=FILE` in the environment, SIGUSR2 starts cProfile and the next SIGUSR2 stops it
and writes the profile to FILE (pstats), so only the phase under study is profiled."""

from __future__ import annotations

import asyncio
import cProfile
import logging
import os
import signal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)


class Profiling:
    """cProfile switched on and off by SIGUSR2; the profile goes to `path` when it stops."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.profile: cProfile.Profile | None = None

    def toggle(self) -> None:
        if self.profile is None:
            self.profile = cProfile.Profile()
            self.profile.enable()
            log.info("profile started")
            return
        self.profile.disable()
        self.profile.dump_stats(self.path)
        self.profile = None
        log.info("profile written file=%s", self.path)


def install(bot: PachisiBot) -> None:
    """Answer the benchmark's signals in this event loop (a bot started by `bot.__main__.run`)."""
    loop = asyncio.get_running_loop()

    def report() -> None:
        store = getattr(bot, "store", None)
        workers = getattr(bot, "workers", None)
        log.info(
            "store transactions=%d worker_retries=%d",
            0 if store is None else store.transactions,
            0 if workers is None else workers.retries,
        )

    loop.add_signal_handler(signal.SIGUSR1, report)
    path = os.environ.get("PACHISI_PROFILE")
    if path:
        loop.add_signal_handler(signal.SIGUSR2, Profiling(path).toggle)
