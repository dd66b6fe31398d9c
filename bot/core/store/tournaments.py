"""The queries of tournaments: the events, their entrants, rounds, tables and seats.

Writes that two clicks or two processes could race on are single statements the database decides:
an entrant is added with ON CONFLICT DO NOTHING (a double click on Join joins once), and a table's
result is written only WHERE it is still undecided (a result recorded twice counts once).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.store.database import Database
from bot.core.store.models import (
    EntrantRow,
    GameRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentSeatRow,
    TournamentStatus,
    TournamentTableRow,
)

LIVE = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)

Sides = Sequence[Sequence[int | None]]
"""A table's two sides, each its members in seat order (None: the computer)."""


class TournamentQueries(Database):
    def _insert(self) -> Any:
        """The dialect's INSERT, which has ON CONFLICT."""
        return postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert

    # --- the events -------------------------------------------------------------------------

    async def add_tournament(self, session: AsyncSession, row: TournamentRow) -> TournamentRow:
        session.add(row)
        await session.flush()
        return row

    async def tournament(
        self, session: AsyncSession, tournament_id: int, *, lock: bool = False
    ) -> TournamentRow | None:
        """A tournament; `lock` holds its row (PostgreSQL) so changes to one event take turns."""
        query = select(TournamentRow).where(TournamentRow.id == tournament_id)
        if lock:
            query = query.with_for_update()
        return (await session.scalars(query.execution_options(populate_existing=True))).first()

    async def live_tournament(self, session: AsyncSession, channel_id: int) -> TournamentRow | None:
        """The tournament in sign-up or running of the channel, or of a game played in it (a table's
        thread, where its players are when they ask for the standings), if any."""
        query = select(TournamentRow).where(_here(channel_id), TournamentRow.status.in_(LIVE))
        return (await session.scalars(query.execution_options(populate_existing=True))).first()

    async def finished_tournament(self, session: AsyncSession, channel_id: int) -> TournamentRow | None:
        """The newest finished tournament of the channel (or of a game played in it), if any."""
        query = (
            select(TournamentRow)
            .where(_here(channel_id), TournamentRow.status == TournamentStatus.FINISHED)
            .order_by(TournamentRow.id.desc())
            .limit(1)
        )
        return (await session.scalars(query.execution_options(populate_existing=True))).first()

    async def live_tournaments(self, session: AsyncSession) -> list[TournamentRow]:
        """Every tournament in sign-up or running (what a restart resumes), oldest first."""
        query = select(TournamentRow).where(TournamentRow.status.in_(LIVE)).order_by(TournamentRow.id)
        return list(await session.scalars(query.execution_options(populate_existing=True)))

    async def set_tournament(self, session: AsyncSession, tournament_id: int, **values: Any) -> None:
        query = update(TournamentRow).where(TournamentRow.id == tournament_id).values(**values)
        await session.execute(query.execution_options(synchronize_session=False))

    # --- entrants ---------------------------------------------------------------------------

    async def entrants(self, session: AsyncSession, tournament_id: int) -> list[EntrantRow]:
        """The entrants in the order they joined."""
        query = (
            select(EntrantRow)
            .where(EntrantRow.tournament_id == tournament_id)
            .order_by(EntrantRow.joined_at, EntrantRow.user_id)
            .execution_options(populate_existing=True)
        )
        return list(await session.scalars(query))

    async def add_entrant(
        self,
        session: AsyncSession,
        tournament_id: int,
        user_id: int,
        name: str | None,
        rating: int,
        at: datetime,
    ) -> bool:
        """Sign a member up; False when they were already in (nothing written)."""
        values = {
            "tournament_id": tournament_id,
            "user_id": user_id,
            "name": name,
            "rating": rating,
            "joined_at": at,
        }
        result = await session.execute(self._insert()(EntrantRow).values(**values).on_conflict_do_nothing())
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def remove_entrant(self, session: AsyncSession, tournament_id: int, user_id: int) -> bool:
        query = delete(EntrantRow).where(
            EntrantRow.tournament_id == tournament_id, EntrantRow.user_id == user_id
        )
        return bool((await session.execute(query)).rowcount)  # type: ignore[attr-defined]

    async def set_entrant(
        self, session: AsyncSession, tournament_id: int, user_id: int, **values: Any
    ) -> None:
        query = (
            update(EntrantRow)
            .where(EntrantRow.tournament_id == tournament_id, EntrantRow.user_id == user_id)
            .values(**values)
        )
        await session.execute(query.execution_options(synchronize_session=False))

    # --- rounds and tables ------------------------------------------------------------------

    async def rounds(self, session: AsyncSession, tournament_id: int) -> list[TournamentRoundRow]:
        query = (
            select(TournamentRoundRow)
            .where(TournamentRoundRow.tournament_id == tournament_id)
            .order_by(TournamentRoundRow.number)
            .execution_options(populate_existing=True)
        )
        return list(await session.scalars(query))

    async def add_round(self, session: AsyncSession, row: TournamentRoundRow) -> None:
        session.add(row)
        await session.flush()

    async def end_round(self, session: AsyncSession, tournament_id: int, number: int, at: datetime) -> None:
        query = (
            update(TournamentRoundRow)
            .where(
                TournamentRoundRow.tournament_id == tournament_id,
                TournamentRoundRow.number == number,
                TournamentRoundRow.ended_at.is_(None),
            )
            .values(ended_at=at)
        )
        await session.execute(query.execution_options(synchronize_session=False))

    async def add_table(
        self, session: AsyncSession, tournament_id: int, round_number: int, number: int, sides: Sides
    ) -> TournamentTableRow:
        """A table of a round, seated side by side."""
        row = TournamentTableRow(tournament_id=tournament_id, round=round_number, number=number)
        session.add(row)
        await session.flush()
        for side, members in enumerate(sides):
            for place, user_id in enumerate(members):
                session.add(TournamentSeatRow(table_id=row.id, side=side, place=place, user_id=user_id))
        await session.flush()
        return row

    async def tables(
        self, session: AsyncSession, tournament_id: int
    ) -> list[tuple[TournamentTableRow, list[TournamentSeatRow]]]:
        """Every table of the tournament with its seats, by round and number."""
        query = (
            select(TournamentTableRow, TournamentSeatRow)
            .join(TournamentSeatRow, TournamentSeatRow.table_id == TournamentTableRow.id)
            .where(TournamentTableRow.tournament_id == tournament_id)
            .order_by(
                TournamentTableRow.round,
                TournamentTableRow.number,
                TournamentSeatRow.side,
                TournamentSeatRow.place,
            )
            .execution_options(populate_existing=True)
        )
        found: dict[int, tuple[TournamentTableRow, list[TournamentSeatRow]]] = {}
        for table, seat in (await session.execute(query)).all():
            found.setdefault(table.id, (table, []))[1].append(seat)
        return list(found.values())

    async def table_of_game(self, session: AsyncSession, game_id: int) -> TournamentTableRow | None:
        query = select(TournamentTableRow).where(TournamentTableRow.game_id == game_id)
        return (await session.scalars(query.execution_options(populate_existing=True))).first()

    async def table(self, session: AsyncSession, table_id: int) -> TournamentTableRow | None:
        return await session.get(TournamentTableRow, table_id, populate_existing=True)

    async def set_table_game(self, session: AsyncSession, table_id: int, game_id: int) -> bool:
        """Note the game opened for a table; False if it has one already (nothing written)."""
        query = (
            update(TournamentTableRow)
            .where(TournamentTableRow.id == table_id, TournamentTableRow.game_id.is_(None))
            .values(game_id=game_id)
        )
        result = await session.execute(query.execution_options(synchronize_session=False))
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def decide_table(
        self,
        session: AsyncSession,
        table_id: int,
        winner: int | None,
        decided_by: str,
        at: datetime,
        win_chance: float | None = None,
    ) -> bool:
        """Write a table's result; False when it was decided already (nothing written)."""
        query = (
            update(TournamentTableRow)
            .where(TournamentTableRow.id == table_id, TournamentTableRow.decided_by.is_(None))
            .values(winner=winner, decided_by=decided_by, decided_at=at, win_chance=win_chance)
        )
        result = await session.execute(query.execution_options(synchronize_session=False))
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _here(channel_id: int) -> Any:
    """A tournament of the channel: opened in it, or with a table whose game plays in it."""
    played_here = (
        select(TournamentTableRow.tournament_id)
        .join(GameRow, GameRow.id == TournamentTableRow.game_id)
        .where(GameRow.channel_id == channel_id)
    )
    return or_(TournamentRow.channel_id == channel_id, TournamentRow.id.in_(played_here))
