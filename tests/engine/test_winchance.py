"""The win-chance model: zero-sum, sure of finished games, following `normal`'s move for a pending
throw, rising with a side's lead, and the game's story it charts. Its calibration is measured by
scripts/fit_winchance.py on games the fit never saw (docs/AI.md, "Win chance")."""

from __future__ import annotations

from random import Random

import pytest

from engine.evaluate import evaluate
from engine.game import Game, play_out
from engine.network import forecaster, network
from engine.players import NormalPlayer
from engine.rules import Rules
from engine.state import DRAW, Position
from engine.throws import THROW_VALUES
from engine.winchance import (
    FEATURES,
    NETWORK_PLAYERS,
    WEIGHTS,
    features,
    logistic_chances,
    network_chances,
    normal_move,
    story,
    win_chance,
)


def _position(text: str) -> Position:
    return Position.parse(text)


def test_every_player_count_has_a_weight_per_feature() -> None:
    assert set(WEIGHTS) == {2, 4}
    assert all(len(weights) == len(FEATURES) for weights in WEIGHTS.values())


@pytest.mark.parametrize("players", [2, 4])
def test_the_chances_add_up_to_one_and_the_start_is_close_to_even(players: int) -> None:
    start = Position.initial(Rules().with_options(players=players))
    black, other = win_chance(start)
    assert black + other == pytest.approx(1.0)
    assert 0.4 < black < 0.6


def test_each_player_count_takes_its_better_calibrated_model() -> None:
    """Four players: the value network (better Brier score and deciles on the unseen games); two:
    the logistic model (docs/AI.md, "Win chance")."""
    assert frozenset({4}) == NETWORK_PLAYERS
    four = Position.parse(
        "black:0,12,30,55 red:0,0,20,61 yellow:5,5,0,0 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    judge = forecaster(4)
    black = judge.value(four) if four.side_of(four.turn) == 0 else 1 - judge.value(four)
    assert win_chance(four) == network_chances(four) == pytest.approx((black, 1 - black))
    assert network_chances(four) != logistic_chances(four)
    two = _position("black:0,12,30,55 yellow:0,0,20,61 turn:black captured:yellow rules:classic")
    assert win_chance(two) == logistic_chances(two) != network_chances(two)


def test_swapping_the_sides_swaps_the_chances() -> None:
    # Two players: Black and Yellow sit opposite, so their routes are the same turned half round.
    position = _position("black:0,12,30,55 yellow:0,0,20,61 turn:black captured:yellow rules:classic")
    mirror = _position("black:0,0,20,61 yellow:0,12,30,55 turn:yellow captured:black rules:classic")
    assert win_chance(position)[0] == pytest.approx(win_chance(mirror)[1])
    assert features(position) == pytest.approx(tuple(-x for x in features(mirror)))


def test_a_finished_game_is_certain_and_a_draw_is_even() -> None:
    won = _position(
        "black:84,84,84,84 red:0,0,0,0 yellow:84,84,84,84 green:0,0,0,0 turn:red captured:black+yellow "
        "rules:classic result:black+yellow"
    )
    assert win_chance(won) == (1.0, 0.0)
    drawn = won.with_result(DRAW)
    assert win_chance(drawn) == (0.5, 0.5)


def test_a_lead_raises_the_chance_and_more_so_near_the_end() -> None:
    rules = "turn:black captured:black+yellow,red+green rules:classic"
    even = _position(f"black:40,40,40,40 red:40,40,40,40 yellow:40,40,40,40 green:40,40,40,40 {rules}")
    ahead = _position(f"black:50,50,50,50 red:40,40,40,40 yellow:50,50,50,50 green:40,40,40,40 {rules}")
    late = _position(f"black:80,80,80,80 red:70,70,70,70 yellow:80,80,80,80 green:70,70,70,70 {rules}")
    assert win_chance(even)[0] < win_chance(ahead)[0] < win_chance(late)[0]
    assert win_chance(late)[0] > 0.9


def test_a_pending_throw_is_valued_after_normals_move() -> None:
    position = _position("black:0,12,30,55 yellow:0,0,20,61 turn:black captured:yellow rules:classic")
    for throw in THROW_VALUES:
        move = normal_move(position, throw)
        assert win_chance(position, throw) == win_chance(position.after(throw, move))
        moves = position.legal_moves(throw)
        if len(moves) > 1:  # normal's choice, up to its tie-break: one of its best-scored moves
            chosen = NormalPlayer().choose(position, throw, moves, Random(0))
            assert evaluate(position.after(throw, chosen), 0) == evaluate(position.after(throw, move), 0)


def test_the_story_follows_the_game_and_marks_its_captures() -> None:
    rules = Rules().with_options(players=4)
    game = Game.new(rules)
    dice, rng, player = Random(5), Random(6), NormalPlayer()
    play_out(
        game,
        lambda position, throw, moves: (
            moves[0] if len(moves) == 1 else player.choose(position, throw, moves, rng)
        ),
        dice,
        throws=400,
    )
    assert game.record is not None
    chances, captures = story(game.start, [(t.throw, t.move) for t in game.record])
    assert len(chances) == game.throws + 1
    assert chances[0] == win_chance(game.start)[0] and chances[-1] == win_chance(game.position)[0]
    replayed = Game(game.start)
    expected = []
    for number, turn in enumerate(game.record, start=1):
        if turn.move is not None and replayed.position.captures(turn.move):
            expected.append((number, replayed.position.side_of(turn.move.seat)))
        replayed.set_throw(turn.throw)
        replayed.play(turn.move)
    assert captures == expected and captures


def test_the_win_chance_keeps_its_four_player_network_while_the_experts_trains_on() -> None:
    """The calibration (docs/AI.md) and the puzzles' margins were measured with the forecaster's
    weights; the expert's four-player network is another, and two players share one."""
    four = Position.parse(
        "black:0,12,30,55 red:0,0,20,61 yellow:5,5,0,0 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    assert forecaster(4).value(four) != network(4).value(four)
    assert forecaster(2) is network(2)
