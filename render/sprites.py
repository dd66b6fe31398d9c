"""Cached artwork: pieces, shells, badges, choice tiles and text, each drawn once and pasted many times.

Shapes are drawn at four times their size and scaled down, so their edges are smooth. FreeType is
the slowest step of a render and its faces are not thread-safe, so every text is made here, once,
under one lock. A text with Devanagari in it is drawn in runs, each script in its own font, shaped
by raqm (theme.devanagari_font).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from render import theme
from render.layout import Box, Point

SCALE = 4
"""Supersampling factor for the cached artwork."""

_FREETYPE = threading.Lock()
"""FreeType faces are not thread-safe: every use of a font holds this."""


def smooth(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: theme.RGB
) -> None:
    """Centred text (a sprite's letter or number), holding the FreeType lock only while the font is
    used; each script in its own font of the one weight (a Hindi piece's mark in the Devanagari
    font, Latin and digits beside it in DejaVu), as `text` draws a line."""
    parts = runs(text)
    with _FREETYPE:
        if len(parts) <= 1:
            devanagari = bool(parts) and parts[0][1]
            draw.text(centre, text, font=_font(size, devanagari), fill=fill, anchor="mm")
            return
        sprite, (dx, dy) = _mixed(parts, size, fill, "mm")
    draw.bitmap((int(centre[0]) + dx, int(centre[1]) + dy), sprite.getchannel("A"), fill=fill)


@cache
def piece(seat: int, size: int, mark: str | None = None) -> Image.Image:
    """An RGBA piece: the seat's colour and shape with its mark (the colour's first letter in the
    table's language, `words.piece_marks`; English's by default), so colour is never the only cue."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(2, big // 16)
    centre = big / 2
    radius = big / 2 - 1
    sides = theme.SEAT_SIDES[seat]
    fill, outline = theme.SEAT_COLOURS[seat], theme.SEAT_EDGE[seat]
    if sides == 0:
        draw.ellipse((1, 1, big - 2, big - 2), fill=fill, outline=outline, width=edge)
    else:
        # Polygons reach the circle only at their corners; enlarge them to look as heavy as the disc.
        reach = radius * (1.0 if sides >= 6 else 1.06)
        circle = (centre, centre, reach)
        draw.regular_polygon(circle, sides, rotation=theme.SEAT_ROTATION[seat], fill=outline)
        inner = (centre, centre, reach - edge * 1.6)
        draw.regular_polygon(inner, sides, rotation=theme.SEAT_ROTATION[seat], fill=fill)
    shown = theme.SEAT_LETTERS[seat] if mark is None else mark
    # Devanagari's letters are smaller in their em than Latin capitals: a larger size matches them.
    height = 0.55 if shown.isascii() else 0.62
    centred_text(
        draw,
        (centre, centre + (0 if shown.isascii() else big * 0.04)),
        shown,
        int(big * height),
        theme.SEAT_INK[seat],
    )
    return smooth(image, (size, size))


@cache
def struck_piece(seat: int, size: int, mark: str | None = None) -> Image.Image:
    """A captured piece: its shape on a white disc, struck through by a ring and bar in the capture colour."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width = max(2, size // 10) * SCALE
    draw.ellipse((1, 1, big - 2, big - 2), fill=theme.WHITE)
    inner = piece(seat, size * 3 // 4, mark).resize(
        (big * 11 // 16, big * 11 // 16), Image.Resampling.LANCZOS
    )
    offset = (big - inner.size[0]) // 2
    image.paste(inner, (offset, offset), inner)
    draw.ellipse(
        (width // 2, width // 2, big - width // 2, big - width // 2), outline=theme.CAPTURE, width=width
    )
    reach = big * 0.34
    mid = big / 2
    draw.line((mid - reach, mid - reach, mid + reach, mid + reach), fill=theme.CAPTURE, width=width)
    return smooth(image, (size, size))


@cache
def cowrie(mouth_up: bool) -> Image.Image:
    """One cowrie shell, 26 x 40: mouth up shows the toothed slit, mouth down the plain back."""
    width, height = 26 * SCALE, 40 * SCALE
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    shell = theme.SHELL_UP if mouth_up else theme.SHELL_DOWN
    draw.ellipse((2, 2, width - 3, height - 3), fill=shell, outline=theme.SHELL_LINE, width=2 * SCALE)
    if mouth_up:
        cx = width // 2
        draw.line((cx, height * 0.18, cx, height * 0.82), fill=theme.SHELL_LINE, width=3 * SCALE)
        for k in range(1, 6):
            y = height * (0.18 + 0.64 * k / 6)
            draw.line((cx - 4 * SCALE, y, cx + 4 * SCALE, y), fill=theme.SHELL_LINE, width=SCALE)
    else:
        draw.ellipse((width * 0.3, height * 0.25, width * 0.7, height * 0.75), fill=theme.SHELL_BACK)
    return smooth(image, (26, 40))


@cache
def badge(text: str, size: int) -> Image.Image:
    """A small white disc with a number: how many pieces stand in a stack."""
    return disc(text, size, theme.WHITE, theme.INK, theme.INK)


@cache
def disc(text: str, size: int, fill: theme.RGB, edge: theme.RGB, ink: theme.RGB) -> Image.Image:
    """A disc with a short text: stack counts, and the numbers of the story's moves."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, big - 2, big - 2), fill=fill, outline=edge, width=max(2, size // 10) * SCALE)
    centred_text(draw, (big / 2, big / 2), text, int(big * (0.7 if len(text) == 1 else 0.55)), ink)
    return smooth(image, (size, size))


@cache
def tile(label: str, size: int) -> Image.Image:
    """A choice's letter on a white tile with a blue edge, the hue no seat uses."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (1, 1, big - 2, big - 2),
        radius=big // 5,
        fill=theme.CHOICE_FILL,
        outline=theme.CHOICE_EDGE,
        width=max(2, size // 12) * SCALE,
    )
    centred_text(draw, (big / 2, big / 2 + SCALE), label, int(big * 0.9), theme.CHOICE_EDGE)
    return smooth(image, (size, size))


Run = tuple[str, bool]
"""A stretch of text in one font: (text, whether it is Devanagari)."""
_DEVANAGARI = re.compile("[" + "".join(f"{first}-{last}" for first, last in theme.DEVANAGARI) + "]")
"""A letter `theme.is_devanagari` says is Devanagari."""


def runs(words: str) -> list[Run]:
    """`words` in stretches of one script each: Devanagari in its font, the rest (Latin letters,
    digits, arrows, stars) in DejaVu. Spaces stay with the stretch they are in, so a Hindi phrase is
    shaped whole."""
    if _DEVANAGARI.search(words) is None:  # one font, as most labels are: no walk letter by letter
        return [(words, False)] if words else []
    found: list[Run] = []
    for char in words:
        script = theme.is_devanagari(char)
        if found and (found[-1][1] == script or char.isspace()):
            found[-1] = (found[-1][0] + char, found[-1][1])
        else:
            found.append((char, script))
    return found


def _font(size: int, devanagari: bool) -> ImageFont.FreeTypeFont:
    return theme.devanagari_font(size) if devanagari else theme.font(size)


@lru_cache(maxsize=1024)
def text(words: str, size: int, colour: theme.RGB, anchor: str) -> tuple[Image.Image, Point]:
    """Rendered text and its offset from the anchor point."""
    with _FREETYPE:
        parts = runs(words)
        if not any(devanagari for _, devanagari in parts):
            font = theme.font(size)
            left, top, right, bottom = (int(v) for v in font.getbbox(words, anchor=anchor))
            image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
            ImageDraw.Draw(image).text((-left, -top), words, font=font, fill=colour, anchor=anchor)
            return image, (left, top)
        return _mixed(parts, size, colour, anchor)


def _mixed(parts: list[Run], size: int, colour: theme.RGB, anchor: str) -> tuple[Image.Image, Point]:
    """Stretches of two fonts on one baseline, placed as DejaVu alone would place `anchor` (so a
    Hindi label sits where the English one did). Called with the FreeType lock held."""
    placed, x = [], 0.0
    for part, devanagari in parts:
        font = _font(size, devanagari)
        placed.append((x, part, font, font.getbbox(part, anchor="ls")))
        x += font.getlength(part)
    left = int(min(at + box[0] for at, _, _, box in placed))
    right = int(max(at + box[2] for at, _, _, box in placed)) + 1
    top = int(min(box[1] for *_, box in placed))
    bottom = int(max(box[3] for *_, box in placed)) + 1
    image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for at, part, font, _ in placed:
        draw.text((at - left, -top), part, font=font, fill=colour, anchor="ls")
    primary = theme.font(size)
    baseline = int(primary.getbbox("A", anchor="l" + anchor[1])[1] - primary.getbbox("A", anchor="ls")[1])
    shift = {"l": 0, "m": x / 2, "r": x}[anchor[0]]
    return image, (int(left - shift), top + baseline)


@lru_cache(maxsize=1024)
def text_width(words: str, size: int) -> float:
    with _FREETYPE:
        return sum(_font(size, devanagari).getlength(part) for part, devanagari in runs(words))


def clusters(words: str) -> list[str]:
    """`words` in the pieces a reader sees as one letter: a base and its vowel signs and marks, and
    a conjunct (letters joined by the virama) whole, so a cut never splits one."""
    found: list[str] = []
    for char in words:
        joined = found and (
            unicodedata.category(char).startswith("M")
            or char in "\u200c\u200d"
            or found[-1].endswith(("\u094d", "\u200d"))
        )
        if joined:
            found[-1] += char
        else:
            found.append(char)
    return found


@lru_cache(maxsize=256)
def fit(words: str, sizes: tuple[int, ...], width: int) -> tuple[str, int]:
    """`words` at the largest of `sizes` that fits `width` px; else cut with an ellipsis at the
    smallest, whole letters (`clusters`) at a time."""
    for size in sizes:
        if text_width(words, size) <= width:
            return words, size
    size = sizes[-1]
    letters = clusters(words)
    while letters and text_width("".join(letters).rstrip() + "…", size) > width:
        letters.pop()
    return "".join(letters).rstrip() + "…", size


def lines(words: str, size: int, width: int, keep: Sequence[str] = ()) -> list[str]:
    """`words` on as few lines of at most `width` px at `size` as they go, broken between words:
    two lines as even as they can be, never inside a phrase of `keep` (a place's name) when
    another break fits; more lines each as full as it goes (a single word wider than `width`
    keeps a line of its own, for `fit` to cut)."""
    return list(_lines(words, size, width, tuple(keep)))


@lru_cache(maxsize=1024)
def _lines(words: str, size: int, width: int, keep: tuple[str, ...]) -> tuple[str, ...]:
    """`lines`, kept: a side box tries the same entries at each size and count that might fit."""
    if text_width(words, size) <= width:
        return (words,)
    spans = [(m.start(), m.end()) for phrase in keep if phrase for m in re.finditer(re.escape(phrase), words)]
    widest = {  # a break at each space: its longer line's width
        k: max(text_width(words[:k], size), text_width(words[k + 1 :], size))
        for k, char in enumerate(words)
        if char == " "
    }
    fitting = [k for k, reach in widest.items() if reach <= width]
    whole = [k for k in fitting if not any(start < k < end for start, end in spans)]
    if fitting:
        cut = min(whole or fitting, key=widest.__getitem__)
        return words[:cut], words[cut + 1 :]
    found: list[str] = []
    line = ""
    for part in words.split(" "):
        longer = f"{line} {part}" if line else part
        if line and text_width(longer, size) > width:
            found.append(line)
            longer = part
        line = longer
    return (*found, line)


def paste(image: Image.Image, sprite: Image.Image, centre: Point) -> Box:
    """The sprite centred on `centre`; returns the box it covers."""
    w, h = sprite.size
    left, top = centre[0] - w // 2, centre[1] - h // 2
    image.paste(sprite, (left, top), sprite)
    return left, top, left + w, top + h


def write(image: Image.Image, at: Point, words: str, size: int, colour: theme.RGB, anchor: str = "lm") -> Box:
    """The text at `at` (a Pillow text anchor); returns the box it covers."""
    sprite, (dx, dy) = text(words, size, colour, anchor)
    left, top = at[0] + dx, at[1] + dy
    image.paste(sprite, (left, top), sprite)
    return left, top, left + sprite.size[0], top + sprite.size[1]
