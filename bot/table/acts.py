"""What a member does on their turn, as data: a button's click and a typed command hand it to the
game flow (`GameFlow.click`, `GameFlow.play`), which has the service play it. A typed command is
read here (`typed`), in the order the service checks a click: whose turn it is before what the
choice means."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import GameError, NotThrown, NotYourTurn
from bot.core.snapshot import GameSnapshot
from bot.core.texts import board
from engine import Move, NotationError, parse_move

MAX_CHOICE = 100
"""Longer typed choices are not read (a move is about a dozen characters; a choice name at most 100)."""


@dataclass(frozen=True)
class Act:
    """What a member does on their turn, by a click or a typed command: throw (`move` None) or play
    `move` with their throw, on the turn numbered `turn` (a stale turn is refused)."""

    game_id: int
    user_id: int
    turn: int
    move: Move | None = None


def typed(game: GameSnapshot, user_id: int, choice: str | None) -> Act:
    """`/pachisi throw` (`choice` None) or `/pachisi move choice:...` on the game's current turn.
    A member whose turn it is not hears whose it is, whatever they typed: the letters name the
    throw's moves only for the member who threw it."""
    if game.user_to_move() != user_id:
        raise NotYourTurn.for_user(game.seat_to_move(), game.user_to_move(), game.seat_of(user_id))
    if choice is None:
        return Act(game.id, user_id, game.turn_number)
    if game.pending_throw is None:  # no choice is a move before the throw: say what comes first
        raise NotThrown()
    return Act(game.id, user_id, game.turn_number, read_choice(game, choice))


def read_choice(game: GameSnapshot, choice: str) -> Move:
    """A typed choice: a board letter (A, B...) or a move like `black:12-16`; checked by the service."""
    text = choice.strip()
    moves = game.legal_moves()
    letters = {board.choice_letter(i).lower(): m for i, m in enumerate(moves)}
    if text.lower() in letters:
        return letters[text.lower()]
    try:
        move = parse_move(text.split(" ")[0].lower()) if len(text) <= MAX_CHOICE else None
    except NotationError:
        move = None
    if move is None:
        raise GameError(
            "not_a_choice", typed=text, moves=[str(m) for m in moves], position=game.position.notation()
        )
    return move
