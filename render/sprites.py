"""Cached artwork: pieces, shells, badges, choice tiles and text, each drawn once and pasted many times.

Shapes are drawn at four times their size and scaled down, so their edges are smooth. FreeType is
the slowest step of a render and its faces are not thread-safe, so every text is made here, once,
under one lock.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render import theme
from render.layout import Box, Point

SCALE = 4
"""Supersampling factor for the cached artwork."""

_FREETYPE = threading.Lock()
"""FreeType faces are not thread-safe: every use of a font holds this."""


def smooth(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: tuple[int, ...]
) -> None:
    """Centred text (a sprite's letter, a replay's caption), holding the FreeType lock only while
    the font is used."""
    with _FREETYPE:
        draw.text(centre, text, font=theme.font(size), fill=fill, anchor="mm")


@cache
def piece(seat: int, size: int) -> Image.Image:
    """An RGBA piece: the seat's colour and shape with its letter, so colour is never the only cue."""
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
    centred_text(draw, (centre, centre), theme.SEAT_LETTERS[seat], int(big * 0.55), theme.SEAT_INK[seat])
    return smooth(image, (size, size))


@cache
def struck_piece(seat: int, size: int) -> Image.Image:
    """A captured piece: its shape on a white disc, struck through by a ring and bar in the capture colour."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width = max(2, size // 10) * SCALE
    draw.ellipse((1, 1, big - 2, big - 2), fill=theme.WHITE)
    inner = piece(seat, size * 3 // 4).resize((big * 11 // 16, big * 11 // 16), Image.Resampling.LANCZOS)
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


@lru_cache(maxsize=1024)
def text(words: str, size: int, colour: theme.RGB, anchor: str) -> tuple[Image.Image, Point]:
    """Rendered text and its offset from the anchor point."""
    with _FREETYPE:
        font = theme.font(size)
        left, top, right, bottom = (int(v) for v in font.getbbox(words, anchor=anchor))
        image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
        ImageDraw.Draw(image).text((-left, -top), words, font=font, fill=colour, anchor=anchor)
        return image, (left, top)


@lru_cache(maxsize=1024)
def text_width(words: str, size: int) -> float:
    with _FREETYPE:
        return theme.font(size).getlength(words)


@lru_cache(maxsize=256)
def fit(words: str, sizes: tuple[int, ...], width: int) -> tuple[str, int]:
    """`words` at the largest of `sizes` that fits `width` px; else cut with an ellipsis at the smallest."""
    for size in sizes:
        if text_width(words, size) <= width:
            return words, size
    size = sizes[-1]
    while words and text_width(words.rstrip() + "…", size) > width:
        words = words[:-1]
    return words.rstrip() + "…", size


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
