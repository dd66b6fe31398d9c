"""The tournament's flow on the store: each change is one transaction that returns the tournament as
it now stands (no Discord here: the cogs open the tables' games, keep the round's clock and post the
cards and standings).

The life of an event: `open` (sign-up), `join`/`leave` (or the organizer's `add`/`drop`), `start`
(which pairs round 1), then for each round: the Discord side opens a game per table it is handed and
notes it (`set_game`), reports each game's end (`record`), adjudicates the games still playing at
the round's limit (`adjudicate`), and asks for the next round (`pair_next`) when the last result is
in; the round after the last ends the event (`finished`, with a podium). `pause` holds the next
round until the organizer pairs it; `cancel` ends the event; `withdraw` takes a member out.

Everything a restart needs is stored: `live` lists the events in sign-up or running, and each
snapshot says which tables still play (`round_tables`), their games and the round's deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import NotAllowed
from bot.core.ratings import SHOWN_AT_START, shown
from bot.core.snapshot import rules_text
from bot.core.store import TournamentRoundRow, TournamentRow, TournamentStatus
from bot.core.texts import language as languages
from bot.core.tournaments.reads import TournamentError, TournamentReads
from bot.core.tournaments.snapshot import (
    FORMATS,
    ROUND_ROBIN,
    SWISS,
    TableView,
    Tournament,
    plan_round,
)
from engine.players import LEVELS
from engine.rules import Rules

MOST_ROUNDS = 20
MIN_ENTRANTS = 2


@dataclass(frozen=True)
class Options:
    """How an event plays, as the organizer opened it."""

    name: str
    format: str
    rules: Rules
    """The rule preset and options as /pachisi start takes them; players follow `table_size`."""
    table_size: int = 2
    rounds: int = 3
    """A Swiss's rounds (a round robin's come from its schedule)."""
    move_seconds: int = 120
    round_seconds: int = 3600
    level: str = "normal"
    """The computer's level where it fills a seat."""
    language: str = "en"


@dataclass(frozen=True)
class Paired:
    """A round just paired: the tables whose games the Discord side opens (forfeits need none)."""

    tournament: Tournament
    round: int
    to_open: list[TableView]


@dataclass(frozen=True)
class Decided:
    """A result written (`new`; False when the table had one already) and where the event now stands."""

    tournament: Tournament
    table: TableView | None
    new: bool

    @property
    def round_over(self) -> bool:
        return self.tournament.round_over()

    @property
    def finished(self) -> bool:
        return self.tournament.status == TournamentStatus.FINISHED


class Tournaments(TournamentReads):
    """The tournaments' flow: each public call is one transaction."""

    # --- sign-up ----------------------------------------------------------------------------

    async def open(
        self, guild_id: int, channel_id: int, organizer_id: int, options: Options, closes_at: datetime
    ) -> Tournament:
        """Open sign-up in a channel until `closes_at`."""
        _check_options(options)
        now = self.clock()
        if closes_at <= now:
            raise TournamentError("signup_past")
        row = TournamentRow(
            guild_id=guild_id,
            channel_id=channel_id,
            organizer_id=organizer_id,
            name=options.name,
            format=options.format,
            rounds=options.rounds if options.format == SWISS else 0,
            table_size=options.table_size,
            rules=rules_text(options.rules.with_options(players=options.table_size)),
            move_seconds=options.move_seconds,
            round_seconds=options.round_seconds,
            signup_closes_at=closes_at,
            level=options.level,
            language=options.language,
            status=TournamentStatus.SIGNUP,
            paused=False,
            current_round=0,
            created_at=now,
        )
        try:
            async with self.store.transaction() as session:
                found = await self.store.live_tournament(session, channel_id)
                if found is not None:
                    raise TournamentError("tournament_exists", name=found.name)
                await self.store.add_tournament(session, row)
                return await self._load(session, row.id)
        except IntegrityError:
            raise TournamentError("tournament_exists", name=options.name) from None

    async def join(self, tournament_id: int, user_id: int, name: str | None = None) -> Tournament:
        """Sign up (a second click refuses, having joined once)."""
        return await self._enter(tournament_id, user_id, name, by=None)

    async def add(
        self, tournament_id: int, by: int, user_id: int, name: str | None = None, *, manager: bool = False
    ) -> Tournament:
        """The organizer signs a member up, even after the sign-up time (never once it started)."""
        return await self._enter(tournament_id, user_id, name, by=by, manager=manager)

    async def _enter(
        self, tournament_id: int, user_id: int, name: str | None, *, by: int | None, manager: bool = False
    ) -> Tournament:
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            if by is not None:
                _check_organizer(tournament, by, manager)
            if tournament.status != TournamentStatus.SIGNUP:
                raise TournamentError("signup_closed")
            if by is None and self.clock() >= tournament.signup_closes_at:
                raise TournamentError("signup_closed")
            rating = await self._rating(session, tournament.guild_id, user_id)
            if not await self.store.add_entrant(session, tournament_id, user_id, name, rating, self.clock()):
                raise (
                    TournamentError("already_in")
                    if by is None
                    else TournamentError("member_already_in", member=user_id)
                )
            return await self._load(session, tournament_id)

    async def _rating(self, session: AsyncSession, guild_id: int, user_id: int) -> int:
        """The member's rating shown in the server (a newcomer's when they have none)."""
        rows = await self.store.ratings(session, guild_id, [user_id])
        return shown(rows[user_id].mu) if user_id in rows else SHOWN_AT_START

    async def leave(self, tournament_id: int, user_id: int) -> Decided:
        """Leave: before the start the entry goes; once it runs, the member withdraws."""
        return await self._take_out(tournament_id, user_id, by=None)

    async def drop(self, tournament_id: int, by: int, user_id: int, *, manager: bool = False) -> Decided:
        """The organizer takes a member out (as `leave` would)."""
        return await self._take_out(tournament_id, user_id, by=by, manager=manager)

    async def withdraw(self, tournament_id: int, user_id: int) -> Decided:
        """A member leaves mid-event (or left the server): their games score as losses from the
        round they are in; a 2-player game of theirs still playing is lost by forfeit at once
        (`Decided.table`: the Discord side ends it), a partnership game plays on with the computer."""
        return await self._take_out(tournament_id, user_id, by=None)

    async def _take_out(
        self, tournament_id: int, user_id: int, *, by: int | None, manager: bool = False
    ) -> Decided:
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            if by is not None:
                _check_organizer(tournament, by, manager)
            entrant = tournament.entrant(user_id)
            if entrant is None or not entrant.playing:
                raise (
                    TournamentError("not_in")
                    if by is None
                    else TournamentError("member_not_in", member=user_id)
                )
            if tournament.status == TournamentStatus.SIGNUP:
                await self.store.remove_entrant(session, tournament_id, user_id)
                return Decided(await self._load(session, tournament_id), None, False)
            if tournament.status != TournamentStatus.RUNNING:
                raise TournamentError("tournament_over")
            table = tournament.table_of(user_id)
            playing = table is not None and not table.done
            await self.store.set_entrant(
                session,
                tournament_id,
                user_id,
                withdrawn_round=tournament.current_round + (0 if playing else 1),
            )
            forfeited = None
            if table is not None and playing and tournament.table_size == 2:
                side = 0 if user_id in table.sides[0] else 1
                await self.store.decide_table(session, table.id, 1 - side, "forfeit", self.clock())
                forfeited = table
            return await self._decided(session, tournament_id, forfeited, forfeited is not None)

    # --- the organizer ----------------------------------------------------------------------

    async def start(self, tournament_id: int, by: int | None, *, manager: bool = False) -> Paired:
        """Start and pair round 1. `by` None: the bot, once sign-up has closed."""
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            if by is not None:
                _check_organizer(tournament, by, manager)
            elif self.clock() < tournament.signup_closes_at:
                raise TournamentError("tournament_not_started")
            if tournament.status != TournamentStatus.SIGNUP:
                raise TournamentError("tournament_started")
            if len(tournament.entrants) < MIN_ENTRANTS:
                raise TournamentError("too_few_entrants", count=MIN_ENTRANTS)
            for entrant in tournament.entrants:  # the ratings the event ranks and pairs by: today's
                rating = await self._rating(session, tournament.guild_id, entrant.member)
                await self.store.set_entrant(session, tournament_id, entrant.member, rating=rating)
            values: dict[str, object] = {"status": TournamentStatus.RUNNING, "started_at": self.clock()}
            if tournament.format == ROUND_ROBIN:
                values["rounds"] = len((await self._load(session, tournament_id)).schedule())
            await self.store.set_tournament(session, tournament_id, **values)
            return await self._pair(session, tournament_id)

    async def pause(
        self, tournament_id: int, by: int, *, paused: bool = True, manager: bool = False
    ) -> Tournament:
        """Hold the next round until the organizer pairs it (`paused=False` lets it pair itself again)."""
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            _check_organizer(tournament, by, manager)
            _check_live(tournament)
            await self.store.set_tournament(session, tournament_id, paused=paused)
            return await self._load(session, tournament_id)

    async def cancel(self, tournament_id: int, by: int, *, manager: bool = False) -> Tournament:
        """End the event without a result (its games still playing are the Discord side's to end)."""
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            _check_organizer(tournament, by, manager)
            _check_live(tournament)
            await self.store.set_tournament(
                session, tournament_id, status=TournamentStatus.CANCELLED, ended_at=self.clock()
            )
            return await self._load(session, tournament_id)

    async def set_card(self, tournament_id: int, message_id: int) -> None:
        async with self.store.transaction() as session:
            await self.store.set_tournament(session, tournament_id, card_message_id=message_id)

    # --- rounds -----------------------------------------------------------------------------

    async def pair_next(
        self, tournament_id: int, by: int | None = None, *, manager: bool = False
    ) -> Paired | None:
        """Pair the next round once the current one is over. `by` None: the bot, which gets None
        while a game still plays, the organizer has paused, or the event is not running; the
        organizer pairs a paused event (and is refused the others, with the reason)."""
        async with self.store.transaction() as session:
            tournament = await self._load(session, tournament_id, lock=True)
            if by is not None:
                _check_organizer(tournament, by, manager)
            if by is None and tournament.status != TournamentStatus.RUNNING:
                return None
            if tournament.status == TournamentStatus.SIGNUP:
                raise TournamentError("tournament_not_started")
            _check_live(tournament)
            if not tournament.round_over():
                if by is None:
                    return None
                raise TournamentError("round_playing", round=tournament.current_round)
            if by is None and tournament.paused:
                return None
            return await self._pair(session, tournament_id)

    async def _pair(self, session: AsyncSession, tournament_id: int) -> Paired:
        tournament = await self._load(session, tournament_id)
        number = tournament.current_round + 1
        now = self.clock()
        planned = plan_round(tournament)
        deadline = now + timedelta(seconds=tournament.round_seconds)
        await self.store.add_round(
            session,
            TournamentRoundRow(tournament_id=tournament_id, number=number, started_at=now, deadline=deadline),
        )
        for index, plan in enumerate(planned, start=1):
            row = await self.store.add_table(session, tournament_id, number, index, plan.table.sides)
            if plan.forfeit_to is not None:
                await self.store.decide_table(session, row.id, plan.forfeit_to, "forfeit", now)
        await self.store.set_tournament(session, tournament_id, current_round=number, paused=False)
        tournament = await self._after_result(session, tournament_id)
        return Paired(tournament, number, [t for t in tournament.round_tables(number) if not t.done])

    async def set_game(self, table_id: int, game_id: int) -> bool:
        """Note the game opened for a table; False if it had one (a second open after a restart)."""
        async with self.store.transaction() as session:
            return await self.store.set_table_game(session, table_id, game_id)

    async def record(self, game_id: int, winner: int | None) -> Decided | None:
        """A table's game ended: `winner` is the winning side (0 or 1), None for a draw. None when
        the game plays for no tournament; recorded twice, it counts once (`Decided.new`)."""
        async with self.store.transaction() as session:
            table = await self.store.table_of_game(session, game_id)
            if table is None:
                return None
            await self._load(session, table.tournament_id, lock=True)
            new = await self.store.decide_table(session, table.id, winner, "game", self.clock())
            return await self._decided(session, table.tournament_id, table.id, new)

    async def adjudicate(self, table_id: int, chance: float) -> Decided:
        """At the round's limit, a game still playing goes to the side its win chance favours:
        `chance` is side 0's; exactly even is a draw. Refused before the limit."""
        async with self.store.transaction() as session:
            table = await self.store.table(session, table_id)
            if table is None:
                raise TournamentError("no_tournament")
            tournament = await self._load(session, table.tournament_id, lock=True)
            found = tournament.round(table.round)
            assert found is not None
            if self.clock() < found.deadline:
                raise TournamentError("round_not_over", deadline=int(found.deadline.timestamp()))
            winner = None if chance == 0.5 else (0 if chance > 0.5 else 1)
            favoured = max(chance, 1 - chance)
            new = await self.store.decide_table(
                session, table_id, winner, "adjudication", self.clock(), favoured
            )
            return await self._decided(session, table.tournament_id, table_id, new)

    async def _decided(
        self, session: AsyncSession, tournament_id: int, table: int | TableView | None, new: bool
    ) -> Decided:
        tournament = await self._after_result(session, tournament_id)
        table_id = table.id if isinstance(table, TableView) else table
        found = next((t for t in tournament.tables if t.id == table_id), None)
        return Decided(tournament, found, new)

    async def _after_result(self, session: AsyncSession, tournament_id: int) -> Tournament:
        """Close the round when its last table is decided, and the event after its last round (or
        when fewer than two members still play)."""
        tournament = await self._load(session, tournament_id)
        if tournament.status != TournamentStatus.RUNNING or not tournament.round_over():
            return tournament
        now = self.clock()
        await self.store.end_round(session, tournament_id, tournament.current_round, now)
        playing = sum(e.playing for e in tournament.entrants)
        if tournament.current_round >= tournament.rounds or playing < MIN_ENTRANTS:
            await self.store.set_tournament(
                session, tournament_id, status=TournamentStatus.FINISHED, ended_at=now
            )
        return await self._load(session, tournament_id)


def _check_options(options: Options) -> None:
    if options.format not in FORMATS:
        raise NotAllowed("bad_value", value=options.format)
    if options.table_size not in (2, 4):
        raise NotAllowed("bad_value", value=str(options.table_size))
    if options.format == ROUND_ROBIN and options.table_size != 2:
        raise TournamentError("round_robin_pairs")
    if options.format == SWISS and not 1 <= options.rounds <= MOST_ROUNDS:
        raise TournamentError("swiss_rounds", most=MOST_ROUNDS)
    if options.move_seconds <= 0:
        raise NotAllowed("bad_value", value=str(options.move_seconds))
    if options.round_seconds <= 0:
        raise NotAllowed("bad_value", value=str(options.round_seconds))
    if options.level not in LEVELS:
        raise NotAllowed("unknown_level", level=options.level, levels=list(LEVELS))
    if not languages.speaks(options.language):
        spoken = [languages.native_name(code) for code in languages.SHIPPED]
        raise NotAllowed("unknown_language", language=options.language, languages=spoken)


def _check_organizer(tournament: Tournament, by: int, manager: bool) -> None:
    """The organizer, or a member the Discord side found holding Manage Events (`manager`)."""
    if by != tournament.organizer_id and not manager:
        raise TournamentError("not_organizer")


def _check_live(tournament: Tournament) -> None:
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise TournamentError("tournament_over")
