"""Pixel checks: every piece is drawn on the square the engine puts it on, and only there."""

from __future__ import annotations

import pytest
from PIL import Image

from engine import Move, Position
from engine.board import NUM_SQUARES, ROUTES
from render import board_png, choice_label, layout, theme
from render.labels import CHOICE_OFFSETS, STORY_OFFSET, TILE, centred_box, place
from tests.render.helpers import close, count_colour, decode, pixel

FOUR = "black:{0} red:{1} yellow:{2} green:{3} turn:black captured:-"


def position(black: str = "0,0,0,0", red: str = "0,0,0,0", yellow: str = "0,0,0,0", green: str = "0,0,0,0",
             extra: str = "rules:classic") -> Position:  # fmt: skip
    return Position.parse(f"{FOUR.format(black, red, yellow, green)} {extra}")


def samples(square: int) -> list[tuple[int, int]]:
    x, y = layout.square_centre(square)
    return [(x, y - 13), (x - 10, y), (x + 10, y), (x, y + 13), (x - 6, y - 6)]


@pytest.mark.parametrize("seat", range(4))
def test_a_piece_at_every_step_is_drawn_on_its_route_square(seat: int) -> None:
    colour = theme.SEAT_COLOURS[seat]
    for step in range(1, 84):
        seats = ["0,0,0,0"] * 4
        seats[seat] = f"{step},84,84,84"
        image = decode(board_png(position(*seats)))
        target = ROUTES[seat][step]
        assert count_colour(image, layout.square_box(target), colour) > 250, (seat, step)
        for square in range(NUM_SQUARES):
            if square != target:
                assert not any(close(pixel(image, p), colour) for p in samples(square)), (
                    seat,
                    step,
                    square,
                )


def test_the_empty_board_keeps_its_exact_colours_through_the_png() -> None:
    image = decode(board_png(position()))
    x, y = layout.square_centre(ROUTES[0][9])  # an outer-column square, not a castle
    assert pixel(image, (x + 15, y + 15)) == theme.SQUARE
    x, y = layout.square_centre(ROUTES[0][3])  # Black's private column
    assert pixel(image, (x + 15, y + 15)) == theme.SEAT_TINTS[0]
    assert image.size[0] >= 900


def test_stacks_show_their_count() -> None:
    """Two and three pieces on a square differ from one only at the count badge."""
    square = ROUTES[0][3]
    x, y = layout.square_centre(square)
    badge = (x + 10, y + 10, x + 24, y + 24)
    one, two, three = (decode(board_png(position(f"3,{rest}"))) for rest in ("0,0,0", "3,0,0", "3,3,0"))
    assert count_colour(one, badge, (255, 255, 255), 8) < 20
    assert count_colour(two, badge, (255, 255, 255), 8) > 40
    assert list(two.crop(badge).get_flattened_data()) != list(three.crop(badge).get_flattened_data())


def test_steps_1_and_83_are_one_square() -> None:
    square = ROUTES[0][1]
    assert ROUTES[0][83] == square
    x, y = layout.square_centre(square)
    badge = (x + 10, y + 10, x + 24, y + 24)
    image = decode(board_png(position("1,83,0,0")))
    assert count_colour(image, badge, (255, 255, 255), 8) > 40
    assert count_colour(image, layout.square_box(square), theme.SEAT_COLOURS[0]) > 250


def test_all_four_seats_share_a_tip_in_their_own_quarters() -> None:
    """The E tip is Black's step 25, Red's 8, Yellow's 59 and Green's 42: a castle holding four colours."""
    tip = ROUTES[1][8]
    assert ROUTES[0][25] == ROUTES[2][59] == ROUTES[3][42] == tip
    image = decode(board_png(position("25,0,0,0", "8,8,0,0", "59,0,0,0", "42,0,0,0")))
    x, y = layout.square_centre(tip)
    quarters = (
        (x - 24, y - 24, x, y),
        (x, y - 24, x + 24, y),
        (x - 24, y, x, y + 24),
        (x, y, x + 24, y + 24),
    )
    for seat, quarter in enumerate(quarters):
        assert count_colour(image, quarter, theme.SEAT_COLOURS[seat]) > 60, seat


def test_a_blockade_is_framed_and_a_castle_pair_is_not() -> None:
    blockade = position("3,3,0,0")
    castle = position("8,8,0,0")
    assert blockade.blockades() == [ROUTES[0][3]] and castle.blockades() == []
    for pos, step, framed in ((blockade, 3, True), (castle, 8, False)):
        left, top, right, _ = layout.square_box(ROUTES[0][step])
        edge = (left + 10, top, right - 10, top + 4)
        found = count_colour(decode(board_png(pos)), edge, theme.BLOCKADE)
        assert (found > 50) is framed


def test_waiting_pieces_stand_in_the_charkoni_by_their_arm() -> None:
    image = decode(board_png(position("0,5,84,84", "5,5,5,5", "0,0,5,5", "0,0,0,84")))
    for seat, waiting in enumerate((True, False, True, True)):
        x, y = layout.charkoni_point(seat)
        found = count_colour(image, (x - 17, y - 17, x + 17, y + 17), theme.SEAT_COLOURS[seat])
        assert (found > 150) is waiting, seat


def test_a_capture_is_marked_only_when_the_move_captured() -> None:
    before = position("16,0,0,0", "71,0,0,0", extra="rules:classic")
    capture = Move(0, 16, 20)
    assert before.captures(capture)
    after = before.after(4, capture)
    box = layout.square_box(ROUTES[0][20])
    marked = decode(board_png(after, last_move=capture, last_position=before))
    assert count_colour(marked, box, theme.CAPTURE) > 100
    assert count_colour(marked, box, theme.SEAT_COLOURS[1]) > 20  # the captured seat's ghost
    quiet = position("16,0,0,0", "72,0,0,0")
    plain = decode(board_png(quiet.after(4, capture), last_move=capture, last_position=quiet))
    assert count_colour(plain, box, theme.CAPTURE) == 0


def test_the_last_move_path_runs_over_the_squares_it_crossed() -> None:
    before = position("10,0,0,0")
    move = Move(0, 10, 14)
    image = decode(board_png(before.after(4, move), last_move=move, last_position=before))
    untouched = decode(board_png(before.after(4, move)))
    for step in (11, 12, 13):  # passed over: the line runs over them, in Black's colour
        x, y = layout.square_centre(ROUTES[0][step])
        x, y = x + STORY_OFFSET, y + STORY_OFFSET
        assert close(pixel(image, (x, y)), theme.SEAT_COLOURS[0], 10)
        assert not close(pixel(untouched, (x, y)), theme.SEAT_COLOURS[0], 10)


def _tile_box(move: Move) -> tuple[int, int, int, int]:
    x, y = layout.step_point(move.seat, move.dst)
    half = TILE // 2
    return x - half, y - half, x + half, y + half


def _ink_height(image: Image.Image, box: tuple[int, int, int, int], colour: theme.RGB) -> int:
    """Rows of `box` (inset past a tile's edge) holding pixels of `colour`: the letter's height."""
    left, top, right, bottom = box
    rows = [
        y
        for y in range(top + 6, bottom - 6)
        if count_colour(image, (left + 6, y, right - 6, y + 1), colour) > 0
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_choices_have_a_large_letter_on_their_landing_squares() -> None:
    """Each tile on its landing square, or beside it where another choice's arrow runs over the
    square (20-45 passes 30, where 5-30 lands)."""
    pos = position("5,20,0,0")
    moves = pos.legal_moves(25)
    assert [choice_label(i) for i in range(len(moves))] == ["A", "B", "C"]  # enter, 5-30, 20-45
    image = decode(board_png(pos, throw=25, choices=moves))
    bare = decode(board_png(pos, throw=25))
    for move, tile in zip(moves, place(pos, [], moves).tiles, strict=True):
        box = centred_box(tile.centre, TILE)
        home = layout.step_point(move.seat, move.dst)
        assert max(abs(tile.centre[0] - home[0]), abs(tile.centre[1] - home[1])) <= layout.CELL
        assert count_colour(image, box, theme.CHOICE_EDGE) > 300
        assert count_colour(bare, box, theme.CHOICE_EDGE) == 0
        # At least 30 px high on the 960 px picture: 12 px on a phone showing it 400 px wide.
        assert _ink_height(image, box, theme.CHOICE_EDGE) >= 30
    assert layout.WIDTH == 960


def test_each_choice_has_an_arrow_from_its_piece_to_its_letter() -> None:
    pos = position("5,20,0,0")
    moves = pos.legal_moves(25)
    image = decode(board_png(pos, throw=25, choices=moves))
    bare = decode(board_png(pos, throw=25))
    for index, move in enumerate(moves):
        # Squares passed on the way carry the blue line (each choice's arrow runs a few px apart).
        shift = CHOICE_OFFSETS[index]
        for step in range(max(move.src, 1) + 1, move.dst):
            if step in pos.steps[0] or step in {m.dst for m in moves}:
                continue  # a piece or another choice's tile covers the line there
            x, y = layout.step_point(0, step)
            found = count_colour(
                image, (x + shift - 2, y + shift - 2, x + shift + 3, y + shift + 3), theme.CHOICE_EDGE
            )
            assert found >= 5, (move, step)
            assert (
                count_colour(
                    bare, (x + shift - 2, y + shift - 2, x + shift + 3, y + shift + 3), theme.CHOICE_EDGE
                )
                == 0
            )
    # Entering: the arrow starts at the Charkoni, beside the waiting pieces.
    enter = moves[0]
    assert enter.src == 0
    (cx, cy), (fx, fy) = layout.charkoni_point(0), layout.step_point(0, 1)
    x, y = (cx + fx) // 2, (cy + fy) // 2
    assert count_colour(image, (x - 4, y - 4, x + 4, y + 4), theme.CHOICE_EDGE) > 10
    assert count_colour(bare, (x - 4, y - 4, x + 4, y + 4), theme.CHOICE_EDGE) == 0


def test_a_capturing_choice_shows_its_victim_struck_on_the_tile() -> None:
    pos = position("16,0,0,0", "71,0,0,0")
    move = Move(0, 16, 20)
    assert pos.captures(move) and pos.legal_moves(4) == [move]
    image = decode(board_png(pos, throw=4, choices=[move]))
    _, top, right, _ = _tile_box(move)
    corner = (right - 16, top - 10, right + 10, top + 16)
    assert count_colour(image, corner, theme.CAPTURE) > 30
    assert count_colour(image, corner, theme.SEAT_COLOURS[1]) > 20


def test_choice_labels_run_from_a() -> None:
    assert choice_label(0) == "A" and choice_label(3) == "D"
    with pytest.raises(ValueError):
        choice_label(26)


def test_the_throw_appears_in_the_panel_of_the_seat_to_throw() -> None:
    pos = position("5,0,0,0")  # Black to throw
    with_throw = decode(board_png(pos, throw=10, cowries=(True, False, False, False, False, False)))
    without = decode(board_png(pos))
    panels = {seat: layout.panel_box(seat) for seat in range(4)}
    changed = {
        seat for seat, box in panels.items() if with_throw.crop(box).tobytes() != without.crop(box).tobytes()
    }
    assert changed == {0}


def test_names_change_only_their_own_panel() -> None:
    pos = position()
    plain = decode(board_png(pos))
    named = decode(board_png(pos, names={2: "Computer (hard)"}))
    changed = {seat for seat in range(4) if plain.crop(layout.panel_box(seat)).tobytes()
               != named.crop(layout.panel_box(seat)).tobytes()}  # fmt: skip
    assert changed == {2}
    assert plain.crop(layout.CHARKONI_BOX).tobytes() == named.crop(layout.CHARKONI_BOX).tobytes()
