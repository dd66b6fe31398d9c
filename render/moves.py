"""What the picture is told about moves: the story's moves and the letters of the choices."""

from __future__ import annotations

from typing import NamedTuple

from engine.state import Move, Position


class DrawnMove(NamedTuple):
    """One move of the story: the move and, when known, the position it was played from.

    With `before`, a capture the move made is marked where it happened; without it the path and
    number are still drawn.
    """

    move: Move
    before: Position | None = None

    def victims(self) -> list[int]:
        """The seats whose pieces this move captured (none known without `before`)."""
        if self.before is None:
            return []
        return sorted({seat for seat, _ in self.before.captures(self.move)})


def choice_label(index: int) -> str:
    """The label of the `index`-th legal move: A, B, C... (the bot's buttons use the same)."""
    if not 0 <= index < 26:
        raise ValueError(f"no label for choice {index}")
    return chr(ord("A") + index)
