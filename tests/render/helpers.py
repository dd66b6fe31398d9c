"""Helpers shared by the render tests: decode a PNG, look at its pixels, play random games."""

from __future__ import annotations

import io
from random import Random

from PIL import Image

from engine import Move, Position, Rules
from engine.throws import throw_cowries


def decode(png: bytes) -> Image.Image:
    """The PNG as RGB, as a Discord client would see it."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def random_game(seed: int, throws: int, rules: Rules | None = None) -> tuple[Position, Position, Move | None]:
    """(position before the last throw, position after it, the move played) after `throws` throws."""
    rng = Random(seed)
    position = Position.initial(rules)
    before, move = position, None
    for _ in range(throws):
        if position.result is not None:
            break
        throw, _ = throw_cowries(rng)
        moves = position.legal_moves(throw)
        before, move = position, (moves[rng.randrange(len(moves))] if moves else None)
        position = position.after(throw, move)
    return before, position, move


RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


def pixel(image: Image.Image, at: tuple[int, int]) -> RGB:
    value = image.getpixel(at)
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def close(colour: RGB, expected: RGB, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def count_colour(image: Image.Image, box: Box, colour: RGB, tolerance: int = 40) -> int:
    """How many pixels of `box` are within `tolerance` of `colour` on every channel."""
    data = image.crop(box).tobytes()  # RGB: three bytes a pixel
    return sum(
        1 for k in range(0, len(data), 3) if close((data[k], data[k + 1], data[k + 2]), colour, tolerance)
    )
