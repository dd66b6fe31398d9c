"""A game as its start and its record of throws: replayable, and where the 10,000-throw cap lives."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.rules import Rules
from engine.state import DRAW, Move, Position

MAX_THROWS = 10_000
"""RULES.md 6: a game that reaches this many throws ends as a draw."""


class Turn(NamedTuple):
    """One throw of the record: who threw, the value, and the move played (None: lost throw)."""

    seat: int
    throw: int
    move: Move | None


@dataclass
class Game:
    """The current position plus everything that led to it.

    The position alone cannot know the throw count, so the cap is applied here.
    """

    start: Position
    record: list[Turn] = field(default_factory=list)
    max_throws: int = MAX_THROWS
    position: Position = field(init=False)

    def __post_init__(self) -> None:
        self.position = self.start

    @classmethod
    def new(cls, rules: Rules | None = None) -> Game:
        return cls(Position.initial(rules))

    @property
    def throws(self) -> int:
        return len(self.record)

    def play(self, throw: int, move: Move | None) -> Position:
        """Apply one throw (checked) and record it; returns the new position."""
        position = self.position.play(throw, move)
        self.record.append(Turn(self.position.turn, throw, move))
        if position.result is None and len(self.record) >= self.max_throws:
            position = position.with_result(DRAW)
        self.position = position
        return position

    @classmethod
    def replay(cls, start: Position, record: Iterable[tuple[int, Move | None]]) -> Game:
        """Rebuild a game from its start and (throw, move) pairs, checking every move."""
        game = cls(start)
        for throw, move in record:
            game.play(throw, move)
        return game
