"""The game flow between the Discord layer and the store: engine + store + RNG, no Discord imports.

Every state change is one transaction that reads the game, checks it, and writes it back with
`UPDATE ... WHERE version = :v`; a writer that finds the version moved on has lost a race and gets
`Conflict`. A throw is committed before anyone sees it, and the move that plays it is a second
transaction, so a crash in between resumes with the stored throw instead of throwing again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import (
    AlreadyThrown,
    Conflict,
    GameEnded,
    GameExists,
    IllegalMove,
    NoGame,
    NotAllowed,
    NotPlaying,
    NotThrown,
    NotYourTurn,
    SeatTaken,
    StaleTurn,
)
from bot.core.records import rate_game, stored_position
from bot.core.store import GameRow, GameValues, SeatRow, SeatValues, Status, Store, aware, utcnow
from engine.board import SEAT_NAMES
from engine.errors import IllegalMoveError
from engine.game import Game, Outcome, Termination, Throw
from engine.players import get_player
from engine.rules import Rules
from engine.state import Move, Position, format_move, parse_move

MAX_MISSED = 3
"""Turns in a row the timer may play for a human before the seat goes back to the computer."""

TIMER_LEEWAY = timedelta(seconds=1)
"""`timeout` is accepted this close before the deadline, so a timer that wakes a little early works."""


# --- snapshots --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    """None: the computer plays this seat."""
    level: str
    missed: int
    """Consecutive turns the timer played for this human."""
    hints_used: int = 0
    """Hints this seat's members asked for."""


@dataclass(frozen=True)
class Event:
    """One throw that happened, for the chat log (the bot's messages describe it)."""

    turn_number: int
    seat: int
    actor_id: int | None
    """The member who played it; None when the computer did (its seat, or a timed-out member's)."""
    throw: int
    cowries: tuple[bool, ...]
    move: Move | None
    before: Position
    """The position the throw was played in."""
    by_timer: bool
    forced: bool = False
    """The member's throw offered one move (or none), so it was played for them at once."""
    handed_back: bool = False
    """The timer played for this member too often: the computer has their seat from now on."""


@dataclass(frozen=True)
class SeatTally:
    """How one seat's game went, for the summary at the end."""

    seat: int
    throws: int
    turns: int
    """Runs of consecutive throws: a grace or a capture extends a turn."""
    captures: int


@dataclass(frozen=True)
class UserStats:
    guild_id: int
    user_id: int
    games: int
    wins: int
    captures: int
    pieces_home: int


@dataclass(frozen=True)
class GameSnapshot:
    """A game as stored after the call that returned it."""

    id: int
    guild_id: int
    channel_id: int
    started_by: int
    rules: Rules
    status: Status
    position: Position
    pending_throw: int | None
    pending_cowries: tuple[bool, ...] | None
    turn_number: int
    version: int
    seats: dict[int, SeatInfo]
    deadline: datetime | None
    message_id: int | None
    last_move: Move | None
    last_position: Position | None
    created_at: datetime = field(compare=False)
    hints: bool = True
    """The game option `hints`: the Hint button and the win chances are offered."""
    card_channel_id: int | None = None
    """The channel showing this game's table card (the game plays in a thread of it)."""
    card_message_id: int | None = None

    def game(self) -> Game:
        """The engine's game resumed from what is stored: position, throw count, pending throw."""
        pending = None if self.pending_throw is None else Throw.of(self.pending_throw, self.pending_cowries)
        return Game(self.position, throws=self.turn_number, pending=pending)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (win, frozen, throw limit, resignation); None while it goes on or if
        abandoned."""
        return Game(self.position, throws=self.turn_number).outcome()

    def legal_moves(self) -> list[Move]:
        """The moves of the pending throw; [] when nothing is thrown."""
        if self.pending_throw is None or self.status != Status.ACTIVE:
            return []
        return self.game().legal_moves()

    def seat_to_move(self) -> int:
        return self.position.turn

    def user_to_move(self) -> int | None:
        return self.seats[self.position.turn].user_id

    def is_human_turn(self) -> bool:
        return self.status == Status.ACTIVE and self.user_to_move() is not None

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` plays, if any (one seat per user)."""
        return next((s.seat for s in self.seats.values() if s.user_id == user_id), None)


def _cowries_text(faces: tuple[bool, ...]) -> str:
    return "".join("1" if face else "0" for face in faces)


def _cowries(text: str) -> tuple[bool, ...]:
    return tuple(char == "1" for char in text)


def _rules_text(rules: Rules) -> str:
    """The rules token, with players and pieces when they differ from the default."""
    shape = [f"{name}={getattr(rules, name)}" for name in ("players", "pieces") if getattr(rules, name) != 4]
    return ",".join([rules.token(), *shape])


def game_snapshot(row: GameRow, seats: Iterable[SeatRow]) -> GameSnapshot:
    """A stored game as the rest of the bot sees it (public so tools and tests read rows the same way)."""
    return GameSnapshot(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        started_by=row.started_by,
        rules=Rules.parse(row.rules),
        status=Status(row.status),
        position=stored_position(row),
        pending_throw=row.pending_throw,
        pending_cowries=None if row.pending_cowries is None else _cowries(row.pending_cowries),
        turn_number=row.turn_number,
        version=row.version,
        seats={s.seat: SeatInfo(s.seat, s.user_id, s.level, s.missed, s.hints_used) for s in seats},
        deadline=aware(row.deadline),
        message_id=row.message_id,
        last_move=None if row.last_move is None else parse_move(row.last_move),
        last_position=None if row.last_position is None else Position.parse(row.last_position),
        created_at=aware(row.created_at) or utcnow(),
        hints=row.hints,
        card_channel_id=row.card_channel_id,
        card_message_id=row.card_message_id,
    )


def _columns(view: GameSnapshot) -> GameValues:
    """The game-row columns a service call may change (everything but identity and version)."""
    outcome = view.outcome if view.status == Status.FINISHED else None  # no frozen test per save
    conceded = outcome is not None and outcome.termination is Termination.RESIGNATION
    return {
        "status": str(view.status),
        "position": (view.position.with_result(None) if conceded else view.position).notation(),
        "conceded_to": outcome.winner if conceded and outcome is not None else None,
        "pending_throw": view.pending_throw,
        "pending_cowries": None if view.pending_cowries is None else _cowries_text(view.pending_cowries),
        "turn_number": view.turn_number,
        "deadline": view.deadline,
        "last_move": None if view.last_move is None else str(view.last_move),
        "last_position": None if view.last_position is None else view.last_position.notation(),
    }


# --- the service ------------------------------------------------------------------------------


class GameService:
    """Game flow for every channel; safe to run in several processes sharing one database."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        turn_timeout: float = 300,
        clock: Callable[[], datetime] = utcnow,
        default_auto_throw: bool = True,
    ) -> None:
        self.store = store
        self.default_auto_throw = default_auto_throw
        self.rng = rng or random.SystemRandom()
        self.turn_timeout = timedelta(seconds=turn_timeout)
        self.clock = clock

    # --- reading ------------------------------------------------------------------------

    async def _load(self, session: AsyncSession, game_id: int) -> GameSnapshot:
        found = await self.store.game_and_seats(session, game_id)
        if found is None:
            raise NoGame()
        return game_snapshot(*found)

    async def get(self, game_id: int) -> GameSnapshot:
        async with self.store.transaction() as session:
            return await self._load(session, game_id)

    async def get_active(self, channel_id: int) -> GameSnapshot | None:
        async with self.store.transaction() as session:
            row = await self.store.active_game(session, channel_id)
            return None if row is None else game_snapshot(row, await self.store.seats(session, row.id))

    async def active_games(
        self, guild_ids: Iterable[int] | None = None, *, unannounced: bool = False
    ) -> list[GameSnapshot]:
        """See `Store.active_games`: `unannounced` adds finished games whose result is not posted yet."""
        async with self.store.transaction() as session:
            rows = await self.store.active_games(session, guild_ids, unannounced=unannounced)
            seats = await self.store.seats_of(session, [row.id for row in rows])
            return [game_snapshot(row, seats[row.id]) for row in rows]

    # --- writing ------------------------------------------------------------------------

    def _deadline(self, view: GameSnapshot) -> datetime | None:
        """A fresh deadline when a human is to act in an active game, else none."""
        return self.clock() + self.turn_timeout if view.is_human_turn() else None

    async def _save(self, session: AsyncSession, old: GameSnapshot, new: GameSnapshot) -> GameSnapshot:
        """Write `new` over `old` with the optimistic version check, seats included."""
        if not await self.store.update_game(session, old.id, old.version, **_columns(new)):
            raise Conflict()
        for seat, info in new.seats.items():
            if info != old.seats[seat]:
                values: SeatValues = {"user_id": info.user_id, "level": info.level, "missed": info.missed}
                if info.user_id != old.seats[seat].user_id:
                    values["joined_at"] = self.clock()
                await self.store.update_seat(session, old.id, seat, **values)
        return replace(new, version=old.version + 1)

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        rules: Rules,
        level: str,
        seat: int | None,
        *,
        hints: bool = True,
        card_channel_id: int | None = None,
        members: dict[int, int] | None = None,
    ) -> GameSnapshot:
        """A new game: the starter takes `seat` (default black), computers at `level` the rest;
        `hints` offers the Hint button and the win chances.

        `members`: seat -> member for more seats taken from the start (a rematch).
        `card_channel_id`: the channel that shows the table card when `channel_id` is its thread."""
        try:
            get_player(level)
        except ValueError as exc:
            raise NotAllowed(str(exc)) from exc
        seat = rules.seats[0] if seat is None else seat
        if seat not in rules.seats:
            names = ", ".join(SEAT_NAMES[s] for s in rules.seats)
            raise NotAllowed(f"Choose a seat in play: {names}.")
        try:
            async with self.store.transaction() as session:
                existing = await self.store.active_game(session, channel_id)
                if existing is not None:
                    raise GameExists(existing.id, existing.started_by)
                seated = {**(members or {}), seat: user_id}
                return await self._insert(
                    session, guild_id, channel_id, user_id, rules, level, seated, card_channel_id, hints
                )
        except IntegrityError:
            # Another process started one between our check and our insert: the unique index said no.
            active = await self.get_active(channel_id)
            if active is None:
                raise
            raise GameExists(active.id, active.started_by) from None

    async def _insert(
        self,
        session: AsyncSession,
        guild_id: int,
        channel_id: int,
        user_id: int,
        rules: Rules,
        level: str,
        seated: dict[int, int],
        card_channel_id: int | None,
        hints: bool = True,
    ) -> GameSnapshot:
        now = self.clock()
        position = Position.initial(rules)
        deadline = now + self.turn_timeout if position.turn in seated else None
        row = GameRow(
            guild_id=guild_id,
            channel_id=channel_id,
            started_by=user_id,
            rules=_rules_text(rules),
            status=Status.ACTIVE,
            position=position.notation(),
            turn_number=0,
            version=0,
            deadline=deadline,
            created_at=now,
            updated_at=now,
            hints=hints,
            card_channel_id=card_channel_id,
        )
        seats = [
            SeatRow(seat=s, user_id=seated.get(s), level=level, missed=0, joined_at=now, hints_used=0)
            for s in rules.seats
        ]
        await self.store.add_game(session, row, seats)
        for seat, member in seated.items():
            await self.store.add_player(session, row.id, member, seat)
        return game_snapshot(row, seats)

    async def join(self, game_id: int, user_id: int, seat: int | None) -> GameSnapshot:
        """Take a computer's seat (the first free one in turn order when `seat` is None)."""
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            self._check_active(view)
            if (mine := view.seat_of(user_id)) is not None:
                raise NotAllowed(
                    f"You already play {SEAT_NAMES[mine].capitalize()}: /pachisi leave first to change seats."
                )
            if await self.store.has_resigned(session, game_id, user_id):
                raise NotAllowed("You resigned from this game: start a new one with /pachisi start.")
            free = [s for s in view.rules.seats if view.seats[s].user_id is None]
            if seat is None:
                if not free:
                    raise SeatTaken("Every seat is taken: start your own game with /pachisi start.")
                seat = free[0]
            if seat not in view.seats:
                raise NotAllowed(f"That seat is not in play: free seats are {self._free_words(view)}.")
            if seat not in free:
                raise SeatTaken(
                    f"{SEAT_NAMES[seat].capitalize()} is taken: free seats are {self._free_words(view)}."
                )
            new = self._with_seat(view, seat, user_id)
            await self.store.add_player(session, game_id, user_id, seat)
            return await self._save(session, view, new)

    def _free_words(self, view: GameSnapshot) -> str:
        free = [SEAT_NAMES[s].capitalize() for s in view.rules.seats if view.seats[s].user_id is None]
        return ", ".join(free) or "none"

    def _with_seat(self, view: GameSnapshot, seat: int, user_id: int | None) -> GameSnapshot:
        seats = dict(view.seats)
        seats[seat] = replace(seats[seat], user_id=user_id, missed=0)
        new = replace(view, seats=seats)
        if seat == view.position.turn:
            new = replace(new, deadline=self._deadline(new))
        return new

    async def leave(self, game_id: int, user_id: int) -> GameSnapshot:
        """The computer takes the user's seat back; the user may join again later."""
        return await self._give_up(game_id, user_id, resign=False)

    async def resign(self, game_id: int, user_id: int) -> GameSnapshot:
        """The computer takes the user's seat for good: the user cannot rejoin this game."""
        return await self._give_up(game_id, user_id, resign=True)

    async def _give_up(self, game_id: int, user_id: int, *, resign: bool) -> GameSnapshot:
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            self._check_active(view)
            seat = view.seat_of(user_id)
            if seat is None:
                raise NotPlaying()
            if resign and view.rules.players == 2:
                # Two players: resigning concedes, the other side wins.
                game = view.game()
                game.resign(seat)
                won = replace(view, position=game.position, pending_throw=None, pending_cowries=None)
                await self.store.add_resignation(session, game_id, user_id)
                return await self._close(session, won, Status.FINISHED)
            new = await self._save(session, view, self._with_seat(view, seat, None))
            if resign:
                await self.store.add_resignation(session, game_id, user_id)
            return new

    async def end(self, game_id: int, user_id: int, *, can_manage: bool) -> GameSnapshot:
        """Stop a game without a result (status `abandoned`): its starter, or a channel manager."""
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            self._check_active(view)
            if user_id != view.started_by and not can_manage:
                raise NotAllowed(
                    "Only the member who started this game, or one with Manage Channels, can end it: "
                    "use /pachisi leave to give up your seat."
                )
            return await self._close(session, view, Status.ABANDONED)

    async def mark_abandoned(self, game_id: int) -> None:
        """The channel is gone or the bot was removed: close the game, retrying lost races."""
        for _ in range(10):
            try:
                async with self.store.transaction() as session:
                    view = await self._load(session, game_id)
                    if view.status == Status.ACTIVE:
                        await self._close(session, view, Status.ABANDONED)
                return
            except Conflict:
                continue
        raise Conflict()

    async def _close(self, session: AsyncSession, view: GameSnapshot, status: Status) -> GameSnapshot:
        new = await self._save(session, view, replace(view, status=status, deadline=None))
        await self._record_stats(session, new)
        return new

    async def _record_stats(self, session: AsyncSession, view: GameSnapshot) -> None:
        """Once per game, as it leaves `active`: everyone who held a seat in it gets the game
        counted (with the seat they held last), so leaving before a loss does not dodge it; a
        finished game (won, drawn or conceded, not abandoned) is rated too."""
        captures = await self.store.captures_by(session, view.id)
        outcome = view.outcome
        winner = None if outcome is None else outcome.winner
        # In user order, so two games ending at once lock the same stats rows in the same order.
        for player in await self.store.players(session, view.id):
            won = winner is not None and view.position.side_of(player.seat) == winner
            await self.store.add_stats(
                session,
                view.guild_id,
                player.user_id,
                wins=int(won),
                captures=captures.get(player.user_id, 0),
                pieces_home=view.position.home_count(player.seat),
            )
        if view.status == Status.FINISHED:
            await rate_game(
                self.store, session, guild_id=view.guild_id, game_id=view.id, rules=view.rules, winner=winner
            )

    async def set_card(self, game_id: int, message_id: int | None) -> None:
        """Remember the table card's message (display only: no version bump)."""
        async with self.store.transaction() as session:
            await self.store.set_card(session, game_id, message_id)

    async def players(self, game_id: int) -> dict[int, int]:
        """Everyone who held a seat in the game: member -> the seat they held last."""
        async with self.store.transaction() as session:
            return {p.user_id: p.seat for p in await self.store.players(session, game_id)}

    async def auto_throw(self, user_id: int) -> bool:
        """Whether the bot throws for this member: their own choice, else the bot's default."""
        async with self.store.transaction() as session:
            found = await self.store.auto_throw(session, user_id)
        return self.default_auto_throw if found is None else found

    async def set_auto_throw(self, user_id: int, on: bool) -> None:
        async with self.store.transaction() as session:
            await self.store.set_auto_throw(session, user_id, on)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the Discord message of the current turn (display only: no version bump)."""
        async with self.store.transaction() as session:
            await self.store.set_message(session, game_id, message_id)

    # --- playing ------------------------------------------------------------------------

    def _check_active(self, view: GameSnapshot) -> None:
        if view.status != Status.ACTIVE:
            raise GameEnded()

    def _check_turn(self, view: GameSnapshot, user_id: int | None, turn_number: int) -> None:
        self._check_active(view)
        if turn_number != view.turn_number:
            raise StaleTurn()
        if user_id is not None and view.user_to_move() != user_id:
            raise NotYourTurn.for_user(view.seat_to_move(), view.user_to_move(), view.seat_of(user_id))

    async def _throw(
        self,
        game_id: int,
        user_id: int | None,
        turn_number: int,
        *,
        by_timer: bool = False,
        play_forced: bool = False,
    ) -> tuple[GameSnapshot, Event | None]:
        """Throw the cowries and commit the throw: the view returned is the first anyone sees of it.

        A throw that offers no move is played (`pass`) in the same transaction, so nothing is left
        pending that nobody could play; with `play_forced`, a member's throw with exactly one move
        plays it too (there is nothing to decide). A computer's throw is played with its choice in
        the same transaction: nobody sees it before its move, and it halves the commits of a
        computer's turn. The Event says what was played.
        """
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            self._check_turn(view, user_id, turn_number)
            if user_id is None and view.is_human_turn():
                raise NotYourTurn("A member plays this seat: wait for their move.")
            if view.pending_throw is not None:
                raise AlreadyThrown()
            game = view.game()
            value, faces = game.throw(self.rng)
            thrown = replace(view, pending_throw=value, pending_cowries=faces)
            moves = game.legal_moves()
            human = thrown.is_human_turn()
            if not human:
                return await self._apply(session, thrown, self._choice(thrown, moves), by_timer=by_timer)
            if len(moves) > 1 or (moves and not play_forced):
                return await self._save(session, view, thrown), None
            only = moves[0] if moves else None
            return await self._apply(session, thrown, only, by_timer=by_timer, forced=True)

    async def _play(
        self,
        game_id: int,
        turn_number: int,
        move: Move | None,
        *,
        user_id: int | None,
        by_timer: bool = False,
        choose: bool = False,
    ) -> tuple[GameSnapshot, Event]:
        """Play the pending throw: `move`, or the computer's choice when `choose`; one transaction."""
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            self._check_turn(view, user_id, turn_number)
            if user_id is None and view.is_human_turn():
                raise NotYourTurn("A member plays this seat: wait for their move.")
            if view.pending_throw is None:
                raise NotThrown()
            if choose:
                move = self._choice(view, view.legal_moves())
            return await self._apply(session, view, move, by_timer=by_timer)

    def _choice(self, view: GameSnapshot, moves: list[Move]) -> Move | None:
        """The move the seat's computer level plays with the pending throw (None: no move)."""
        assert view.pending_throw is not None
        player = get_player(view.seats[view.position.turn].level)
        return player.choose(view.position, view.pending_throw, moves, self.rng) if moves else None

    async def _apply(
        self,
        session: AsyncSession,
        view: GameSnapshot,
        move: Move | None,
        *,
        by_timer: bool,
        forced: bool = False,
    ) -> tuple[GameSnapshot, Event]:
        """Play `view`'s pending throw with `move`: position, seats, deadline, log and stats, saved."""
        throw, cowries = view.pending_throw, view.pending_cowries
        assert throw is not None and cowries is not None
        game = view.game()
        before = game.position
        seat = game.turn
        try:
            after = game.play(move)
        except IllegalMoveError as exc:
            raise IllegalMove(str(exc)) from None
        outcome = game.outcome()
        seats = dict(view.seats)
        info = seats[seat]
        if info.user_id is not None and by_timer:
            missed = info.missed + 1
            user = None if missed >= MAX_MISSED else info.user_id
            seats[seat] = replace(info, user_id=user, missed=0 if user is None else missed)
        elif info.user_id is not None and info.missed:
            seats[seat] = replace(info, missed=0)
        new = replace(
            view,
            status=Status.ACTIVE if outcome is None else Status.FINISHED,
            position=after,
            pending_throw=None,
            pending_cowries=None,
            turn_number=game.throws,
            seats=seats,
            last_move=move,
            last_position=before,
        )
        new = await self._save(session, view, replace(new, deadline=self._deadline(new)))
        actor = None if by_timer else info.user_id
        try:
            await self.store.add_move(
                session,
                game_id=view.id,
                turn_number=view.turn_number,
                seat=seat,
                actor_id=actor,
                throw=throw,
                cowries=_cowries_text(cowries),
                move=None if move is None else format_move(move),
                captures=0 if move is None else len(before.captures(move)),
                by_timer=by_timer,
                created_at=self.clock(),
            )
        except IntegrityError:
            raise Conflict() from None
        if new.status != Status.ACTIVE:
            await self._record_stats(session, new)
        handed_back = info.user_id is not None and new.seats[seat].user_id is None
        event = Event(
            view.turn_number, seat, actor, throw, cowries, move, before, by_timer, forced, handed_back
        )
        return new, event

    async def throw(
        self, game_id: int, user_id: int, turn_number: int, *, play_forced: bool = False
    ) -> tuple[GameSnapshot, list[Event]]:
        """The user throws; a throw that offers no move is played at once, and with `play_forced`
        so is one that offers exactly one (there is nothing to decide)."""
        view, event = await self._throw(game_id, user_id, turn_number, play_forced=play_forced)
        return view, [] if event is None else [event]

    async def move(
        self, game_id: int, user_id: int, turn_number: int, move: Move
    ) -> tuple[GameSnapshot, list[Event]]:
        """The user plays `move` with the pending throw."""
        view, event = await self._play(game_id, turn_number, move, user_id=user_id)
        return view, [event]

    async def play_computers(
        self, game_id: int, *, known: GameSnapshot | None = None
    ) -> tuple[GameSnapshot, list[Event]]:
        """Play computer turns until a human must act or the game ends; `known` is the game as the
        caller just stored it (saves a read: every throw checks it again anyway).

        Each throw commits with its move; a throw stored before (a member's seat handed to the
        computer, a crash) is played, not thrown again. Losing a race to another process ends the
        loop quietly: that process plays on.
        """
        events: list[Event] = []
        view = known or await self.get(game_id)
        while view.status == Status.ACTIVE and not view.is_human_turn():
            try:
                if view.pending_throw is None:
                    view, thrown = await self._throw(game_id, None, view.turn_number)
                    assert thrown is not None  # a computer's throw is played at once
                    event = thrown
                else:
                    view, event = await self._play(game_id, view.turn_number, None, user_id=None, choose=True)
            except (Conflict, StaleTurn, NotYourTurn, AlreadyThrown, NotThrown, GameEnded):
                return await self.get(game_id), events
            events.append(event)
        return view, events

    async def timeout(self, game_id: int, turn_number: int) -> tuple[GameSnapshot, list[Event]]:
        """The human's deadline passed: the computer plays this turn for them (throw if needed + move)."""
        view = await self.get(game_id)
        self._check_turn(view, None, turn_number)
        if not view.is_human_turn() or view.deadline is None:
            raise StaleTurn("That turn is not waiting for a member.")
        if self.clock() + TIMER_LEEWAY < view.deadline:
            raise NotAllowed("The turn has not timed out yet: wait for the deadline.")
        user = view.user_to_move()
        if view.pending_throw is None:
            view, passed = await self._throw(game_id, user, turn_number, by_timer=True)
            if passed is not None:
                return view, [passed]
        view, event = await self._play(game_id, turn_number, None, user_id=user, by_timer=True, choose=True)
        return view, [event]

    # --- statistics ---------------------------------------------------------------------

    async def stats(self, guild_id: int, user_id: int) -> UserStats:
        async with self.store.transaction() as session:
            row = await self.store.user_stats(session, guild_id, user_id)
        if row is None:
            return UserStats(guild_id, user_id, 0, 0, 0, 0)
        return UserStats(guild_id, user_id, row.games, row.wins, row.captures, row.pieces_home)

    async def use_hint(self, game_id: int, user_id: int, turn_number: int) -> GameSnapshot:
        """Count a hint for the seat to move, whose member `user_id` asks on `turn_number` after
        throwing; refuses anyone else, a turn gone by, and a game with hints off."""
        async with self.store.transaction() as session:
            view = await self._load(session, game_id)
            if not view.hints:
                raise NotAllowed("Hints are off in this game.")
            if view.status != Status.ACTIVE or view.turn_number != turn_number or view.pending_throw is None:
                raise NotAllowed("That hint is for a turn already played.")
            if view.user_to_move() != user_id:
                raise NotAllowed("Only the player to move can ask for a hint.")
            seat = view.seat_to_move()
            await self.store.update_seat(session, game_id, seat, hints_used=SeatRow.hints_used + 1)
            info = view.seats[seat]
            return replace(view, seats={**view.seats, seat: replace(info, hints_used=info.hints_used + 1)})

    async def tallies(self, game_id: int) -> dict[int, SeatTally]:
        """Throws, turns and captures per seat, counted from the move log."""
        async with self.store.transaction() as session:
            rows = await self.store.moves(session, game_id)
        counts: dict[int, list[int]] = {}
        previous: int | None = None
        for row in rows:
            throws, turns, captures = counts.setdefault(row.seat, [0, 0, 0])
            counts[row.seat] = [throws + 1, turns + (row.seat != previous), captures + row.captures]
            previous = row.seat
        return {seat: SeatTally(seat, *numbers) for seat, numbers in counts.items()}

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[UserStats]:
        async with self.store.transaction() as session:
            rows = await self.store.leaderboard(session, guild_id, limit)
        return [UserStats(r.guild_id, r.user_id, r.games, r.wins, r.captures, r.pieces_home) for r in rows]
