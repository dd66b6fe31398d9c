"""Where things go on the picture: square -> pixel geometry, with no Pillow import.

The board is a 19 x 19 grid of cells (3 centre + 8 per arm on each side). Each arm is placed by two
unit vectors: `out` (from the centre towards its tip) and `lead` (towards its leading column, the
counter-clockwise side). Every square's cell then follows from `engine.board.SQUARES`, so the
picture cannot disagree with the engine's routes.
"""

from __future__ import annotations

from engine.board import LEAD, MID, NUM_SQUARES, ROUTES, SQUARES, TRAIL

CELL = 48
"""Side of one square in pixels: a piece 40 px wide stays legible on a phone."""
GRID = 19
MARGIN = 24
BOARD = GRID * CELL
WIDTH = BOARD + 2 * MARGIN
HEIGHT = WIDTH

CENTRE = 9
"""Grid column and row of the centre cell of the Charkoni."""

# Arm index (S, E, N, W) -> (out, lead) unit vectors in grid units; y grows downwards.
_ARM_VECTORS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (1, 0)),  # S: tip at the bottom, leading column to the east
    ((1, 0), (0, -1)),  # E: tip on the right, leading column to the north
    ((0, -1), (-1, 0)),  # N: tip at the top, leading column to the west
    ((-1, 0), (0, 1)),  # W: tip on the left, leading column to the south
)
_COLUMN_SIGN = {MID: 0, LEAD: 1, TRAIL: -1}

Box = tuple[int, int, int, int]
Point = tuple[int, int]


def _grid_cell(square: int) -> tuple[int, int]:
    arm, column, row = SQUARES[square]
    (ox, oy), (lx, ly) = _ARM_VECTORS[arm]
    sign = _COLUMN_SIGN[column]
    distance = 1 + row  # row 1 touches the Charkoni, which spans centre +/- 1
    return CENTRE + ox * distance + lx * sign, CENTRE + oy * distance + ly * sign


CELLS: tuple[tuple[int, int], ...] = tuple(_grid_cell(n) for n in range(NUM_SQUARES))
"""CELLS[square] -> (grid column, grid row), both 0..18."""


def cell_box(column: int, row: int) -> Box:
    """Pixel box (left, top, right, bottom) of a grid cell; right/bottom exclusive."""
    x, y = MARGIN + column * CELL, MARGIN + row * CELL
    return x, y, x + CELL, y + CELL


def square_box(square: int) -> Box:
    return cell_box(*CELLS[square])


def square_centre(square: int) -> Point:
    column, row = CELLS[square]
    return MARGIN + column * CELL + CELL // 2, MARGIN + row * CELL + CELL // 2


CHARKONI_BOX: Box = (
    MARGIN + (CENTRE - 1) * CELL,
    MARGIN + (CENTRE - 1) * CELL,
    MARGIN + (CENTRE + 2) * CELL,
    MARGIN + (CENTRE + 2) * CELL,
)


def charkoni_point(arm: int) -> Point:
    """A point inside the Charkoni next to `arm`: where a seat's pieces enter and come home.

    `arm` -1 is the Charkoni's centre.
    """
    (ox, oy), _ = _ARM_VECTORS[arm] if arm >= 0 else ((0, 0), (0, 0))
    centre = MARGIN + CENTRE * CELL + CELL // 2
    return centre + ox * CELL, centre + oy * CELL


def step_point(seat: int, step: int) -> Point:
    """Pixel centre of a piece of `seat` at `step`; steps 0 and 84 lie in the Charkoni by the arm."""
    square = ROUTES[seat][step]
    return charkoni_point(seat) if square < 0 else square_centre(square)


def path_points(seat: int, src: int, dst: int) -> list[Point]:
    """The centres a piece passes from step `src` to `dst`, both included, for drawing a move."""
    return [step_point(seat, step) for step in range(src, dst + 1)]


def panel_box(seat: int) -> Box:
    """The empty 8 x 8 corner beside the seat's arm on its trailing side, for its name and counts.

    S -> bottom-left, E -> bottom-right, N -> top-right, W -> top-left.
    """
    near, far = MARGIN, MARGIN + (CENTRE + 2) * CELL
    size = (CENTRE - 1) * CELL
    left, top = ((near, far), (far, far), (far, near), (near, near))[seat]
    return left, top, left + size, top + size


def panel_inner_box(seat: int) -> Box:
    """The panel as drawn (a rounded box), 10 px inside its corner."""
    left, top, right, bottom = panel_box(seat)
    return left + 10, top + 10, right - 10, bottom - 10


BANNER_HEIGHT = 112
FINISHED_HEIGHT = HEIGHT + BANNER_HEIGHT
"""A finished game's picture is taller: the board, then the result's band under it."""
BANNER_BOX: Box = (0, HEIGHT, WIDTH, FINISHED_HEIGHT)
"""The end-of-game band, below the board's margin: it hides no square (across the board it hid
the South arm's two outer rows, where a piece may still stand)."""
