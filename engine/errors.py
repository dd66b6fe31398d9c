"""The engine's errors: one `ValueError` subclass per kind of failure."""

from __future__ import annotations


class PachisiError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(PachisiError):
    """A position, move or rules text that cannot be read; names the offending token."""

    def __init__(self, message: str, token: str | None = None) -> None:
        self.token = token
        super().__init__(f"{message} (in {token!r})" if token is not None else message)


class IllegalMoveError(PachisiError):
    """A well-formed move that the rules do not allow in this position with this throw."""


class GameOverError(PachisiError):
    """A throw or move asked of a position whose game has ended."""


class NotThrownError(PachisiError):
    """A move asked of a game whose cowries are not thrown yet."""


class AlreadyThrownError(PachisiError):
    """A second throw asked of a game whose throw is waiting to be played."""
