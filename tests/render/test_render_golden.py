"""One golden picture per layout feature, compared with a small tolerance.

Regenerate after an intended change of look with `PACHISI_UPDATE_GOLDEN=1 python -m pytest
tests/render/test_render_golden.py`, then view the PNGs under tests/render/golden/ before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import Move, Position
from render import DrawnMove, board_png, layout, legend_png
from tests.render.helpers import decode, hindi

GOLDEN = Path(__file__).with_name("golden")
BUSY = (
    "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84"
    " turn:red captured:black+yellow rules:classic"
)
CAPTURE_BEFORE = (
    "black:0,0,13,16 red:0,0,38,71 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
)


def _start() -> Image.Image:
    return decode(board_png(Position.initial()))


def _stacks() -> Image.Image:
    """Blockade, a four-seat castle tip, waiting and home counts."""
    return decode(board_png(Position.parse(BUSY), names={1: "Computer · hard"}))


def _capture() -> Image.Image:
    before = Position.parse(CAPTURE_BEFORE)
    move = Move(0, 16, 20)
    return decode(board_png(before.after(4, move), last_move=move, last_position=before))


def _choices() -> Image.Image:
    position = Position.parse(BUSY)
    cowries = (False,) * 6
    return decode(board_png(position, throw=25, cowries=cowries, choices=position.legal_moves(25)))


def _three_moves() -> tuple[Position, list[DrawnMove]]:
    """Red, Black and Green's moves since Black's last turn (one a capture), and the position
    they leave, Black to throw."""
    first = Position.parse(
        "black:0,16,30,40 red:10,71,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    red, black, green = Move(1, 10, 13), Move(0, 16, 20), Move(3, 0, 1)
    second = first.after(3, red)
    third = second.after(4, black)
    position = third.after(10, green)
    story = [DrawnMove(red, first), DrawnMove(black, second), DrawnMove(green, third)]
    return position, story


def _story() -> Image.Image:
    """Three moves since Black's last turn, numbered, one of them a capture, then Black's choices."""
    position, story = _three_moves()
    throw = 6
    return decode(board_png(position, moves=story, throw=throw, choices=position.legal_moves(throw)))


def _won() -> Image.Image:
    won = "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,0,84 turn:red captured:black+yellow"
    return decode(board_png(Position.parse(f"{won} rules:classic result:black+yellow")))


def _draw() -> Image.Image:
    drawn = "black:0,20,84,84 yellow:0,0,40,60 turn:black captured:- rules:classic result:draw"
    return decode(board_png(Position.parse(drawn), names={0: "Alice", 2: "Computer · easy"}))


def _two_player() -> Image.Image:
    """The empty seats' corners: the story in words, and the throw with its choices."""
    before = Position.parse("black:0,0,0,19 yellow:0,0,0,5 turn:black captured:- rules:classic")
    move = Move(0, 19, 21)
    position = before.after(2, move)
    story = [DrawnMove(move, before)]
    choices = position.legal_moves(10)
    names = {0: "Alice", 2: "Computer · hard"}
    return decode(board_png(position, names=names, moves=story, throw=10, choices=choices))


def _legend() -> Image.Image:
    return decode(legend_png())


def _hindi_story() -> Image.Image:
    """The story and choices in Hindi, with Hindi and Latin names: conjuncts (पश्चिम, कंप्यूटर),
    vowel signs above and below (चुकी, मुँह) and nasal marks shaped, no word cut."""
    position, story = _three_moves()
    names = {0: "आशा", 1: "कंप्यूटर · माहिर", 2: "Ravi Shankar Prasad", 3: "कंप्यूटर · सामान्य"}
    choices = position.legal_moves(6)
    return decode(board_png(position, names=names, moves=story, throw=6, choices=choices, words=hindi()))


def _hindi_two_player() -> Image.Image:
    """The empty seats' corners in Hindi: the story in words, the throw box with its choices."""
    before = Position.parse("black:0,0,0,19 yellow:0,0,0,5 turn:black captured:- rules:classic")
    move = Move(0, 19, 21)
    position = before.after(2, move)
    names = {0: "आशा", 2: "कंप्यूटर · कठिन"}
    moves = [DrawnMove(move, before)]
    choices = position.legal_moves(10)
    return decode(board_png(position, names=names, moves=moves, throw=10, choices=choices, words=hindi()))


def _hindi_won() -> Image.Image:
    won = "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,0,84 turn:red captured:black+yellow"
    return decode(board_png(Position.parse(f"{won} rules:classic result:black+yellow"), words=hindi()))


def _hindi_legend() -> Image.Image:
    return decode(legend_png(hindi()))


FULL = (0, 0, layout.WIDTH, layout.HEIGHT)
FINISHED = (0, 0, layout.WIDTH, layout.FINISHED_HEIGHT)
"""A finished game's picture: the board and the result's band under it."""
S = layout.MARGIN + 8 * layout.CELL  # where the Charkoni starts
FEATURES = {
    "start": (_start, FULL),
    "stacks": (_stacks, FULL),
    "capture": (_capture, (S - 48, S, layout.WIDTH, S + 5 * layout.CELL)),
    "choices": (_choices, FULL),
    "story": (_story, FULL),
    "won": (_won, FINISHED),
    "draw": (_draw, FINISHED),
    "two_player": (_two_player, FULL),
    "legend": (_legend, None),
    "hindi_story": (_hindi_story, FULL),
    "hindi_two_player": (_hindi_two_player, FULL),
    "hindi_won": (_hindi_won, FINISHED),
    "hindi_legend": (_hindi_legend, None),
}


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_matches_golden(name: str) -> None:
    make, box = FEATURES[name]
    image = make()
    if box is not None:
        image = image.crop(box)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("PACHISI_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        image.quantize(256).save(path, optimize=True)
        pytest.skip(f"wrote {path.name}: view it before committing (comparing it with itself proves nothing)")
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size
    # Differences a font or zlib version could make stay faint; a moved piece or label does not.
    difference = ImageChops.difference(image, golden).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(1 for v in difference.get_flattened_data() if v)
    assert changed <= image.size[0] * image.size[1] // 500, f"{changed} pixels differ from {path.name}"
