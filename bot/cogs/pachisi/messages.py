"""What the bot writes about a game: pure functions from a stored game and its events to text.

No Discord here (mentions are written as `<@id>` text), so every message is unit-tested directly.
Moves are told in board words (whose arm, castle, the Charkoni), never in route step numbers: those
belong to the notation and the command line, and appear nowhere on the board.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from datetime import datetime

import render
from bot.core.service import Event, GameSnapshot, SeatTally
from bot.core.store import Status
from engine import SEAT_NAMES, Move, Position, Rules, Termination
from engine.board import HOME, IS_CASTLE, MID, ROUTES, SQUARES
from render.moves import side_words

LOG_LINES = 12
"""At most this many throws are listed in one message; older ones are summarised."""
FREEZING_RULE = "last_square=off"
FREEZING_NOTE = "last_square=off freezes about 96 % of games: no piece can come home"
INPUT_SHOWN = 40
"""Typed input quoted back in a refusal is cut to this many characters."""


def colour(seat: int) -> str:
    return SEAT_NAMES[seat].capitalize()


def relative_time(moment: datetime) -> str:
    """Discord's self-updating "in 5 minutes" timestamp."""
    return f"<t:{int(moment.timestamp())}:R>"


def quoted(text: str) -> str:
    """Typed input as a refusal shows it: cut short, no formatting of its own."""
    text = " ".join(text.split())
    cut = text[:INPUT_SHOWN] + ("..." if len(text) > INPUT_SHOWN else "")
    return "`" + cut.replace("`", "'") + "`"


# --- the board in words -----------------------------------------------------------------------


def square_words(seat: int, step: int) -> str:
    """Where a piece of `seat` at `step` of its route stands, as players see the board."""
    if step == 0:
        return "the Charkoni"
    if step >= HOME:
        return "home"
    square = SQUARES[ROUTES[seat][step]]
    owner = colour(square.arm)
    if square.column == MID and square.row == 8:
        return f"the tip of {owner}'s arm"
    if IS_CASTLE[ROUTES[seat][step]]:
        return f"{owner}'s castle"
    return f"{owner}'s arm"


def player_words(view: GameSnapshot, seat: int) -> str:
    """Who plays a seat: `<@id>` or `Computer (hard)`."""
    info = view.seats[seat]
    return f"<@{info.user_id}>" if info.user_id else f"Computer ({info.level})"


def move_words(position: Position, move: Move, view: GameSnapshot | None = None) -> str:
    """`piece from Green's arm to Yellow's castle, captures <@B>'s Yellow piece: back to the Charkoni`."""
    whose = "" if move.seat == position.turn else f"{colour(move.seat)}'s "
    if move.dst >= HOME:
        via = " through the escape hatch" if position.uses_escape_hatch(move) else ""
        text = f"{whose}piece home from {square_words(move.seat, move.src)}{via}"
    elif move.src == 0:
        text = f"{whose}piece out of the Charkoni to {square_words(move.seat, move.dst)}"
    else:
        src, dst = square_words(move.seat, move.src), square_words(move.seat, move.dst)
        text = f"{whose}piece along {src}" if src == dst else f"{whose}piece from {src} to {dst}"
    victims = [seat for seat, _ in position.captures(move)]
    for seat in dict.fromkeys(victims):
        count = victims.count(seat)
        owner = player_words(view, seat) if view is not None else "Computer"
        if owner.startswith("<@"):
            pieces = f"**{owner}**'s {colour(seat)} piece" + ("s" if count > 1 else "")
        else:
            pieces = f"{colour(seat)}'s piece" + ("s" if count > 1 else "")
        both = f"{count} of " if count > 1 else ""
        text += f", captures {both}{pieces}: back to the Charkoni"
    return text


def choice_text(index: int, view: GameSnapshot, move: Move) -> str:
    """`A: piece from Black's arm to Red's castle`: the label shared by buttons, autocomplete, board."""
    return f"{render.choice_label(index)}: {move_words(view.position, move)}"


def event_line(event: Event, view: GameSnapshot) -> str:
    """One throw of the log: `` `6` Computer (hard), Red: piece from ... to ... ``."""
    info = view.seats[event.seat]
    if event.actor_id is not None:
        who = f"<@{event.actor_id}>"
    elif event.by_timer or event.handed_back:
        who = "Computer (time ran out)"
    else:
        who = f"Computer ({info.level})"
    head = f"`{event.throw:>2}` {who}, {colour(event.seat)}:"
    if event.move is None:
        line = f"{head} threw {event.throw}, no move"
    elif event.forced:
        line = f"{head} threw {event.throw}, the only move: {move_words(event.before, event.move, view)}"
    else:
        line = f"{head} {move_words(event.before, event.move, view)}"
    if event.handed_back:
        line += f"\n... {colour(event.seat)} missed too many turns: the computer plays it from now on"
    return line


def captured_members(events: Iterable[Event], view: GameSnapshot) -> list[int]:
    """Members whose pieces these events captured (they are pinged when told)."""
    found: list[int] = []
    for event in events:
        if event.move is None:
            continue
        for seat, _ in event.before.captures(event.move):
            user = view.seats[seat].user_id
            if user is not None and user not in found:
                found.append(user)
    return found


def log_lines(content: str) -> list[str]:
    """The throw log at the top of a turn message (`turn_content` writes it first)."""
    return list(itertools.takewhile(lambda line: line.startswith(("`", "... ")), content.splitlines()))


def log(events: list[Event], view: GameSnapshot, earlier: list[str] | None = None) -> list[str]:
    """Earlier log lines plus the events', the oldest summarised beyond `LOG_LINES`."""
    lines = [line for line in earlier or [] if not line.startswith("... ") or "earlier throws" not in line]
    skipped = sum(
        int(line.split()[1]) for line in earlier or [] if line.startswith("... ") and "earlier throws" in line
    )
    for event in events:
        lines.extend(event_line(event, view).splitlines())
    if len(lines) > LOG_LINES:
        skipped += len(lines) - LOG_LINES
        lines = lines[-LOG_LINES:]
    return ([f"... {skipped} earlier throws"] if skipped else []) + lines


# --- turn messages ----------------------------------------------------------------------------


def seat_name(view: GameSnapshot, seat: int, names: Mapping[int, str]) -> str:
    """A seat's player as the board's panel names them: the member's display name, or `Computer · hard`."""
    info = view.seats[seat]
    if info.user_id is None:
        return f"Computer · {info.level}"
    return names.get(info.user_id) or f"Player {str(info.user_id)[-4:]}"


def seat_label(view: GameSnapshot, seat: int) -> str:
    return f"{player_words(view, seat)} ({colour(seat)})"


def side_name(view: GameSnapshot, seat: int) -> str:
    return side_words(view.position.side_of(seat), view.rules.players)


def status_line(view: GameSnapshot) -> str:
    return f"Throw {view.turn_number + 1}: {seat_label(view, view.seat_to_move())} to play."


def prompt(view: GameSnapshot) -> list[str]:
    """What the game waits for, last in a turn message."""
    if view.status == Status.FINISHED:
        return []
    if view.status != Status.ACTIVE:
        return ["This game has ended."]
    seat = view.seat_to_move()
    if view.pending_throw is not None:
        lines = [f"{seat_label(view, seat)} threw **{view.pending_throw}**: choose a move."]
    else:
        lines = [f"{seat_label(view, seat)}, your throw."]
    if view.deadline is not None:
        lines.append(f"Time runs out {relative_time(view.deadline)}.")
    return lines


def turn_content(
    view: GameSnapshot,
    events: list[Event],
    tallies: Mapping[int, SeatTally] | None = None,
    *,
    earlier: list[str] | None = None,
) -> str:
    """A turn message: the throws since the last one, then what the game waits for."""
    lines = log(events, view, earlier)
    if view.status == Status.FINISHED:
        lines.append(final_summary(view, tallies or {}))
    return "\n".join([*lines, *prompt(view)])


def result_head(view: GameSnapshot) -> str:
    outcome = view.outcome
    result = None if outcome is None else outcome.winner
    if result is None:
        limit = outcome is not None and outcome.termination is Termination.THROW_LIMIT
        why = "the throw limit was reached" if limit else "no piece can move"
        return f"The game is a draw: {why}."
    winners = [seat_label(view, s) for s in view.rules.seats if view.position.side_of(s) == result]
    how = (
        " (by resignation)" if outcome is not None and outcome.termination is Termination.RESIGNATION else ""
    )
    return f"**{side_words(result, view.rules.players)} win!**{how} " + ", ".join(winners)


def final_summary(view: GameSnapshot, tallies: Mapping[int, SeatTally]) -> str:
    """The result, everyone mentioned, and how the game went seat by seat."""
    players = " ".join(f"<@{i.user_id}>" for i in view.seats.values() if i.user_id)
    turns = sum(t.turns for t in tallies.values())
    captures = ", ".join(
        f"{colour(s)} {tallies[s].captures if s in tallies else 0}" for s in view.rules.seats
    )
    used = ", ".join(
        f"{colour(s)} {view.seats[s].hints_used}"
        for s in view.rules.seats
        if s in view.seats and view.seats[s].hints_used
    )
    counts = f"Throws: {view.turn_number} in {turns} turns. Captures: {captures}."
    if used:
        counts += f" Hints used: {used}."
    return f"{result_head(view)}\n{counts}\n{players}".strip()


def reminder(view: GameSnapshot) -> str:
    seat = view.seat_to_move()
    when = f": time runs out {relative_time(view.deadline)}" if view.deadline else ""
    return f"{player_words(view, seat)}, it's your turn ({colour(seat)}){when}."


# --- the table card ---------------------------------------------------------------------------


def rules_words(rules: Rules) -> str:
    text = f"{rules.token()}, {rules.players} players, {rules.pieces} pieces each"
    if not rules.last_square:
        text += f" ({FREEZING_NOTE})"
    return text


def card_content(
    view: GameSnapshot,
    starter_name: str,
    thread_id: int | None,
    tallies: Mapping[int, SeatTally] | None = None,
    players: Mapping[int, int] | None = None,
    ended_at: datetime | None = None,
) -> str:
    """The table card in the channel: options, seats, where it plays; the result at the end."""
    seats = " · ".join(f"{colour(s)}: {player_words(view, s)}" for s in view.rules.seats)
    lines = [f"**Pachisi: {starter_name}'s table** ({rules_words(view.rules)})", seats]
    if view.status == Status.ACTIVE:
        where = f"Playing in <#{thread_id}>." if thread_id else "Playing in this channel."
        lines.append(f"{where} Anyone can take a computer's seat with **Take a seat**.")
    elif view.status == Status.FINISHED:
        lines.append(result_head(view))
        tallies = tallies or {}
        captures = ", ".join(
            f"{colour(s)} {tallies[s].captures if s in tallies else 0}" for s in view.rules.seats
        )
        lines.append(f"Throws: {view.turn_number}. Captures: {captures}.")
        if ended_at is not None:
            minutes = max(1, round((ended_at - view.created_at).total_seconds() / 60))
            lines.append(f"Duration: {minutes} min.")
        if players:
            lines.append("Played: " + ", ".join(f"<@{u}> ({colour(s)})" for u, s in players.items()))
    else:
        lines.append(f"This game was ended after {view.turn_number} throws.")
    return "\n".join(lines)


def started(starter_mention: str, view: GameSnapshot) -> str:
    return (
        f"{starter_mention} starts a game of Pachisi ({rules_words(view.rules)}). "
        "Computers fill the other seats: anyone can take one with **Take a seat** or `/pachisi join`."
    )


def seat_taken(mention: str, view: GameSnapshot, seat: int) -> str:
    return f"{mention} takes **{colour(seat)}** ({side_name(view, seat)})."


def seat_given_up(mention: str, seat: int | None, *, resign: bool) -> str:
    name = colour(seat) if seat is not None else "their seat"
    return f"{mention} {'resigns' if resign else 'leaves'}; the computer plays {name}."


def pinged(view: GameSnapshot) -> list[int]:
    """Who a turn message may ping: the one to move, or every player at the end."""
    if view.status != Status.ACTIVE:
        return [info.user_id for info in view.seats.values() if info.user_id]
    return [u for u in [view.user_to_move()] if u]
