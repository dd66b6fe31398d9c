"""What the picture is told about moves, and the words it shares with the chat: sides, choices, moves."""

from __future__ import annotations

from typing import NamedTuple

from engine.board import HOME, SEAT_NAMES
from engine.state import Move, Position, side_seats


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


def side_words(side: int, players: int) -> str:
    """A side by its colours, as the picture and the chat name it: "Black + Yellow"."""
    return " + ".join(SEAT_NAMES[seat].capitalize() for seat in side_seats(side, players))


def move_words(move: Move, victims: list[int] | None = None) -> str:
    """A move in a few words for the side boxes: "Black 5 → 30, takes Yellow"."""
    seat = SEAT_NAMES[move.seat].capitalize()
    if move.src == 0:
        words = f"{seat} enters" + (f" to {move.dst}" if move.dst != 1 else "")
    elif move.dst == HOME:
        words = f"{seat} {move.src} → home"
    else:
        words = f"{seat} {move.src} → {move.dst}"
    if victims:
        words += ", takes " + " + ".join(SEAT_NAMES[s].capitalize() for s in victims)
    return words
