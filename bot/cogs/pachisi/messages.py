"""What the bot writes about a game: pure functions from a stored game and its events to text.

No Discord here (mentions are written as `<@id>` text), so every message is unit-tested directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from datetime import datetime

import render
from bot.service import Event, GameView, SeatTally
from engine import DRAW, MAX_THROWS, SEAT_NAMES, Move
from engine.notation import describe_move, describe_side

LOG_LINES = 12
"""At most this many throws are listed in one update; older ones are summarised."""


def relative_time(moment: datetime) -> str:
    """Discord's self-updating "in 5 minutes" timestamp."""
    return f"<t:{int(moment.timestamp())}:R>"


def log_lines(content: str) -> list[str]:
    """The throw log at the top of a turn message (`turn_content` writes it first)."""
    return list(itertools.takewhile(lambda line: line.startswith(("`", "... ")), content.splitlines()))


def choice_text(index: int, view: GameView, move: Move) -> str:
    """`A: Black: piece on 21 to 25, castle`: the label shared by buttons, autocomplete and board."""
    assert view.pending_throw is not None
    return f"{render.choice_label(index)}: {describe_move(view.position, view.pending_throw, move)}"


def seat_name(view: GameView, seat: int, names: Mapping[int, str]) -> str:
    """A seat's player as the board names them: the member's display name, or the computer."""
    info = view.seats[seat]
    if info.user_id is None:
        return f"Computer ({info.level})"
    return names.get(info.user_id) or f"Player {str(info.user_id)[-4:]}"


def seat_label(view: GameView, seat: int) -> str:
    info = view.seats[seat]
    who = f"<@{info.user_id}>" if info.user_id else f"Computer ({info.level})"
    return f"{who} ({SEAT_NAMES[seat].capitalize()})"


def side_name(view: GameView, seat: int) -> str:
    return describe_side(view.position.side_of(seat), view.rules.players)


def pinged(view: GameView) -> list[int]:
    """Who a turn message may ping: the one to move, or every player at the end."""
    if view.status != "active":
        return [info.user_id for info in view.seats.values() if info.user_id]
    return [u for u in [view.user_to_move()] if u]


def status_line(view: GameView) -> str:
    return f"Throw {view.turn_number + 1}: {seat_label(view, view.seat_to_move())} to play."


def event_line(event: Event) -> str:
    who = f"<@{event.actor_id}>" if event.actor_id else "Computer"
    timer = " (time ran out)" if event.by_timer else ""
    return f"`{event.throw:>2}` {event.text} ({who}{timer})"


def turn_content(view: GameView, events: list[Event], tallies: Mapping[int, SeatTally] | None = None) -> str:
    """A turn message: the throws since the last one, then what the game waits for."""
    lines: list[str] = []
    shown = events[-LOG_LINES:]
    if len(events) > len(shown):
        lines.append(f"... {len(events) - len(shown)} earlier throws")
    lines.extend(event_line(event) for event in shown)
    if view.status == "finished":
        lines.append(final_summary(view, tallies or {}))
        return "\n".join(lines)
    if view.status != "active":
        lines.append("This game has ended.")
        return "\n".join(lines)
    seat = view.seat_to_move()
    if view.pending_throw is not None:
        lines.append(f"{seat_label(view, seat)} threw **{view.pending_throw}**: choose a move.")
    else:
        lines.append(f"{seat_label(view, seat)}, your throw.")
    if view.deadline is not None:
        lines.append(f"Time runs out {relative_time(view.deadline)}.")
    return "\n".join(lines)


def final_summary(view: GameView, tallies: Mapping[int, SeatTally]) -> str:
    """The result, everyone mentioned, and how the game went seat by seat."""
    result = view.position.result
    players = " ".join(f"<@{i.user_id}>" for i in view.seats.values() if i.user_id)
    if result is None or result == DRAW:
        why = "the throw limit was reached" if view.turn_number >= MAX_THROWS else "no piece can move"
        head = f"The game is a draw: {why}."
    else:
        seats = view.rules.seats
        winners = [seat_label(view, s) for s in seats if view.position.side_of(s) == result]
        head = f"**{describe_side(result, view.rules.players)} win!** " + ", ".join(winners)
    turns = sum(t.turns for t in tallies.values())
    captures = ", ".join(
        f"{SEAT_NAMES[s].capitalize()} {tallies[s].captures if s in tallies else 0}" for s in view.rules.seats
    )
    used = ", ".join(
        f"{SEAT_NAMES[s].capitalize()} {view.seats[s].hints_used}"
        for s in view.rules.seats
        if s in view.seats and view.seats[s].hints_used
    )
    counts = f"Throws: {view.turn_number} in {turns} turns. Captures: {captures}."
    if used:
        counts += f" Hints used: {used}."
    return f"{head}\n{counts}\n{players}".strip()


def started(starter_mention: str, view: GameView) -> str:
    return (
        f"{starter_mention} starts a game of Pachisi ({view.rules.token()}, {view.rules.players} players). "
        "Computers fill the other seats: anyone can take one with **Take a seat** or `/pachisi join`."
    )


def seat_taken(mention: str, view: GameView, seat: int) -> str:
    return f"{mention} takes **{SEAT_NAMES[seat].capitalize()}** ({side_name(view, seat)})."


def seat_given_up(mention: str, seat: int | None, *, resign: bool) -> str:
    name = SEAT_NAMES[seat].capitalize() if seat is not None else "their seat"
    return f"{mention} {'resigns' if resign else 'leaves'}; the computer plays {name}."
