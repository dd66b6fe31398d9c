"""What the bot's text tests share: a stored game's snapshot made without a database."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.snapshot import GameSnapshot
from bot.core.store import Status
from bot.core.turns import SeatInfo
from engine import Game, Position, Rules, Throw

ALICE, BOB = 111, 222
NOW = datetime(2026, 1, 1, tzinfo=UTC)
FOUR = Rules.preset_rules("classic")


def game(
    rules: Rules = FOUR,
    *,
    position: Position | None = None,
    turn_number: int = 0,
    pending: int | None = None,
    status: str = "active",
    seats: dict[int, int | None] | None = None,
    hints_used: dict[int, int] | None = None,
) -> GameSnapshot:
    """A snapshot of a game: Alice plays Black, computers (hard) the rest, unless `seats` says."""
    members = {0: ALICE} if seats is None else seats
    infos = {s: SeatInfo(s, members.get(s), "hard", 0, (hints_used or {}).get(s, 0)) for s in rules.seats}
    played = Game(
        position or Position.initial(rules),
        throws=turn_number,
        pending=None if pending is None else Throw.of(pending),
    )
    return GameSnapshot(
        id=1,
        guild_id=2,
        channel_id=3,
        started_by=ALICE,
        status=Status(status),
        game=played,
        version=0,
        seats=infos,
        deadline=NOW,
        message_id=None,
        last_move=None,
        last_position=None,
        created_at=NOW,
    )
