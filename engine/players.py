"""Computer players: given a position and a throw, choose one legal move.

Interface only so far: every level plays uniformly at random until the real levels land (issue 3).
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from engine.state import Move, Position

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


class Player(Protocol):
    """Chooses one of `moves` (the non-empty legal moves of `throw` in `position`)."""

    name: str

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move: ...


class RandomPlayer:
    """Uniform among the legal moves: the baseline every other level is measured against."""

    name = "random"

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        return moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


def get_player(level: str) -> Player:
    """The computer player for a level name (`random`, `easy`, `normal`, `hard`)."""
    if level != "random" and level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (choose from random, {', '.join(LEVELS)})")
    return RandomPlayer()
