"""The refusals of the game service: each `str(error)` is one sentence that says what to do.

No Discord here: mentions are `<@id>` text (the bot sends them without pinging anyone).
"""

from __future__ import annotations

from engine.board import SEAT_NAMES


class GameError(Exception):
    """A request the game refuses; `str(error)` is a sentence to show the member."""

    message = "That can't be done right now: try again in a moment."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.message)


class NoGame(GameError):
    message = "There is no game here: start one with /pachisi start."


class GameExists(GameError):
    def __init__(self, game_id: int, started_by: int) -> None:
        self.game_id = game_id
        super().__init__(
            f"A game is already running here (game {game_id}, started by <@{started_by}>): "
            "join it with /pachisi join, or start yours in another channel or thread."
        )


class NotYourTurn(GameError):
    message = "It's not your turn: wait for your turn message."

    @classmethod
    def for_user(cls, seat_to_move: int, user_to_move: int | None, own_seat: int | None) -> NotYourTurn:
        """ "It's <@Bob>'s turn (Yellow); you play Black", or that the member is not playing."""
        if own_seat is None:
            return cls("You are not playing in this game: take a computer's seat with /pachisi join.")
        who = f"<@{user_to_move}>'s" if user_to_move else "the computer's"
        colour, own = SEAT_NAMES[seat_to_move].capitalize(), SEAT_NAMES[own_seat].capitalize()
        return cls(f"It's {who} turn ({colour}); you play {own}.")


class StaleTurn(GameError):
    message = "That throw was already played: use the game's newest message."


class GameEnded(GameError):
    message = "This game has ended: start a new one with /pachisi start."


class NotThrown(GameError):
    message = "Throw first: click Throw (or use /pachisi throw), then choose a move."


class AlreadyThrown(GameError):
    message = "The cowries are already thrown: choose one of the moves."


class IllegalMove(GameError):
    message = "That move is not allowed with this throw: choose one of the moves shown."


class SeatTaken(GameError):
    message = "That seat is taken: choose a computer's seat."


class NotPlaying(GameError):
    message = "You are not playing in this game: take a computer's seat with /pachisi join."


class NotAllowed(GameError):
    message = "You are not allowed to do that."


class Conflict(GameError):
    message = "Already played: someone else was quicker. The game's newest message shows where it stands."
