"""A static evaluation of a position for one side: the `normal` player's judgement and `hard`'s leaves
(`hard` counts a piece on the board as worth more beyond its steps: SEARCH_ENTERED).

The score is zero-sum (`evaluate(p, 0) == -evaluate(p, 1)`), in units of "steps walked", so every
term can be weighed against plain progress. The terms follow the player's guide (seed 000):
progress and entering, the danger of standing where an enemy piece can land, castles and private
squares as safety, blockades (a partner's piece counts), the capture that unlocks home, and the
endgame squares 78-83 from which a piece can still finish.
"""

from __future__ import annotations

from engine.board import HOME, IS_CASTLE, LAST_STEP, ROUTES, STEP_OF
from engine.state import Position, side_seats
from engine.throws import PROBABILITY

WIN = 100_000.0
"""The score of a won game: larger than any position can reach otherwise."""

ENTERED = 12.0
"""A piece on the board is worth its steps plus this: bringing it out takes a grace (1 turn in 8).
`normal`'s weight; `hard`'s search weighs pieces with SEARCH_ENTERED instead."""
SEARCH_ENTERED = 30.0
"""ENTERED for `hard`'s search: there the worth of a piece beyond its steps (what its capture costs,
what a grace spent entering it buys) is set by play, not by the cost of a grace. With 30 `hard` wins
more of its games against `normal` than with 12 (docs/AI.md, "The search")."""
HOME_BONUS = 10.0
"""A piece home is worth HOME + this: it can never be captured again."""
RISK = 1.0
"""Weight of the expected loss of a piece that an enemy seat can reach with its next throw."""
RISK_LATER = 0.4
"""The same, when the piece's own seat throws before that enemy seat and may still move it away."""
BLOCKADE = 5.0
"""A blockade slows every enemy piece behind it, and its pieces are safe."""
CAPTURED = 20.0
"""Having captured (when the capture condition applies) unlocks home for the whole side."""
FINISH = 10.0
"""Times the chance of finishing in one throw, for pieces on steps 78-83 (seed 000: aim for them)."""
CASTLE = 3.0
"""A piece on a castle: safe not just from the next throw but for as long as it stays."""
HUNT = 25.0
"""Times the chance of a capture with the coming throws, for a side that has not yet captured: the
capture that unlocks home is worth more than the enemy's lost steps (seed 000: plan for it)."""

_SIDE_SEATS = {n: (side_seats(0, n), side_seats(1, n)) for n in (2, 4)}
"""_SIDE_SEATS[players][side]: the seats of a side, looked up once instead of per call."""

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

_RISK_OF: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
    tuple(
        tuple(RISK_LATER if (seat - turn) % 4 < (enemy - turn) % 4 else RISK for enemy in range(4))
        for seat in range(4)
    )
    for turn in range(4)
)
"""_RISK_OF[turn][seat][enemy]: the weight of `enemy`'s threat to `seat`'s pieces when `turn` throws
next: RISK_LATER if `seat` throws first (in turn order from `turn`), else RISK. In four-player games
this is per seat, not per side: with Red to throw, Black's pieces face Red's and Green's throws before
Black's next one, while Yellow's pieces face only Green's."""

_HIT: tuple[float, ...] = tuple(PROBABILITY.get(d, 0.0) for d in range(HOME + 1))
"""_HIT[d]: the chance that one throw moves a piece exactly d steps."""


def _side_score(position: Position, side: int, entered: float) -> tuple[float, float]:
    """`side`'s material, progress, safety and blockades; and its exposure, the chance (at most 1)
    that the enemy captures one of its pieces before it can move them away."""
    rules = position.rules
    steps = position.steps
    seats = _SIDE_SEATS[rules.players]
    needs_capture = rules.must_capture and not position.captured >> side & 1
    finish = _FINISH[rules.last_square]
    risk_of = _RISK_OF[position.turn]
    score = CAPTURED if rules.must_capture and not needs_capture else 0.0
    board: list[tuple[int, int, int]] = []
    for seat in seats[side]:
        route = ROUTES[seat]
        for step in steps[seat]:
            if step == HOME:
                score += HOME + HOME_BONUS
            elif step:
                board.append((seat, step, route[step]))
    blocks: set[int] = set()
    if len(board) > 1:
        squares = [square for _, _, square in board]
        blocks = {sq for sq in squares if not IS_CASTLE[sq] and squares.count(sq) > 1}
        score += BLOCKADE * len(blocks)
    enemies = seats[1 - side]
    exposure = 0.0
    for seat, step, square in board:
        value = entered + step
        if not needs_capture:
            value += FINISH * finish[step]
        if IS_CASTLE[square]:
            value += CASTLE
        elif not _SAFE[seat][step] and square not in blocks:
            loss = 0.0
            for enemy in enemies:
                step_of = STEP_OF[enemy]
                target = step_of[square]
                # An enemy piece behind one of our blockades cannot pass it to reach this piece.
                floor = max([step_of[b] for b in blocks if step_of[b] < target], default=0) if blocks else 0
                danger = 0.0
                for their in steps[enemy]:
                    if floor < their < target:
                        danger += _HIT[target - their]
                if danger:
                    loss += risk_of[seat][enemy] * min(danger, 1.0)
            if loss:
                loss = min(loss, 1.0)
                value -= loss * value
                exposure += loss
        score += value
    return score, min(exposure, 1.0)


def evaluate(position: Position, side: int, entered: float = ENTERED) -> float:
    """How good `position` is for `side` (0 or 1): positive favours it; WIN / -WIN once won.
    `entered` is a piece's worth on the board beyond its steps (ENTERED, or SEARCH_ENTERED).

    A frozen position (a draw) is not detected here: with the last-square rule on it all but never
    arises, and the test would cost more than the rest of the evaluation.
    """
    steps = position.steps
    seats = _SIDE_SEATS[position.rules.players]
    for winner in (0, 1):
        if all(steps[seat][0] == HOME for seat in seats[winner]):
            return WIN if winner == side else -WIN
    mine, my_exposure = _side_score(position, side, entered)
    theirs, their_exposure = _side_score(position, 1 - side, entered)
    if position.rules.must_capture:
        # A side still hunting for its first capture values the enemy's exposure beyond its steps.
        if not position.captured >> side & 1:
            mine += HUNT * their_exposure
        if not position.captured >> (1 - side) & 1:
            theirs += HUNT * my_exposure
    return mine - theirs
