"""What the service and store tests share: members' ids, a clock moved by hand, a service on a
store, and whole games played through the service."""

from __future__ import annotations

import random
from contextlib import _AsyncGeneratorContextManager
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.members import MemberSettings
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot
from bot.core.store import GameValues, Store

GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 100, 11, 12, 13


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def service(
    store: Store,
    seed: int = 1,
    clock: Clock | None = None,
    *,
    auto_throw: bool = False,
    rng: random.Random | None = None,
) -> GameService:
    """A service on `store`; members throw for themselves unless `auto_throw` (the bot's default is on,
    but most flow tests want each throw to be a member's click)."""
    return GameService(
        store,
        rng=rng or random.Random(seed),
        turn_timeout=60,
        clock=clock or Clock(),
        members=MemberSettings(store, default_auto_throw=auto_throw),
    )


async def force_position(
    store: Store, snapshot: GameSnapshot, text: str, turn_number: int | None = None
) -> None:
    """Put a game in a chosen position (its log then no longer replays to it: only for flow tests)."""
    values: GameValues = {"position": text}
    if turn_number is not None:
        values["turn_number"] = turn_number
    async with store.transaction() as session:
        assert await store.update_game(session, snapshot.id, snapshot.version, **values)


async def play_out(
    games: GameService, clock: Clock, snapshot: GameSnapshot, rng: random.Random
) -> GameSnapshot:
    """Play a game to its end: members click at random (sometimes time out, leave, or come back)."""
    while snapshot.status == "active":
        if not snapshot.is_human_turn():
            snapshot = (await games.play_on(snapshot.id)).snapshot
            continue
        user = snapshot.user_to_move()
        assert user is not None
        roll = rng.random()
        if roll < 0.05:
            clock.advance(61)
            snapshot = (await games.timeout(snapshot.id, snapshot.turn_number)).snapshot
        elif roll < 0.08:
            seat = snapshot.seat_to_move()
            snapshot = (await games.leave(snapshot.id, user)).snapshot
            if snapshot.status == "active" and snapshot.seats[seat].user_id is None:
                snapshot = (await games.join(snapshot.id, user, seat)).snapshot
        elif snapshot.pending_throw is None:
            snapshot = (await games.act(snapshot.id, user, snapshot.turn_number)).snapshot
        else:
            move = rng.choice(snapshot.legal_moves())
            snapshot = (await games.act(snapshot.id, user, snapshot.turn_number, move)).snapshot
    return snapshot


def count_transactions(store: Store) -> list[int]:
    """Counts the transactions `store` runs from now on (the real ones: the method is wrapped)."""
    counted = [0]
    real = store.transaction

    def counting() -> _AsyncGeneratorContextManager[AsyncSession, None]:
        counted[0] += 1
        return real()

    store.transaction = counting  # type: ignore[method-assign]
    return counted
