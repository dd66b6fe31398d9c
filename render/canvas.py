"""A picture being drawn that remembers where it was drawn on.

Mapping the whole 960 x 960 picture onto the palette cost as much as drawing it, while most of it
is the static board, whose palette copy is made once. So the PNG maps only the boxes drawn over
since the board was copied (`regions`), and takes cached patches (`place`) from their own palette
copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PIL import Image, ImageDraw

from render import sprites, theme
from render.layout import CELL, MARGIN, Box, Point

Coords = Sequence[tuple[float, float]]


def quantize(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The image mapped onto the palette: a lookup per pixel, no dithering."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


class Patch:
    """A cached piece of the picture, its top left corner `at`, and once a PNG needs them, its
    palette indices."""

    def __init__(self, image: Image.Image, at: Point) -> None:
        self.image = image
        self.at = at
        self._paletted: Image.Image | None = None

    def paletted(self, palette: Image.Image) -> Image.Image:
        if self._paletted is None:
            self._paletted = quantize(self.image, palette)
        return self._paletted


class Canvas:
    """An RGB picture, the boxes drawn on it and the patches placed on it.

    Every drawing call goes through here, so a box can never be missed: a missed box would leave
    the board's old pixels in the PNG.
    """

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.boxes: list[Box] = []
        self.patches: list[Patch] = []

    def _mark(self, coords: Coords, pad: float) -> None:
        """A box holding every pixel drawn within `pad` of the points."""
        xs = [x for x, _ in coords]
        ys = [y for _, y in coords]
        self.boxes.append(
            (int(min(xs) - pad) - 1, int(min(ys) - pad) - 1, int(max(xs) + pad) + 2, int(max(ys) + pad) + 2)
        )

    def paste(self, sprite: Image.Image, centre: Point) -> None:
        self.boxes.append(sprites.paste(self.image, sprite, centre))

    def write(self, at: Point, words: str, size: int, colour: theme.RGB, anchor: str = "lm") -> None:
        self.boxes.append(sprites.write(self.image, at, words, size, colour, anchor))

    def write_within(
        self, at: Point, words: str, sizes: tuple[int, ...], width: int, colour: theme.RGB, anchor: str = "lm"
    ) -> None:
        """The text at the largest of `sizes` that fits `width` px, else cut (`sprites.fit`): a
        translation longer than the English keeps to its place."""
        shown, size = sprites.fit(words, sizes, width)
        self.write(at, shown, size, colour, anchor)

    def place(self, patch: Patch) -> None:
        """The patch pasted whole, background and all."""
        self.image.paste(patch.image, patch.at)
        self.patches.append(patch)

    def bounds(self) -> Box:
        """The box holding everything drawn so far."""
        width, height = self.image.size
        lefts, tops, rights, bottoms = zip(*self.boxes, strict=True)
        return max(0, min(lefts)), max(0, min(tops)), min(width, max(rights)), min(height, max(bottoms))

    def line(self, points: Coords, fill: theme.RGB, width: int, joint: str | None = None) -> None:
        self.draw.line(list(points), fill=fill, width=width, joint=joint)
        for pair in pairwise(points):  # each segment apart: a bent path's box would hold far more
            self._mark(pair, width / 2 + 1)
        if len(points) == 1:
            self._mark(points, width / 2 + 1)

    def polygon(self, points: Coords, fill: theme.RGB) -> None:
        self.draw.polygon(list(points), fill=fill)
        self._mark(points, 1)

    def ellipse(self, box: Box, outline: theme.RGB, width: int) -> None:
        self.draw.ellipse(box, outline=outline, width=width)
        self._mark(((box[0], box[1]), (box[2], box[3])), 1)

    def rectangle(
        self, box: Box, fill: theme.RGB | None = None, outline: theme.RGB | None = None, width: int = 1
    ) -> None:
        self.draw.rectangle(box, fill=fill, outline=outline, width=width)
        self._mark(((box[0], box[1]), (box[2], box[3])), 1)

    def rounded_rectangle(self, box: Box, radius: int, outline: theme.RGB, width: int) -> None:
        self.draw.rounded_rectangle(box, radius=radius, outline=outline, width=width)
        self._mark(((box[0], box[1]), (box[2], box[3])), 1)

    def regions(self) -> list[Box]:
        """The drawn boxes as a few rectangles of whole board cells (the margin's half cells too).

        Every call to map a box onto the palette costs about as much as 6,000 pixels, so boxes are
        rounded out to cells and merged: runs of cells along a row, then equal runs down rows.
        """
        width, height = self.image.size
        columns, rows = _cell(width - 1) + 1, _cell(height - 1) + 1
        marked = [0] * rows  # a bit per column
        for left, top, right, bottom in self.boxes:
            first, last = max(0, _cell(left)), min(columns - 1, _cell(right - 1))
            bits = ((2 << last) - 1) >> first << first
            for row in range(max(0, _cell(top)), min(rows - 1, _cell(bottom - 1)) + 1):
                marked[row] |= bits
        found: list[Box] = []
        open_runs: dict[tuple[int, int], int] = {}  # (first, last column) -> first row
        for row, bits in enumerate([*marked, 0]):
            runs = set()
            while bits:
                first = (bits & -bits).bit_length() - 1
                last = first
                while bits >> (last + 1) & 1:
                    last += 1
                runs.add((first, last))
                bits &= ~(((2 << last) - 1) >> first << first)
            for run, first_row in list(open_runs.items()):
                if run not in runs:
                    del open_runs[run]
                    found.append(_pixels(run, (first_row, row - 1), width, height))
            for run in runs:
                open_runs.setdefault(run, row)
        return found


def _cell(v: int) -> int:
    """The cell holding pixel coordinate `v`: cell 0 is the margin, 1 the board's first column."""
    return (v - MARGIN) // CELL + 1


def _pixels(columns: tuple[int, int], rows: tuple[int, int], width: int, height: int) -> Box:
    def span(cells: tuple[int, int], size: int) -> tuple[int, int]:
        return max(0, MARGIN + (cells[0] - 1) * CELL), min(size, MARGIN + cells[1] * CELL)

    (left, right), (top, bottom) = span(columns, width), span(rows, height)
    return left, top, right, bottom
