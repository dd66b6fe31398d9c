"""The last board of a game that is over, however it ended: nobody to move, no throw, no choices."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core import present
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import ENGLISH
from engine import Game, Position, Throw
from render import panels
from render import words as w
from tests.support.snapshots import game

NAMES = {111: "Asha"}
BUSY = Position.parse(
    "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84 turn:black captured:black+yellow rules:classic"
)


def _ended(how: str) -> GameSnapshot:
    """A game with a throw pending, then over as `how` says: `end` (ended by a member: stopped
    without a result), `resign` (a side resigned, or its round's clock ran out), `win`."""
    snapshot = game(position=BUSY, pending=4)
    if how == "end":
        return replace(snapshot, status=Status.ABANDONED)
    if how == "resign":
        played = Game(BUSY, throws=30, pending=Throw.of(4))
        played.resign(0)
        return replace(snapshot, game=played, status=Status.FINISHED)
    won = Position.parse(
        "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,30,84 turn:red"
        " captured:black+yellow rules:classic result:black+yellow"
    )
    return replace(game(position=won), status=Status.FINISHED)


@pytest.mark.parametrize("how", ["end", "resign", "win"])
def test_a_game_over_is_drawn_with_nobody_to_move(how: str) -> None:
    """The picture of a game over carries no throw and no choices and says how it ended, so the
    renderer draws neither "to move" nor cowries, letters or arrows."""
    over = _ended(how)
    board = present.board_of(ENGLISH, over, [], NAMES)
    assert (board.throw, board.cowries, board.choices) == (None, None, ())
    assert panels.termination_word(board.termination) in ("abandoned", "resignation", "win")
    labels = w.panel_labels(w.ENGLISH)
    for seat in board.position.rules.seats:
        parts = panels.seat_parts(w.ENGLISH, board.position, seat, "x", None, over=True)
        drawn = [arg for _, args in parts for arg in args]
        assert labels.to_move not in drawn and labels.to_throw not in drawn
        assert labels.not_captured not in drawn, "a finished board says no running 'yet'"


def test_an_ended_games_turn_message_gets_its_last_board_drawn_as_over() -> None:
    """`/pachisi end` closes the turn message and redraws its board as over: the old picture,
    with its throw and arrows, does not stay under the news."""
    live = game(position=BUSY, pending=4)
    assert present.board_of(ENGLISH, live, [], NAMES).choices, "the live board has choices"
    plan = present.after_change(ENGLISH, Played(_ended("end")), ["` 4` Black"], NAMES, note="ended")
    assert plan.now is not None and plan.now.board is not None
    assert plan.now.board.termination == "abandoned" and not plan.now.board.choices
    assert plan.now.board.throw is None


def test_a_live_game_still_has_its_throw_and_choices() -> None:
    board = present.board_of(ENGLISH, game(position=BUSY, pending=4), [], NAMES)
    assert board.throw == 4 and board.choices and board.termination is None
