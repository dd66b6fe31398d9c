"""Colours, piece marks and the bundled font.

Seat colours are from the Okabe-Ito palette, chosen to stay apart under the common colour-vision
deficiencies; each seat's pieces also carry their own letter and shape, so colour is never the only
cue.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

RGB = tuple[int, int, int]

FONT_PATH = Path(__file__).with_name("assets") / "DejaVuSans-Bold.ttf"

BACKGROUND: RGB = (74, 52, 40)
PANEL: RGB = (94, 68, 53)
SQUARE: RGB = (246, 238, 220)
GRID_LINE: RGB = (92, 70, 52)
CASTLE_MARK: RGB = (150, 108, 78)
TEXT: RGB = (250, 244, 230)
TEXT_DIM: RGB = (214, 196, 170)
PATH: RGB = (40, 40, 40)
PATH_HALO: RGB = (255, 255, 255)
CAPTURE: RGB = (204, 0, 102)
"""Magenta-red for the capture mark: apart from every seat colour, and drawn with a cross."""
BLOCKADE: RGB = (30, 30, 30)
CHOICE_FILL: RGB = (255, 255, 255)
CHOICE_EDGE: RGB = (0, 90, 181)
"""Blue choice tags: the one hue no seat uses, readable for every colour-vision type."""
CAPTURED_YES: RGB = (120, 200, 120)
CAPTURED_NO: RGB = (230, 170, 150)

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
SEAT_LETTERS: tuple[str, ...] = ("B", "R", "Y", "G")
SEAT_SIDES: tuple[int, ...] = (0, 4, 6, 5)
"""Piece shape by seat: 0 = circle, else a regular polygon with this many sides."""
SEAT_ROTATION: tuple[float, ...] = (0.0, 45.0, 0.0, 0.0)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled bold sans at `size` px, loaded once per size."""
    return ImageFont.truetype(str(FONT_PATH), size)
