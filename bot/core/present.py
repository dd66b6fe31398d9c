"""What a game's messages show after a change: pure functions from the game and its events to the
messages' content, buttons and the board's arguments. No Discord here: the cogs turn these into
Discord calls, and tests read them directly.

After a member's click, `after_click` plans the answer: the clicked message at once (their own
throws), then, once the computers' turns have been shown at their pace, that message again (their
next choice) or, when another member must decide, a new message that pings them. Without a click
(a timer, a restart, a typed command) `after_change` closes the message that showed the turn and
posts the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.core.records import SeatTally
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import Language, answers, board, table, turns
from bot.core.turns import Event
from engine import Move, Position
from engine.game import Termination
from render.words import Words, computer_name

THROW, MOVE, JOIN, REMATCH, HINT = "throw", "move", "join", "rematch", "hint"
"""The game buttons' actions (the first part of their custom ids)."""
SEAT_ROW = 4
"""The Hint sits on the last row, under the choices."""


@dataclass(frozen=True)
class Button:
    """A game button: what it does (the action, on the game's turn, with the move of a choice) and
    how it looks. Its custom id is the Discord side's (`bot/cogs/pachisi/buttons.py`)."""

    action: str
    game_id: int
    turn: int
    label: str
    move: Move | None = None
    """The choice a MOVE button plays."""
    style: str = "secondary"
    """primary, secondary, success or danger."""
    row: int | None = None


@dataclass(frozen=True)
class Board:
    """The arguments of `render.board_png` for one picture of the game."""

    position: Position
    names: Mapping[int, str]
    story: tuple[tuple[Move, Position], ...] = ()
    """The moves since the viewer's last turn (each with the position it was played from)."""
    last_move: Move | None = None
    last_position: Position | None = None
    throw: int | None = None
    cowries: tuple[bool, ...] | None = None
    choices: tuple[Move, ...] = ()
    termination: Termination | str | None = None
    """How the game ended (`render.board_png`'s): "abandoned" for a game stopped without a result."""
    words: Words | None = None
    """The picture's language (None: English)."""


@dataclass(frozen=True)
class Message:
    """One message of the game: text, buttons, the board picture, and who it may ping."""

    content: str
    buttons: tuple[Button, ...] = ()
    board: Board | None = None
    pings: tuple[int, ...] = ()
    result: bool = False
    """The result of a finished game: its story chart goes with it."""


@dataclass(frozen=True)
class Plan:
    """How a change is shown: `now` on the clicked message (or, without a click, on the message
    that showed the turn), `later` on the same message after the computers' pace, and `post`, a
    new message in the game's channel after the pace, which pings whoever it names."""

    now: Message | None
    later: Message | None = None
    post: Message | None = None
    paced: bool = False
    """Other seats played after the member: `later` and `post` wait for the computers' pace."""


def panel_names(lang: Language, game: GameSnapshot, names: Mapping[int, str]) -> dict[int, str]:
    """Each seat's name on its panel: the member's display name, or the picture's `Computer · hard`."""
    found = {}
    for seat in game.rules.seats:
        user = game.seats[seat].user_id
        if user is None:
            found[seat] = computer_name(lang.picture, game.seats[seat].level)
        else:
            found[seat] = table.member_name(lang, user, names, game.seats[seat].name)
    return found


def board_of(
    lang: Language,
    game: GameSnapshot,
    events: Sequence[Event],
    names: Mapping[int, str],
    at: Position | None = None,
) -> Board:
    """The picture of `game` with `events` numbered on it; `at`: a position the game passed through
    (the member's own throws shown before the computers'), drawn without a throw or choices. A
    game over (won, drawn, resigned or ended) is drawn with nobody to move: no throw, no choices."""
    story = tuple((e.move, e.before) for e in events if e.move is not None) or game.story
    if at is not None:
        return Board(at, panel_names(lang, game, names), story, words=lang.picture)
    playing = game.status == Status.ACTIVE
    if game.outcome is not None:
        ended: Termination | str | None = game.outcome.termination
    else:
        ended = None if playing else "abandoned"
    return Board(
        game.position,
        panel_names(lang, game, names),
        story,
        last_move=game.last_move,
        last_position=game.last_position,
        throw=game.pending_throw if playing else None,
        cowries=game.pending_cowries if playing else None,
        choices=tuple(game.legal_moves()) if playing else (),
        termination=ended,
        words=lang.picture,
    )


def turn_buttons(lang: Language, game: GameSnapshot) -> tuple[Button, ...]:
    """The choices (or Throw) and the Hint once thrown: the buttons of the member to play. Discord
    shows them to everyone, so the seat offer for onlookers is on the table card, not here."""
    if game.status != Status.ACTIVE:
        return ()
    found: list[Button] = []
    moves = game.legal_moves()
    if game.pending_throw is not None:
        found += [
            Button(
                MOVE,
                game.id,
                game.turn_number,
                board.choice_button(lang, i, game.position, m),
                m,
                "primary",
            )
            for i, m in enumerate(moves)
        ]
        if game.hints and game.is_human_turn():
            found.append(Button(HINT, game.id, game.turn_number, answers.button(lang, HINT), row=SEAT_ROW))
    elif game.is_human_turn():
        found.append(Button(THROW, game.id, game.turn_number, answers.button(lang, THROW), style="success"))
    return tuple(found)


def card_buttons(lang: Language, game: GameSnapshot) -> tuple[Button, ...]:
    """Take a seat while one is free, Rematch once the game is won or drawn (until it is used);
    else none."""
    if game.status == Status.ACTIVE and game.free_seats():
        return (Button(JOIN, game.id, game.turn_number, answers.button(lang, JOIN)),)
    if game.status == Status.FINISHED and game.rematch_id is None:
        return (Button(REMATCH, game.id, game.turn_number, answers.button(lang, REMATCH), style="success"),)
    return ()


def captured_members(game: GameSnapshot, events: Sequence[Event]) -> list[int]:
    """Members whose pieces these events captured (they are pinged where it is told)."""
    found: list[int] = []
    for event in events:
        if event.move is not None:
            for seat, _ in event.before.captures(event.move):
                user = game.seats[seat].user_id
                if user is not None and user not in found:
                    found.append(user)
    return found


def turn_message(
    lang: Language,
    game: GameSnapshot,
    events: Sequence[Event],
    names: Mapping[int, str],
    *,
    earlier: list[str] | None = None,
    tallies: Mapping[int, SeatTally] | None = None,
) -> Message:
    """The game as it stands after `events`: the log, the prompt (or the result), the board and the
    next turn's buttons; it pings the member to choose, or every player at the end."""
    shown = events[-turns.LOG_LINES :]
    if game.status == Status.ACTIVE:
        pings = [u for u in [game.user_to_move()] if u]
    else:
        pings = [info.user_id for info in game.seats.values() if info.user_id]
    return Message(
        turns.turn_content(lang, game, events, earlier=earlier, tallies=tallies),
        turn_buttons(lang, game),
        board_of(lang, game, events, names),
        tuple(dict.fromkeys([*pings, *captured_members(game, shown)])),
        result=game.status == Status.FINISHED,
    )


def closed(lang: Language, game: GameSnapshot, events: Sequence[Event], earlier: list[str]) -> Message:
    """A turn message done with: its log with `events` added, no prompt, no buttons."""
    return Message(turns.turn_content(lang, game, events, earlier=earlier, closed=True))


def _own(events: Sequence[Event], seat: int) -> int:
    """How many of the leading events are `seat`'s own throws."""
    count = 0
    while count < len(events) and events[count].seat == seat:
        count += 1
    return count


def after_click(
    lang: Language,
    played: Played,
    seat: int,
    earlier: list[str],
    names: Mapping[int, str],
    tallies: Mapping[int, SeatTally] | None = None,
) -> Plan:
    """The answer to a click by the member playing `seat` on a turn message whose log was `earlier`."""
    game, events = played.snapshot, list(played.events)
    own = _own(events, seat)
    rest = events[own:]
    again = game.status == Status.ACTIVE and game.user_to_move() == game.seats[seat].user_id
    if again and not rest:
        return Plan(turn_message(lang, game, events, names, earlier=earlier))
    if again:
        # The member's own throws at once, the computers' after their pace, then the member's choice.
        waiting = Message(
            turns.turn_content(lang, game, events[:own], earlier=earlier, closed=True)
            + "\n"
            + lang.gettext("The other seats are playing…"),
            board=board_of(lang, game, events[:own], names, at=rest[0].before),
        )
        return Plan(waiting, later=turn_message(lang, game, events, names, earlier=earlier), paced=True)
    done = closed(lang, game, events[:own], earlier)
    if rest or game.status != Status.ACTIVE or game.is_human_turn():
        return Plan(done, post=turn_message(lang, game, rest, names, tallies=tallies), paced=bool(rest))
    return Plan(done)


def after_change(
    lang: Language,
    played: Played,
    earlier: list[str] | None,
    names: Mapping[int, str],
    tallies: Mapping[int, SeatTally] | None = None,
    *,
    note: str | None = None,
    intro: str | None = None,
) -> Plan:
    """A change nobody clicked for (a timer, a seat handed over, a restart, a typed command): the
    message that showed the turn is closed (`earlier`: its log; None when no message shows the
    game), saying why with `note` (a seat's news), and the game as it stands is posted, with
    `intro` last (a new game's word on what the bot plays by itself; the next update drops it)."""
    game = played.snapshot
    done = (
        None
        if earlier is None
        else Message(turns.turn_content(lang, game, [], earlier=earlier, closed=True, note=note))
    )
    if game.status == Status.ABANDONED:  # its last board drawn again as over: nobody to move
        return Plan(done if done is None else replace(done, board=board_of(lang, game, [], names)))
    post = turn_message(lang, game, list(played.events), names, tallies=tallies)
    if intro is not None:
        post = replace(post, content=f"{post.content}\n{intro}")
    return Plan(done, post=post)


def card(
    lang: Language,
    game: GameSnapshot,
    starter: str,
    *,
    tallies: Mapping[int, SeatTally] | None = None,
    players: Mapping[int, int] | None = None,
    ended_at: datetime | None = None,
    number: int = 1,
) -> Message:
    """The table card: options, seats, where it plays, and the result at the end."""
    text = table.card(lang, game, starter, tallies=tallies, players=players, ended_at=ended_at, number=number)
    return Message(text, card_buttons(lang, game))
