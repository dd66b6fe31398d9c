"""A stored tournament as the service returns it, and what follows from it alone: the standings,
the pairing history and the next round's tables.

Everything here is read from the stored rows, so a new process (a restart mid-round) sees exactly
what the last one did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.core.store import (
    EntrantRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentSeatRow,
    TournamentTableRow,
    aware,
)
from bot.core.tournaments.pairing import (
    History,
    Player,
    Seat,
    Table,
    partnership_pairs,
    round_robin,
    swiss_pairs,
)
from bot.core.tournaments.standings import Entrant, Game, Line, podium, standings

SWISS = "swiss"
ROUND_ROBIN = "round-robin"
FORMATS = (SWISS, ROUND_ROBIN)


@dataclass(frozen=True)
class EntrantView:
    member: int
    name: str | None
    rating: int
    withdrawn_round: int | None

    @property
    def playing(self) -> bool:
        return self.withdrawn_round is None


@dataclass(frozen=True)
class TableView:
    """A table of a round: its seats by side, its game once opened, its result once decided."""

    id: int
    round: int
    number: int
    sides: tuple[tuple[Seat, ...], tuple[Seat, ...]]
    game_id: int | None
    winner: int | None
    decided_by: str | None
    win_chance: float | None

    @property
    def done(self) -> bool:
        return self.decided_by is not None

    @property
    def table(self) -> Table:
        return Table(self.sides)

    @property
    def members(self) -> list[int]:
        return self.table.members

    @property
    def game(self) -> Game:
        return Game(self.round, self.table, self.winner, self.done)


@dataclass(frozen=True)
class RoundView:
    number: int
    started_at: datetime
    deadline: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class Tournament:
    """A tournament's settings, where it stands, its entrants, rounds and tables."""

    id: int
    guild_id: int
    channel_id: int
    organizer_id: int
    name: str
    format: str
    rounds: int
    table_size: int
    rules: str
    move_seconds: int
    round_seconds: int
    signup_closes_at: datetime
    level: str
    language: str
    status: str
    paused: bool
    current_round: int
    card_message_id: int | None
    entrants: tuple[EntrantView, ...]
    played_rounds: tuple[RoundView, ...]
    tables: tuple[TableView, ...]

    def entrant(self, member: int) -> EntrantView | None:
        return next((e for e in self.entrants if e.member == member), None)

    def round_tables(self, number: int | None = None) -> list[TableView]:
        """The tables of round `number` (the current round by default)."""
        number = self.current_round if number is None else number
        return [t for t in self.tables if t.round == number]

    def round(self, number: int | None = None) -> RoundView | None:
        number = self.current_round if number is None else number
        return next((r for r in self.played_rounds if r.number == number), None)

    def round_over(self) -> bool:
        """Whether every table of the current round is decided (True before the first round)."""
        return all(t.done for t in self.round_tables())

    def table_of(self, member: int, number: int | None = None) -> TableView | None:
        return next((t for t in self.round_tables(number) if member in t.members), None)

    def standings(self) -> list[Line]:
        entrants = [Entrant(e.member, e.rating, e.withdrawn_round) for e in self.entrants]
        return standings(entrants, [t.game for t in self.tables])

    def podium(self) -> list[Line]:
        return podium(self.standings())

    def history(self) -> History:
        return History.of(t.table for t in self.tables)

    def schedule(self) -> list[list[Table]]:
        """A round robin's whole schedule, strongest entrant first (fixed when the event starts)."""
        order = sorted(self.entrants, key=lambda e: (-e.rating, e.member))
        return round_robin([e.member for e in order])


@dataclass(frozen=True)
class Planned:
    """A table of the next round, with the side that wins by forfeit when a withdrawn member was
    scheduled at it (a round robin's)."""

    table: Table
    forfeit_to: int | None = None


def plan_round(tournament: Tournament) -> list[Planned]:
    """The next round's tables: Swiss pairs the members still playing by their standings; a round
    robin reads its schedule, a withdrawn member's games there lost by forfeit."""
    number = tournament.current_round + 1
    if tournament.format == ROUND_ROBIN:
        schedule = tournament.schedule()
        if number > len(schedule):
            return []
        return [_scheduled(tournament, table) for table in schedule[number - 1]]
    points = {line.member: line.points for line in tournament.standings()}
    players = [Player(e.member, points[e.member], e.rating) for e in tournament.entrants if e.playing]
    pair = partnership_pairs if tournament.table_size == 4 else swiss_pairs
    return [Planned(table) for table in pair(players, tournament.history())]


def _scheduled(tournament: Tournament, table: Table) -> Planned:
    gone = [
        side for side, members in enumerate(table.sides) if any(_withdrawn(tournament, m) for m in members)
    ]
    if not gone:
        return Planned(table)
    # Both withdrawn: each scores the loss anyway (standings), the side named here does not matter.
    return Planned(table, forfeit_to=1 - gone[0] if len(gone) == 1 else 0)


def _withdrawn(tournament: Tournament, member: Seat) -> bool:
    entrant = None if member is None else tournament.entrant(member)
    return entrant is not None and not entrant.playing


def tournament_of(
    row: TournamentRow,
    entrants: Sequence[EntrantRow],
    rounds: Sequence[TournamentRoundRow],
    tables: Sequence[tuple[TournamentTableRow, Sequence[TournamentSeatRow]]],
) -> Tournament:
    """The snapshot of stored rows."""
    return Tournament(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        organizer_id=row.organizer_id,
        name=row.name,
        format=row.format,
        rounds=row.rounds,
        table_size=row.table_size,
        rules=row.rules,
        move_seconds=row.move_seconds,
        round_seconds=row.round_seconds,
        signup_closes_at=_at(row.signup_closes_at),
        level=row.level,
        language=row.language,
        status=row.status,
        paused=row.paused,
        current_round=row.current_round,
        card_message_id=row.card_message_id,
        entrants=tuple(EntrantView(e.user_id, e.name, e.rating, e.withdrawn_round) for e in entrants),
        played_rounds=tuple(
            RoundView(r.number, _at(r.started_at), _at(r.deadline), aware(r.ended_at)) for r in rounds
        ),
        tables=tuple(_table(table, seats) for table, seats in tables),
    )


def _at(moment: datetime) -> datetime:
    found = aware(moment)
    assert found is not None
    return found


def _table(row: TournamentTableRow, seats: Sequence[TournamentSeatRow]) -> TableView:
    sides = tuple(tuple(s.user_id for s in seats if s.side == side) for side in (0, 1))
    return TableView(
        id=row.id,
        round=row.round,
        number=row.number,
        sides=(sides[0], sides[1]),
        game_id=row.game_id,
        winner=row.winner,
        decided_by=row.decided_by,
        win_chance=row.win_chance,
    )
