"""The game's state machine: throw, play, pass, the outcome and its cause, resuming from a store."""

from __future__ import annotations

from random import Random

import pytest

from engine import (
    DRAW,
    MAX_THROWS,
    AlreadyThrownError,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    NotThrownError,
    Outcome,
    PachisiError,
    Position,
    Rules,
    Termination,
    Throw,
    Turn,
    play_out,
)
from engine.throws import VALUE_TO_MOUTHS

START = "black:0,0,12,84 red:0,0,0,0 yellow:5,5,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
# Without the last-square rule a piece on 83 never moves: nobody can move, the game is frozen.
FROZEN = (
    "black:83,84,84,84 red:83,84,84,84 yellow:84,84,84,84 green:84,84,84,84 "
    "turn:black captured:black+yellow,red+green rules:classic,last_square=off"
)
LAST = (
    "black:84,84,84,84 red:0,0,0,0 yellow:80,84,84,84 green:0,0,0,0 "
    "turn:yellow captured:black+yellow rules:classic"
)


def test_a_turn_is_a_throw_then_a_move() -> None:
    game = Game(Position.parse(START))
    with pytest.raises(NotThrownError):
        game.legal_moves()
    with pytest.raises(NotThrownError):
        game.play(Move(0, 12, 16))
    thrown = game.throw(Random(3))
    assert game.pending == thrown and sum(thrown.cowries) == VALUE_TO_MOUTHS[thrown.value]
    with pytest.raises(AlreadyThrownError):
        game.throw(Random(3))
    with pytest.raises(AlreadyThrownError):
        game.set_throw(4)
    assert game.throws == 0 and game.outcome() is None


def test_a_known_throw_plays_and_is_recorded() -> None:
    game = Game(Position.parse(START), record=[])
    assert game.set_throw(4) == Throw(4, (True, True, True, True, False, False))
    assert game.legal_moves() == [Move(0, 12, 16)]
    with pytest.raises(IllegalMoveError):
        game.play(Move(0, 12, 17))
    with pytest.raises(IllegalMoveError):
        game.play(None)  # a throw that offers a move must be played
    assert game.pending is not None and game.throws == 0  # a refused move changes nothing
    after = game.play(Move(0, 12, 16))
    assert game.position is after and after.turn == 1 and game.turn == 1
    assert game.pending is None and game.throws == 1
    assert game.record == [Turn(0, 4, Move(0, 12, 16))]


def test_a_lost_throw_is_a_pass_and_a_grace_keeps_the_turn() -> None:
    game = Game(
        Position.parse(
            "black:0,0,0,82 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
        ),
        record=[],
    )
    game.set_throw(3)  # 82 + 3 overshoots, and only a grace brings a second piece out
    assert game.legal_moves() == []
    game.play(None)
    assert game.turn == 1 and game.throws == 1
    game.set_throw(25)
    game.play(game.legal_moves()[0])
    assert game.turn == 1  # a grace throws again
    game.set_throw(3)
    game.play(Move(1, 1, 4))
    assert game.turn == 2 and game.throws == 3
    assert game.record == [Turn(0, 3, None), Turn(1, 25, Move(1, 0, 1)), Turn(1, 3, Move(1, 1, 4))]


def test_known_cowries_must_make_the_throw() -> None:
    game = Game.new()
    assert game.set_throw(2, [False, True, False, True, False, False]).cowries[1]
    for value, faces in ((2, [True] * 3 + [False] * 3), (2, [True, True]), (7, None)):
        with pytest.raises(ValueError):
            Game.new().set_throw(value, faces)


def test_a_win_ends_the_game_with_its_winner() -> None:
    game = Game(Position.parse(LAST))
    game.set_throw(4)
    final = game.play(Move(2, 80, 84))
    assert game.outcome() == Outcome(Termination.WIN, 0)
    assert final.notation().endswith("result:black+yellow")
    with pytest.raises(GameOverError):
        game.throw(Random(1))


def test_a_frozen_position_is_a_draw_by_freezing() -> None:
    game = Game(Position.parse(FROZEN))
    assert game.outcome() == Outcome(Termination.FROZEN, None)
    with pytest.raises(GameOverError):
        game.set_throw(2)


def test_the_throw_limit_ends_the_game_as_a_draw() -> None:
    game = Game(Position.parse(START), throws=MAX_THROWS - 1)
    game.set_throw(4)
    final = game.play(Move(0, 12, 16))
    assert game.throws == MAX_THROWS
    assert game.outcome() == Outcome(Termination.THROW_LIMIT, None)
    assert final.result == DRAW and final.notation().endswith("result:draw")
    with pytest.raises(GameOverError):
        game.set_throw(4)


def test_a_resignation_concedes_the_game_to_the_other_side() -> None:
    game = Game(Position.parse(START), throws=7)
    game.set_throw(4)
    outcome = game.resign(2)  # Yellow concedes: Red + Green win with no piece home
    assert outcome == Outcome(Termination.RESIGNATION, 1) == game.outcome()
    assert (game.pending, game.position.result, game.throws) == (None, 1, 7)
    with pytest.raises(GameOverError):
        game.set_throw(4)
    with pytest.raises(GameOverError):
        game.resign(1)
    # Resumed from the live position plus the conceded result, it is still a resignation.
    assert Game(game.position, throws=7).outcome() == outcome
    with pytest.raises(PachisiError, match="seat 1 does not play in a 2-player game"):
        Game(Position.initial(Rules(players=2))).resign(1)


def test_a_game_resumes_from_what_a_store_keeps() -> None:
    played = Game(Position.parse(START), throws=41)
    thrown = played.throw(Random(8))
    resumed = Game(Position.parse(played.position.notation()), throws=played.throws, pending=thrown)
    assert (resumed.pending, resumed.throws, resumed.record) == (thrown, 41, None)
    assert resumed.legal_moves() == played.legal_moves()
    # A limit draw stays one when resumed; the stored text alone says the game is over.
    done = Game(Position.parse(START), throws=MAX_THROWS - 1)
    done.set_throw(4)
    done.play(Move(0, 12, 16))
    again = Game(Position.parse(done.position.notation()), throws=MAX_THROWS)
    assert again.outcome() == Outcome(Termination.THROW_LIMIT, None)


def test_an_inconsistent_stored_game_is_refused() -> None:
    live = Position.parse(START)
    draw = Position.parse(START + " result:draw")
    with pytest.raises(PachisiError, match="still going after 10000 throws"):
        Game(live, throws=MAX_THROWS)
    with pytest.raises(PachisiError, match="not frozen"):
        Game(draw, throws=5)
    with pytest.raises(PachisiError, match="negative"):
        Game(live, throws=-1)
    with pytest.raises(GameOverError):
        Game(Position.parse(FROZEN), pending=Throw.of(2))


def test_replay_checks_every_move_and_rebuilds_the_record() -> None:
    game = Game.new(Rules(players=2))
    play_out(game, lambda position, throw, moves: moves[-1], Random(4))
    assert game.record is not None and len(game.record) == game.throws
    replayed = Game.replay(Position.initial(Rules(players=2)), [(t.throw, t.move) for t in game.record])
    assert replayed.position == game.position and replayed.record == game.record
    assert replayed.outcome() == game.outcome() and game.outcome() is not None
    first = game.record[0]
    with pytest.raises(IllegalMoveError):
        Game.replay(Position.initial(Rules(players=2)), [(first.throw, Move(0, 5, 9))])


def test_play_out_plays_what_throw_and_play_would() -> None:
    """The fast loop and the checked state machine give the same game from the same dice."""

    def first(position: Position, throw: int, moves: list[Move]) -> Move:
        return moves[0]

    for seed in range(6):
        rules = Rules(players=2 + 2 * (seed % 2), pieces=1 + seed % 4)
        fast = Game.new(rules)
        outcome = play_out(fast, first, Random(seed))
        slow = Game.new(rules)
        dice = Random(seed)
        while slow.outcome() is None:
            slow.throw(dice)
            moves = slow.legal_moves()
            slow.play(moves[0] if moves else None)
        assert (fast.record, fast.position, fast.throws) == (slow.record, slow.position, slow.throws)
        assert outcome == slow.outcome() and outcome is not None


def test_play_out_stops_after_the_throws_asked_and_at_the_limit() -> None:
    asked: list[int] = []

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        asked.append(len(moves))
        return moves[0]

    game = Game.new(record=False)
    assert play_out(game, choose, Random(2), throws=30) is None
    assert game.throws == 30 and game.record is None and asked and min(asked) >= 1
    capped = Game(Position.initial(), max_throws=50)
    assert play_out(capped, choose, Random(2)) == Outcome(Termination.THROW_LIMIT, None)
    assert capped.throws == 50 and capped.position.result == DRAW
    # A pending throw is played first.
    pending = Game(Position.parse(START))
    pending.set_throw(4)
    play_out(pending, choose, Random(2), throws=0)
    assert pending.throws == 1 and pending.position.steps[0] == (0, 0, 16, 84)


def test_play_out_finds_a_frozen_game() -> None:
    stuck = Position.parse(
        "black:82,84,84,84 red:83,84,84,84 yellow:84,84,84,84 green:84,84,84,84 "
        "turn:black captured:black+yellow,red+green rules:classic,last_square=off"
    )
    game = Game(stuck)
    outcome = play_out(game, lambda position, throw, moves: moves[0], Random(5))
    # Black's 82 moves only with a 2 (to 84, home: a win); anything else waits until then.
    assert outcome == Outcome(Termination.WIN, 0)
    frozen = Game(Position.parse(FROZEN))
    assert play_out(frozen, lambda position, throw, moves: moves[0], Random(5)) == Outcome(
        Termination.FROZEN, None
    )
    assert frozen.throws == 0
