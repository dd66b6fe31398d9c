"""Helpers shared by the render tests: decode a PNG, look at its pixels, play random games."""

from __future__ import annotations

import io
from random import Random

from PIL import Image

from engine import Game, Move, Position, Rules, play_out
from engine.record import Record, Throw
from engine.throws import throw_value
from render.words import Words


def hindi() -> Words:
    """The pictures' words in Hindi, from the bot's shipped catalog."""
    from bot.core.texts.language import language

    return language("hi").picture


def decode(png: bytes) -> Image.Image:
    """The PNG as RGB, as a Discord client would see it."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def random_game(seed: int, throws: int, rules: Rules | None = None) -> tuple[Position, Position, Move | None]:
    """(position before the last throw, position after it, the move played) after `throws` throws."""
    rng = Random(seed)
    game = Game.new(rules)
    record = game.record
    assert record is not None
    before, move = game.position, None
    while len(record) < throws and game.outcome() is None:
        position = game.position
        play_out(game, lambda _, throw, moves: moves[rng.randrange(len(moves))], rng, throws=1)
        if record and game.position is not position:
            before, move = position, record[-1].move
    return before, game.position, move


def random_record(rules_text: str, seed: int, tags: dict[str, str]) -> Record:
    """A whole game of random moves (the throws from `seed` too), as its record."""
    rules = Rules.parse(rules_text)
    rng = Random(seed)
    position = Position.initial(rules)
    throws = []
    while position.result is None:
        value = throw_value(rng)
        legal = position.legal_moves(value)
        move = rng.choice(legal) if legal else None
        throws.append(Throw(position.turn, value, move))
        position = position.play(value, move)
    return Record.play(rules, throws, tags)


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
