"""The turn messages: the log of throws, what the game waits for, the result and its summary.

A turn message starts with its log (one line per throw, oldest first, the oldest summarised beyond
LOG_LINES) and ends with the prompt; `log_lines` reads the log back from a message's text, so an
update continues it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime

from bot.core.records import SeatTally
from bot.core.snapshot import GameSnapshot
from bot.core.store import Status
from bot.core.texts.board import colour, level_name, move_words, side
from bot.core.texts.language import Language
from bot.core.turns import Event
from engine import Termination

LOG_LINES = 12
"""At most this many lines of throws in one message; older ones are summarised in one line."""
THROW_MARK, SKIPPED_MARK = "`", "… "
"""How a log line starts: a throw, or the summary of older ones."""


def relative_time(moment: datetime) -> str:
    """Discord's self-updating "in 5 minutes" timestamp."""
    return f"<t:{int(moment.timestamp())}:R>"


def owners(game: GameSnapshot) -> dict[int, int | None]:
    return {seat: info.user_id for seat, info in game.seats.items()}


def player(lang: Language, game: GameSnapshot, seat: int) -> str:
    """Who plays a seat: `<@id>` or `Computer (hard)`."""
    info = game.seats[seat]
    if info.user_id:
        return f"<@{info.user_id}>"
    return lang.gettext("Computer ({level})", level=level_name(lang, info.level))


def seat_label(lang: Language, game: GameSnapshot, seat: int) -> str:
    """`<@id> (Black)`, or `Computer (hard, Black)`: one pair of brackets, never two in a row."""
    info = game.seats[seat]
    if info.user_id:
        return lang.gettext("{player} ({colour})", player=f"<@{info.user_id}>", colour=colour(lang, seat))
    level = level_name(lang, info.level)
    return lang.gettext("Computer ({level}, {colour})", level=level, colour=colour(lang, seat))


def event_line(lang: Language, event: Event, game: GameSnapshot) -> str:
    """One throw of the log: `` `6` Computer (hard), Red: piece from ... to ... ``."""
    if event.actor_id is not None:
        who = f"<@{event.actor_id}>"
    elif event.by_timer or event.handed_back:
        who = lang.gettext("Computer (time ran out)")
    else:
        who = lang.gettext("Computer ({level})", level=level_name(lang, game.seats[event.seat].level))
    head = f"{THROW_MARK}{event.throw:>2}{THROW_MARK} " + lang.gettext(
        "{who}, {colour}:", who=who, colour=colour(lang, event.seat)
    )
    if event.move is None:
        what = lang.gettext("threw {throw}, no move", throw=event.throw)
    else:
        words = move_words(lang, event.before, event.move, owners(game))
        what = lang.gettext("the only move: {move}", move=words) if event.forced else words
    return f"{head} {what}"


def handed_back(lang: Language, events: Iterable[Event]) -> list[str]:
    """Seats the timer gave back to the computer in `events` (said after the log, never summarised)."""
    return [
        lang.gettext(
            "{colour} missed too many turns: the computer plays it from now on.", colour=colour(lang, e.seat)
        )
        for e in events
        if e.handed_back
    ]


def log_lines(content: str) -> list[str]:
    """The log at the top of a turn message's text."""
    lines = []
    for line in content.splitlines():
        if not line.startswith((THROW_MARK, SKIPPED_MARK)):
            break
        lines.append(line)
    return lines


def log(
    lang: Language, events: Iterable[Event], game: GameSnapshot, earlier: list[str] | None = None
) -> list[str]:
    """Earlier log lines plus the events', the oldest summarised beyond `LOG_LINES`."""
    earlier = earlier or []
    skipped = sum(
        int(m[0]) for line in earlier if line.startswith(SKIPPED_MARK) and (m := re.search(r"\d+", line))
    )
    lines = [line for line in earlier if not line.startswith(SKIPPED_MARK)]
    for event in events:
        lines.append(event_line(lang, event, game))
    if len(lines) > LOG_LINES:
        skipped += len(lines) - LOG_LINES
        lines = lines[-LOG_LINES:]
    if not skipped:
        return lines
    summary = lang.ngettext("{count} earlier line", "{count} earlier lines", skipped)
    return [SKIPPED_MARK + summary, *lines]


def status_line(lang: Language, game: GameSnapshot) -> str:
    return lang.gettext(
        "Throw {number}: {player} to play.",
        number=game.turn_number + 1,
        player=seat_label(lang, game, game.seat_to_move()),
    )


def prompt(lang: Language, game: GameSnapshot) -> list[str]:
    """What the game waits for, last in a turn message."""
    if game.status == Status.FINISHED:
        return []
    if game.status != Status.ACTIVE:
        return [lang.gettext("This game has ended.")]
    label = seat_label(lang, game, game.seat_to_move())
    if game.pending_throw is not None:
        lines = [
            lang.gettext("{player} threw **{throw}**: choose a move.", player=label, throw=game.pending_throw)
        ]
    elif game.is_human_turn():
        lines = [lang.gettext("{player}, your throw.", player=label)]
    else:
        lines = [lang.gettext("{player} is playing…", player=label)]
    if game.deadline is not None and game.is_human_turn():
        lines.append(lang.gettext("Time runs out {when}.", when=relative_time(game.deadline)))
    return lines


def result_head(lang: Language, game: GameSnapshot) -> str:
    """`**Black + Yellow win!** <@A> (Black), Computer (hard) (Yellow)`, or the draw and its cause."""
    outcome = game.outcome
    if outcome is None or outcome.winner is None:
        if outcome is not None and outcome.termination is Termination.THROW_LIMIT:
            return lang.gettext("The game is a draw: the throw limit was reached.")
        return lang.gettext("The game is a draw: no piece can move.")
    winners = [s for s in game.rules.seats if game.position.side_of(s) == outcome.winner]
    names = lang.join([seat_label(lang, game, s) for s in winners])
    sides = side(lang, outcome.winner, game.rules.players)
    if outcome.termination is Termination.RESIGNATION:
        if len(winners) == 1:
            return lang.gettext("**{side} wins** by resignation: {players}", side=sides, players=names)
        return lang.gettext("**{side} win** by resignation: {players}", side=sides, players=names)
    if len(winners) == 1:
        return lang.gettext("**{side} wins!** {players}", side=sides, players=names)
    return lang.gettext("**{side} win!** {players}", side=sides, players=names)


def final_summary(lang: Language, game: GameSnapshot, tallies: Mapping[int, SeatTally]) -> str:
    """The result, everyone mentioned, and how the game went seat by seat."""
    turns = sum(t.turns for t in tallies.values())
    captures = lang.join(
        [
            lang.gettext(
                "{colour} {count}", colour=colour(lang, s), count=tallies[s].captures if s in tallies else 0
            )
            for s in game.rules.seats
        ]
    )
    lines = [
        result_head(lang, game),
        # the plural follows the turns, the one number with a noun: "Throws: 3 in 1 turn"
        lang.ngettext(
            "Throws: {throws} in {count} turn. Captures: {captures}.",
            "Throws: {throws} in {count} turns. Captures: {captures}.",
            turns,
            throws=lang.number(game.turn_number),
            captures=captures,
        ),
    ]
    used = [(s, game.seats[s].hints_used) for s in game.rules.seats if game.seats[s].hints_used]
    if used:
        hints = lang.join(
            [lang.gettext("{colour} {count}", colour=colour(lang, s), count=n) for s, n in used]
        )
        lines.append(lang.gettext("Hints used: {hints}.", hints=hints))
    players = " ".join(f"<@{i.user_id}>" for i in game.seats.values() if i.user_id)
    return "\n".join([*lines, players]).strip()


def turn_content(
    lang: Language,
    game: GameSnapshot,
    events: Iterable[Event],
    *,
    earlier: list[str] | None = None,
    tallies: Mapping[int, SeatTally] | None = None,
    closed: bool = False,
    note: str | None = None,
) -> str:
    """A turn message: the throws since it began, then what the game waits for (when `closed`,
    the message is done with: `note`, what closed it, if given), or the result."""
    events = list(events)
    lines = log(lang, events, game, earlier) + handed_back(lang, events)
    if game.status == Status.FINISHED and tallies is not None:
        lines.append(final_summary(lang, game, tallies))
    elif not closed:
        lines += prompt(lang, game)
    elif note:
        lines.append(note)
    return "\n".join(lines) or lang.gettext("This turn is over.")
