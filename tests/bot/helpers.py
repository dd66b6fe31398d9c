"""What the bot's text tests share: a stored game's snapshot made without a database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from bot.core.service import GameSnapshot, SeatInfo
from engine import Position, Rules

ALICE, BOB = 111, 222
NOW = datetime(2026, 1, 1, tzinfo=UTC)
FOUR = Rules.preset_rules("classic")


def game(rules: Rules = FOUR, **changes: object) -> GameSnapshot:
    seats = {s: SeatInfo(s, None, "hard", 0) for s in rules.seats}
    seats[0] = SeatInfo(0, ALICE, "hard", 0)
    view = GameSnapshot(
        id=1,
        guild_id=2,
        channel_id=3,
        started_by=ALICE,
        rules=rules,
        status="active",
        position=Position.initial(rules),
        pending_throw=None,
        pending_cowries=None,
        turn_number=0,
        version=0,
        seats=seats,
        deadline=NOW,
        message_id=None,
        last_move=None,
        last_position=None,
        created_at=NOW,
    )
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]
