"""The Pachisi rules engine: pure, deterministic, standard library only.

>>> from engine import Position
>>> p = Position.initial()
>>> [str(m) for m in p.legal_moves(3)]
['black:0-1']
"""

from engine.board import HOME, SEAT_NAMES
from engine.errors import (
    AlreadyThrownError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    NotThrownError,
    PachisiError,
)
from engine.game import MAX_THROWS, Game, Outcome, Termination, Throw, Turn, play_out
from engine.rules import Rules
from engine.state import DRAW, Move, Position, format_move, parse_move
from engine.throws import GRACES, OUTCOMES, THROW_VALUES, throw_cowries, throw_value

__all__ = [
    "DRAW",
    "GRACES",
    "HOME",
    "MAX_THROWS",
    "OUTCOMES",
    "SEAT_NAMES",
    "THROW_VALUES",
    "AlreadyThrownError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotThrownError",
    "NotationError",
    "Outcome",
    "PachisiError",
    "Position",
    "Rules",
    "Termination",
    "Throw",
    "Turn",
    "format_move",
    "parse_move",
    "play_out",
    "throw_cowries",
    "throw_value",
]
