"""Drawing the board: a cached static board, cached sprites, and one composite per position.

A render copies the board (render/board.py) onto a Canvas, places the panels' cached parts, draws
the story's paths and the choices' arrows and pastes sprites, then encodes a palette PNG from the
board's palette copy, mapping only what was drawn: flat colours compress to a few dozen KB.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from functools import cache

from isal import isal_zlib
from PIL import Image

from engine.board import HOME, ROUTES
from engine.state import Move, Position
from render import labels, layout, panels, sprites, theme
from render.board import base_board
from render.canvas import Canvas, quantize
from render.labels import (
    LAST_NUMBER,
    NUMBER,
    PIECE,
    SMALL_PIECE,
    STACK_OFFSETS,
    STORY_OFFSET,
    STRUCK,
    TILE,
    WAITING_PIECE,
    Placement,
)
from render.layout import Box, Point
from render.moves import DrawnMove, choice_label
from render.words import ENGLISH, Words, piece_marks

Marks = tuple[str, ...]
"""Each seat's piece mark in the picture's language (`words.piece_marks`)."""

MAX_STORY = 8
"""Only the story's last this many moves are drawn (numbered from 1): more would bury the board."""


# --- pieces ---------------------------------------------------------------------------------


def _draw_stack(canvas: Canvas, centre: Point, groups: list[tuple[int, int]], marks: Marks) -> None:
    x, y = centre
    if len(groups) == 1:
        seat, count = groups[0]
        canvas.paste(sprites.piece(seat, PIECE, marks[seat]), centre)
        if count > 1:
            canvas.paste(sprites.badge(str(count), 20), (x + 14, y + 14))
        return
    for (seat, count), (dx, dy) in zip(groups, STACK_OFFSETS, strict=False):
        canvas.paste(sprites.piece(seat, SMALL_PIECE, marks[seat]), (x + dx, y + dy))
        if count > 1:
            canvas.paste(sprites.badge(str(count), 14), (x + dx + 9, y + dy + 9))


def _draw_waiting(canvas: Canvas, position: Position, marks: Marks) -> None:
    """Pieces not yet out (or captured) stand in the Charkoni, beside their own arm."""
    for seat in position.rules.seats:
        count = position.charkoni_count(seat)
        if count:
            x, y = layout.charkoni_point(seat)
            canvas.paste(sprites.piece(seat, WAITING_PIECE, marks[seat]), (x, y))
            if count > 1:
                canvas.paste(sprites.badge(str(count), 18), (x + 13, y + 13))


def blockade_mark(canvas: Canvas, box: Box) -> None:
    """A heavy double frame: the square is shut to the other side."""
    left, top, right, bottom = box
    canvas.rectangle((left, top, right - 1, bottom - 1), outline=theme.BLOCKADE, width=5)
    canvas.rectangle((left + 5, top + 5, right - 6, bottom - 6), outline=theme.WHITE, width=2)


# --- lines: the story's paths and the choices' arrows -----------------------------------------


def arrow_head(canvas: Canvas, tail: Point, tip: tuple[float, float], colour: theme.RGB, size: float) -> None:
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * size, tip[1] - uy * size)
    canvas.polygon(
        [
            tip,
            (base[0] - uy * size * 0.65, base[1] + ux * size * 0.65),
            (base[0] + uy * size * 0.65, base[1] - ux * size * 0.65),
        ],
        fill=colour,
    )


def _short_of(points: list[Point], gap: float) -> tuple[Point, tuple[float, float]]:
    """The last segment's start and a tip `gap` px before the last point, for an arrow head."""
    (px, py), (ex, ey) = points[-2], points[-1]
    length = max(1.0, ((ex - px) ** 2 + (ey - py) ** 2) ** 0.5)
    gap = min(gap, length - 4)
    return (px, py), (ex - (ex - px) * gap / length, ey - (ey - py) * gap / length)


def line_with_head(
    canvas: Canvas,
    points: list[Point],
    colour: theme.RGB,
    halo: theme.RGB,
    width: int,
    gap: float,
) -> None:
    """A haloed polyline ending in an arrow head `gap` px short of its last point."""
    canvas.line(points, fill=halo, width=width + 6, joint="curve")
    if len(points) > 1:
        tail, tip = _short_of(points, gap)
        arrow_head(canvas, tail, tip, halo, width * 2.6 + 5)
        canvas.line([*points[:-1], (int(tip[0]), int(tip[1]))], fill=colour, width=width, joint="curve")
        arrow_head(canvas, tail, tip, colour, width * 2.6)
    else:
        canvas.line(points, fill=colour, width=width, joint="curve")


def _story_lines(canvas: Canvas, story: Sequence[DrawnMove]) -> None:
    """Every move of the story as a path in the piece's colour, the last one the heaviest."""
    for index, drawn in enumerate(story):
        move = drawn.move
        last = index == len(story) - 1
        points = [
            (x + STORY_OFFSET, y + STORY_OFFSET) for x, y in layout.path_points(move.seat, move.src, move.dst)
        ]
        story_line(canvas, points, move.seat, last)


def story_line(canvas: Canvas, points: list[Point], seat: int, last: bool) -> None:
    """One move of the story in its seat's colour and outline; the last move is drawn heavier."""
    line_with_head(canvas, points, theme.SEAT_COLOURS[seat], theme.SEAT_EDGE[seat], 8 if last else 5, 17)


def number_disc(index: int, seat: int, last: bool) -> Image.Image:
    """The number of the story's `index`-th move (from 0), in its seat's colours; the last larger."""
    return sprites.disc(
        str(index + 1),
        LAST_NUMBER if last else NUMBER,
        theme.SEAT_COLOURS[seat],
        theme.SEAT_EDGE[seat],
        theme.SEAT_INK[seat],
    )


def _story_numbers(canvas: Canvas, story: Sequence[DrawnMove], placement: Placement) -> None:
    """Each move's number where the layout put it (render/labels.py): at the square the move
    started from when that is free, a disc in the piece's colours, the last one larger."""
    for label in placement.numbers:
        seat = story[label.order].move.seat
        canvas.paste(number_disc(label.order, seat, label.order == len(story) - 1), label.centre)


def _draw_captures(canvas: Canvas, story: Sequence[DrawnMove], marks: Marks) -> None:
    """Each captured seat's shape, struck out, at the square where the capture happened."""
    for drawn in story:
        victims = drawn.victims()
        if not victims:
            continue
        capture_mark(canvas, layout.square_box(ROUTES[drawn.move.seat][drawn.move.dst]), victims, marks)


def capture_mark(canvas: Canvas, box: Box, victims: Sequence[int], marks: Marks | None = None) -> None:
    """A frame in the capture colour, and each captured seat's shape struck out at its corner."""
    left, top, right, bottom = box
    canvas.rectangle((left, top, right - 1, bottom - 1), outline=theme.CAPTURE, width=5)
    for seat, at in zip(victims, labels.struck_centres(box, len(victims)), strict=True):
        mark = marks[seat] if marks else None
        canvas.paste(sprites.struck_piece(seat, STRUCK, mark), at)


def _choice_arrows(canvas: Canvas, choices: Sequence[Move], placement: Placement) -> None:
    """Each legal move as a blue path from a ring around the piece (or the Charkoni) to its tile;
    to a tile the layout moved off the landing square, the path ends there and a thin line leads
    on to the tile."""
    for move, points, tile in zip(choices, placement.arrows, placement.tiles, strict=True):
        piece = layout.step_point(move.seat, move.src)
        if tile.centre == tile.home:
            choice_arrow(canvas, points, piece, move.src == 0)
            continue
        canvas.line(points[-2:], fill=theme.WHITE, width=6)
        canvas.line(points[-2:], fill=theme.CHOICE_EDGE, width=2)
        choice_arrow(canvas, points[:-1], piece, move.src == 0, gap=PIECE // 2 + 1)


def choice_arrow(
    canvas: Canvas, points: list[Point], piece: Point, waiting: bool, gap: int = TILE // 2 + 1
) -> None:
    """A blue ring around the piece that would move and a blue path from it, its head `gap` px
    short of the path's end (the edge of a tile standing there)."""
    x, y = piece
    radius = (WAITING_PIECE if waiting else PIECE) // 2 + 3
    canvas.ellipse(
        (x - radius - 2, y - radius - 2, x + radius + 2, y + radius + 2), outline=theme.WHITE, width=7
    )
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), outline=theme.CHOICE_EDGE, width=4)
    line_with_head(canvas, points, theme.CHOICE_EDGE, theme.WHITE, 4, gap)


def _choice_tiles(
    canvas: Canvas, position: Position, choices: Sequence[Move], placement: Placement, marks: Marks
) -> None:
    """Each legal move's letter, large, where the layout put it: on its landing square when it can.

    A tile of a capture shows the pieces standing on the landing square small on its corner (the
    captured struck out): standing on that square, it hides them from the board.
    """
    for label in placement.tiles:
        move = choices[label.order]
        canvas.paste(sprites.tile(choice_label(label.order), TILE), label.centre)
        if move.dst == HOME:
            continue
        if not label.minis:  # it captures nothing: the landing square's pieces stay on the board
            continue
        victims = {seat for seat, _ in position.captures(move)}
        standing = sorted({seat for seat, _ in position.pieces_on(ROUTES[move.seat][move.dst])})
        for seat, at in zip(standing, label.minis, strict=True):
            drawn = sprites.struck_piece if seat in victims else sprites.piece
            canvas.paste(drawn(seat, 24 if seat in victims else 22, marks[seat]), at)


# --- one position ---------------------------------------------------------------------------


def render(
    position: Position,
    *,
    names: dict[int, str] | None = None,
    story: Sequence[DrawnMove] = (),
    throw: int | None = None,
    cowries: tuple[bool, ...] | None = None,
    choices: Sequence[Move] | None = None,
    termination: str | None = None,
    last_move: Move | None = None,
    last_position: Position | None = None,
    words: Words = ENGLISH,
) -> Canvas:
    """The board picture on a canvas over the static board (see `board_png` for the arguments)."""
    if last_move is not None and not story:
        story = [DrawnMove(last_move, last_position)]
    story = list(story)[-MAX_STORY:]
    over = position.result is not None or termination is not None
    if over:  # a game over, won or stopped: nobody is to move, nothing to choose
        throw, cowries, choices = None, None, None
    marks = piece_marks(words)
    canvas = Canvas(_base(position.result is not None).copy())
    names = names or {}
    panels.draw_panels(canvas, words, position, names, throw, cowries, story, choices or (), over=over)
    placement = labels.place(position, story, choices or ())
    for square in position.blockades():
        blockade_mark(canvas, layout.square_box(square))
    _story_lines(canvas, story)
    if choices:
        _choice_arrows(canvas, choices, placement)
    for square, groups in labels.stacks(position).items():
        if square not in placement.covered:
            _draw_stack(canvas, layout.square_centre(square), groups, marks)
    _draw_waiting(canvas, position, marks)
    _story_numbers(canvas, story, placement)
    _draw_captures(canvas, story, marks)
    if choices:
        _choice_tiles(canvas, position, choices, placement, marks)
    if position.result is not None:
        panels.draw_banner(canvas, words, position, termination)
    return canvas


# --- the PNG --------------------------------------------------------------------------------

_SAMPLE = (
    "black:0,13,13,84 red:0,38,71,84 yellow:8,25,30,84 green:0,8,25,84"
    " turn:red captured:black+yellow rules:classic"
)
"""A busy position whose picture shows the blends the renderer makes, to build the palette from."""


@cache
def _palette() -> Image.Image:
    """A fixed palette: the theme's exact colours, then the commonest blends of busy pictures.

    Quantizing to a given palette is a lookup, not a search, and keeps flat areas exactly right.
    """
    position = Position.parse(_SAMPLE)
    before = Position.parse(_SAMPLE.replace("turn:red", "turn:black").replace("0,13,13", "0,13,16"))
    capture = Move(0, 16, 20)
    after = before.after(4, capture)
    story = [DrawnMove(Move(1, 30, 38), None), DrawnMove(Move(2, 0, 8), None), DrawnMove(capture, before)]
    won = Position.parse(
        "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,30,84 turn:red"
        " captured:black+yellow rules:classic result:black+yellow"
    )
    sample = Image.new("RGB", (layout.WIDTH * 3, layout.FINISHED_HEIGHT))
    names = {0: "Alice", 1: "Computer · hard"}
    sample.paste(render(position, names=names, throw=25, choices=position.legal_moves(25)).image)
    sample.paste(render(after, story=story, throw=6).image, (layout.WIDTH, 0))
    sample.paste(render(won).image, (layout.WIDTH * 2, 0))
    exact = theme.palette_colours()
    blends = sample.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat_blends = blends.getpalette() or []
    colours = list(exact)
    for k in range(0, len(flat_blends), 3):
        colour = (flat_blends[k], flat_blends[k + 1], flat_blends[k + 2])
        # Pillow maps pixels through a coarse colour cache: a blend next to an exact colour could
        # capture its flat areas, so keep only blends clearly apart from every exact colour.
        if all(sum(abs(a - b) for a, b in zip(colour, e, strict=True)) > 24 for e in exact):
            colours.append(colour)
    flat = [channel for colour in colours[:256] for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


@cache
def _base(finished: bool) -> Image.Image:
    """The static board, with room under it for the result's band when the game is `finished`."""
    if not finished:
        return base_board()
    image = Image.new("RGB", (layout.WIDTH, layout.FINISHED_HEIGHT), theme.BACKGROUND)
    image.paste(base_board())
    return image


@cache
def _base_rows(height: int = layout.HEIGHT) -> Image.Image:
    return _rows(quantize(_base(height != layout.HEIGHT), _palette()))


def canvas_png(canvas: Canvas) -> bytes:
    """A canvas drawn over the static board as a PNG: placed patches bring their own palette
    indices, and only what was drawn is mapped again. Equal to `encode_png(canvas.image)`."""
    palette = _palette()
    rows = _base_rows(canvas.image.size[1]).copy()
    for patch in canvas.patches:
        rows.paste(patch.paletted(palette), (patch.at[0] + 1, patch.at[1]))
    for box in canvas.regions():
        rows.paste(quantize(canvas.image.crop(box), palette), (box[0] + 1, box[1]))
    return _png(rows)


def encode_png(image: Image.Image) -> bytes:
    """A palette PNG with fast settings: the board is flat colour, so this is small and quick."""
    return _png(_rows(quantize(image, _palette())))


def _rows(paletted: Image.Image) -> Image.Image:
    """The palette image after a column of zeros: each row's PNG filter byte (0, none), so the
    image's bytes are the PNG's raw data as they stand."""
    width, height = paletted.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(paletted, (1, 0))
    return rows


def _png(rows: Image.Image) -> bytes:
    """The PNG of `_rows`, deflated by ISA-L's level 1: with zlib, deflating cost nearly as much
    as drawing; ISA-L writes the same kind of stream, smaller and much faster."""
    width, height = rows.size[0] - 1, rows.size[1]
    compressor = isal_zlib.compressobj(1)
    data = compressor.compress(rows.tobytes()) + compressor.flush()
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", bytes(_palette().getpalette() or ())),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
