"""Reading stored tournaments: the snapshot of one, a channel's, the live ones, a game's table."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import GameError
from bot.core.store import Store
from bot.core.tournaments.snapshot import TableView, Tournament, tournament_of


class TournamentError(GameError):
    """A tournament request refused; nothing was changed."""

    key = "no_tournament"


class TournamentReads:
    """The service's reads, each one transaction (the changes are `service.Tournaments`')."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    # --- reading ----------------------------------------------------------------------------

    async def _load(self, session: AsyncSession, tournament_id: int, *, lock: bool = False) -> Tournament:
        row = await self.store.tournament(session, tournament_id, lock=lock)
        if row is None:
            raise TournamentError("no_tournament")
        return tournament_of(
            row,
            await self.store.entrants(session, tournament_id),
            await self.store.rounds(session, tournament_id),
            await self.store.tables(session, tournament_id),
        )

    async def get(self, tournament_id: int) -> Tournament:
        async with self.store.transaction() as session:
            return await self._load(session, tournament_id)

    async def in_channel(self, channel_id: int) -> Tournament | None:
        """The channel's tournament in sign-up or running (in a table's thread: the table's)."""
        async with self.store.transaction() as session:
            row = await self.store.live_tournament(session, channel_id)
            return None if row is None else await self._load(session, row.id)

    async def finished_in_channel(self, channel_id: int) -> Tournament | None:
        """The channel's newest finished tournament: its final standings stay asked for."""
        async with self.store.transaction() as session:
            row = await self.store.finished_tournament(session, channel_id)
            return None if row is None else await self._load(session, row.id)

    async def live(self) -> list[Tournament]:
        """Every tournament in sign-up or running: what a restart resumes."""
        async with self.store.transaction() as session:
            rows = await self.store.live_tournaments(session)
            return [await self._load(session, row.id) for row in rows]

    async def game_table(self, game_id: int) -> tuple[Tournament, TableView] | None:
        """The tournament and table a game plays for, if it plays for one."""
        async with self.store.transaction() as session:
            row = await self.store.table_of_game(session, game_id)
            if row is None:
                return None
            tournament = await self._load(session, row.tournament_id)
        return tournament, next(t for t in tournament.tables if t.id == row.id)
