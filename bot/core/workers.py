"""Worker processes for the bot's pure, CPU-bound work: the board pictures and the computers'
decisions. The engine and the renderer are pure, so a position travels to a worker and a picture
or the turns played come back; the event loop only routes, stores and answers.

`WORKERS` sets the pool's size (default: the machine's cores); 0 runs the same work in this
process, on two threads (pictures) or inline (decisions). The dice travel with the work: a seeded
`random.Random` goes to the worker and its state comes back, so a game is the same throw for throw
with workers on or off. A worker that dies mid-job breaks the pool: it is rebuilt and the job run
again (a job is pure and its transaction commits only after it returns, so nothing is lost or
played twice).
"""

from __future__ import annotations

import asyncio
import copyreg
import functools
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

import render
from bot.core import metrics
from bot.core.texts.language import Language, choose
from bot.core.turns import Event, SeatInfo, Turns
from engine.game import Game, Throw
from engine.state import Position
from render.words import Words

log = logging.getLogger(__name__)

T = TypeVar("T")
ATTEMPTS = 3
"""A job runs at most this often: a second worker dying on the same job is not chance."""
PARENT_CHECK_SECONDS = 0.5
"""How often a worker looks whether the bot still lives."""


def _position(rules: Any, steps: Any, turn: int, captured: int, decided: int | None) -> Position:
    return Position(rules, steps, turn=turn, captured=captured, result=decided)


def _reduce_position(position: Position) -> tuple[Any, ...]:
    """A position travels as its fields (the compiled class has no pickling of its own)."""
    return _position, (position.rules, position.steps, position.turn, position.captured, position._decided)


def _words(code: str) -> Words:
    return choose(code).picture


def _reduce_words(words: Words) -> tuple[Any, ...]:
    """A picture's language travels as its code; the worker has the same catalogs."""
    return _words, (words.code,)


def _reduce_language(lang: Language) -> tuple[Any, ...]:
    """A member's language travels as its code too (its catalog's plural rule is compiled code)."""
    return choose, (lang.code,)


copyreg.pickle(Position, _reduce_position)
copyreg.pickle(Words, _reduce_words)
copyreg.pickle(Language, _reduce_language)


def default_count() -> int:
    return os.cpu_count() or 1


def _warm() -> None:
    """Build the renderer's caches before the first job (about half a second)."""
    render.board_png(Position.initial())


def _start(parent: int) -> None:
    """A new worker: it ends with the bot (a killed bot leaves no worker behind), then warms up."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    _warm()


@dataclass(frozen=True)
class PlayedOn:
    """What `play_on` did in a worker: the game as it stands, the seats, the events, the dice."""

    position: Position
    throws: int
    pending: Throw | None
    seats: dict[int, SeatInfo]
    events: list[Event]
    rng: random.Random | None
    thought: list[tuple[str, float]]


def play_on(
    position: Position,
    throws: int,
    pending: Throw | None,
    seats: dict[int, SeatInfo],
    rng: random.Random | None,
    auto_throwers: frozenset[int],
) -> PlayedOn:
    """`Turns.play_on` from a game's parts (in a worker); `rng` None: the system's randomness."""
    turns = Turns(Game(position, throws=throws, pending=pending), seats)
    turns.play_on(rng or random.SystemRandom(), auto_throwers)
    game = turns.game
    return PlayedOn(game.position, game.throws, game.pending, turns.seats, turns.events, rng, turns.thought)


async def play_rest(
    workers: Workers | None, turns: Turns, rng: random.Random, auto_throwers: frozenset[int]
) -> None:
    """`turns.play_on(rng, auto_throwers)`, in a worker when a computer holds a seat and there is
    play to do (a member's own throws are no work worth the trip, nor a turn that waits for its
    member); `rng` comes back as the worker left it."""
    computers = any(info.user_id is None for info in turns.seats.values())
    if workers is None or workers.in_process or not computers or turns.waits(auto_throwers):
        turns.play_on(rng, auto_throwers)
        return
    dice = None if isinstance(rng, random.SystemRandom) else rng
    game = turns.game
    parts = (game.position, game.throws, game.pending, turns.seats, dice, auto_throwers)
    done = await workers.run(play_on, *parts)
    if dice is not None and done.rng is not None:
        rng.setstate(done.rng.getstate())
    turns.game = Game(done.position, throws=done.throws, pending=done.pending)
    turns.seats = done.seats
    turns.events.extend(done.events)
    for level, seconds in done.thought:  # the worker's own metrics reach nobody
        metrics.computer_decided(level, seconds)


class Workers:
    """The pool (processes, or threads when `count` is 0), rebuilt when a worker dies."""

    def __init__(self, count: int | None = None) -> None:
        self.count = default_count() if count is None else count
        self.pool = self._new()
        self.jobs = 0
        """Jobs submitted and not finished: more than `count` means new work waits in the queue."""
        self.retries = 0
        """Jobs run again because their worker died."""

    def _new(self) -> Executor:
        if self.count == 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        context = multiprocessing.get_context("spawn")
        parent = (os.getpid(),)
        return ProcessPoolExecutor(self.count, mp_context=context, initializer=_start, initargs=parent)

    @property
    def in_process(self) -> bool:
        return self.count == 0

    @property
    def backlog(self) -> int:
        """Jobs waiting for a free worker."""
        return max(0, self.jobs - max(1, self.count))

    async def run(self, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`job(*args, **kwargs)` in a worker; run again on a new pool if its worker died."""
        call = functools.partial(job, *args, **kwargs)
        for attempt in range(1, ATTEMPTS + 1):
            pool = self.pool
            self.jobs += 1
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, call)
            except BrokenProcessPool:
                if attempt == ATTEMPTS:
                    raise
                self.retries += 1
                metrics.worker_retry()
                log.warning("worker died job=%s attempt=%d: pool rebuilt", job.__name__, attempt)
                if self.pool is pool:  # the first job to notice rebuilds it; the others just retry
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = self._new()
            finally:
                self.jobs -= 1
        raise AssertionError("unreachable")

    async def warm(self) -> None:
        """Start every worker and build its caches now, not on the first turns."""
        await asyncio.gather(*(self.run(_warm) for _ in range(max(1, self.count))))

    def pids(self) -> list[int]:
        """The worker processes' ids (none in process)."""
        processes = getattr(self.pool, "_processes", None) or {}
        return list(processes)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
