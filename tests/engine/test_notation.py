"""Position and move notation (RULES.md 9): read, written, and refused with the bad token named."""

from __future__ import annotations

import pytest

from engine import Move, NotationError, Position, Rules
from engine.state import format_move, parse_move

CANONICAL = [
    "black:0,0,12,84 red:0,0,0,0 yellow:0,0,5,5 green:0,0,0,0 turn:black captured:- rules:classic",
    "black:0,0,0,1 red:0,0,0,1 yellow:0,0,0,1 green:0,0,0,1 turn:black captured:- rules:standard",
    "black:3,84 yellow:0,17 turn:yellow captured:black,yellow rules:classic,last_square=off",
    "black:84,84,84,84 red:0,0,0,0 yellow:84,84,84,84 green:5,5,5,5 turn:red "
    "captured:black+yellow,red+green rules:classic result:black+yellow",
    "black:83 red:83 yellow:83 green:83 turn:green captured:red+green "
    "rules:standard,must_capture=on,escape_hatch=off,last_square=off,enter_moves=on,start_on_board=0 "
    "result:draw",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_positions_round_trip(text: str) -> None:
    assert Position.parse(text).notation() == text


def test_rules_example_is_read_and_written_ascending() -> None:
    text = "black:0,0,12,84 red:0,0,0,0 yellow:5,5,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    assert "yellow:0,0,5,5" in str(Position.parse(text))


def test_shape_comes_from_the_seat_tokens() -> None:
    p = Position.parse("black:3,84 yellow:0,17 turn:yellow captured:- rules:classic")
    assert (p.rules.players, p.rules.pieces) == (2, 2)
    assert p.rules == Rules(players=2, pieces=2)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        (
            "black:0,0,x,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic",
            "black:0,0,x,0",
        ),
        (
            "black:0,0,0,85 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic",
            "black:0,0,0,85",
        ),
        ("black:0 red:0 yellow:0 green:0 turn:blue captured:- rules:classic", "turn:blue"),
        ("black:0 red:0 yellow:0 green:0 turn:red captured:red rules:classic", "captured:red"),
        ("black:0 red:0 yellow:0 green:0 turn:red captured:- rules:fancy", "fancy"),
        ("black:0 red:0 yellow:0 green:0 turn:red captured:- rules:classic,speed=on", "speed=on"),
        ("black:0 red:0 yellow:0 green:0 turn:red captured:- rules:classic result:red", "result:red"),
        ("black:0 red:0 yellow:0 green:0 turn:red rules:classic", "turn:red rules:classic"),
    ],
)
def test_malformed_positions_name_the_bad_token(text: str, bad: str) -> None:
    with pytest.raises(NotationError) as info:
        Position.parse(text)
    assert bad in str(info.value)
    assert isinstance(info.value, ValueError)


def test_uneven_seats_and_bad_seat_order_are_refused() -> None:
    with pytest.raises(NotationError):
        Position.parse("black:0,0 red:0 yellow:0 green:0 turn:red captured:- rules:classic")
    with pytest.raises(NotationError):
        Position.parse("yellow:0 black:0 turn:black captured:- rules:classic")


def test_moves_read_and_written() -> None:
    assert Move.parse("black:12-16") == Move(0, 12, 16)
    assert parse_move("green:0-1") == Move(3, 0, 1)
    assert parse_move("pass") is None and format_move(None) == "pass"
    assert str(Move(1, 83, 84)) == "red:83-84" == format_move(Move(1, 83, 84))
    for move in (Move(seat, src, dst) for seat in range(4) for src in (0, 9, 83) for dst in (1, 84)):
        assert Move.parse(str(move)) == move
    for bad in (
        "black:12",
        "blue:1-2",
        "black:1-99",
        "black 1-2",
        "",
        "pass",
        "black:\u0661-2",
        "black:1-" + "9" * 5000,
    ):
        with pytest.raises(NotationError):
            Move.parse(bad)
    with pytest.raises(NotationError) as info:
        parse_move("black:1-" + "9" * 5000)
    assert "(5008 characters)" in str(info.value)
