"""A tournament's standings as a picture, made to be read on a phone: large type, one member a row
(rank, name, points, Buchholz, opponents' ratings, games), then who plays whom in the next round.

Render knows nothing of the bot: the caller hands it names and numbers (`Standing`, `Pairing`),
and every word drawn comes from `render.words` in the table's language. Names in Devanagari are
drawn in the project's Devanagari font, in runs, as everywhere (render/sprites.py).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import theme
from render.sprites import fit, write
from render.words import (
    ENGLISH,
    Words,
    bye_words,
    computer_name,
    pairings_title,
    partners_words,
    points_text,
    standings_labels,
    standings_title,
    table_words,
    versus_words,
)

WIDTH = 1080
MARGIN = 32
ROW = 64
"""A member's row: tall enough for 34 px type and Devanagari's marks above and below."""
NAME_LEFT, NAME_RIGHT = 112, 530
COLUMNS = {"points": (595, 110), "buchholz": (720, 140), "opponents": (872, 164), "games": (1008, 108)}
"""Each number column's centre and width."""
GOLD: theme.RGB = theme.BANNER_EDGE


@dataclass(frozen=True)
class Standing:
    """One row: a member's rank and name, their points and tie-breaks, the games they played."""

    rank: int
    name: str
    points: float
    buchholz: float
    opponents_rating: int
    games: int
    withdrawn: bool = False


@dataclass(frozen=True)
class Pairing:
    """A table of the next round: each side's names in seat order, None where the computer sits."""

    number: int
    sides: tuple[tuple[str | None, ...], tuple[str | None, ...]]


def standings_png(
    name: str,
    round_number: int,
    rounds: int,
    rows: Sequence[Standing],
    pairings: Sequence[Pairing] = (),
    *,
    level: str = "normal",
    finished: bool = False,
    words: Words = ENGLISH,
) -> bytes:
    """The picture as PNG bytes; `level` names the computer where it sits at a table."""
    pairing_lines = [_pairing_line(words, pairing, level) for pairing in pairings]
    height = 200 + ROW * (len(rows) + 1) + 60
    if pairing_lines:
        height += 80 + 52 * len(pairing_lines)
    image = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    _label(image, (MARGIN, 50), name, (46, 38, 30), WIDTH - 2 * MARGIN, GOLD)
    subtitle = standings_title(words, round_number, rounds, finished)
    _label(image, (MARGIN, 108), subtitle, (32, 26), WIDTH - 2 * MARGIN, theme.TEXT_DIM)
    y = _table(image, 160, rows, words)
    labels = standings_labels(words)
    _label(image, (MARGIN, y + 30), labels.tie_breaks, (22, 18, 16), WIDTH - 2 * MARGIN, theme.TEXT_DIM)
    y += 70
    if pairing_lines:
        _label(
            image,
            (MARGIN, y + 36),
            pairings_title(words, round_number + 1),
            (34, 28),
            WIDTH - 2 * MARGIN,
            GOLD,
        )
        y += 80
        for number, line in pairing_lines:
            _label(image, (MARGIN, y + 26), table_words(words, number), (26, 22), 180, theme.TEXT_DIM)
            _label(image, (MARGIN + 190, y + 26), line, (30, 26, 22), WIDTH - 2 * MARGIN - 190)
            y += 52
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _table(image: Image.Image, top: int, rows: Sequence[Standing], words: Words) -> int:
    """The column heads and a row per member from `top`; returns where the table ends."""
    labels = standings_labels(words)
    draw = ImageDraw.Draw(image)
    middle = top + ROW // 2
    _label(image, (NAME_LEFT - 16, middle), labels.rank, (24, 20, 16), 80, theme.TEXT_DIM, "rm")
    _label(image, (NAME_LEFT, middle), labels.member, (24, 20), NAME_RIGHT - NAME_LEFT, theme.TEXT_DIM)
    for key, head in (
        ("points", labels.points),
        ("buchholz", labels.buchholz),
        ("opponents", labels.opponents),
        ("games", labels.games),
    ):
        centre, width = COLUMNS[key]
        _label(image, (centre, middle), head, (24, 20, 16), width - 8, theme.TEXT_DIM, "mm")
    y = top + ROW
    for index, row in enumerate(rows):
        if index % 2 == 0:
            draw.rectangle((MARGIN // 2, y, WIDTH - MARGIN // 2, y + ROW - 1), fill=theme.PANEL)
        _row(image, y + ROW // 2, row, labels.withdrawn)
        y += ROW
    return y


def _row(image: Image.Image, middle: int, row: Standing, withdrawn: str) -> None:
    ink = theme.TEXT_DIM if row.withdrawn else theme.TEXT
    write(image, (NAME_LEFT - 16, middle), str(row.rank), 34, GOLD if row.rank <= 3 else ink, "rm")
    name_width = NAME_RIGHT - NAME_LEFT
    if row.withdrawn:
        mark, size = fit(withdrawn, (20, 16), 150)
        box = write(image, (NAME_RIGHT, middle), mark, size, theme.TEXT_DIM, "rm")
        name_width = box[0] - NAME_LEFT - 12
    _label(image, (NAME_LEFT, middle), row.name, (34, 28, 24), name_width, ink)
    write(image, (COLUMNS["points"][0], middle), points_text(row.points), 38, GOLD, "mm")
    write(image, (COLUMNS["buchholz"][0], middle), points_text(row.buchholz), 30, ink, "mm")
    write(image, (COLUMNS["opponents"][0], middle), str(row.opponents_rating), 30, ink, "mm")
    write(image, (COLUMNS["games"][0], middle), str(row.games), 30, ink, "mm")


def _side(words: Words, names: Sequence[str | None], level: str) -> str:
    shown = [computer_name(words, level) if n is None else n for n in names]
    return shown[0] if len(shown) == 1 else partners_words(words, shown[0], shown[1])


def _pairing_line(words: Words, pairing: Pairing, level: str) -> tuple[int, str]:
    """(table number, "Asha vs Ravi"); a side facing only the computer has a bye."""
    first, second = pairing.sides
    for side, other in ((first, second), (second, first)):
        if all(n is None for n in other) and any(n is not None for n in side):
            return pairing.number, bye_words(words, _side(words, side, level))
    return pairing.number, versus_words(words, _side(words, first, level), _side(words, second, level))


def _label(
    image: Image.Image,
    at: tuple[int, int],
    text: str,
    sizes: tuple[int, ...],
    width: int,
    colour: theme.RGB = theme.TEXT,
    anchor: str = "lm",
) -> None:
    """Text at the largest of `sizes` that fits `width` px, else cut between whole letters."""
    shown, size = fit(text, sizes, width)
    write(image, at, shown, size, colour, anchor)
