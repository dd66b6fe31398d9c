"""Members' stats after the game: wins, ratings, the leaderboard and seasons (no Discord here).

`game_ended` counts a game for everyone who held a seat in it and `rate_game` updates the members'
ratings when a game finishes (all time, and in the season it ended in); `rebuild_ratings`
recomputes every rating and season from the finished games in the order they ended, which gives
exactly what the live updates gave. The move log is the source, as for a game's record
(`bot.core.records`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import ratings
from bot.core.snapshot import GameSnapshot, stored_position
from bot.core.store import MoveRow, RatingColumns, RatingRow, SeasonRatingRow, SeatRow, Status, Store, aware
from engine.game import Game
from engine.rules import Rules

# --- ratings --------------------------------------------------------------------------------


def rated_game(
    rules: Rules, winner: int | None, seats: Sequence[SeatRow], moves: Sequence[MoveRow]
) -> ratings.RatedGame:
    """What the ratings need of a finished game: each side's members with their shares, the winner."""
    levels = {s.seat: s.level for s in seats}
    sides = ratings.sides_from_throws(rules.players, levels, [(row.seat, row.actor_id) for row in moves])
    return ratings.RatedGame(sides, winner)


Row = TypeVar("Row", bound=RatingColumns)


def _apply(rows: dict[int, Row], game: ratings.RatedGame, new_row: Callable[[int], Row]) -> None:
    """Update `rows` (user -> row, made by `new_row` when missing) with one game's ratings and counts."""
    current = {user: ratings.Rating(row.mu, row.sigma) for user, row in rows.items()}
    new = ratings.rate(current, game)
    for side_index, side in enumerate(game.sides):
        other = game.sides[1 - side_index]
        against_people = any(isinstance(m, int) for m in other)
        won = game.winner == side_index
        for user, rating in new.items():
            if user not in side:
                continue
            row = rows.get(user)
            if row is None:
                row = rows[user] = new_row(user)
            row.mu, row.sigma = rating.mu, rating.sigma
            if against_people:
                row.games_people += 1
                row.wins_people += won
            else:
                row.games_computers += 1
                row.wins_computers += won


_NO_GAMES = {"games_people": 0, "wins_people": 0, "games_computers": 0, "wins_computers": 0}


def _all_time_row(guild_id: int) -> Callable[[int], RatingRow]:
    return lambda user: RatingRow(guild_id=guild_id, user_id=user, **_NO_GAMES)


def _season_row(guild_id: int, season: str) -> Callable[[int], SeasonRatingRow]:
    return lambda user: SeasonRatingRow(guild_id=guild_id, season=season, user_id=user, **_NO_GAMES)


async def rate_game(
    store: Store,
    session: AsyncSession,
    *,
    guild_id: int,
    game_id: int,
    rules: Rules,
    winner: int | None,
    ended_at: datetime,
) -> None:
    """Live update as a game finishes, in the transaction that finished it (after its last move):
    the all-time ratings and those of the season `ended_at` falls in; `winner` None: a draw."""
    seats = await store.seats(session, game_id)
    moves = await store.moves(session, game_id)
    rated = rated_game(rules, winner, seats, moves)
    if not rated.rated:
        return
    # Rows first (a no-op for those that exist), then locked: two games ending at once, with a
    # member in common, update that member one after the other, never from the same old rating.
    start = ratings.NEW
    await store.add_ratings(session, guild_id, rated.users, start.mu, start.sigma)
    rows = await store.ratings(session, guild_id, rated.users, lock=True)
    _apply(rows, rated, _all_time_row(guild_id))
    season = ratings.season_of(ended_at)
    await store.add_season_ratings(session, guild_id, season, rated.users, start.mu, start.sigma)
    season_rows = await store.season_ratings(session, guild_id, season, rated.users, lock=True)
    _apply(season_rows, rated, _season_row(guild_id, season))
    await session.flush()


def counted_seats(held_last: Mapping[int, int], moves: Sequence[MoveRow]) -> dict[int, int]:
    """The seat each member's stats count the game with: the one they threw for most, as the
    ratings place a member by their throws (a member who changed sides counts where they played,
    so their wins and their rating tell one story); a member who never threw, the seat they held
    last. Leaving before a loss does not dodge it either way."""
    thrown: dict[int, Counter[int]] = {}
    for row in moves:
        if row.actor_id is not None:
            thrown.setdefault(row.actor_id, Counter())[row.seat] += 1
    counted = {}
    for user, last in held_last.items():
        seats = thrown.get(user)
        counted[user] = last if not seats else max(seats, key=lambda seat: (seats[seat], seat == last))
    return counted


async def game_ended(store: Store, session: AsyncSession, game: GameSnapshot, ended_at: datetime) -> None:
    """Once per game, as it leaves `active` at `ended_at`: everyone who held a seat in it gets the
    game counted (with the seat of `counted_seats`); a finished game (won, drawn or conceded, not
    abandoned) is rated too, in its season."""
    await store.set_ended(session, game.id, ended_at)
    captures = await store.captures_by(session, game.id)
    outcome = game.outcome
    winner = None if outcome is None else outcome.winner
    players = await store.players(session, game.id)
    seats = counted_seats({p.user_id: p.seat for p in players}, await store.moves(session, game.id))
    # In user order, so two games ending at once lock the same stats rows in the same order.
    for user, seat in sorted(seats.items()):
        won = winner is not None and game.position.side_of(seat) == winner
        await store.add_stats(
            session,
            game.guild_id,
            user,
            wins=int(won),
            captures=captures.get(user, 0),
            pieces_home=game.position.home_count(seat),
        )
    if game.status == Status.FINISHED:
        await rate_game(
            store,
            session,
            guild_id=game.guild_id,
            game_id=game.id,
            rules=game.rules,
            winner=winner,
            ended_at=ended_at,
        )


async def rebuild_ratings(store: Store, guild_id: int | None = None) -> int:
    """Recompute every rating and season (of one guild, or all) from the finished games, in the
    order they ended; returns the games rated."""
    async with store.transaction() as session:
        games = await store.finished_games(session, guild_id)
        seats = await store.seats_of(session, [g.id for g in games])
        await store.clear_ratings(session, guild_id)
        await store.clear_season_ratings(session, guild_id)
        await session.flush()
        by_guild: dict[int, dict[int, RatingRow]] = {}
        by_season: dict[tuple[int, str], dict[int, SeasonRatingRow]] = {}
        count = 0
        for game in games:
            moves = await store.moves(session, game.id)
            outcome = Game(stored_position(game), throws=game.turn_number).outcome()
            winner = None if outcome is None else outcome.winner
            rated = rated_game(Rules.parse(game.rules), winner, seats.get(game.id, []), moves)
            if not rated.rated:
                continue
            guild = game.guild_id
            _apply(by_guild.setdefault(guild, {}), rated, _all_time_row(guild))
            season = ratings.season_of(aware(game.ended_at) or aware(moves[-1].created_at) or game.created_at)
            _apply(by_season.setdefault((guild, season), {}), rated, _season_row(guild, season))
            count += 1
        session.add_all(row for rows in by_guild.values() for row in rows.values())
        session.add_all(row for rows in by_season.values() for row in rows.values())
    return count


async def member_rating(store: Store, guild_id: int, user_id: int) -> RatingRow | None:
    async with store.transaction() as session:
        return (await store.ratings(session, guild_id, [user_id])).get(user_id)


@dataclass(frozen=True)
class MemberStats:
    """A member's totals in one server."""

    games: int = 0
    wins: int = 0
    captures: int = 0
    pieces_home: int = 0


async def member_stats(store: Store, guild_id: int, user_id: int) -> MemberStats:
    async with store.transaction() as session:
        row = await store.user_stats(session, guild_id, user_id)
    return MemberStats() if row is None else MemberStats(row.games, row.wins, row.captures, row.pieces_home)


async def member_season_rating(
    store: Store, guild_id: int, season: str, user_id: int
) -> SeasonRatingRow | None:
    async with store.transaction() as session:
        return (await store.season_ratings(session, guild_id, season, [user_id])).get(user_id)


async def leaderboard(
    store: Store, guild_id: int, limit: int = 10, season: str | None = None
) -> list[RatingColumns]:
    """Members with at least `ratings.MIN_GAMES` rated games, by ordinal, best first: all time, or
    in `season`."""
    async with store.transaction() as session:
        return await store.rating_board(session, guild_id, ratings.MIN_GAMES, limit, season)


async def seasons(store: Store, guild_id: int) -> list[str]:
    """The guild's seasons with a rated game, newest first."""
    async with store.transaction() as session:
        return await store.seasons(session, guild_id)


__all__ = [
    "MemberStats",
    "counted_seats",
    "game_ended",
    "leaderboard",
    "member_rating",
    "member_season_rating",
    "member_stats",
    "rate_game",
    "rated_game",
    "rebuild_ratings",
    "seasons",
]
