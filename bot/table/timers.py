"""Turn timers: a member who must act is reminded once at half their time; at the deadline the
computer plays their turn. The clock is the bot's (`bot.core.clock`), so tests move time instead of
waiting for it; what happens when a timer fires is the table's (`fire`, `remind`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.core import metrics
from bot.core.clock import Clock
from bot.core.errors import GameError
from bot.core.snapshot import GameSnapshot
from bot.core.store import Status, StoreUnavailable

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""A timer that found the database down tries again after this long."""
Fire = Callable[[int, int], Awaitable[None]]
"""(game id, turn number) -> play or remind."""


class TurnTimers:
    def __init__(self, clock: Clock, timeout_seconds: float, fire: Fire, remind: Fire) -> None:
        self.clock = clock
        self.timeout_seconds = timeout_seconds
        self.fire = fire
        self.remind = remind
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def schedule(self, game: GameSnapshot) -> None:
        """The game's one timer, for its current turn (none when no member is to act)."""
        self.cancel(game.id)
        if game.status == Status.ACTIVE and game.deadline is not None:
            seconds = self.timeout_seconds if game.turn_seconds is None else game.turn_seconds
            half = timedelta(seconds=seconds / 2)
            self.tasks[game.id] = asyncio.create_task(
                self._run(game.id, game.turn_number, game.deadline, half)
            )

    def cancel(self, game_id: int) -> None:
        task = self.tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def cancel_all(self) -> None:
        for game_id in list(self.tasks):
            self.cancel(game_id)

    async def _run(
        self, game_id: int, turn: int, deadline: datetime, half: timedelta, *, reminded: bool = False
    ) -> None:
        """Remind at `half` the game's turn time before the deadline, then fire."""
        try:
            if not reminded and deadline - self.clock.now() > half:
                await self.clock.sleep_until(deadline - half)
                await self.remind(game_id, turn)
            await self.clock.sleep_until(deadline)
            if self.tasks.get(game_id) is asyncio.current_task():
                del self.tasks[game_id]
            await self.fire(game_id, turn)
        except GameError:
            pass  # the turn was played, or the game ended, before the deadline fired
        except StoreUnavailable:
            log.warning("game=%s turn timer: database unavailable, trying again", game_id)
            metrics.database_retry("turn_timer")
            retry = self.clock.now() + timedelta(seconds=RETRY_SECONDS)
            self.tasks[game_id] = asyncio.create_task(self._run(game_id, turn, retry, half, reminded=True))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game=%s turn timer failed", game_id)
