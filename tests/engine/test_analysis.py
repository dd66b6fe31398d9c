"""The hint's analysis: every reason appears on a position built to show it and not on one without
it; the choices come in `hard`'s order with its move first; the chances are those of the model."""

from __future__ import annotations

from random import Random

import pytest

from engine.analysis import analyse, move_words, reasons, threats
from engine.players import HardPlayer
from engine.state import Move, Position, parse_move
from engine.winchance import normal_move, win_chance


def _position(
    black: str, red: str = "0,0,0,0", green: str = "0,0,0,0", captured: str = "-", yellow: str = "0,0,0,0"
) -> Position:
    return Position.parse(
        f"black:{black} red:{red} yellow:{yellow} green:{green} turn:black captured:{captured} rules:classic"
    )


def _reasons(position: Position, throw: int, move: str) -> list[str]:
    legal = position.legal_moves(throw)
    chosen = parse_move(move)
    assert chosen in legal
    return reasons(position, throw, chosen, legal)


# Black's step 30 is Red's step 13 and Green's 47; Black's 21 is a castle on Red's arm, Green's 38.
CASES = [
    (
        "capture, opening home",
        _position("26,0,0,0", red="13,0,0,0"),
        _position("26,0,0,0", red="13,0,0,0", captured="black+yellow"),
        4,
        "black:26-30",
        "captures Red's piece and throws again, and opens home for your side",
    ),
    (
        "castle out of reach",
        _position("17,0,0,0", green="34,0,0,0"),
        _position("17,0,0,0"),
        4,
        "black:17-21",
        "lands on Red's castle, out of reach of Green's next throw",
    ),
    (
        "castle, nobody near",
        _position("17,0,0,0"),
        _position("17,0,0,0", green="34,0,0,0"),
        4,
        "black:17-21",
        "lands on Red's castle, safe for as long as it stays",
    ),
    (
        "into range",
        _position("26,0,0,0", green="44,0,0,0"),
        _position("26,0,0,0", green="40,0,0,0"),
        4,
        "black:26-30",
        "steps into range of Green's 3 (20 in 64)",
    ),
    (
        "out of range",
        _position("30,0,0,0", green="44,0,0,0"),
        _position("30,0,0,0", green="40,0,0,0"),
        4,
        "black:30-34",
        "moves out of reach of Green's 3",
    ),
    (
        "forms a blockade",
        _position("26,30,0,0"),
        _position("26,31,0,0"),
        4,
        "black:26-30",
        "forms a blockade on 30",
    ),
    (
        "keeps a blockade another move would break",
        _position("10,30,30,0"),
        _position("10,30,31,0"),
        4,
        "black:10-14",
        "keeps your blockade on 30",
    ),
    (
        "breaks a blockade",
        _position("10,30,30,0"),
        _position("10,30,31,0"),
        4,
        "black:30-34",
        "breaks your blockade on 30",
    ),
    (
        "an endgame square, home open",
        _position("76,0,0,0", captured="black+yellow"),
        _position("76,0,0,0"),
        4,
        "black:76-80",
        "reaches 80, from where a 4 brings it home (15 in 64)",
    ),
    (
        "threatens the capture that opens home",
        _position("20,0,0,0", red="10,0,0,0"),
        _position("20,0,0,0", red="12,0,0,0"),  # Red's 12 is a castle
        4,
        "black:20-24",
        "threatens Red's piece 3 steps ahead: its capture would open home for your side",
    ),
    (
        "home",
        _position("80,0,0,0", captured="black+yellow"),
        _position("78,0,0,0", captured="black+yellow"),
        4,
        "black:80-84",
        "brings a piece home, where it is safe for good",
    ),
    (
        "wins",
        _position("80,84,84,84", yellow="84,84,84,84", captured="black+yellow"),
        _position("80,84,84,84", captured="black+yellow"),
        4,
        "black:80-84",
        "wins the game",
    ),
    (
        "enters",
        _position("5,0,0,0"),
        _position("5,0,0,0"),
        6,
        "black:0-1",
        "brings a new piece onto the board",
    ),
]


@pytest.mark.parametrize(
    ("name", "shows", "hides", "throw", "move", "reason"), CASES, ids=[c[0] for c in CASES]
)
def test_each_reason_appears_where_it_applies_and_not_elsewhere(
    name: str, shows: Position, hides: Position, throw: int, move: str, reason: str
) -> None:
    assert reason in _reasons(shows, throw, move)
    other = move if parse_move(move) in hides.legal_moves(throw) else None
    if name == "enters":  # the same position, another move
        other = "black:5-11"
    if name == "home":
        other = "black:78-82"
    assert other is not None
    assert reason not in _reasons(hides, throw, other)


def test_the_capture_keeps_quiet_about_home_once_the_side_has_captured() -> None:
    said = _reasons(_position("26,0,0,0", red="13,0,0,0", captured="black+yellow"), 4, "black:26-30")
    assert said == ["captures Red's piece and throws again"]


def test_a_blockade_hides_its_pieces_and_stops_the_pieces_behind_it() -> None:
    # Black's blockade on 30 holds Green's piece on its 44 (Black's 27) back from Black's 33.
    assert threats(_position("30,30,33,0", green="44,0,0,0"), 0, 33) == []
    assert threats(_position("30,31,33,0", green="44,0,0,0"), 0, 33) == [(3, 6)]
    assert threats(_position("30,30,33,0", green="44,0,0,0"), 0, 30) == []


SEARCH = Position.parse(
    "black:0,1,1,19 red:0,0,0,16 yellow:0,0,0,14 green:0,0,7,8 turn:yellow captured:- rules:classic"
)
"""Yellow throws a 25 with one piece out: `hard` enters a second one, `normal` runs its piece."""


def test_the_search_says_why_it_differs_from_the_first_look() -> None:
    result = analyse(SEARCH, 25)
    assert str(result.choices[0].move) == "yellow:0-1" and str(normal_move(SEARCH, 25)) == "yellow:14-39"
    assert any("the search prefers it to the piece on 14 to 39" in r for r in result.choices[0].reasons)
    plain = next(c for c in result.choices if str(c.move) == "yellow:14-39")
    assert any("the search finds it worse" in r for r in plain.reasons)


def test_the_search_is_silent_when_it_agrees() -> None:
    position = _position("26,0,0,0", red="13,0,0,0")
    result = analyse(position, 4)
    assert all("search" not in r for c in result.choices for r in c.reasons)


def test_choices_follow_hards_ranking_with_its_move_first() -> None:
    moves = SEARCH.legal_moves(25)
    result = analyse(SEARCH, 25)
    assert [c.move for c in result.choices] == HardPlayer().rank(SEARCH, 25, moves, Random(0))
    assert sorted(map(str, (c.move for c in result.choices))) == sorted(map(str, moves))
    assert result.choices[0].move == HardPlayer().choose(SEARCH, 25, moves, Random(0))
    assert [c.best for c in result.choices] == [True] + [False] * (len(moves) - 1)
    side = SEARCH.side_of(SEARCH.turn)
    for choice in result.choices:
        assert choice.win_chance == win_chance(SEARCH.after(25, choice.move))[side]
    assert result.win_chance == win_chance(SEARCH, 25)
    assert abs(sum(result.win_chance) - 1.0) < 1e-12


def test_a_lost_throw_has_no_choices() -> None:
    position = _position("82,84,84,84", captured="black+yellow")  # 82 + 4 overshoots home
    result = analyse(position, 4)
    assert result.choices == () and result.best is None
    assert result.win_chance == win_chance(position.after(4, None))


def test_moves_in_words() -> None:
    assert move_words(parse_move("black:12-16")) == "the piece on 12 to 16"
    assert move_words(parse_move("black:0-1")) == "a new piece out"
    assert move_words(parse_move("black:80-84")) == "the piece on 80 home"


def test_a_tight_budget_still_ranks_every_move() -> None:
    moves = SEARCH.legal_moves(25)
    ranked = HardPlayer(nodes=1).rank(SEARCH, 25, moves, Random(0))
    assert sorted(map(str, ranked)) == sorted(map(str, moves))
    assert ranked[0] == HardPlayer(nodes=1).choose(SEARCH, 25, moves, Random(0))


def test_no_blockade_is_named_on_the_seats_own_column() -> None:
    # Black's steps 1 and 83 share a square of its middle column, where no enemy ever comes: moving
    # the piece on 10 "keeps" nothing worth naming, though 1-5 would part the two.
    position = _position("0,1,10,83", captured="black+yellow")
    assert Move(0, 1, 5) in position.legal_moves(4)
    assert not any("blockade" in r for r in _reasons(position, 4, "black:10-14"))


def test_a_blockade_with_the_partner_is_named_by_the_movers_step() -> None:
    # Yellow's piece on its 64 stands on Black's 30: Black's piece joining it forms the blockade.
    position = _position("26,0,0,0", yellow="64,0,0,0")
    assert "forms a blockade on 30" in _reasons(position, 4, "black:26-30")
