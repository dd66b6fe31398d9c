"""A static evaluation of a position for one side: the `normal` player's judgement and `hard`'s leaves.

The score is zero-sum (`evaluate(p, 0) == -evaluate(p, 1)`), in units of "steps walked", so every
term can be weighed against plain progress. The terms follow the player's guide (seed 000):
progress and entering, the danger of standing where an enemy piece can land, castles and private
squares as safety, blockades (a partner's piece counts), the capture that unlocks home, and the
endgame squares 78-83 from which a piece can still finish.
"""

from __future__ import annotations

from engine.board import HOME, IS_CASTLE, LAST_STEP, ROUTES
from engine.state import DRAW, Position
from engine.throws import PROBABILITY

WIN = 100_000.0
"""The score of a won game: larger than any position can reach otherwise."""

ENTERED = 12.0
"""A piece on the board is worth its steps plus this: bringing it out takes a grace (1 turn in 8)."""
HOME_BONUS = 10.0
"""A piece home is worth HOME + this: it can never be captured again."""
RISK = 1.0
"""Weight of the expected loss of a piece that an enemy piece can reach with one throw."""
BLOCKADE = 5.0
"""A blockade slows every enemy piece behind it, and its pieces are safe."""
CAPTURED = 20.0
"""Having captured (when the capture condition applies) unlocks home for the whole side."""
FINISH = 10.0
"""Times the chance of finishing in one throw, for pieces on steps 78-83 (seed 000: aim for them)."""

_SIDE_SEATS = {4: ((0, 2), (1, 3)), 2: ((0,), (2,))}

_SAFE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        step == 0 or step >= HOME or IS_CASTLE[ROUTES[seat][step]] or step < 8 or step > 76
        for step in range(HOME + 1)
    )
    for seat in range(4)
)
"""_SAFE[seat][step]: no enemy piece can land there (castle, or the seat's private middle column)."""


def _finish_chances(last_square: bool) -> tuple[float, ...]:
    chances = [0.0] * (HOME + 1)
    for step in range(1, HOME):
        chances[step] = PROBABILITY.get(HOME - step, 0.0)
    if last_square:
        chances[LAST_STEP] = 1.0
    return tuple(chances)


_FINISH = {flag: _finish_chances(flag) for flag in (False, True)}

_REACH: tuple[tuple[tuple[tuple[int, float], ...], ...], ...] = tuple(
    tuple(
        tuple((ROUTES[seat][step + t], p) for t, p in PROBABILITY.items() if step + t < HOME)
        if 0 < step < HOME
        else ()
        for step in range(HOME + 1)
    )
    for seat in range(4)
)
"""_REACH[seat][step]: (square, probability) for each throw a piece there could land with."""


def _threats(position: Position, side: int) -> dict[int, float]:
    """Square -> chance that one throw of `side` lands a piece there (blockades set aside)."""
    threat: dict[int, float] = {}
    for seat in _SIDE_SEATS[position.rules.players][side]:
        reach = _REACH[seat]
        for step in position.steps[seat]:
            for square, p in reach[step]:
                threat[square] = threat.get(square, 0.0) + p
    return threat


def _side_score(position: Position, side: int, enemy_threat: dict[int, float]) -> float:
    rules = position.rules
    finish = _FINISH[rules.last_square]
    needs_capture = rules.must_capture and not position.captured >> side & 1
    score = 0.0
    if rules.must_capture and not needs_capture:
        score += CAPTURED
    count: dict[int, int] = {}
    for seat in _SIDE_SEATS[rules.players][side]:
        route = ROUTES[seat]
        safe = _SAFE[seat]
        for step in position.steps[seat]:
            if step == 0:
                continue
            if step == HOME:
                score += HOME + HOME_BONUS
                continue
            value = ENTERED + step
            if not needs_capture:
                value += FINISH * finish[step]
            square = route[step]
            count[square] = count.get(square, 0) + 1
            if not safe[step]:
                danger = enemy_threat.get(square)
                if danger:
                    # Provisional: a blockade square is made safe again below.
                    value -= RISK * min(danger, 1.0) * value
            score += value
    for square, n in count.items():
        if n >= 2 and not IS_CASTLE[square]:
            score += BLOCKADE
            danger = enemy_threat.get(square)
            if danger:
                # Undo the danger of pieces that stand in a blockade: no enemy may land there.
                for seat in _SIDE_SEATS[rules.players][side]:
                    route = ROUTES[seat]
                    for step in position.steps[seat]:
                        if 0 < step < HOME and route[step] == square and not _SAFE[seat][step]:
                            base = ENTERED + step + (0.0 if needs_capture else FINISH * finish[step])
                            score += RISK * min(danger, 1.0) * base
    return score


def evaluate(position: Position, side: int) -> float:
    """How good `position` is for `side` (0 or 1): positive favours it; WIN / -WIN once decided."""
    result = position.result
    if result is not None:
        return 0.0 if result == DRAW else (WIN if result == side else -WIN)
    threat = (_threats(position, 0), _threats(position, 1))
    return _side_score(position, side, threat[1 - side]) - _side_score(position, 1 - side, threat[side])
