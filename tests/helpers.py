"""What the service and store tests share: members' ids, a clock moved by hand, a service on a
store, and whole games played through the service."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

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


async def force_position(store: Store, view: GameSnapshot, text: str, turn_number: int | None = None) -> None:
    """Put a game in a chosen position (its log then no longer replays to it: only for flow tests)."""
    values: GameValues = {"position": text}
    if turn_number is not None:
        values["turn_number"] = turn_number
    async with store.transaction() as session:
        assert await store.update_game(session, view.id, view.version, **values)


async def play_out(games: GameService, clock: Clock, view: GameSnapshot, rng: random.Random) -> GameSnapshot:
    """Play a game to its end: members click at random (sometimes time out, leave, or come back)."""
    while view.status == "active":
        if not view.is_human_turn():
            view = (await games.play_on(view.id)).game
            continue
        user = view.user_to_move()
        assert user is not None
        roll = rng.random()
        if roll < 0.05:
            clock.advance(61)
            view = (await games.timeout(view.id, view.turn_number)).game
        elif roll < 0.08:
            seat = view.seat_to_move()
            view = (await games.leave(view.id, user)).game
            if view.status == "active" and view.seats[seat].user_id is None:
                view = (await games.join(view.id, user, seat)).game
        elif view.pending_throw is None:
            view = (await games.act(view.id, user, view.turn_number)).game
        else:
            move = rng.choice(view.legal_moves())
            view = (await games.act(view.id, user, view.turn_number, move)).game
    return view
