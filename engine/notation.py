"""Moves described in English for the chat. (UI text: it moves to the bot's messages.)

The text forms of moves and positions are read and written in engine/state.py, next to `Move` and
`Position`; the names below the descriptions are re-exported only for the bot modules that still
import them from here.
"""

from __future__ import annotations

from engine.board import CASTLES, HOME, ROUTES, SEAT_NAMES
from engine.errors import NotationError
from engine.state import Move, Position, format_move, parse_move, result_text, side_seats

__all__ = ["NotationError", "describe_move", "describe_side", "format_move", "parse_move", "result_text"]


def describe_move(position: Position, throw: int, move: Move | None) -> str:
    """One sentence for the chat: who moved what, and what happened (castle, capture, home)."""
    mover = SEAT_NAMES[position.turn].capitalize()
    if move is None:
        return f"{mover} throws {throw}: no move, the throw is lost"
    owner = SEAT_NAMES[move.seat].capitalize()
    whose = "" if move.seat == position.turn else f"{owner}'s "
    if move.dst == HOME:
        via = " through the escape hatch" if position.uses_escape_hatch(move) else ""
        text = f"{mover} comes home{via}" if not whose else f"{mover} brings {whose}piece home"
        return text
    if move.src == 0:
        if move.dst == 1:
            return f"{mover} brings {whose or 'a '}piece out"
        text = f"{mover} brings {whose or 'a '}piece out to {move.dst}"
    else:
        text = f"{mover}: {whose}piece on {move.src} to {move.dst}"
    details = []
    if ROUTES[move.seat][move.dst] in CASTLES:
        details.append("castle")
    victims = position.captures(move)
    if victims:
        seats = sorted({seat for seat, _ in victims})
        details.append("captures " + " and ".join(SEAT_NAMES[s].capitalize() for s in seats))
    return ", ".join([text, *details])


def describe_side(side: int, players: int) -> str:
    return " + ".join(SEAT_NAMES[s].capitalize() for s in side_seats(side, players))
