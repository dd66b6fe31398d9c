"""The fast PNG (only the boxes drawn on are mapped to the palette, cached panel parts) is the
picture a full mapping of the drawn image gives, pixel for pixel: a drawing that bypassed the
Canvas would leave the static board's old pixels in the PNG."""

from __future__ import annotations

from random import Random
from typing import NamedTuple

import pytest

from engine import Game, Move, Position, Rules, Termination, play_out
from render import DrawnMove, board_png
from render.draw import encode_png, render
from tests.render.helpers import decode


class Turn(NamedTuple):
    position: Position
    story: list[DrawnMove]
    throw: int
    choices: list[Move] | None


def random_turn(seed: int, rules: Rules, throws: int) -> Turn:
    """A game `throws` into random play: the position, its last moves, a throw and its moves."""
    rng = Random(seed)
    game = Game.new(rules)
    story: list[DrawnMove] = []
    while game.throws < throws and game.outcome() is None:
        before = game.position
        play_out(game, lambda _, throw, moves: moves[rng.randrange(len(moves))], rng, throws=1)
        record = game.record
        assert record is not None
        if record and record[-1].move is not None:
            story = [*story[-5:], DrawnMove(record[-1].move, before)]
    throw = rng.choice((2, 3, 4, 10, 25))
    choices = game.position.legal_moves(throw) if game.outcome() is None else None
    return Turn(game.position, story, throw, choices)


NAMES = {0: "Ana", 1: "Computer · hard", 2: "A very long member name that will not fit the panel"}


@pytest.mark.parametrize(
    ("seed", "rules", "throws"),
    [(1, "classic", 40), (2, "classic", 160), (3, "classic,players=2", 90), (4, "classic,pieces=1", 9999)],
)
def test_the_png_is_the_whole_picture_mapped_to_the_palette(seed: int, rules: str, throws: int) -> None:
    turn = random_turn(seed, Rules.parse(rules), throws)
    fast = board_png(turn.position, names=NAMES, moves=turn.story, throw=turn.throw, choices=turn.choices)
    full = render(turn.position, names=NAMES, story=turn.story, throw=turn.throw, choices=turn.choices)
    assert decode(fast).tobytes() == decode(encode_png(full.image)).tobytes()


def test_a_resignation_banner_is_mapped_too() -> None:
    game = Game.new(Rules.parse("classic,players=2"))
    play_out(game, lambda _, throw, moves: moves[0], Random(5), throws=30)
    assert game.resign(0).termination is Termination.RESIGNATION
    fast = board_png(game.position, termination=game.outcome())
    full = render(game.position, termination="resignation")
    assert decode(fast).tobytes() == decode(encode_png(full.image)).tobytes()
