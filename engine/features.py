"""The logistic win-chance model's six inputs (engine/winchance.py), also inputs of the expert's
value network (engine/network.py): one module both import, so neither imports the other's model.
"""

from __future__ import annotations

import math

from engine.board import HOME
from engine.evaluate import evaluate
from engine.state import Position, side_seats

FEATURES: tuple[str, ...] = ("eval", "eval_late", "race", "waiting", "tempo", "tempo_late")
"""The model's inputs, in the order of engine.winchance.WEIGHTS (see `features`)."""

SPREAD = 50.0
"""Steps added to the remaining work before its square root is taken, so the scale stays finite
when a game is all but over."""


def remaining(position: Position, side: int) -> int:
    """The steps `side`'s pieces still have to walk to home (84 for a piece not yet entered)."""
    return sum(
        HOME - step for seat in side_seats(side, position.rules.players) for step in position.steps[seat]
    )


def features(position: Position) -> tuple[float, ...]:
    """The model's inputs for side 0 (Black's side); each changes sign when the sides swap.

    eval: `evaluate` for side 0 over the spread's square root; eval_late: the same over the spread
    itself (weighs more as the game nears its end); race: side 1's remaining steps minus side 0's,
    over the root; waiting: side 1's pieces still to enter minus side 0's, over the root; tempo: +1
    when a seat of side 0 throws next, else -1, and tempo_late the same over the root.
    """
    players = position.rules.players
    work = [remaining(position, side) for side in (0, 1)]
    spread = work[0] + work[1] + SPREAD
    root = math.sqrt(spread)
    score = evaluate(position, 0)
    waiting = [sum(position.steps[seat].count(0) for seat in side_seats(side, players)) for side in (0, 1)]
    tempo = 1.0 if position.side_of(position.turn) == 0 else -1.0
    return (
        score / root,
        score * 10.0 / spread,
        (work[1] - work[0]) / root,
        (waiting[1] - waiting[0]) / root,
        tempo,
        tempo * 10.0 / root,
    )
