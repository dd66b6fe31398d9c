"""The queries behind ratings and history: rating rows (all time and per season), the leaderboards,
finished and recent games."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TypeVar

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.store.database import Database
from bot.core.store.models import GameRow, MoveRow, RatingColumns, RatingRow, SeasonRatingRow, Status

Row = TypeVar("Row", RatingRow, SeasonRatingRow)
"""An all-time or a season's rating row: the queries below serve both alike."""


class StandingQueries(Database):
    async def ratings(
        self, session: AsyncSession, guild_id: int, user_ids: Iterable[int], *, lock: bool = False
    ) -> dict[int, RatingRow]:
        """The users' rating rows; `lock` holds them (PostgreSQL) until the transaction ends."""
        return await self._rows(session, RatingRow, {"guild_id": guild_id}, user_ids, lock)

    async def _rows(
        self,
        session: AsyncSession,
        table: type[Row],
        keys: dict[str, object],
        user_ids: Iterable[int],
        lock: bool,
    ) -> dict[int, Row]:
        """The users' rows of `table` where `keys` say, by user; `lock` holds them (PostgreSQL)."""
        query = (
            select(table)
            .filter_by(**keys)
            .where(table.user_id.in_(sorted(set(user_ids))))
            .order_by(table.user_id)
            .execution_options(populate_existing=True)
        )
        if lock:
            query = query.with_for_update()
        return {row.user_id: row for row in await session.scalars(query)}

    async def add_ratings(
        self, session: AsyncSession, guild_id: int, user_ids: Iterable[int], mu: float, sigma: float
    ) -> None:
        """A starting rating row for each user who has none."""
        await self._add_starting_rows(session, RatingRow, {"guild_id": guild_id}, user_ids, mu, sigma)

    async def _add_starting_rows(
        self,
        session: AsyncSession,
        table: type[Row],
        keys: dict[str, object],
        user_ids: Iterable[int],
        mu: float,
        sigma: float,
    ) -> None:
        """A starting row of `table` (where `keys` say) for each user who has none: an upsert, so
        that races add each row once."""
        upsert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        counts = {"games_people": 0, "wins_people": 0, "games_computers": 0, "wins_computers": 0}
        for user_id in sorted(set(user_ids)):
            query = upsert(table).values(**keys, user_id=user_id, mu=mu, sigma=sigma, **counts)
            await session.execute(query.on_conflict_do_nothing())

    async def clear_ratings(self, session: AsyncSession, guild_id: int | None = None) -> None:
        await self._clear(session, RatingRow, guild_id)

    async def _clear(self, session: AsyncSession, table: type[Row], guild_id: int | None) -> None:
        query = delete(table)
        if guild_id is not None:
            query = query.where(table.guild_id == guild_id)
        await session.execute(query)

    async def rating_board(
        self, session: AsyncSession, guild_id: int, min_games: int, limit: int, season: str | None = None
    ) -> list[RatingColumns]:
        """Rows with at least `min_games` rated games, by ordinal (mu - 3 sigma), best first: all time,
        or in `season`."""
        model: type[RatingRow] | type[SeasonRatingRow] = RatingRow if season is None else SeasonRatingRow
        query = select(model).where(
            model.guild_id == guild_id, model.games_people + model.games_computers >= min_games
        )
        if season is not None:
            query = query.where(SeasonRatingRow.season == season)
        query = query.order_by((model.mu - 3 * model.sigma).desc(), model.user_id).limit(limit)
        return list(await session.scalars(query))

    # --- seasons ------------------------------------------------------------------------

    async def season_ratings(
        self,
        session: AsyncSession,
        guild_id: int,
        season: str,
        user_ids: Iterable[int],
        *,
        lock: bool = False,
    ) -> dict[int, SeasonRatingRow]:
        """The users' rows in a season; `lock` holds them (PostgreSQL) until the transaction ends."""
        keys = {"guild_id": guild_id, "season": season}
        return await self._rows(session, SeasonRatingRow, keys, user_ids, lock)

    async def add_season_ratings(
        self,
        session: AsyncSession,
        guild_id: int,
        season: str,
        user_ids: Iterable[int],
        mu: float,
        sigma: float,
    ) -> None:
        """A starting row in the season for each user who has none."""
        keys = {"guild_id": guild_id, "season": season}
        await self._add_starting_rows(session, SeasonRatingRow, keys, user_ids, mu, sigma)

    async def clear_season_ratings(self, session: AsyncSession, guild_id: int | None = None) -> None:
        await self._clear(session, SeasonRatingRow, guild_id)

    async def seasons(self, session: AsyncSession, guild_id: int) -> list[str]:
        """The guild's seasons with a rated game, newest first."""
        query = (
            select(SeasonRatingRow.season)
            .where(SeasonRatingRow.guild_id == guild_id)
            .distinct()
            .order_by(SeasonRatingRow.season.desc())
        )
        return list(await session.scalars(query))

    async def set_ended(self, session: AsyncSession, game_id: int, moment: datetime) -> None:
        """When the game left `active` (display and seasons only: no version bump)."""
        query = (
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(ended_at=moment)
            .execution_options(synchronize_session=False)
        )
        await session.execute(query)

    async def finished_games(self, session: AsyncSession, guild_id: int | None = None) -> list[GameRow]:
        """Finished games in the order they ended (by when, then by their last move), for rebuilding
        ratings."""
        last = (
            select(MoveRow.game_id, func.max(MoveRow.id).label("last")).group_by(MoveRow.game_id).subquery()
        )
        query = (
            select(GameRow)
            .join(last, last.c.game_id == GameRow.id)
            .where(GameRow.status == Status.FINISHED)
            .order_by(GameRow.ended_at, last.c.last)
        )
        if guild_id is not None:
            query = query.where(GameRow.guild_id == guild_id)
        return list(await session.scalars(query))

    async def recent_games(
        self, session: AsyncSession, guild_id: int, limit: int, channel_id: int | None = None
    ) -> list[GameRow]:
        """A guild's games (or one channel's: played there, or in a thread whose card it shows),
        newest first."""
        query = select(GameRow).where(GameRow.guild_id == guild_id)
        if channel_id is not None:
            query = query.where(or_(GameRow.channel_id == channel_id, GameRow.card_channel_id == channel_id))
        query = query.order_by(GameRow.id.desc()).limit(limit).execution_options(populate_existing=True)
        return list(await session.scalars(query))
