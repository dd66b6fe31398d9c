"""The queries of the daily puzzle: members' answers and streaks, and the servers' daily posts."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.store.database import Database
from bot.core.store.models import PuzzleAnswerRow, PuzzleChannelRow, PuzzlePingRow, PuzzleStreakRow


class PuzzleQueries(Database):
    def _upsert(self) -> Any:
        """The dialect's INSERT, which has ON CONFLICT."""
        return postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert

    # --- answers and streaks ------------------------------------------------------------

    async def puzzle_answer(self, session: AsyncSession, user_id: int, day: date) -> PuzzleAnswerRow | None:
        return await session.get(PuzzleAnswerRow, (user_id, day), populate_existing=True)

    async def add_puzzle_answer(
        self,
        session: AsyncSession,
        user_id: int,
        day: date,
        puzzle: int,
        move: str,
        solved: bool,
        at: datetime,
    ) -> bool:
        """Store a member's answer for `day`; False when they had answered already (nothing written),
        which two clicks at once cannot both escape: the day is part of the key."""
        query = self._upsert()(PuzzleAnswerRow).values(
            user_id=user_id, day=day, puzzle=puzzle, move=move, solved=solved, answered_at=at
        )
        query = query.on_conflict_do_nothing()
        result = await session.execute(query)
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def puzzle_streak(
        self, session: AsyncSession, user_id: int, *, lock: bool = False
    ) -> PuzzleStreakRow | None:
        """A member's streak row; `lock` creates it if missing and holds it until the transaction ends."""
        if lock:
            values = {"user_id": user_id, "current": 0, "best": 0, "answered": 0, "solved": 0}
            await session.execute(self._upsert()(PuzzleStreakRow).values(**values).on_conflict_do_nothing())
        query = select(PuzzleStreakRow).where(PuzzleStreakRow.user_id == user_id)
        if lock:
            query = query.with_for_update()
        return (await session.scalars(query.execution_options(populate_existing=True))).first()

    # --- the servers' daily posts -------------------------------------------------------

    async def puzzle_channel(self, session: AsyncSession, guild_id: int) -> PuzzleChannelRow | None:
        return await session.get(PuzzleChannelRow, guild_id, populate_existing=True)

    async def set_puzzle_channel(
        self, session: AsyncSession, guild_id: int, channel_id: int, by: int
    ) -> None:
        """Post in `channel_id` from now on (a new channel gets today's post too)."""
        found = await self.puzzle_channel(session, guild_id)
        if found is None:
            session.add(PuzzleChannelRow(guild_id=guild_id, channel_id=channel_id, set_by=by, posted_on=None))
        elif found.channel_id != channel_id:
            found.channel_id, found.set_by, found.posted_on = channel_id, by, None
        await session.flush()

    async def clear_puzzle_channel(self, session: AsyncSession, guild_id: int) -> bool:
        """Stop the server's daily post; False if there was none."""
        result = await session.execute(delete(PuzzleChannelRow).where(PuzzleChannelRow.guild_id == guild_id))
        return bool(result.rowcount)  # type: ignore[attr-defined]

    async def puzzle_channels(
        self, session: AsyncSession, guild_ids: Iterable[int]
    ) -> list[PuzzleChannelRow]:
        query = select(PuzzleChannelRow).where(PuzzleChannelRow.guild_id.in_(sorted(set(guild_ids))))
        return list(await session.scalars(query.order_by(PuzzleChannelRow.guild_id)))

    async def claim_puzzle_post(self, session: AsyncSession, guild_id: int, day: date) -> bool:
        """Mark `day`'s post as made in this server; False if it was already (by another process)."""
        query = (
            update(PuzzleChannelRow)
            .where(
                PuzzleChannelRow.guild_id == guild_id,
                or_(PuzzleChannelRow.posted_on.is_(None), PuzzleChannelRow.posted_on < day),
            )
            .values(posted_on=day)
            .execution_options(synchronize_session=False)
        )
        result = await session.execute(query)
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def puzzle_pings(self, session: AsyncSession, guild_id: int) -> list[int]:
        query = select(PuzzlePingRow.user_id).where(PuzzlePingRow.guild_id == guild_id)
        return list(await session.scalars(query.order_by(PuzzlePingRow.user_id)))

    async def set_puzzle_ping(self, session: AsyncSession, guild_id: int, user_id: int, on: bool) -> None:
        if on:
            row = {"guild_id": guild_id, "user_id": user_id}
            await session.execute(self._upsert()(PuzzlePingRow).values(**row).on_conflict_do_nothing())
        else:
            await session.execute(
                delete(PuzzlePingRow).where(
                    PuzzlePingRow.guild_id == guild_id, PuzzlePingRow.user_id == user_id
                )
            )
