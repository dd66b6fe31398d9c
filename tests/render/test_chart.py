"""The game's story chart: each side's line where its chances put it, in its seats' colours."""

from __future__ import annotations

import io
from random import Random

import pytest
from PIL import Image

from engine.players import NormalPlayer
from engine.rules import Rules
from engine.state import Position
from engine.throws import throw_value
from engine.winchance import story
from render import theme
from render.chart import game_png, line_colours, point, story_png


def _image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("players", [4, 2])
def test_each_sides_line_passes_where_its_chances_say(players: int) -> None:
    chances = [0.5, 0.7, 0.9, 0.85, 0.2, 0.1, 0.3, 0.75, 1.0]
    image = _image(story_png(chances, players))
    count = len(chances)
    for index, chance in enumerate(chances):
        if abs(chance - 0.5) < 0.1:
            continue  # where the lines meet, the one drawn last covers the other
        for side, value in ((0, chance), (1, 1.0 - chance)):
            assert image.getpixel(point(index, value, count)) == line_colours(side, players)[1], (index, side)
    # Side 0's line is nowhere near 50 % at throw 2 (90 %), nor side 1's (10 %).
    x, y = point(2, 0.5, count)
    assert image.getpixel((x, y)) not in {line_colours(s, players)[1] for s in (0, 1)}


def test_the_lines_are_in_the_seats_colours() -> None:
    assert line_colours(0, 4) == (theme.SEAT_COLOURS[0], theme.SEAT_COLOURS[2])  # Black + Yellow
    assert line_colours(1, 4) == (theme.SEAT_COLOURS[1], theme.SEAT_COLOURS[3])  # Red + Green
    assert line_colours(1, 2)[1] == theme.SEAT_COLOURS[2]  # Yellow alone


def test_captures_are_marked_on_the_capturing_sides_line() -> None:
    chances = [0.5, 0.45, 0.2, 0.25, 0.8, 0.85]
    count = len(chances)
    image = _image(story_png(chances, 4, captures=[(2, 1), (4, 0)]))
    assert image.getpixel(point(2, 1.0 - 0.2, count)) == theme.CAPTURE  # Red + Green's line at 80 %
    assert image.getpixel(point(4, 0.8, count)) == theme.CAPTURE  # Black + Yellow's at 80 %
    assert image.getpixel(point(3, 0.25, count)) == line_colours(0, 4)[1]  # no capture there


def test_a_story_needs_two_points() -> None:
    with pytest.raises(ValueError):
        story_png([0.5], 4)


def test_a_games_chart_follows_its_record() -> None:
    start = Position.initial(Rules().with_options(players=2))
    dice, rng, player = Random(3), Random(4), NormalPlayer()
    position, record = start, []
    for _ in range(60):
        throw = throw_value(dice)
        moves = position.legal_moves(throw)
        move = player.choose(position, throw, moves, rng) if moves else None
        record.append((throw, move))
        position = position.after(throw, move)
    chances, _ = story(start, record)
    image = _image(game_png(start, record))
    apart = [i for i, chance in enumerate(chances) if abs(chance - 0.5) > 0.1]  # the lines do not meet
    assert len(apart) > 10
    for index in apart:
        assert image.getpixel(point(index, chances[index], len(chances))) == line_colours(0, 2)[1], index
