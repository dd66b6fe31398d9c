"""What a member does on their turn, as data: a button's click and a typed command hand it to the
game flow (`GameFlow.click`, `GameFlow.play`), which has the service play it."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move


@dataclass(frozen=True)
class Act:
    """What a member does on their turn, by a click or a typed command: throw (`move` None) or play
    `move` with their throw, on the turn numbered `turn` (a stale turn is refused)."""

    game_id: int
    user_id: int
    turn: int
    move: Move | None = None
