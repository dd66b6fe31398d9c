"""The geometry tables agree with the engine's routes and RULES.md section 1."""

from __future__ import annotations

from engine.board import LEAD, MID, NUM_SQUARES, ROUTES, SQUARES, TRAIL
from render import layout


def test_every_square_has_its_own_cell_on_the_cross() -> None:
    assert len(set(layout.CELLS)) == NUM_SQUARES
    for column, row in layout.CELLS:
        in_band = 8 <= column <= 10 or 8 <= row <= 10
        outside_charkoni = not (8 <= column <= 10 and 8 <= row <= 10)
        assert in_band and outside_charkoni


def test_route_steps_are_neighbours_except_at_the_inner_corners() -> None:
    for seat in range(4):
        route = ROUTES[seat]
        diagonal = []
        for step in range(1, 83):
            (c1, r1), (c2, r2) = layout.CELLS[route[step]], layout.CELLS[route[step + 1]]
            distance = (abs(c1 - c2), abs(r1 - r2))
            if distance == (1, 1):
                diagonal.append(step)
            else:
                assert sorted(distance) == [0, 1], (seat, step)
        assert diagonal == [16, 33, 50, 67]  # leading column row 1 -> next arm's trailing row 1


def test_arms_and_columns_face_the_right_way() -> None:
    """S at the bottom with its leading column east, E right/north, N top/west, W left/south."""
    expected = {0: ((9, 11), (10, 11), (8, 11)), 1: ((11, 9), (11, 8), (11, 10)),
                2: ((9, 7), (8, 7), (10, 7)), 3: ((7, 9), (7, 10), (7, 8))}  # fmt: skip
    for arm, (mid, lead, trail) in expected.items():
        cells = {
            SQUARES[n].column: layout.CELLS[n] for n in range(NUM_SQUARES) if SQUARES[n][::2] == (arm, 1)
        }
        assert (cells[MID], cells[LEAD], cells[TRAIL]) == (mid, lead, trail)


def test_panels_stay_off_the_cross_and_apart() -> None:
    boxes = [layout.panel_box(seat) for seat in range(4)]
    cross = [layout.square_box(n) for n in range(NUM_SQUARES)] + [layout.CHARKONI_BOX]

    def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for i, box in enumerate(boxes):
        assert not any(overlap(box, other) for other in cross)
        assert not any(overlap(box, other) for other in boxes[i + 1 :])
        assert box[0] >= 0 and box[2] <= layout.WIDTH and box[1] >= 0 and box[3] <= layout.HEIGHT


def test_path_points_follow_the_route_into_and_out_of_the_charkoni() -> None:
    points = layout.path_points(1, 0, 3)
    assert points[0] == layout.charkoni_point(1)
    assert points[1:] == [layout.square_centre(ROUTES[1][s]) for s in (1, 2, 3)]
    assert layout.path_points(2, 80, 84)[-1] == layout.charkoni_point(2)
