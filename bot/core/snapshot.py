"""A stored game as the rest of the bot sees it: the engine's `Game` and the table around it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.core.store import GameRow, GameValues, MoveRow, SeatRow, Status, aware, utcnow
from bot.core.turns import Event, SeatInfo
from engine.game import Game, Outcome, Termination, Throw
from engine.rules import Rules
from engine.state import Move, Position, parse_move


@dataclass(frozen=True)
class GameSnapshot:
    """A game as stored after the call that returned it. `game` is the engine's `Game` (position,
    throws played, pending throw, outcome): nobody changes it once it is in a snapshot."""

    id: int
    guild_id: int
    channel_id: int
    started_by: int
    status: Status
    game: Game = field(compare=False)
    version: int
    seats: dict[int, SeatInfo]
    deadline: datetime | None
    message_id: int | None
    """The turn message that shows this game now, if one does."""
    last_move: Move | None
    last_position: Position | None
    created_at: datetime = field(compare=False)
    hints: bool = True
    """The game option `hints`: the Hint button and the win chances are offered."""
    card_channel_id: int | None = None
    """The channel showing this game's table card (the game plays in a thread of it)."""
    card_message_id: int | None = None
    language: str = "en"
    """The table's language: the turn messages, the card and the result are in it."""
    starter_name: str | None = None
    """The starter's display name when they started the game (None: not stored)."""
    turn_seconds: int | None = None
    """A member's time for a turn here (a tournament's move time); None: the bot's setting."""
    rematch_id: int | None = None
    """The game this one's Rematch opened (None: none yet)."""
    auto_throws: Mapping[int, bool | None] = field(default_factory=dict, compare=False, repr=False)
    """The seated members' auto-throw choices read with the game (None: never chose), so a call
    that plays on need not ask again; empty when not read."""
    story: tuple[tuple[Move, Position], ...] = field(default=(), compare=False, repr=False)
    """The moves the turn message shows (each with the position it was played from), read from
    the move log when a call changes seats without playing (`story_of`), so the turn's board is
    drawn again with them; empty when not read."""

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def rules(self) -> Rules:
        return self.game.position.rules

    @property
    def turn_number(self) -> int:
        """Throws played so far: each button names the turn it was made for."""
        return self.game.throws

    @property
    def pending_throw(self) -> int | None:
        return None if self.game.pending is None else self.game.pending.value

    @property
    def pending_cowries(self) -> tuple[bool, ...] | None:
        return None if self.game.pending is None else self.game.pending.cowries

    @property
    def outcome(self) -> Outcome | None:
        """How a finished game ended (win, frozen, throw limit, resignation); else None."""
        return self.game.outcome() if self.status == Status.FINISHED else None

    def legal_moves(self) -> list[Move]:
        """The moves of the pending throw; [] when nothing is thrown or the game is over."""
        if self.game.pending is None or self.status != Status.ACTIVE:
            return []
        return self.game.legal_moves()

    def seat_to_move(self) -> int:
        return self.position.turn

    def user_to_move(self) -> int | None:
        return self.seats[self.position.turn].user_id

    def is_human_turn(self) -> bool:
        return self.status == Status.ACTIVE and self.user_to_move() is not None

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` plays, if any (one seat per user)."""
        return next((s.seat for s in self.seats.values() if s.user_id == user_id), None)

    def free_seats(self) -> list[int]:
        return [s for s in self.rules.seats if self.seats[s].user_id is None]


@dataclass(frozen=True)
class Played:
    """What a service call did: the game as it stored it, and the throws it played (oldest first)."""

    snapshot: GameSnapshot
    events: tuple[Event, ...] = ()
    replaced: int | None = None
    """The message that showed the turn until the member acted on another copy of it (a restart
    left two): it is closed, the one they used shows the game from now on."""
    throwers: frozenset[int] | None = None
    """The seated members the bot throws for, as the call read them to play on (None: not read)."""

    @property
    def more(self) -> bool:
        """Only computers are left to play and the call stopped at its limit: play on again."""
        game = self.snapshot
        return game.status == Status.ACTIVE and not game.is_human_turn()


def _cowries_text(faces: tuple[bool, ...]) -> str:
    return "".join("1" if face else "0" for face in faces)


def _cowries(text: str) -> tuple[bool, ...]:
    return tuple(char == "1" for char in text)


def rules_text(rules: Rules) -> str:
    """The stored rules token, with players and pieces when they differ from the default."""
    shape = [f"{name}={getattr(rules, name)}" for name in ("players", "pieces") if getattr(rules, name) != 4]
    return ",".join([rules.token(), *shape])


def stored_position(game: GameRow) -> Position:
    """The game's position as stored, with the result of a resignation put back on it."""
    position = Position.parse(game.position)
    return position if game.conceded_to is None else position.with_result(game.conceded_to)


def game_snapshot(
    row: GameRow, seats: Iterable[SeatRow], auto_throws: Mapping[int, bool | None] | None = None
) -> GameSnapshot:
    """A stored game as the rest of the bot sees it (public so tools and tests read rows the same way);
    `auto_throws`: the seated members' choices, when read with it."""
    pending = None
    if row.pending_throw is not None:
        cowries = None if row.pending_cowries is None else _cowries(row.pending_cowries)
        pending = Throw.of(row.pending_throw, cowries)
    return GameSnapshot(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        started_by=row.started_by,
        status=Status(row.status),
        game=Game(stored_position(row), throws=row.turn_number, pending=pending),
        version=row.version,
        seats={s.seat: SeatInfo(s.seat, s.user_id, s.level, s.missed, s.hints_used, s.name) for s in seats},
        deadline=aware(row.deadline),
        message_id=row.message_id,
        last_move=None if row.last_move is None else parse_move(row.last_move),
        last_position=None if row.last_position is None else Position.parse(row.last_position),
        created_at=aware(row.created_at) or utcnow(),
        hints=row.hints,
        card_channel_id=row.card_channel_id,
        card_message_id=row.card_message_id,
        language=row.language or "en",
        starter_name=row.starter_name,
        turn_seconds=row.turn_seconds,
        rematch_id=row.rematch_id,
        auto_throws=auto_throws or {},
    )


def stored_columns(game: GameSnapshot) -> GameValues:
    """The game-row columns a service call may change (everything but identity and version)."""
    outcome = game.outcome
    conceded = outcome is not None and outcome.termination is Termination.RESIGNATION
    pending = game.game.pending
    return {
        "status": str(game.status),
        "position": (game.position.with_result(None) if conceded else game.position).notation(),
        "conceded_to": outcome.winner if conceded and outcome is not None else None,
        "pending_throw": None if pending is None else pending.value,
        "pending_cowries": None if pending is None else _cowries_text(pending.cowries),
        "turn_number": game.turn_number,
        "deadline": game.deadline,
        "message_id": game.message_id,
        "last_move": None if game.last_move is None else str(game.last_move),
        "last_position": None if game.last_position is None else game.last_position.notation(),
    }


def story_of(
    rules: Rules, rows: Sequence[MoveRow], user_to_move: int | None
) -> tuple[tuple[Move, Position], ...]:
    """The moves the turn's message numbers on its board, from the move log (`rows`, oldest
    first): those since the last member's click, which a click's message shows from its own
    throws when the member clicks again, from the throws after them when another member is next."""
    positions = [Position.initial(rules)]
    for row in rows:
        positions.append(positions[-1].after(row.throw, parse_move(row.move or "pass")))
    clicked = max((i for i, row in enumerate(rows) if row.actor_id is not None), default=-1)
    first = clicked + 1
    if clicked >= 0 and rows[clicked].actor_id == user_to_move:
        while first > 0 and rows[first - 1].actor_id == user_to_move:
            first -= 1
    return tuple(
        (move, positions[i])
        for i, row in enumerate(rows)
        if i >= first and (move := parse_move(row.move or "pass")) is not None
    )


def move_values(game_id: int, event: Event, created_at: datetime) -> dict[str, object]:
    """One event as a row of the move log."""
    return {
        "game_id": game_id,
        "turn_number": event.turn_number,
        "seat": event.seat,
        "actor_id": event.actor_id,
        "throw": event.throw,
        "cowries": _cowries_text(event.cowries),
        "move": None if event.move is None else str(event.move),
        "captures": event.captures,
        "by_timer": event.by_timer,
        "created_at": created_at,
    }


def new_game(
    guild_id: int,
    channel_id: int,
    user_id: int,
    rules: Rules,
    level: str,
    seated: dict[int, int],
    now: datetime,
    names: Mapping[int, str] | None = None,
) -> tuple[GameRow, list[SeatRow]]:
    """A new game's rows, not yet added: members in `seated` (seat -> member), computers at `level`;
    `names`: the members' display names (member -> name), stored with their seats."""
    names = names or {}
    row = GameRow(
        guild_id=guild_id,
        channel_id=channel_id,
        started_by=user_id,
        rules=rules_text(rules),
        status=Status.ACTIVE,
        position=Position.initial(rules).notation(),
        turn_number=0,
        version=0,
        created_at=now,
        updated_at=now,
        starter_name=names.get(user_id),
    )
    seats = [
        SeatRow(
            seat=s,
            user_id=seated.get(s),
            level=level,
            missed=0,
            joined_at=now,
            hints_used=0,
            name=names.get(seated[s]) if s in seated else None,
        )
        for s in rules.seats
    ]
    return row, seats
