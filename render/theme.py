"""Colours, piece marks and the bundled font: the one place the picture's colours are defined.

Seat colours are from the Okabe-Ito palette, chosen to stay apart under the common colour-vision
deficiencies; each seat's pieces also carry their own letter and shape, so colour is never the only
cue. The PNG palette is built from every colour named here (`palette_colours`), so a colour added
here is drawn exactly, with no second list to keep in step.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

RGB = tuple[int, int, int]

FONT_PATH = Path(__file__).with_name("assets") / "DejaVuSans-Bold.ttf"
DEVANAGARI_FONT_PATH = Path(__file__).with_name("assets") / "NotoSansDevanagari-Bold.ttf"
"""Noto Sans Devanagari (SIL OFL 1.1, assets/LICENSE-NotoSansDevanagari.txt): Hindi's letters,
which DejaVu lacks; it has no Latin letters of its own, so a line mixing the two is drawn in runs
(render/sprites.py)."""
DEVANAGARI = (("\u0900", "\u097f"), ("\ua8e0", "\ua8ff"), ("\u1cd0", "\u1cff"), ("\u200c", "\u200d"))
"""Devanagari, its extensions and the joiners that shape its conjuncts: drawn in its own font."""

BACKGROUND: RGB = (74, 52, 40)
PANEL: RGB = (96, 71, 56)
SQUARE: RGB = (246, 238, 220)
GRID_LINE: RGB = (92, 70, 52)
CASTLE_FILL: RGB = (226, 204, 170)
CASTLE_MARK: RGB = (150, 108, 78)
"""A castle's wall and tower: the wall stays visible around (never across) a piece standing there."""
TEXT: RGB = (250, 244, 230)
TEXT_DIM: RGB = (214, 196, 170)
INK: RGB = (20, 20, 20)
WHITE: RGB = (255, 255, 255)
CAPTURE: RGB = (204, 0, 102)
"""Magenta-red for the capture mark: apart from every seat colour, and drawn with a cross."""
BLOCKADE: RGB = (30, 30, 30)
CHOICE_FILL: RGB = (255, 255, 255)
CHOICE_EDGE: RGB = (0, 90, 181)
"""Blue choice tiles and arrows: the one hue no seat uses, readable for every colour-vision type."""
CAPTURED_YES: RGB = (120, 200, 120)
CAPTURED_NO: RGB = (230, 170, 150)
BANNER: RGB = (36, 26, 20)
BANNER_EDGE: RGB = (240, 200, 90)
"""The gold rule around the end-of-game banner."""
SHELL_UP: RGB = (250, 243, 224)
SHELL_DOWN: RGB = (205, 170, 120)
SHELL_BACK: RGB = (180, 140, 95)
SHELL_LINE: RGB = (60, 40, 25)

SEAT_COLOURS: tuple[RGB, ...] = (
    (26, 26, 26),  # black
    (213, 94, 0),  # red: Okabe-Ito vermillion
    (240, 228, 66),  # yellow
    (0, 158, 115),  # green: Okabe-Ito bluish green
)
SEAT_TINTS: tuple[RGB, ...] = (
    (190, 186, 180),
    (240, 190, 158),
    (246, 238, 150),
    (160, 216, 196),
)
"""Light versions for the private middle columns, so pieces on them keep their contrast."""
SEAT_INK: tuple[RGB, ...] = ((255, 255, 255), (255, 255, 255), (26, 26, 26), (255, 255, 255))
"""Letter colour on each seat's piece."""
SEAT_EDGE: tuple[RGB, ...] = ((240, 240, 240), (80, 30, 0), (90, 80, 0), (0, 60, 40))
"""Each seat's outline: around its pieces and around its story paths, so yellow reads on cream."""
SEAT_LETTERS: tuple[str, ...] = ("B", "R", "Y", "G")
SEAT_SIDES: tuple[int, ...] = (0, 4, 6, 5)
"""Piece shape by seat: 0 = circle, else a regular polygon with this many sides."""
SEAT_ROTATION: tuple[float, ...] = (0.0, 45.0, 0.0, 0.0)


def palette_colours() -> list[RGB]:
    """Every colour this module names, in order and without repeats: the exact part of the palette."""
    found: list[RGB] = []
    for value in globals().values():
        items = value if isinstance(value, tuple) and value and isinstance(value[0], tuple) else (value,)
        for item in items:
            if isinstance(item, tuple) and len(item) == 3 and all(isinstance(v, int) for v in item):
                found.append(item)
    return list(dict.fromkeys(found))


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled bold sans at `size` px, loaded once per size."""
    return ImageFont.truetype(str(FONT_PATH), size)


@cache
def devanagari_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled Devanagari at `size` px, laid out by raqm (HarfBuzz), which joins conjuncts and
    places vowel signs: Pillow's basic layout would draw the letters side by side, unjoined."""
    return ImageFont.truetype(str(DEVANAGARI_FONT_PATH), size, layout_engine=ImageFont.Layout.RAQM)


def is_devanagari(char: str) -> bool:
    return any(first <= char <= last for first, last in DEVANAGARI)
