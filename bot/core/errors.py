"""The refusals: what a member asked for that the game will not do, and why.

An error carries a key and its parameters (seats as numbers, members as ids), not words: the
sentence a member reads comes from `bot.core.texts.refusals`, in their language; `str(error)` is
the English one.
"""

from __future__ import annotations

from bot.core.texts.language import ENGLISH
from bot.core.texts.refusals import refusal


class GameError(Exception):
    """A request the game refuses; nothing was changed."""

    key = "busy"

    def __init__(self, key: str | None = None, **params: object) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.key)

    def __str__(self) -> str:
        return refusal(ENGLISH, self.key, self.params)


class NoGame(GameError):
    key = "no_game"


class GameExists(GameError):
    key = "game_exists"

    def __init__(self, game_id: int, started_by: int) -> None:
        self.game_id = game_id
        super().__init__(game=game_id, starter=started_by)


class NotYourTurn(GameError):
    key = "not_your_turn"

    @classmethod
    def for_user(cls, seat_to_move: int, user_to_move: int | None, own_seat: int | None) -> NotYourTurn:
        """It's someone else's turn (a member's or the computer's), or the member is not playing."""
        if own_seat is None:
            return cls("not_playing")
        if user_to_move is None:
            return cls("computers_turn", seat=seat_to_move, own=own_seat)
        return cls("members_turn", member=user_to_move, seat=seat_to_move, own=own_seat)


class StaleTurn(GameError):
    key = "stale_turn"


class GameEnded(GameError):
    key = "game_ended"


class NotThrown(GameError):
    key = "not_thrown"


class AlreadyThrown(GameError):
    key = "already_thrown"


class IllegalMove(GameError):
    key = "illegal_move"


class SeatTaken(GameError):
    key = "seat_taken"


class NotPlaying(GameError):
    key = "not_playing"


class NotAllowed(GameError):
    key = "not_allowed"

    @classmethod
    def to_end(cls, own_seat: int | None) -> NotAllowed:
        """Ending a game is for its starter or a channel manager: a seated member is offered to
        leave their seat instead, a member without one is told they have none."""
        if own_seat is None:
            return cls("only_starter_ends_unseated")
        return cls("only_starter_ends_seated", seat=own_seat)


class Conflict(GameError):
    key = "conflict"
