"""Each side's chance to win from a position, assuming every seat plays `normal` from there.

A logistic model fitted to `normal`-against-`normal` games (scripts/fit_winchance.py, which also
measures its calibration on games the fit never saw: docs/AI.md, "Win chance"). Its inputs are the
evaluation's judgement and a plain race count, divided by the square root of the steps both sides
still have to walk: a lead of 20 steps decides little at the start and almost everything near the
end, as in any race run by dice. The model is zero-sum by construction (every input changes sign
when the sides swap, and there is no constant term), so the two chances always add up to 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.board import HOME
from engine.evaluate import evaluate
from engine.state import DRAW, Move, Position, side_seats

FEATURES: tuple[str, ...] = ("eval", "eval_late", "race", "waiting", "tempo", "tempo_late")
"""The model's inputs, in the order of WEIGHTS (see `features`)."""

SPREAD = 50.0
"""Steps added to the remaining work before its square root is taken, so the scale stays finite
when a game is all but over."""

WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (-0.16981, 0.396, 0.30144, 6.0293, -0.034792, 0.16268),
    4: (-0.43691, 0.73569, 0.33837, 9.2209, -0.0044197, 0.090814),
}
"""WEIGHTS[players]: the fitted weight of each of FEATURES (scripts/fit_winchance.py prints them)."""


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


def logit(position: Position) -> float:
    """The model's log-odds that side 0 wins (before the logistic curve)."""
    weights = WEIGHTS[position.rules.players]
    return sum(w * x for w, x in zip(weights, features(position), strict=True))


def _chances(position: Position) -> tuple[float, float]:
    result = position.result
    if result is not None:
        return (0.5, 0.5) if result == DRAW else ((1.0, 0.0) if result == 0 else (0.0, 1.0))
    z = logit(position)
    black = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
    return black, 1.0 - black


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
