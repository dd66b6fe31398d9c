"""Helpers shared by the render tests: decode a PNG and play random games."""

from __future__ import annotations

import io
from random import Random

import pytest
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


@pytest.fixture
def play() -> object:
    return random_game
