"""The key to the board's marks, shown by `/pachisi help`: every mark drawn by the board's own code."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render import draw as board
from render import sprites, theme
from render.board import castle_mark
from render.canvas import Canvas
from render.layout import CELL
from render.words import Words, legend_rows, legend_title, piece_marks

WIDTH = 960
ROW = 66
TOP = 64
_ICON = 230
"""Width of the column of pictures; the words start after it."""


def _cell(
    draw: ImageDraw.ImageDraw, x: int, y: int, fill: theme.RGB = theme.SQUARE
) -> tuple[int, int, int, int]:
    box = (x, y - CELL // 2, x + CELL, y + CELL // 2)
    draw.rectangle(box, fill=fill, outline=theme.GRID_LINE, width=2)
    return box


def _centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def legend_image(words: Words) -> Image.Image:
    """The key as an RGB image, WIDTH px wide: one row per mark, its picture then its meaning."""
    return _legend_image(legend_title(words), legend_rows(words), piece_marks(words))


@cache
def _legend_image(title: str, rows: tuple[str, ...], marks: tuple[str, ...]) -> Image.Image:
    """The key with these words and piece marks, cached by them (a language's key is drawn once)."""
    height = TOP + ROW * len(rows) + 16
    canvas = Canvas(Image.new("RGB", (WIDTH, height), theme.BACKGROUND))
    draw = canvas.draw
    canvas.write_within((24, TOP // 2), title, (32, 26), WIDTH - 48, theme.TEXT)
    x0 = 24
    for row, meaning in enumerate(rows):
        y = TOP + row * ROW + ROW // 2
        if row == 0:
            for seat in range(4):
                canvas.paste(sprites.piece(seat, board.PIECE, marks[seat]), (x0 + 22 + seat * 50, y))
        elif row == 1:
            for seat in range(4):
                _cell(draw, x0 + seat * (CELL + 4), y, theme.SEAT_TINTS[seat])
        elif row == 2:
            empty = _cell(draw, x0, y)
            castle_mark(draw, empty, 1)
            held = _cell(draw, x0 + CELL + 16, y)
            castle_mark(draw, held, 1)
            canvas.paste(sprites.piece(2, board.PIECE, marks[2]), _centre(held))
        elif row == 3:
            box = _cell(draw, x0, y)
            board.blockade_mark(canvas, box)
            x, y2 = _centre(box)
            canvas.paste(sprites.piece(1, board.PIECE, marks[1]), (x, y2))
            canvas.paste(sprites.badge("2", 20), (x + 14, y2 + 14))
        elif row == 4:
            boxes = [_cell(draw, x0 + k * CELL, y) for k in range(4)]
            points = [_centre(b) for b in boxes]
            board.choice_arrow(canvas, points, points[0], waiting=False)
            canvas.paste(sprites.piece(0, board.PIECE, marks[0]), points[0])
            canvas.paste(sprites.tile("A", board.TILE), points[-1])
        elif row == 5:
            boxes = [_cell(draw, x0 + k * CELL, y) for k in range(4)]
            points = [_centre(b) for b in boxes]
            board.story_line(canvas, points[:2], 3, last=False)
            board.story_line(canvas, points[1:], 1, last=True)
            canvas.paste(sprites.piece(1, board.PIECE, marks[1]), points[-1])
            canvas.paste(board.number_disc(0, 3, last=False), points[0])
            canvas.paste(board.number_disc(1, 1, last=True), points[1])
        elif row == 6:
            box = _cell(draw, x0, y)
            canvas.paste(sprites.piece(0, board.PIECE, marks[0]), _centre(box))
            board.capture_mark(canvas, box, [1], marks)
        else:
            for k, up in enumerate((True, True, False, False, False, False)):
                canvas.paste(sprites.cowrie(up), (x0 + 13 + k * 31, y))
        canvas.write_within((x0 + _ICON, y), meaning, (24, 20), WIDTH - x0 - _ICON - 16, theme.TEXT)
    return canvas.image
