"""The game's story: each side's chance to win after every throw, as a line chart (PNG).

Each side's line is drawn in its seats' colours: a broad stroke in the first seat's colour with the
partner's colour down its middle (in two-player games, one seat's colour edged in a darker shade
where it would fade into the light plot). Captures are marked on the capturing side's line with a
cross in the capture colour of the board, and a faint line down the plot, so everyone sees where
the game turned.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.state import Move, Position, side_seats
from engine.winchance import story
from render import theme
from render.sprites import fit, write
from render.words import ENGLISH, Words, chart_labels, percent_words, side_words

WIDTH, HEIGHT = 800, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 48, 40
"""Margins of the plot inside the picture: axis labels left and below, the legend above."""
PLOT: theme.RGB = theme.SQUARE
GRID: theme.RGB = (214, 200, 176)
OUTER, INNER = 7, 3
"""Widths of a side's line: the outer stroke and the partner's colour down its middle."""


def line_colours(side: int, players: int) -> tuple[theme.RGB, theme.RGB]:
    """(outer, inner) colour of a side's line."""
    seats = side_seats(side, players)
    if len(seats) == 2:
        return theme.SEAT_COLOURS[seats[0]], theme.SEAT_COLOURS[seats[1]]
    seat = seats[0]
    outer = theme.SEAT_COLOURS[seat] if seat == 0 else theme.SEAT_EDGE[seat]
    return outer, theme.SEAT_COLOURS[seat]


def point(index: int, chance: float, count: int) -> tuple[int, int]:
    """The pixel of the `index`-th of `count` chances (0 = the start of the game) for `chance`."""
    width = WIDTH - LEFT - RIGHT
    height = HEIGHT - TOP - BOTTOM
    x = LEFT + round(width * index / max(count - 1, 1))
    y = TOP + round(height * (1.0 - chance))
    return x, y


def story_png(
    chances: Sequence[float],
    players: int,
    captures: Sequence[tuple[int, int]] = (),
    words: Words = ENGLISH,
) -> bytes:
    """The chart as PNG bytes.

    `chances[i]`: side 0's chance to win after `i` throws (`chances[0]` at the start; side 1's is
    the rest to 1). `captures`: (throws, capturing side) for each capture, `throws` indexing
    `chances` like the chart's x axis.
    """
    if len(chances) < 2:
        raise ValueError("a story needs at least two points")
    labels = chart_labels(words)
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    count = len(chances)
    draw.rectangle((LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM), fill=PLOT)
    for percent in (0, 25, 50, 75, 100):
        y = point(0, percent / 100, count)[1]
        draw.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=1)
        _label(image, (LEFT - 8, y), percent_words(words, percent), 13, LEFT - 10, theme.TEXT_DIM, "rm")
    ticks = _ticks(count - 1)
    for tick in ticks:
        x = point(tick, 0.0, count)[0]
        write(image, (x, HEIGHT - BOTTOM + 8), str(tick), 13, theme.TEXT_DIM, "mt")
    _label(image, (WIDTH - RIGHT, HEIGHT - 6), labels.throws, 13, 200, theme.TEXT_DIM, "rb")
    for throw, _ in captures:
        x = point(throw, 0.0, count)[0]
        draw.line((x, TOP, x, HEIGHT - BOTTOM), fill=GRID, width=1)
    lines = {
        side: [point(i, c if side == 0 else 1.0 - c, count) for i, c in enumerate(chances)] for side in (0, 1)
    }
    for side in (1, 0):
        outer, inner = line_colours(side, players)
        draw.line(lines[side], fill=outer, width=OUTER, joint="curve")
        draw.line(lines[side], fill=inner, width=INNER, joint="curve")
    for throw, side in captures:
        x, y = lines[side][throw]
        draw.line((x - 7, y - 7, x + 7, y + 7), fill=theme.CAPTURE, width=4)
        draw.line((x - 7, y + 7, x + 7, y - 7), fill=theme.CAPTURE, width=4)
    x = LEFT
    _label(image, (x, TOP // 2), labels.title, 16, 170)
    x += 180
    for side in (0, 1):
        outer, inner = line_colours(side, players)
        draw.line((x, TOP // 2, x + 30, TOP // 2), fill=outer, width=OUTER)
        draw.line((x, TOP // 2, x + 30, TOP // 2), fill=inner, width=INNER)
        _label(image, (x + 38, TOP // 2), side_words(words, side, players), 14, 160)
        x += 200
    draw.line((x, TOP // 2 - 6, x + 12, TOP // 2 + 6), fill=theme.CAPTURE, width=4)
    draw.line((x, TOP // 2 + 6, x + 12, TOP // 2 - 6), fill=theme.CAPTURE, width=4)
    _label(image, (x + 20, TOP // 2), labels.capture, 14, WIDTH - RIGHT - x - 20)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _label(
    image: Image.Image,
    at: tuple[int, int],
    text: str,
    size: int,
    width: int,
    colour: theme.RGB = theme.TEXT,
    anchor: str = "lm",
) -> None:
    """A label, smaller or cut where a language's words are longer than `width` px."""
    shown, fitted = fit(text, (size, size - 3), width)
    write(image, at, shown, fitted, colour, anchor)


def _ticks(last: int) -> list[int]:
    """Round throw numbers for the x axis, about six of them."""
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        step = candidate
        if last / candidate <= 8:
            break
    return list(range(0, last + 1, step))


def game_png(start: Position, record: Sequence[tuple[int, Move | None]], words: Words = ENGLISH) -> bytes:
    """The story chart of a game played from `start` by `record`'s (throw, move) pairs."""
    chances, captures = story(start, record)
    if len(chances) < 2:
        chances = chances * 2
    return story_png(chances, start.rules.players, captures, words)
