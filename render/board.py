"""The static board, drawn once at four times its size and scaled down, so its edges are smooth.

Every render starts from a copy; the panels' cached parts are drawn on crops of it.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from engine.board import IS_CASTLE, MID, NUM_SQUARES, SQUARES
from render import layout, sprites, theme
from render.layout import Box
from render.sprites import SCALE


def _scaled(box: Box | tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return tuple(int(v * SCALE) for v in box)  # type: ignore[return-value]


def castle_mark(draw: ImageDraw.ImageDraw, box: Box, scale: int) -> None:
    """A castle: a tan square with a wall along its edge and a small tower in the middle.

    The old mark, a cross over the square, showed through pieces standing there and made them look
    captured. A piece now hides only the tower; the tan fill and the wall stay visible around it.
    """
    left, top, right, bottom = box
    s = scale
    draw.rectangle(box, fill=theme.CASTLE_FILL, outline=theme.GRID_LINE, width=2 * s)
    draw.rounded_rectangle(
        (left + 4 * s, top + 4 * s, right - 5 * s, bottom - 5 * s),
        radius=4 * s,
        outline=theme.CASTLE_MARK,
        width=3 * s,
    )
    cx, cy = (left + right) // 2, (top + bottom) // 2
    draw.rectangle((cx - 8 * s, cy - 4 * s, cx + 8 * s, cy + 9 * s), fill=theme.CASTLE_MARK)
    for dx in (-8, -2, 4):
        draw.rectangle((cx + dx * s, cy - 9 * s, cx + (dx + 4) * s, cy - 4 * s), fill=theme.CASTLE_MARK)
    draw.rectangle((cx - 2 * s, cy + 3 * s, cx + 2 * s, cy + 9 * s), fill=theme.CASTLE_FILL)


@cache
def base_board() -> Image.Image:
    """The static board: squares, private-column tints, castles, the Charkoni, the four corner panels."""
    size = layout.WIDTH * SCALE
    image = Image.new("RGB", (size, size), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    for seat in range(4):  # two-player games use the empty seats' corners for the story and the throw
        draw.rounded_rectangle(_scaled(layout.panel_inner_box(seat)), radius=14 * SCALE, fill=theme.PANEL)
    line = 2 * SCALE
    for square in range(NUM_SQUARES):
        arm, column, row = SQUARES[square]
        fill = theme.SEAT_TINTS[arm] if column == MID and row < 8 else theme.SQUARE
        box = _scaled(layout.square_box(square))
        draw.rectangle(box, fill=fill, outline=theme.GRID_LINE, width=line)
        if IS_CASTLE[square]:
            castle_mark(draw, box, SCALE)
    left, top, right, bottom = _scaled(layout.CHARKONI_BOX)
    middle = ((left + right) // 2, (top + bottom) // 2)
    corners = {
        0: ((left, bottom), (right, bottom)),
        1: ((right, bottom), (right, top)),
        2: ((right, top), (left, top)),
        3: ((left, top), (left, bottom)),
    }
    for arm, (a, b) in corners.items():
        draw.polygon([a, b, middle], fill=theme.SEAT_TINTS[arm], outline=theme.GRID_LINE, width=line)
    draw.rectangle((left, top, right, bottom), outline=theme.GRID_LINE, width=2 * line)
    return sprites.smooth(image, (layout.WIDTH, layout.HEIGHT))
