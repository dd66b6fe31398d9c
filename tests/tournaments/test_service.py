"""The tournament service on real databases: sign-up and its refusals, rounds paired, results
recorded once, adjudication at the limit, withdrawals, pauses, the end, and a restart mid-round."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.core.errors import GameError
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.tournaments.pairing import History
from bot.core.tournaments.service import Options, Paired, Tournaments
from bot.core.tournaments.snapshot import Tournament
from bot.core.tournaments.standings import Entrant, Game, standings
from engine.rules import Rules
from engine.state import side_seats
from tests.support.services import GUILD, Clock, play_out, service

ORGANIZER = 99
CHANNEL = 500
MEMBERS = list(range(1, 8))
SWISS = Options(
    "Winter cup", "swiss", Rules.parse("classic,pieces=1"), table_size=2, rounds=3, round_seconds=600
)


class _Refused:
    """`with _Refused("key"):` passes only when the block raises the GameError of that key."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, _trace: object) -> bool:
        assert isinstance(error, GameError), f"expected the refusal {self.key}, got {error!r}"
        assert error.key == self.key, f"expected the refusal {self.key}, got {error.key}"
        return True


async def opened(
    events: Tournaments, clock: Clock, options: Options = SWISS, members: list[int] = MEMBERS
) -> Tournament:
    tournament = await events.open(GUILD, CHANNEL, ORGANIZER, options, clock() + timedelta(hours=1))
    for member in members:
        tournament = await events.join(tournament.id, member, f"Member {member}")
    return tournament


async def open_games(games: GameService, events: Tournaments, paired: Paired) -> dict[int, int]:
    """Open a real game for each table to open, seated as the table says; table id -> game id."""
    rules = Rules.parse(paired.tournament.rules)
    opened = {}
    for table in paired.to_open:
        seats = {
            seat: member
            for side, members in enumerate(table.sides)
            for seat, member in zip(side_seats(side, rules.players), members, strict=True)
            if member is not None
        }
        first_seat = min(seats)
        played = await games.start(
            GUILD, 10_000 + table.id, seats[first_seat], rules, "normal", first_seat, members=seats
        )
        assert await events.set_game(table.id, played.snapshot.id)
        opened[table.id] = played.snapshot.id
    return opened


async def play_round(
    games: GameService, events: Tournaments, paired: Paired, winner_of: dict[int, int] | None = None
) -> Tournament:
    """Open the round's games and record each: side 0 wins unless `winner_of` says (table number -> side)."""
    ids = await open_games(games, events, paired)
    tournament = paired.tournament
    for table in paired.to_open:
        decided = await events.record(ids[table.id], (winner_of or {}).get(table.number, 0))
        assert decided is not None and decided.new
        tournament = decided.tournament
    return tournament


def recomputed(tournament: Tournament) -> list[tuple[int, float, float, int, int]]:
    """The standings recomputed from the stored tables alone (the pure function, not the snapshot's)."""
    entrants = [Entrant(e.member, e.rating, e.withdrawn_round) for e in tournament.entrants]
    games = [Game(t.round, t.table, t.winner, t.done) for t in tournament.tables]
    return [
        (row.member, row.points, row.buchholz, row.opponents_rating, row.games)
        for row in standings(entrants, games)
    ]


async def test_sign_up_joins_once_and_refuses_with_one_reason_each(store: Store) -> None:
    clock = Clock()
    events = Tournaments(store, clock)
    tournament = await opened(events, clock, members=[1, 2])
    with _Refused("already_in"):
        await events.join(tournament.id, 1)
    with _Refused("not_organizer"):
        await events.add(tournament.id, 2, 3)
    with _Refused("not_organizer"):
        await events.start(tournament.id, 2)
    with _Refused("tournament_exists"):
        await events.open(GUILD, CHANNEL, 5, SWISS, clock() + timedelta(hours=1))
    with _Refused("round_robin_pairs"):
        await events.open(
            GUILD,
            CHANNEL + 1,
            5,
            Options("x", "round-robin", SWISS.rules, table_size=4),
            clock() + timedelta(hours=1),
        )
    with _Refused("signup_past"):
        await events.open(GUILD, CHANNEL + 1, 5, SWISS, clock())
    await events.leave(tournament.id, 2)
    with _Refused("not_in"):
        await events.leave(tournament.id, 2)
    clock.advance(3600)
    with _Refused("signup_closed"):
        await events.join(tournament.id, 3)
    await events.add(tournament.id, 7, 3, "Carol", manager=True)  # Manage Events: may add after the time
    with _Refused("member_already_in"):
        await events.add(tournament.id, ORGANIZER, 3)
    tournament = await events.get(tournament.id)
    assert [e.member for e in tournament.entrants] == [1, 3]
    assert [e.rating for e in tournament.entrants] == [1500, 1500]
    assert tournament.rules == "classic,players=2,pieces=1"


async def test_two_clicks_on_join_at_once_join_once(store: Store) -> None:
    clock = Clock()
    events = Tournaments(store, clock)
    tournament = await opened(events, clock, members=[])
    results = await asyncio.gather(
        *(events.join(tournament.id, 7, "Asha") for _ in range(2)), return_exceptions=True
    )
    refusals = [r for r in results if isinstance(r, GameError)]
    assert len(refusals) == 1 and refusals[0].key == "already_in"
    assert [e.member for e in (await events.get(tournament.id)).entrants] == [7]


async def test_start_needs_two_entrants_and_pairs_round_one(store: Store) -> None:
    clock = Clock()
    events = Tournaments(store, clock)
    tournament = await opened(events, clock, members=[1])
    with _Refused("too_few_entrants"):
        await events.start(tournament.id, ORGANIZER)
    with _Refused("tournament_not_started"):
        await events.start(tournament.id, None)  # the bot waits for the sign-up time
    await events.join(tournament.id, 2)
    await events.join(tournament.id, 3)
    paired = await events.start(tournament.id, ORGANIZER)
    assert paired.round == 1 and paired.tournament.status == "running"
    assert sorted(m for t in paired.to_open for m in t.members) == [1, 2, 3]
    assert sum(t.table.bye for t in paired.to_open) == 1
    assert paired.tournament.round().deadline == clock() + timedelta(seconds=600)  # type: ignore[union-attr]
    with _Refused("tournament_started"):
        await events.start(tournament.id, ORGANIZER)
    with _Refused("signup_closed"):
        await events.join(tournament.id, 4)
    with _Refused("round_playing"):
        await events.pair_next(tournament.id, ORGANIZER)
    assert await events.pair_next(tournament.id) is None, "the bot waits for the last game"


async def test_a_swiss_of_seven_over_three_rounds(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock)
    paired: Paired | None = await events.start(tournament.id, ORGANIZER)
    rounds = 0
    while paired is not None:
        rounds += 1
        tournament = await play_round(games, events, paired, {1: 1})
        assert tournament.round_over()
        paired = await events.pair_next(tournament.id)
    assert rounds == 3 and tournament.status == "finished"
    history = History.of(t.table for t in tournament.tables)
    assert len(history.opponents) == sum(not t.table.bye for t in tournament.tables), "no repeat pairing"
    assert sorted(history.byes.values()) == [1, 1, 1], "one bye a round, never twice to a member"
    lines = tournament.standings()
    assert [
        (row.member, row.points, row.buchholz, row.opponents_rating, row.games) for row in lines
    ] == recomputed(tournament)
    assert sum(row.points for row in lines) == 12, "four games a round, each with one winner"
    podium = tournament.podium()
    assert podium == [row for row in lines if row.rank <= 3] and podium[0].rank == 1 and len(podium) >= 3
    with _Refused("tournament_over"):
        await events.pair_next(tournament.id, ORGANIZER)


async def test_a_game_played_to_its_end_scores_its_winning_side(store: Store) -> None:
    """The Discord side seats side 0 at the engine's side 0 and records `outcome.winner`."""
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2])
    paired = await events.start(tournament.id, ORGANIZER)
    [table] = paired.to_open
    ids = await open_games(games, events, paired)
    snapshot = await games.get(ids[table.id])
    ended = await play_out(games, clock, snapshot, random.Random(5))
    outcome = ended.outcome
    assert outcome is not None and outcome.winner is not None
    winner = table.sides[outcome.winner][0]
    assert winner is not None
    assert ended.seats[side_seats(outcome.winner, 2)[0]].user_id in (winner, None)
    decided = await events.record(ended.id, outcome.winner)
    assert decided is not None and decided.finished is False and decided.round_over
    points = {row.member: row.points for row in decided.tournament.standings()}
    assert points[winner] == 1 and sum(points.values()) == 1


async def test_a_result_recorded_twice_counts_once(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2, 3, 4])
    paired = await events.start(tournament.id, ORGANIZER)
    ids = await open_games(games, events, paired)
    first = paired.to_open[0]
    once = await events.record(ids[first.id], 0)
    twice = await events.record(ids[first.id], 1)
    assert once is not None and once.new and twice is not None and not twice.new
    assert twice.table is not None and twice.table.winner == 0
    assert once.tournament.standings() == twice.tournament.standings()
    assert not await events.set_game(first.id, ids[paired.to_open[1].id]), "a table keeps its game"
    assert await events.record(123_456, 0) is None, "a game of no tournament"


async def test_a_game_at_the_round_limit_is_adjudicated_by_the_win_chance(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2])
    paired = await events.start(tournament.id, ORGANIZER)
    [table] = paired.to_open
    await open_games(games, events, paired)
    with _Refused("round_not_over"):
        await events.adjudicate(table.id, 0.3)
    clock.advance(600)
    decided = await events.adjudicate(table.id, 0.3)
    assert decided.new and decided.table is not None
    assert (decided.table.winner, decided.table.decided_by) == (1, "adjudication")
    assert decided.table.win_chance == pytest.approx(0.7)
    assert decided.round_over
    again = await events.adjudicate(table.id, 0.9)
    assert not again.new and again.table is not None and again.table.winner == 1


async def test_a_withdrawn_member_forfeits_the_game_in_play_and_is_not_paired_again(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2, 3, 4])
    paired = await events.start(tournament.id, ORGANIZER)
    await open_games(games, events, paired)
    gone = paired.to_open[0].sides[1][0]
    assert gone is not None
    decided = await events.withdraw(tournament.id, gone)
    assert decided.table is not None and (decided.table.winner, decided.table.decided_by) == (0, "forfeit")
    with _Refused("not_in"):
        await events.withdraw(tournament.id, gone)
    other = (await events.get(tournament.id)).round_tables()[1]
    assert other.game_id is not None
    result = await events.record(other.game_id, 0)
    assert result is not None and result.round_over
    paired_two = await events.pair_next(tournament.id)
    assert paired_two is not None
    assert gone not in [m for t in paired_two.to_open for m in t.members]
    line = next(row for row in paired_two.tournament.standings() if row.member == gone)
    assert (line.points, line.games, line.withdrawn) == (0, 1, True)


async def test_pause_holds_the_next_round_until_the_organizer_pairs_it(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2, 3, 4])
    paired = await events.start(tournament.id, ORGANIZER)
    await events.pause(tournament.id, ORGANIZER)
    with _Refused("not_organizer"):
        await events.pause(tournament.id, 1, paused=False)
    await play_round(games, events, paired)
    assert await events.pair_next(tournament.id) is None, "paused: the bot does not pair"
    second = await events.pair_next(tournament.id, ORGANIZER)
    assert second is not None and second.round == 2 and not second.tournament.paused
    cancelled = await events.cancel(tournament.id, ORGANIZER)
    assert cancelled.status == "cancelled"
    with _Refused("tournament_over"):
        await events.pair_next(tournament.id, ORGANIZER)
    assert await events.in_channel(CHANNEL) is None


async def test_partnerships_of_eight_over_three_rounds(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    options = Options("Pairs", "swiss", Rules.parse("classic,pieces=1"), table_size=4, rounds=3)
    tournament = await opened(events, clock, options, list(range(1, 9)))
    paired: Paired | None = await events.start(tournament.id, ORGANIZER)
    while paired is not None:
        assert len(paired.to_open) == 2
        assert all(None not in side and len(side) == 2 for t in paired.to_open for side in t.sides)
        tournament = await play_round(games, events, paired)
        paired = await events.pair_next(tournament.id)
    assert tournament.status == "finished"
    partners = [frozenset(side) for t in tournament.tables for side in t.sides]
    assert len(partners) == len(set(partners)) == 12, "no partner twice"
    assert sum(row.points for row in tournament.standings()) == 12, "two winners a table, six tables"


async def test_a_withdrawn_partner_loses_while_the_other_plays_on(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    options = Options("Pairs", "swiss", Rules.parse("classic,pieces=1"), table_size=4, rounds=1)
    tournament = await opened(events, clock, options, [1, 2, 3, 4])
    paired = await events.start(tournament.id, ORGANIZER)
    ids = await open_games(games, events, paired)
    [table] = paired.to_open
    gone, partner = table.sides[0]
    assert gone is not None and partner is not None
    decided = await events.withdraw(tournament.id, gone)
    assert decided.table is None and not decided.round_over, "a partnership game plays on"
    finished = await events.record(ids[table.id], 0)
    assert finished is not None and finished.finished
    points = {row.member: row.points for row in finished.tournament.standings()}
    assert (points[gone], points[partner]) == (0, 1)


async def test_a_round_robin_plays_its_schedule_with_forfeits_after_a_withdrawal(store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(store, clock), service(store, clock=clock)
    options = Options("League", "round-robin", Rules.parse("classic,pieces=1"))
    tournament = await opened(events, clock, options, [1, 2, 3, 4, 5])
    paired: Paired | None = await events.start(tournament.id, ORGANIZER)
    assert paired is not None and paired.tournament.rounds == 5, "five rounds: one bye each"
    for number in range(1, 6):
        assert paired is not None and paired.round == number
        tournament = await play_round(games, events, paired)
        if number == 2:
            left = await events.withdraw(tournament.id, 5)  # between rounds: round 2's result stands
            assert left.table is None and left.tournament.entrant(5).withdrawn_round == 3  # type: ignore[union-attr]
        paired = await events.pair_next(tournament.id)
        if number >= 2:
            assert paired is None or 5 not in [m for t in paired.to_open for m in t.members]
    assert paired is None and tournament.status == "finished"
    met = [frozenset(t.members) for t in tournament.tables if not t.table.bye]
    assert len(met) == len(set(met)) == 10, "every pair once"
    later = [t for t in tournament.tables if 5 in t.members and t.round >= 3]
    assert later and all(t.decided_by == "forfeit" and t.game_id is None for t in later)
    line = next(row for row in tournament.standings() if row.member == 5)
    assert line.games == 5 and line.withdrawn


async def test_a_restart_mid_round_resumes_from_the_same_file(sqlite_url: str, sqlite_store: Store) -> None:
    clock = Clock()
    events, games = Tournaments(sqlite_store, clock), service(sqlite_store, clock=clock)
    tournament = await opened(events, clock, members=[1, 2, 3, 4, 5])
    paired = await events.start(tournament.id, ORGANIZER)
    ids = await open_games(games, events, paired)
    first = paired.to_open[0]
    await events.record(ids[first.id], 1)
    await sqlite_store.close()

    store = Store(sqlite_url)  # a new process over the same file
    try:
        again = Tournaments(store, clock)
        [live] = await again.live()
        assert live.id == tournament.id and live.current_round == 1 and not live.round_over()
        playing = [t for t in live.round_tables() if not t.done]
        assert {t.id: t.game_id for t in playing} == {t.id: ids[t.id] for t in paired.to_open[1:]}
        assert live.round() == paired.tournament.round()
        found = await again.game_table(ids[paired.to_open[1].id])
        assert found is not None and found[1].id == paired.to_open[1].id
        for table in playing:
            decided = await again.record(table.game_id or 0, 0)
            assert decided is not None and decided.new
        second = await again.pair_next(tournament.id)
        assert second is not None and second.round == 2
        assert second.tournament.standings()[0].points == 1
    finally:
        await store.close()
