"""Seasons on real databases: games played across a month's end count in the month they ended,
each season starts afresh, the leaderboard reads any season or all time, and a rebuild gives what
the live updates gave."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from sqlalchemy import select

from bot.core import ratings
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot, stored_position
from bot.core.stats import leaderboard, rated_game, rebuild_ratings, seasons
from bot.core.store import RatingRow, SeasonRatingRow, Store, aware
from engine.game import Game
from engine.rules import Rules
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, play_out, service

RULES = Rules.parse("classic,players=2,pieces=1")


async def _play(
    games: GameService, clock: Clock, index: int, rng: random.Random, *, cross: bool
) -> GameSnapshot:
    """One game of Alice's, against Bob, Carol or the computer; with `cross`, the clock passes
    midnight after her first throw, so the game starts in one month and ends in the next."""
    guest = [None, BOB, CAROL][index % 3]
    members = {} if guest is None else {2: guest}
    snapshot = (await games.start(GUILD, CHANNEL + index, ALICE, RULES, "easy", 0, members=members)).snapshot
    if cross:
        snapshot = (await games.act(snapshot.id, ALICE, snapshot.turn_number)).snapshot
        clock.advance(2 * 3600)
    return await play_out(games, clock, snapshot, rng)


async def _ended(store: Store, played: list[GameSnapshot]) -> list[tuple[datetime, ratings.RatedGame]]:
    """Each game's end and its rated snapshot, in the order they ended."""
    found = []
    async with store.transaction() as session:
        for snapshot in played:
            game = await store.game(session, snapshot.id)
            assert game is not None and game.ended_at is not None
            moves = await store.moves(session, snapshot.id)
            outcome = Game(stored_position(game), throws=game.turn_number).outcome()
            assert outcome is not None
            rated = rated_game(RULES, outcome.winner, await store.seats(session, snapshot.id), moves)
            found.append((aware(game.ended_at) or game.ended_at, moves[-1].id, rated))
    return [(when, rated) for when, _, rated in sorted(found, key=lambda item: item[:2])]


async def _stored(store: Store) -> tuple[set[tuple[object, ...]], set[tuple[object, ...]]]:
    """Every all-time and season rating row, as plain values."""
    async with store.transaction() as session:
        all_time = {
            (
                r.guild_id,
                r.user_id,
                r.mu,
                r.sigma,
                r.games_people,
                r.wins_people,
                r.games_computers,
                r.wins_computers,
            )
            for r in await session.scalars(select(RatingRow))
        }
        by_season = {
            (r.guild_id, r.season, r.user_id, r.mu, r.sigma, r.games_people, r.wins_people, r.games_computers,
             r.wins_computers)
            for r in await session.scalars(select(SeasonRatingRow))
        }  # fmt: skip
    return all_time, by_season


async def test_games_across_a_months_end_count_in_the_month_they_ended(store: Store) -> None:
    clock = Clock()
    clock.now = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
    games = service(store, seed=3, clock=clock)
    rng = random.Random(3)
    played = [await _play(games, clock, i, rng, cross=False) for i in range(4)]
    clock.now = datetime(2026, 1, 31, 23, 30, tzinfo=UTC)
    crossing = await _play(games, clock, 4, rng, cross=True)
    played += [crossing] + [await _play(games, clock, i, rng, cross=False) for i in range(5, 9)]
    assert crossing.created_at.month == 1

    ended = await _ended(store, played)
    months = [ratings.season_of(when) for when, _ in ended]
    assert months == ["2026-01"] * 4 + ["2026-02"] * 5  # the crossing game counts in February
    assert all(rated.rated for _, rated in ended)

    # Each season holds the ratings of its own games alone, everyone starting afresh that month.
    for season in ("2026-01", "2026-02"):
        mine = [rated for when, rated in ended if ratings.season_of(when) == season]
        async with store.transaction() as session:
            rows = await store.season_ratings(session, GUILD, season, [ALICE, BOB, CAROL])
        assert {user: ratings.Rating(r.mu, r.sigma) for user, r in rows.items()} == ratings.rebuild(mine)
        assert rows[ALICE].games == len(mine)
    assert await seasons(store, GUILD) == ["2026-02", "2026-01"]

    # The leaderboard: each season, all time (Alice played all nine: enough to rank in each).
    boards = {
        season: {row.user_id: row.games for row in await leaderboard(store, GUILD, season=season)}
        for season in ("2026-01", "2026-02", None)
    }
    assert boards["2026-01"][ALICE] == 4 and boards["2026-02"][ALICE] == 5 and boards[None][ALICE] == 9
    assert await leaderboard(store, GUILD, season="2025-12") == []

    live = await _stored(store)
    assert await rebuild_ratings(store) == len(ended)
    assert await _stored(store) == live
    assert await rebuild_ratings(store, GUILD) == len(ended)
    assert await _stored(store) == live
