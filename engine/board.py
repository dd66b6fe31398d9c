"""Board geometry: arms, squares, each seat's 84-step route and the castles (RULES.md 1-2).

Everything here is a table computed once at import, so the move generator only indexes lists.
"""

from __future__ import annotations

from typing import NamedTuple

SEAT_NAMES: tuple[str, ...] = ("black", "red", "yellow", "green")
"""Seat index = arm index: Black sits at S, Red at E, Yellow at N, Green at W."""
ARM_NAMES: tuple[str, ...] = ("S", "E", "N", "W")
"""Arms in the direction of play (counter-clockwise seen from above, north up)."""

BLACK, RED, YELLOW, GREEN = 0, 1, 2, 3

MID, LEAD, TRAIL = 0, 1, 2
COLUMN_NAMES: tuple[str, ...] = ("middle", "leading", "trailing")

ROWS = 8
HOME = 84
LAST_STEP = 83
CHARKONI = -1
"""Square number used for the Charkoni (steps 0 and 84 are both in it)."""
NUM_SQUARES = 96


class Square(NamedTuple):
    """One of the 96 squares: arm 0-3 (S, E, N, W), column (MID, LEAD, TRAIL), row 1-8."""

    arm: int
    column: int
    row: int

    @property
    def number(self) -> int:
        return square_index(self.arm, self.column, self.row)

    def __str__(self) -> str:
        return f"{ARM_NAMES[self.arm]}-{COLUMN_NAMES[self.column]}-{self.row}"


def square_index(arm: int, column: int, row: int) -> int:
    """The square's number 0..95: arm-major, then column, then row."""
    return arm * 24 + column * 8 + (row - 1)


SQUARES: tuple[Square, ...] = tuple(
    Square(arm, column, row) for arm in range(4) for column in range(3) for row in range(1, 9)
)


def _route(arm: int) -> tuple[int, ...]:
    """Square number at every step 0..84 of the route of the seat whose arm is `arm`."""
    steps: list[int] = [CHARKONI]
    steps += [square_index(arm, MID, r) for r in range(1, 9)]  # 1-8
    steps += [square_index(arm, LEAD, r) for r in range(8, 0, -1)]  # 9-16
    for k in (1, 2, 3):
        other = (arm + k) % 4
        steps += [square_index(other, TRAIL, r) for r in range(1, 9)]
        steps.append(square_index(other, MID, 8))
        steps += [square_index(other, LEAD, r) for r in range(8, 0, -1)]
    steps += [square_index(arm, TRAIL, r) for r in range(1, 9)]  # 68-75
    steps += [square_index(arm, MID, r) for r in range(8, 0, -1)]  # 76-83
    steps.append(CHARKONI)  # 84: home
    assert len(steps) == HOME + 1
    return tuple(steps)


ROUTES: tuple[tuple[int, ...], ...] = tuple(_route(arm) for arm in range(4))
"""ROUTES[seat][step] -> square number (CHARKONI for steps 0 and 84)."""

IS_CASTLE: tuple[bool, ...] = tuple(
    (sq.column == MID and sq.row == 8) or (sq.column != MID and sq.row == 5) for sq in SQUARES
)
CASTLES: frozenset[int] = frozenset(i for i, castle in enumerate(IS_CASTLE) if castle)
CASTLE_STEPS: tuple[int, ...] = tuple(s for s in range(1, HOME) if IS_CASTLE[ROUTES[0][s]])


def _first_steps(seat: int) -> tuple[int, ...]:
    """STEP_OF[seat][square]: the first step of the seat's route on that square, 0 if none."""
    table = [0] * NUM_SQUARES
    for step in range(HOME - 1, 0, -1):
        table[ROUTES[seat][step]] = step
    return tuple(table)


STEP_OF: tuple[tuple[int, ...], ...] = tuple(_first_steps(seat) for seat in range(4))
