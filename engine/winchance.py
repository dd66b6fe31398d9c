"""Each side's chance to win from a position, assuming every seat plays `normal` from there.

Four-player chances come from a value network of the expert's kind (engine/network.py,
`forecaster`: the one of its first 20,000 four-player self-play games), which measured better
calibrated there (NETWORK_PLAYERS); two-player ones from a logistic model fitted to
`normal`-against-`normal` games (scripts/fit_winchance.py, which also measures the calibration of
both on games the fit never saw: docs/AI.md, "Win chance"). The logistic model's inputs
(engine/features.py) are the evaluation's judgement and a plain race count, divided by the square
root of the steps both sides still have to walk: a lead of 20 steps decides little at the start and
almost everything near the end, as in any race run by dice. Both models are zero-sum: the logistic
by construction (every input changes sign when the sides swap, and there is no constant term), the
network by giving one side's chance, so the two chances always add up to 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.evaluate import evaluate
from engine.features import FEATURES, features
from engine.network import forecaster
from engine.state import DRAW, Move, Position

__all__ = [
    "FEATURES",
    "WEIGHTS",
    "features",
    "logistic_chances",
    "network_chances",
    "normal_move",
    "side_chance",
    "story",
    "win_chance",
]

WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (-0.16981, 0.396, 0.30144, 6.0293, -0.034792, 0.16268),
    4: (-0.43691, 0.73569, 0.33837, 9.2209, -0.0044197, 0.090814),
}
"""WEIGHTS[players]: the fitted weight of each of FEATURES (scripts/fit_winchance.py prints them)."""


def logit(position: Position) -> float:
    """The model's log-odds that side 0 wins (before the logistic curve)."""
    weights = WEIGHTS[position.rules.players]
    return sum(w * x for w, x in zip(weights, features(position), strict=True))


NETWORK_PLAYERS = frozenset({4})
"""Player counts whose chances come from the value network (`forecaster`): in four-player games it is
better calibrated to `normal`'s games than the logistic model on the same unseen games (Brier score
and deciles, docs/AI.md "Win chance"); in two-player games its deciles are not, and the logistic
model stays."""


def logistic_chances(position: Position) -> tuple[float, float]:
    """(side 0's, side 1's) chance by the logistic model."""
    result = position.result
    if result is not None:
        return (0.5, 0.5) if result == DRAW else ((1.0, 0.0) if result == 0 else (0.0, 1.0))
    z = logit(position)
    black = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
    return black, 1.0 - black


def network_chances(position: Position) -> tuple[float, float]:
    """(side 0's, side 1's) chance by the value network (`forecaster`)."""
    black = forecaster(position.rules.players).side_value(position, 0)
    return black, 1.0 - black


def _chances(position: Position) -> tuple[float, float]:
    if position.rules.players in NETWORK_PLAYERS:
        return network_chances(position)
    return logistic_chances(position)


def normal_move(position: Position, throw: int) -> Move | None:
    """The move `normal` plays with `throw` (its first choice in legal order when scores tie;
    `normal` itself breaks ties by its RNG), or None when the throw is lost."""
    moves = position.legal_moves(throw)
    if len(moves) < 2:
        return moves[0] if moves else None
    side = position.side_of(position.turn)
    return max(moves, key=lambda m: evaluate(position.after(throw, m), side))


def win_chance(position: Position, throw: int | None = None) -> tuple[float, float]:
    """(side 0's chance, side 1's chance) to win, both seats of each side playing `normal`.

    With `throw` pending, the chance after the move `normal` would play with it; without one, the
    chance of the position as it stands, the seat to move about to throw. A finished game gives
    1 and 0, a draw a half each.
    """
    if throw is not None and position.result is None:
        position = position.after(throw, normal_move(position, throw))
    return _chances(position)


def side_chance(position: Position, side: int, throw: int | None = None) -> float:
    """`side`'s chance to win (see `win_chance`)."""
    return win_chance(position, throw)[side]


def story(
    start: Position, record: Iterable[tuple[int, Move | None]]
) -> tuple[list[float], list[tuple[int, int]]]:
    """A game's story for the chart: side 0's chance after each throw (the first entry before any
    throw), and (throws so far, capturing side) for each capture. `record`: (throw, move) pairs as
    played (`after`: not checked again)."""
    position = start
    chances = [win_chance(position)[0]]
    captures: list[tuple[int, int]] = []
    for number, (throw, move) in enumerate(record, start=1):
        if move is not None and position.captures(move):
            captures.append((number, position.side_of(move.seat)))
        position = position.after(throw, move)
        chances.append(win_chance(position)[0])
    return chances, captures
