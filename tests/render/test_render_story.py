"""The story since the viewer's last turn, castles under pieces, the two-player layout, the end banner,
the legend, names that fit and the palette: pixel checks on the real PNGs."""

from __future__ import annotations

import enum
from typing import NamedTuple

import pytest
from PIL import Image

from engine import Move, Position
from engine.board import ROUTES
from render import DrawnMove, board_png, layout, legend_png, sprites, theme
from render.draw import STORY_OFFSET, encode_png
from render.panels import STORY_CORNER, THROW_CORNER
from tests.render.helpers import close, count_colour, decode, pixel

START = "black:{0} red:{1} yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"


def _strip_across(seat: int, step: int) -> tuple[int, int, int, int]:
    """A 1 px strip across a vertical path through the square of `seat`'s `step`."""
    x, y = layout.step_point(seat, step)
    return x - 20, y, x + 20, y + 1


def test_the_story_numbers_moves_in_order_and_the_last_is_heaviest() -> None:
    before = Position.parse(START.format("10,0,0,0", "0,0,0,0"))
    first, second = Move(0, 10, 13), Move(0, 13, 15)
    after_first = before.after(3, first)
    position = after_first.after(2, second)
    forward = decode(board_png(position, moves=[DrawnMove(first, before), DrawnMove(second, after_first)]))
    # Black's 10-13 runs up the leading column of the S arm: both lines are vertical there.
    assert layout.step_point(0, 11)[0] == layout.step_point(0, 12)[0]
    thin = count_colour(forward, _strip_across(0, 11), theme.SEAT_COLOURS[0], 30)
    thick = count_colour(forward, _strip_across(0, 14), theme.SEAT_COLOURS[0], 30)
    assert 3 <= thin < thick
    # The numbers sit where each move started: "1" at step 10, "2" at step 13. Swapping the two
    # numbers changes exactly those discs.
    swapped = decode(board_png(position, moves=[DrawnMove(second, after_first), DrawnMove(first, before)]))
    for step in (10, 13):
        x, y = layout.step_point(0, step)
        disc = (x - 8, y - 8, x + 8, y + 8)
        assert forward.crop(disc).tobytes() != swapped.crop(disc).tobytes(), step
        assert count_colour(forward, disc, theme.SEAT_COLOURS[0], 30) > 60
    # Swapped, the 10-13 move is the last one and it is drawn heavier than 13-15.
    assert count_colour(swapped, _strip_across(0, 11), theme.SEAT_COLOURS[0], 30) > count_colour(
        swapped, _strip_across(0, 14), theme.SEAT_COLOURS[0], 30
    )


def test_the_story_draws_each_move_in_its_seats_colour() -> None:
    position = Position.parse(START.format("14,0,0,0", "40,0,0,0"))
    image = decode(board_png(position, moves=[Move(1, 36, 40), Move(0, 10, 14)]))
    for seat, step in ((1, 38), (0, 12)):
        x, y = layout.step_point(seat, step)
        x, y = x + STORY_OFFSET, y + STORY_OFFSET
        assert close(pixel(image, (x, y)), theme.SEAT_COLOURS[seat], 12), seat


def test_every_capture_of_the_story_is_marked_where_it_happened() -> None:
    # Red's 10-13 takes Black's piece on 30; then Black's 16-20 takes Red's piece on 71.
    first = Position.parse(START.format("16,30,0,0", "10,71,0,0").replace("turn:black", "turn:red"))
    red, black = Move(1, 10, 13), Move(0, 16, 20)
    second = first.after(3, red)
    assert first.captures(red) == [(0, 30)] and second.captures(black) == [(1, 71)]
    position = second.after(4, black)
    image = decode(board_png(position, moves=[DrawnMove(red, first), DrawnMove(black, second)]))
    for square, victim in ((ROUTES[1][13], 0), (ROUTES[0][20], 1)):
        assert count_colour(image, layout.square_box(square), theme.CAPTURE) > 100
        # The victim's own shape, struck out, at that square's corner.
        left, top, _, _ = layout.square_box(square)
        assert (
            count_colour(image, (left - 6, top - 6, left + 24, top + 24), theme.SEAT_COLOURS[victim], 30) > 20
        )
    # Without the positions the moves were played from, the paths are drawn but no capture is claimed.
    bare = decode(board_png(position, moves=[red, black]))
    assert count_colour(bare, layout.square_box(ROUTES[0][20]), theme.CAPTURE) == 0


def _alone(seat: int, step: int) -> Image.Image:
    steps = ["0,0,0,0"] * 4
    steps[seat] = f"{step},0,0,0"
    seats = " ".join(
        f"{name}:{s}" for name, s in zip(("black", "red", "yellow", "green"), steps, strict=True)
    )
    return decode(board_png(Position.parse(f"{seats} turn:black captured:- rules:classic")))


@pytest.mark.parametrize("seat", range(4))
def test_a_castle_shows_around_a_piece_and_never_across_it(seat: int) -> None:
    on_castle, on_plain = _alone(seat, 8), _alone(seat, 7)  # step 8 is the arm's tip: a castle
    (x, y), (px, py) = layout.step_point(seat, 8), layout.step_point(seat, 7)
    # Where the tower is drawn (inside every shape) the picture is the piece alone, as on a plain square.
    assert (
        on_castle.crop((x - 9, y - 9, x + 10, y + 10)).tobytes()
        == on_plain.crop((px - 9, py - 9, px + 10, py + 10)).tobytes()
    )
    # Around it the castle's wall stays visible.
    assert count_colour(on_castle, layout.square_box(ROUTES[seat][8]), theme.CASTLE_MARK, 12) > 60
    empty = decode(board_png(Position.parse(START.format("0,0,0,0", "0,0,0,0"))))
    tower = (x - 9, y - 9, x + 10, y + 10)
    assert count_colour(empty, tower, theme.CASTLE_MARK, 12) > 60  # the tower, when nobody stands there


def test_two_player_games_use_the_empty_seats_corners_for_the_story_and_the_throw() -> None:
    before = Position.parse("black:0,0,0,19 yellow:0,0,0,5 turn:black captured:- rules:classic")
    move = Move(0, 19, 21)
    position = before.after(2, move)  # Yellow to move
    choices = position.legal_moves(10)
    assert position.rules.players == 2 and choices
    image = decode(board_png(position, moves=[DrawnMove(move, before)], throw=10, choices=choices))
    quiet = decode(board_png(position))
    story_box, throw_box = layout.panel_box(STORY_CORNER), layout.panel_box(THROW_CORNER)
    assert {STORY_CORNER, THROW_CORNER} == {1, 3}  # the corners of the seats not in play
    # The story in words: Black's numbered disc; the throw: the cowries and the choices' letters.
    assert count_colour(image, story_box, theme.SEAT_COLOURS[0], 12) > 150
    assert count_colour(image, throw_box, theme.SHELL_DOWN, 12) > 500
    assert count_colour(image, throw_box, theme.CHOICE_EDGE, 30) > 100
    assert count_colour(quiet, throw_box, theme.SHELL_DOWN, 12) == 0
    # ... and not in the panel of the seat to move, as four-player games show it.
    yellow = layout.panel_box(2)
    assert count_colour(image, yellow, theme.SHELL_DOWN, 12) < 100  # (edge blends only)
    four = Position.parse(
        "black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,5 green:0,0,0,0 turn:yellow captured:- rules:classic"
    )
    assert count_colour(decode(board_png(four, throw=10)), yellow, theme.SHELL_DOWN, 12) > 500


WON = (
    "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,30,84 turn:red captured:black+yellow"
    " rules:classic result:black+yellow"
)


def test_a_finished_game_has_a_banner_across_the_board() -> None:
    won = decode(board_png(Position.parse(WON)))
    going = decode(
        board_png(
            Position.parse(
                WON.replace(" result:black+yellow", "").replace("black:84,84,84,84", "black:80,84,84,84")
            )
        )
    )
    box = layout.BANNER_BOX
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert count_colour(won, box, theme.BANNER, 6) > area // 2
    assert count_colour(won, box, theme.BANNER_EDGE, 12) > 2 * layout.WIDTH
    assert count_colour(going, box, theme.BANNER, 6) < area // 20


class _Termination(enum.Enum):
    WIN = 1
    FROZEN = 2
    THROW_LIMIT = 3


def test_a_termination_is_told_by_name_enum_or_outcome() -> None:
    drawn = Position.parse(
        "black:0,20,84,84 yellow:0,0,40,60 turn:black captured:- rules:classic result:draw"
    )
    assert not drawn.is_frozen()
    png = board_png(drawn, termination=_Termination.FROZEN)
    assert png == board_png(drawn, termination="frozen") != board_png(drawn)
    assert board_png(drawn, termination=_Outcome(_Termination.FROZEN, None)) == png


class _Outcome(NamedTuple):
    """The shape of engine.game's Outcome."""

    termination: _Termination
    winner: int | None


def test_the_legend_shows_every_mark() -> None:
    image = decode(legend_png())
    assert image.size[0] >= 900
    box = (0, 0, *image.size)
    for seat, colour in enumerate(theme.SEAT_COLOURS):
        assert count_colour(image, box, colour, 12) > 200, seat
    for colour in (theme.CHOICE_EDGE, theme.CAPTURE, theme.CASTLE_MARK, theme.BLOCKADE, *theme.SEAT_TINTS):
        assert count_colour(image, box, colour, 6) > 100, colour


def test_names_shrink_before_they_are_cut_and_are_cut_at_a_measured_width() -> None:
    words, size = sprites.fit("Computer · normal", (30, 26, 22), 300)
    assert words == "Computer · normal" and size < 30
    words, size = sprites.fit("Bartholomew Featherstonehaugh-Smythe", (30, 26, 22), 300)
    assert words.endswith("…") and size == 22
    assert sprites.text_width(words, size) <= 300
    assert sprites.fit("Al", (30, 26, 22), 300) == ("Al", 30)


def test_every_theme_colour_survives_the_png_exactly() -> None:
    colours = theme.palette_colours()
    image = Image.new("RGB", (8 * len(colours), 8))
    for k, colour in enumerate(colours):
        image.paste(colour, (8 * k, 0, 8 * k + 8, 8))
    decoded = decode(encode_png(image))
    assert [pixel(decoded, (8 * k + 4, 4)) for k in range(len(colours))] == colours


def test_only_the_last_eight_moves_of_a_long_story_are_drawn() -> None:
    position = Position.parse(START.format("30,0,0,0", "0,0,0,0"))
    story = [Move(0, step, step + 2) for step in range(10, 30, 2)]  # ten moves of one piece
    assert len(story) == 10
    assert board_png(position, moves=story) == board_png(position, moves=story[2:])
    assert board_png(position, moves=story) != board_png(position, moves=story[3:])
