"""The engine's errors: one `ValueError` subclass per kind of failure."""

from __future__ import annotations


class PachisiError(ValueError):
    """Base of every error the engine raises on bad input."""


SHOWN = 40
"""Characters of a bad token that a message quotes: enough to find it, never a whole huge line."""


def shown(text: str) -> str:
    """`text` quoted for a message, cut to SHOWN characters.

    >>> shown("black:1,2")
    "'black:1,2'"
    >>> shown("9" * 5000)
    "'9999999999999999999999999999999999999...' (5000 characters)"
    """
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[: SHOWN - 3] + '...'!r} ({len(text)} characters)"


def number(text: str, largest: int) -> int | None:
    """`text` read as a number from 0 to `largest` written in ASCII digits, else None.

    Python's int() also reads other scripts' digits ('٤' is 4) and stops at 4,300 digits with a
    message of its own; notation takes neither.

    >>> number("42", 84), number("٤", 84), number("85", 84), number("9" * 5000, 84)
    (42, None, None, None)
    """
    if not text or not text.isascii() or not text.isdigit() or len(text) > len(str(largest)):
        return None
    value = int(text)
    return value if value <= largest else None


class NotationError(PachisiError):
    """A position, move or rules text that cannot be read; names the offending token (cut)."""

    def __init__(self, message: str, token: str | None = None) -> None:
        self.token = token
        super().__init__(f"{message} (in {shown(token)})" if token is not None else message)


class IllegalMoveError(PachisiError):
    """A well-formed move that the rules do not allow in this position with this throw."""


class GameOverError(PachisiError):
    """A throw or move asked of a position whose game has ended."""


class NotThrownError(PachisiError):
    """A move asked of a game whose cowries are not thrown yet."""


class AlreadyThrownError(PachisiError):
    """A second throw asked of a game whose throw is waiting to be played."""
