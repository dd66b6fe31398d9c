"""Geometry (RULES.md 1-2) and throws (RULES.md 3)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from random import Random

from engine.board import (
    CASTLE_STEPS,
    CASTLES,
    HOME,
    LEAD,
    MID,
    ROUTES,
    SQUARES,
    TRAIL,
    square_index,
)
from engine.throws import GRACES, OUTCOMES, throw_cowries, throw_value


def grid(square: int) -> tuple[int, int]:
    """Absolute (x, y) on a 19 x 19 grid, north up: an independent model of the cross."""
    sq = SQUARES[square]
    out = 1 + sq.row  # 2..9 cells from the centre cell (0, 0); the Charkoni spans -1..1
    # Columns seen from the centre looking out along the arm: the leading column is on the
    # counter-clockwise side of the middle one.
    offset = {MID: 0, LEAD: 1, TRAIL: -1}[sq.column]
    arm_dir = [(0, 1), (1, 0), (0, -1), (-1, 0)][sq.arm]  # S down (+y), E right, N up, W left
    ccw_side = [(1, 0), (0, -1), (-1, 0), (0, 1)][sq.arm]  # S: east, E: north, N: west, W: south
    return (
        arm_dir[0] * out + ccw_side[0] * offset,
        arm_dir[1] * out + ccw_side[1] * offset,
    )


def test_ninety_six_squares_in_four_arms_of_three_by_eight() -> None:
    assert len(SQUARES) == 96
    assert len({grid(i) for i in range(96)}) == 96
    assert Counter(sq.arm for sq in SQUARES) == {0: 24, 1: 24, 2: 24, 3: 24}


def test_every_route_is_a_connected_walk_of_84_steps() -> None:
    for seat in range(4):
        route = ROUTES[seat]
        assert len(route) == HOME + 1
        for step in range(1, 83):
            (x1, y1), (x2, y2) = grid(route[step]), grid(route[step + 1])
            # Orthogonal neighbours, or diagonal at the four inner corners of the cross.
            assert abs(x1 - x2) + abs(y1 - y2) == 1 or (abs(x1 - x2), abs(y1 - y2)) == (1, 1)


def test_routes_follow_the_table_of_rules_section_2() -> None:
    black = ROUTES[0]
    assert [SQUARES[black[s]] for s in (1, 8, 9, 16)] == [
        (0, MID, 1),
        (0, MID, 8),
        (0, LEAD, 8),
        (0, LEAD, 1),
    ]
    assert [SQUARES[black[s]] for s in (17, 24, 25, 26, 33)] == [
        (1, TRAIL, 1),
        (1, TRAIL, 8),
        (1, MID, 8),
        (1, LEAD, 8),
        (1, LEAD, 1),
    ]
    assert [SQUARES[black[s]] for s in (68, 75, 76, 83)] == [
        (0, TRAIL, 1),
        (0, TRAIL, 8),
        (0, MID, 8),
        (0, MID, 1),
    ]
    assert black[1] == black[83] and black[8] == black[76]
    for seat in range(4):  # each seat's route is Black's rotated to its arm
        for step in range(1, HOME):
            sq = SQUARES[black[step]]
            assert ROUTES[seat][step] == square_index((sq.arm + seat) % 4, sq.column, sq.row)


def test_every_outer_square_lies_on_every_route_exactly_once() -> None:
    for seat in range(4):
        visits = Counter(ROUTES[seat][1:HOME])
        for i, sq in enumerate(SQUARES):
            if sq.column != MID:
                assert visits[i] == 1
            elif sq.row == 8:
                assert visits[i] == (2 if sq.arm == seat else 1)


def test_castles_and_their_spacing() -> None:
    assert len(CASTLES) == 12
    assert CASTLE_STEPS == (8, 12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72, 76)
    gaps = [b - a for a, b in itertools.pairwise(CASTLE_STEPS)]
    assert gaps == [4, 9, 4] * 4


def test_throw_outcomes_are_the_binomial_of_six_shells() -> None:
    assert [(o.value, o.weight) for o in OUTCOMES] == [
        (25, 1),
        (10, 6),
        (2, 15),
        (3, 20),
        (4, 15),
        (5, 6),
        (6, 1),
    ]
    assert sum(o.probability for o in OUTCOMES) == 1
    assert sum(o.value * o.probability for o in OUTCOMES) == Fraction(271, 64)
    assert sum(o.weight for o in OUTCOMES if o.value in GRACES) == 8


def test_sampled_throws_converge_to_the_distribution() -> None:
    rng = Random(7)
    n = 64_000
    counts = Counter(throw_value(rng) for _ in range(n))
    for outcome in OUTCOMES:
        expected = n * outcome.weight / 64
        assert abs(counts[outcome.value] - expected) < 5 * expected**0.5 + 1


def test_cowrie_faces_match_the_value() -> None:
    rng = Random(3)
    for _ in range(500):
        value, faces = throw_cowries(rng)
        assert len(faces) == 6
        assert value == (25, 10, 2, 3, 4, 5, 6)[sum(faces)]
