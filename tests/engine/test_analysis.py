"""The hint's analysis: every kind of reason appears, with its parameters, on a position built to show
it and not on one without it; the choices come in `hard`'s order with its move first; the chances are
those of the model. (The reasons in words: tests/bot/test_hint_text.py.)"""

from __future__ import annotations

from random import Random

import pytest

from engine import analysis as why
from engine.analysis import Reason, analyse, as_json, reasons, threats
from engine.board import ROUTES
from engine.players import HARD_DEPTH, HardPlayer
from engine.state import Move, Position, parse_move
from engine.winchance import normal_move, win_chance


def _position(
    black: str, red: str = "0,0,0,0", green: str = "0,0,0,0", captured: str = "-", yellow: str = "0,0,0,0"
) -> Position:
    return Position.parse(
        f"black:{black} red:{red} yellow:{yellow} green:{green} turn:black captured:{captured} rules:classic"
    )


def _reasons(position: Position, throw: int, move: str) -> list[Reason]:
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
        Reason(why.CAPTURES, seats=(1,), pieces=1, opens_home=True),
    ),
    (
        "castle out of reach",
        _position("17,0,0,0", green="34,0,0,0"),
        _position("17,0,0,0"),
        4,
        "black:17-21",
        Reason(why.CASTLE_OUT_OF_REACH, arm=1, seats=(3,)),
    ),
    (
        "castle, nobody near",
        _position("17,0,0,0"),
        _position("17,0,0,0", green="34,0,0,0"),
        4,
        "black:17-21",
        Reason(why.CASTLE_SAFE, arm=1),
    ),
    (
        "into range",
        _position("26,0,0,0", green="44,0,0,0"),
        _position("26,0,0,0", green="40,0,0,0"),
        4,
        "black:26-30",
        Reason(why.ENTERS_RANGE, threats=((3, 3),), chance=20),
    ),
    (
        "out of range",
        _position("30,0,0,0", green="44,0,0,0"),
        _position("30,0,0,0", green="40,0,0,0"),
        4,
        "black:30-34",
        Reason(why.LEAVES_RANGE, threats=((3, 3),)),
    ),
    (
        "forms a blockade",
        _position("26,30,0,0"),
        _position("26,31,0,0"),
        4,
        "black:26-30",
        Reason(why.FORMS_BLOCKADE, step=30, square=ROUTES[0][30]),
    ),
    (
        "keeps a blockade another move would break",
        _position("10,30,30,0"),
        _position("10,30,31,0"),
        4,
        "black:10-14",
        Reason(why.KEEPS_BLOCKADE, step=30, square=ROUTES[0][30]),
    ),
    (
        "breaks a blockade",
        _position("10,30,30,0"),
        _position("10,30,31,0"),
        4,
        "black:30-34",
        Reason(why.BREAKS_BLOCKADE, step=30, square=ROUTES[0][30]),
    ),
    (
        "an endgame square, home open",
        _position("76,0,0,0", captured="black+yellow"),
        _position("76,0,0,0"),
        4,
        "black:76-80",
        Reason(why.FINISHING_SQUARE, step=80, throw=4, chance=15),
    ),
    (
        "threatens the capture that opens home",
        _position("20,0,0,0", red="10,0,0,0"),
        _position("20,0,0,0", red="12,0,0,0"),  # Red's 12 is a castle
        4,
        "black:20-24",
        Reason(why.THREATENS, targets=((1, 3),), opens_home=True),
    ),
    (
        "home",
        _position("80,0,0,0", captured="black+yellow"),
        _position("78,0,0,0", captured="black+yellow"),
        4,
        "black:80-84",
        Reason(why.HOME_SAFE),
    ),
    (
        "wins",
        _position("80,84,84,84", yellow="84,84,84,84", captured="black+yellow"),
        _position("80,84,84,84", captured="black+yellow"),
        4,
        "black:80-84",
        Reason(why.WINS),
    ),
    (
        "enters",
        _position("5,0,0,0"),
        _position("5,0,0,0"),
        6,
        "black:0-1",
        Reason(why.ENTERS),
    ),
]


@pytest.mark.parametrize(
    ("name", "shows", "hides", "throw", "move", "reason"), CASES, ids=[c[0] for c in CASES]
)
def test_each_reason_appears_where_it_applies_and_not_elsewhere(
    name: str, shows: Position, hides: Position, throw: int, move: str, reason: Reason
) -> None:
    assert reason in _reasons(shows, throw, move)
    other = move if parse_move(move) in hides.legal_moves(throw) else None
    if name == "enters":  # the same position, another move
        other = "black:5-11"
    if name == "home":
        other = "black:78-82"
    assert other is not None
    # the kind is absent (for a capture: the capture that opens home)
    assert not any(
        (r.kind, r.opens_home) == (reason.kind, reason.opens_home) for r in _reasons(hides, throw, other)
    )


def test_the_capture_keeps_quiet_about_home_once_the_side_has_captured() -> None:
    said = _reasons(_position("26,0,0,0", red="13,0,0,0", captured="black+yellow"), 4, "black:26-30")
    assert said == [Reason(why.CAPTURES, seats=(1,), pieces=1)]


def test_a_blockade_hides_its_pieces_and_stops_the_pieces_behind_it() -> None:
    # Black's blockade on 30 holds Green's piece on its 44 (Black's 27) back from Black's 33.
    assert threats(_position("30,30,33,0", green="44,0,0,0"), 0, 33) == []
    assert threats(_position("30,31,33,0", green="44,0,0,0"), 0, 33) == [(3, 6)]
    assert threats(_position("30,30,33,0", green="44,0,0,0"), 0, 30) == []


SEARCH = Position.parse(
    "black:1,1,15,37 red:0,1,1,26 yellow:0,0,31,40 green:0,0,0,26 turn:black captured:- rules:classic"
)
"""Black throws a 2: `hard` moves its piece on 15, `normal` runs the one on 37, which shows a
higher chance (63 % against 61 %); the third choice shows 62 %."""


def test_the_search_says_why_it_differs_from_the_first_look() -> None:
    result = analyse(SEARCH, 2)
    assert str(result.choices[0].move) == "black:15-17" and str(normal_move(SEARCH, 2)) == "black:37-39"
    assert (
        Reason(why.SEARCH_PREFERS, move=parse_move("black:37-39"), depth=HARD_DEPTH)
        in result.choices[0].reasons
    )
    plain = next(c for c in result.choices if str(c.move) == "black:37-39")
    assert Reason(why.SEARCH_FINDS_WORSE, depth=HARD_DEPTH) in plain.reasons
    others = [c for c in result.choices[1:] if c is not plain]
    assert others and not any(r.kind.startswith("search") for c in others for r in c.reasons)


def test_the_search_is_silent_when_the_first_looks_pick_shows_no_higher_chance() -> None:
    """ "Looks better for now" is read beside the chances: a first look's pick that shows a lower
    percent than the search's (55 % against 58 %) is not called better (a fourth look met it)."""
    position = Position.parse(
        "black:0,0,0,5 red:0,0,0,3 yellow:0,0,0,12 green:0,0,1,3 turn:green captured:- rules:classic"
    )
    result = analyse(position, 25)
    pick = result.choices[0]
    assert str(pick.move) == "green:0-1" and str(normal_move(position, 25)) == "green:3-28"
    assert all(round(100 * c.win_chance) < round(100 * pick.win_chance) for c in result.choices[1:])
    assert not any(r.kind.startswith("search") for c in result.choices for r in c.reasons)


def test_the_search_is_silent_when_it_agrees() -> None:
    position = _position("26,0,0,0", red="13,0,0,0")
    result = analyse(position, 4)
    assert all(
        r.kind not in (why.SEARCH_PREFERS, why.SEARCH_FINDS_WORSE) for c in result.choices for r in c.reasons
    )


def test_choices_follow_hards_ranking_with_its_move_first() -> None:
    moves = SEARCH.legal_moves(2)
    result = analyse(SEARCH, 2)
    assert [c.move for c in result.choices] == HardPlayer().rank(SEARCH, 2, moves, Random(0))
    assert sorted(map(str, (c.move for c in result.choices))) == sorted(map(str, moves))
    assert result.choices[0].move == HardPlayer().choose(SEARCH, 2, moves, Random(0))
    assert [c.best for c in result.choices] == [True] + [False] * (len(moves) - 1)
    side = SEARCH.side_of(SEARCH.turn)
    for choice in result.choices:
        assert choice.win_chance == win_chance(SEARCH.after(2, choice.move))[side]
    assert result.win_chance == win_chance(SEARCH, 2)
    assert abs(sum(result.win_chance) - 1.0) < 1e-12


def test_a_lost_throw_has_no_choices() -> None:
    position = _position("82,84,84,84", captured="black+yellow")  # 82 + 4 overshoots home
    result = analyse(position, 4)
    assert result.choices == () and result.best is None
    assert result.win_chance == win_chance(position.after(4, None))


def test_reasons_in_json_name_their_kind_and_parameters_only() -> None:
    data = as_json(analyse(SEARCH, 2))
    best = data["moves"][0]  # type: ignore[index]
    assert {"kind": "search_prefers", "move": "black:37-39", "depth": HARD_DEPTH} in best["reasons"]
    into = Reason(why.ENTERS_RANGE, threats=((3, 3), (1, 25)), chance=None).as_json()
    assert into == {
        "kind": "enters_range",
        "threats": [{"seat": "green", "throw": 3}, {"seat": "red", "throw": 25}],
    }
    assert Reason(why.CAPTURES, seats=(1, 3), pieces=2, opens_home=True).as_json() == {
        "kind": "captures",
        "seats": ["red", "green"],
        "pieces": 2,
        "opens_home": True,
    }


def test_a_dead_square_names_the_squares_to_aim_for() -> None:
    # Black's 71 + 6 = 77: no throw brings a piece home from 77 (84 - 77 = 7).
    # With the last square rule (classic), 83 is one of them; without it, 83 needs a 1.
    position = _position("71,0,0,0", captured="black+yellow")
    assert position.rules.last_square
    assert Reason(why.DEAD_SQUARE, step=77, aim=(78, 83)) in _reasons(position, 6, "black:71-77")
    plain = Position.parse(
        "black:71,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:black+yellow "
        "rules:classic,last_square=off"
    )
    assert Reason(why.DEAD_SQUARE, step=77, aim=(78, 82)) in _reasons(plain, 6, "black:71-77")


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
    assert not any("blockade" in r.kind for r in _reasons(position, 4, "black:10-14"))


def test_a_blockade_with_the_partner_is_named_by_the_movers_step() -> None:
    # Yellow's piece on its 64 stands on Black's 30: Black's piece joining it forms the blockade.
    position = _position("26,0,0,0", yellow="64,0,0,0")
    assert Reason(why.FORMS_BLOCKADE, step=30, square=ROUTES[0][30]) in _reasons(position, 4, "black:26-30")


def test_a_pick_that_shows_a_lower_chance_than_another_choice_says_why() -> None:
    """A member reads the chances beside the advice, in whole percents: where another choice shows a
    higher chance than the pick, the pick says the search prefers it to such a choice (a third look
    met 10 hints in 45 with no word of why), and the choice it names shows the highest figure of
    all ("looks best for now": a fourth and a fifth look met it beside a lower one)."""
    rng = Random(59)
    position = Position.initial()
    lower = 0
    for _ in range(400):
        throw = rng.choice((2, 3, 4, 5, 6, 10, 25))
        moves = position.legal_moves(throw)
        if len(moves) > 1:
            result = analyse(position, throw, nodes=200)
            pick = result.choices[0]
            shown = {c.move: round(100 * c.win_chance) for c in result.choices}
            higher = {c.move for c in result.choices[1:] if shown[c.move] > shown[pick.move]}
            prefers = [r.move for r in pick.reasons if r.kind == why.SEARCH_PREFERS]
            worse = [
                c.move for c in result.choices if any(r.kind == why.SEARCH_FINDS_WORSE for r in c.reasons)
            ]
            assert len(prefers) == (1 if higher else 0) and worse == prefers, str(position.notation())
            assert all(shown[m] == max(shown.values()) for m in prefers), str(position.notation())
            lower += bool(higher)
        position = position.after(throw, rng.choice(moves) if moves else None)
        if position.result is not None:
            position = Position.initial()
    assert lower >= 3
