"""The game service: every change to a game is one transaction that plays on to the next decision.

A call loads the game, lets the member act (or the clock, or a seat change), plays everything
nobody has to decide (`bot.core.turns`), and writes the game back with `UPDATE ... WHERE
version = :v`, the throws played appended to the move log in the same transaction. A writer that
finds the version moved on has lost a race and gets `Conflict`: nothing it did is kept. A throw
is committed before anyone sees it, so a crash resumes with the stored throw, never a new one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import metrics, stats
from bot.core.errors import (
    Conflict,
    GameEnded,
    GameExists,
    NoGame,
    NotAllowed,
    NotPlaying,
    NotYourTurn,
    SeatTaken,
    StaleTurn,
)
from bot.core.members import MemberSettings
from bot.core.snapshot import (
    GameSnapshot,
    Played,
    game_snapshot,
    move_values,
    new_game,
    stored_columns,
    story_of,
)
from bot.core.store import SeatRow, SeatValues, Status, Store, utcnow
from bot.core.texts import language as languages
from bot.core.turns import Turns
from bot.core.workers import Workers, play_rest
from engine.game import Game
from engine.players import LEVELS, get_player
from engine.rules import Rules
from engine.state import Move, side_seats

TIMER_LEEWAY = timedelta(seconds=1)
"""`timeout` is accepted this close before the deadline, so a timer that wakes a little early works."""

Change = Callable[[Turns], None]
"""What a call does to the game before it plays on; raises a GameError to refuse (nothing is kept)."""


class GameReads:
    """A game as stored, read in a transaction of its own: what every caller may look at."""

    store: Store

    async def _load(self, session: AsyncSession, game_id: int) -> GameSnapshot:
        if (found := await self.store.game_and_seats(session, game_id)) is None:
            raise NoGame()
        return game_snapshot(*found)  # with the members' auto-throw choices, for `_play_on`

    async def get(self, game_id: int) -> GameSnapshot:
        async with self.store.transaction() as session:
            return await self._load(session, game_id)

    async def played_by(self, game_id: int, turn_number: int, user_id: int) -> bool:
        """Whether `user_id` played the throw of `turn_number` themselves: their click on it again
        (a double click, or a message read late) is a repeat, not a mistake."""
        async with self.store.transaction() as session:
            row = await self.store.move_at(session, game_id, turn_number)
        return row is not None and row.actor_id == user_id

    async def refuse_second_rematch(self, game: GameSnapshot) -> None:
        """Refuse a Rematch of `game` once it has one, naming where that one plays."""
        if game.rematch_id is not None:
            async with self.store.transaction() as session:
                await _refuse_second_rematch(self.store, session, game.rematch_id)

    async def get_active(self, channel_id: int) -> GameSnapshot | None:
        async with self.store.transaction() as session:
            row = await self.store.active_game(session, channel_id)
            return None if row is None else game_snapshot(row, await self.store.seats(session, row.id))

    async def playing_here(self, channel_id: int) -> GameSnapshot:
        """The channel's game for a command that plays in it; refused with GameEnded where the
        channel's newest game is over (a finished table's thread), else with NoGame."""
        if (game := await self.get_active(channel_id)) is not None:
            return game
        async with self.store.transaction() as session:
            if await self.store.newest_game(session, channel_id) is not None:
                raise GameEnded()
        raise NoGame()

    async def active_games(
        self, guild_ids: Iterable[int] | None = None, *, unannounced: bool = False
    ) -> list[GameSnapshot]:
        """See `Store.active_games`: `unannounced` adds finished games whose result is not posted yet."""
        async with self.store.transaction() as session:
            rows = await self.store.active_games(session, guild_ids, unannounced=unannounced)
            seats = await self.store.seats_of(session, [row.id for row in rows])
            return [game_snapshot(row, seats[row.id]) for row in rows]


class GameNotes(GameReads):
    """What the Discord side keeps beside a game's play: the messages that show it, the hints
    used (display only: no version bump)."""

    async def shown(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that now shows the game's turn (None: none shows it any more)."""
        async with self.store.transaction() as session:
            await self.store.set_shown(session, game_id, message_id=message_id)

    async def set_card(self, game_id: int, message_id: int | None) -> None:
        """Remember the table card's message."""
        async with self.store.transaction() as session:
            await self.store.set_shown(session, game_id, card_message_id=message_id)

    async def use_hint(self, game_id: int, user_id: int, turn_number: int) -> GameSnapshot:
        """Count a hint for the seat to move, whose member `user_id` asks on `turn_number` after
        throwing; refuses anyone else, a turn gone by, and a game with hints off."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            if not game.hints:
                raise NotAllowed("hints_off")
            if game.status != Status.ACTIVE or game.turn_number != turn_number or game.pending_throw is None:
                raise NotAllowed("hint_too_late")
            if game.user_to_move() != user_id:
                raise NotAllowed("hint_not_yours")
            seat = game.seat_to_move()
            await self.store.update_seat(session, game_id, seat, hints_used=SeatRow.hints_used + 1)
            info = game.seats[seat]
            return replace(game, seats={**game.seats, seat: replace(info, hints_used=info.hints_used + 1)})


class GameService(GameNotes):
    """A game's changes, each one transaction (start, act, seats, timers, resignation), safe to run
    in several processes sharing one database; the table layer's `GameFlow` shows them."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        turn_timeout: float = 300,
        clock: Callable[[], datetime] = utcnow,
        members: MemberSettings | None = None,
        workers: Workers | None = None,
    ) -> None:
        self.store, self.workers = store, workers  # workers: where the computers play; None: here
        self.members = members or MemberSettings(store)
        self.rng = rng or random.SystemRandom()
        self.turn_timeout = timedelta(seconds=turn_timeout)
        self.clock = clock

    # --- a game's life --------------------------------------------------------------------

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
        language: str = "en",
        card_channel_id: int | None = None,
        members: dict[int, int] | None = None,
        names: Mapping[int, str] | None = None,
        turn_seconds: int | None = None,
        rematch_of: int | None = None,
    ) -> Played:
        """A new game, played on to its first decision: the starter takes `seat` (default Black),
        computers at `level` the rest; `hints` offers the Hint button and the win chances;
        `language` is the table's (a code of `texts.language.SHIPPED`).

        `members`: seat -> member for more seats taken from the start (a rematch).
        `card_channel_id`: the channel that shows the table card when `channel_id` is its thread.
        `names`: member -> display name, stored with the seats (the board draws them after a restart).
        `turn_seconds`: a member's time for a turn in this game (a tournament's), else the bot's.
        `rematch_of`: the finished game whose Rematch this is; it has one rematch, so a second is
        refused with the first's place (`rematch_started`) and nothing is kept."""
        seat = _starter_seat(rules, level, language, seat)
        seated = {**(members or {}), seat: user_id}
        try:
            async with self.store.transaction() as session:
                existing = await self.store.active_game(session, channel_id)
                if existing is not None:
                    await _refuse_second_game(self.store, session, existing.id, user_id)
                    raise GameExists(existing.id, existing.started_by)
                now = self.clock()
                row, seats = new_game(guild_id, channel_id, user_id, rules, level, seated, now, names)
                row.hints, row.card_channel_id, row.language = hints, card_channel_id, language
                row.turn_seconds = turn_seconds
                await self.store.add_game(session, row, seats)
                for member, taken in sorted((u, s) for s, u in seated.items()):
                    await self.store.add_player(session, row.id, member, taken)
                if rematch_of is not None:
                    claimed = await self.store.claim_rematch(session, rematch_of, row.id)
                    if claimed != row.id:
                        await _refuse_second_rematch(self.store, session, claimed)
                return await self._play_on(session, game_snapshot(row, seats), lambda turns: None)
        except IntegrityError:
            # Another process started one between our check and our insert: the unique index said no.
            active = await self.get_active(channel_id)
            if active is None:
                raise
            raise GameExists(active.id, active.started_by) from None

    async def join(self, game_id: int, user_id: int, seat: int | None, name: str | None = None) -> Played:
        """Take a computer's seat (the first free one in turn order when `seat` is None); `name`: the
        member's display name, stored with the seat."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_active(game)
            if (mine := game.seat_of(user_id)) is not None:
                raise NotAllowed("already_seated", seat=mine)
            if await self.store.has_resigned(session, game_id, user_id):
                raise NotAllowed("resigned")
            free = game.free_seats()
            if seat is None:
                if not free:
                    raise SeatTaken("seats_full")
                seat = free[0]
            if seat not in game.seats:
                raise NotAllowed("seat_not_in_play", free=free)
            if seat not in free:
                raise SeatTaken("seat_not_free", seat=seat, free=free)
            await self.store.add_player(session, game_id, user_id, seat)
            played = await self._play_on(session, game, _seat_change(seat, user_id, name))
            return await self._with_story(session, played)

    async def leave(self, game_id: int, user_id: int) -> Played:
        """The computer takes the member's seat back (and plays on if it is that seat's turn)."""
        return await self._give_up(game_id, user_id, resign=False)

    async def resign(self, game_id: int, user_id: int) -> Played:
        """The computer takes the member's seat for good: they cannot rejoin this game. In a
        two-player game that concedes it."""
        return await self._give_up(game_id, user_id, resign=True)

    async def _give_up(self, game_id: int, user_id: int, *, resign: bool) -> Played:
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_active(game)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotPlaying()
            if resign:
                await self.store.add_resignation(session, game_id, user_id)
            if resign and game.rules.players == 2:
                return await self._play_on(session, game, lambda turns: turns.resign(seat))
            played = await self._play_on(session, game, _seat_change(seat, None))
            return await self._with_story(session, played)

    async def _with_story(self, session: AsyncSession, played: Played) -> Played:
        """A seat changed hands and nothing was played: the turn's message is drawn again, with
        the moves it showed (`GameSnapshot.story`, read from the move log; none before the
        first throw, so the log is not read)."""
        game = played.snapshot
        if played.events or game.status != Status.ACTIVE or game.turn_number == 0:
            return played
        rows = await self.store.moves(session, game.id)
        story = story_of(game.rules, rows, game.user_to_move())
        return replace(played, snapshot=replace(game, story=story))

    async def end(self, game_id: int, user_id: int, *, can_manage: bool) -> GameSnapshot:
        """Stop a game without a result (status `abandoned`): its starter, or a channel manager."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_active(game)
            if user_id != game.started_by and not can_manage:
                raise NotAllowed.to_end(game.seat_of(user_id))
            ended = await self._close(session, game)
            rows = await self.store.moves(session, game.id)  # its last board keeps the turn's story
            return replace(ended, story=story_of(game.rules, rows, game.user_to_move()))

    async def concede(self, game_id: int, side: int) -> Played:
        """`side` loses where the pieces stand (a tournament game decided at its round's limit): the
        game finishes as a resignation would, and counts for stats and ratings."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_active(game)
            seat = side_seats(side, game.rules.players)[0]
            return await self._play_on(session, game, lambda turns: turns.resign(seat))

    async def abandon(self, game_id: int) -> None:
        """The channel is gone or the bot was removed: close the game, retrying lost races."""
        for _ in range(10):
            try:
                async with self.store.transaction() as session:
                    game = await self._load(session, game_id)
                    if game.status == Status.ACTIVE:
                        await self._close(session, game)
                return
            except Conflict:
                metrics.database_retry("abandon")
                continue
        raise Conflict()

    async def _close(self, session: AsyncSession, game: GameSnapshot) -> GameSnapshot:
        new = replace(game, status=Status.ABANDONED, deadline=None)
        await self._write(session, game, new)
        await stats.game_ended(self.store, session, new, self.clock())
        return replace(new, version=game.version + 1)

    # --- playing ------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        turn_number: int,
        move: Move | None = None,
        *,
        shown_on: int | None = None,
    ) -> Played:
        """The member throws (`move` None) or plays `move` with their throw, then the game plays on to
        the next decision. `shown_on`: the message the member acted on, which shows the result."""

        def act(turns: Turns) -> None:
            if move is None:
                turns.member_throws(self.rng)
            else:
                turns.member_plays(move)

        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_turn(game, user_id, turn_number)
            return await self._play_on(session, game, act, shown_on=shown_on)

    async def play_on(self, game_id: int) -> Played:
        """Play what nobody has to decide (after a restart, or a seat handed to the computer)."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_active(game)
            return await self._play_on(session, game, lambda turns: None)

    async def timeout(self, game_id: int, turn_number: int) -> Played:
        """The member's deadline passed: their seat's computer plays the turn for them, then the game
        plays on. Refused for a turn already played or a deadline not reached."""
        async with self.store.transaction() as session:
            game = await self._load(session, game_id)
            _check_turn(game, None, turn_number)
            if not game.is_human_turn() or game.deadline is None:
                raise StaleTurn("not_waiting")
            if self.clock() + TIMER_LEEWAY < game.deadline:
                raise NotAllowed("not_timed_out")
            return await self._play_on(session, game, lambda turns: turns.time_ran_out(self.rng))

    async def _play_on(
        self, session: AsyncSession, game: GameSnapshot, change: Change, *, shown_on: int | None = None
    ) -> Played:
        """Apply `change`, play on, and write it all back (with the move log) in `session`."""
        turns = Turns(
            Game(game.position, throws=game.turn_number, pending=game.game.pending), dict(game.seats)
        )
        change(turns)
        throwers = None
        if not turns.over:
            throwers = await self._throwers(session, game, turns)
            await play_rest(self.workers, turns, self.rng, throwers)
        last = turns.events[-1] if turns.events else None
        new = replace(
            game,
            status=Status.FINISHED if turns.over else Status.ACTIVE,
            game=turns.game,
            seats=turns.seats,
            message_id=shown_on if shown_on is not None else game.message_id,
            last_move=last.move if last else game.last_move,
            last_position=last.before if last else game.last_position,
        )
        new = replace(new, deadline=self._deadline(game, new, bool(turns.events)))
        await self._write(session, game, new)
        if turns.events:
            now = self.clock()
            try:
                await self.store.add_moves(session, [move_values(game.id, e, now) for e in turns.events])
            except IntegrityError:
                raise Conflict() from None
        if new.status == Status.FINISHED:
            await stats.game_ended(self.store, session, new, self.clock())
        replaced = (
            game.message_id if shown_on is not None and game.message_id not in (None, shown_on) else None
        )
        return Played(replace(new, version=game.version + 1), tuple(turns.events), replaced, throwers)

    async def _throwers(self, session: AsyncSession, game: GameSnapshot, turns: Turns) -> frozenset[int]:
        """The members the bot throws for: those with auto-throw on, except in a game of one piece
        a seat, where every throw has one move and the throw is all a member does: thrown for
        them, the game would play itself to the end."""
        if game.rules.pieces == 1:
            return frozenset()
        seated = [info.user_id for info in turns.seats.values() if info.user_id is not None]
        return await self.members.auto_throwers(session, seated, game.auto_throws)

    def _deadline(self, old: GameSnapshot, new: GameSnapshot, played: bool) -> datetime | None:
        """A member to act gets a fresh deadline when the turn moved on or changed hands; a pending
        throw of theirs keeps the deadline they had."""
        if not new.is_human_turn():
            return None
        seat = new.seat_to_move()
        moved_on = played or old.deadline is None or old.seats[seat].user_id != new.seats[seat].user_id
        if not moved_on:
            return old.deadline
        own = new.turn_seconds
        return self.clock() + (self.turn_timeout if own is None else timedelta(seconds=own))

    async def _write(self, session: AsyncSession, old: GameSnapshot, new: GameSnapshot) -> None:
        """Write `new` over `old` with the optimistic version check, seats included."""
        if not await self.store.update_game(session, old.id, old.version, **stored_columns(new)):
            raise Conflict()
        for seat, info in new.seats.items():
            if info != old.seats[seat]:
                values: SeatValues = {"user_id": info.user_id, "level": info.level, "missed": info.missed}
                values["name"] = info.name
                if info.user_id != old.seats[seat].user_id:
                    values["joined_at"] = self.clock()
                await self.store.update_seat(session, old.id, seat, **values)


async def _refuse_second_game(store: Store, session: AsyncSession, game_id: int, user_id: int) -> None:
    """A member who plays in the channel's game is told so, not asked to join it."""
    seat = next((s.seat for s in await store.seats(session, game_id) if s.user_id == user_id), None)
    if seat is not None:
        raise NotAllowed("playing_here", game=game_id, seat=seat)


async def _refuse_second_rematch(store: Store, session: AsyncSession, rematch_id: int) -> None:
    """A finished game's Rematch already opened `rematch_id`: the member is sent there."""
    row = await store.game(session, rematch_id)
    raise NotAllowed("rematch_started", thread=row.channel_id if row is not None else 0)


def _starter_seat(rules: Rules, level: str, language: str, seat: int | None) -> int:
    """The starter's seat (default the first), once the level, language and seat are known ones."""
    try:
        get_player(level)
    except ValueError:
        raise NotAllowed("unknown_level", level=level, levels=list(LEVELS)) from None
    if not languages.speaks(language):
        spoken = [languages.native_name(code) for code in languages.SHIPPED]
        raise NotAllowed("unknown_language", language=language, languages=spoken)
    seat = rules.seats[0] if seat is None else seat
    if seat not in rules.seats:
        raise NotAllowed("seat_out_of_play", seats=list(rules.seats))
    return seat


def _check_active(game: GameSnapshot) -> None:
    if game.status != Status.ACTIVE:
        raise GameEnded()


def _check_turn(game: GameSnapshot, user_id: int | None, turn_number: int) -> None:
    _check_active(game)
    if turn_number != game.turn_number:
        raise StaleTurn()
    if user_id is not None and game.user_to_move() != user_id:
        raise NotYourTurn.for_user(game.seat_to_move(), game.user_to_move(), game.seat_of(user_id))


def _seat_change(seat: int, user_id: int | None, name: str | None = None) -> Change:
    """A member takes `seat` (None: the computer does), with a clean slate of missed turns."""

    def change(turns: Turns) -> None:
        turns.seats[seat] = replace(turns.seats[seat], user_id=user_id, missed=0, name=name)

    return change
