"""The tournament queries on real databases: what races on is decided by the database itself."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from bot.core.store import Store, TournamentRow, TournamentStatus

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def event(channel_id: int = 100, status: str = TournamentStatus.SIGNUP) -> TournamentRow:
    return TournamentRow(
        guild_id=1,
        channel_id=channel_id,
        organizer_id=11,
        name="Winter cup",
        format="swiss",
        rounds=3,
        table_size=2,
        rules="classic,players=2",
        move_seconds=60,
        round_seconds=3600,
        signup_closes_at=NOW,
        level="normal",
        status=status,
        created_at=NOW,
    )


async def test_an_entrant_is_added_once_and_a_table_decided_once(store: Store) -> None:
    async with store.transaction() as session:
        row = await store.add_tournament(session, event())
        assert await store.add_entrant(session, row.id, 12, "Asha", 1500, NOW)
        assert not await store.add_entrant(session, row.id, 12, "Asha", 1600, NOW)
        table = await store.add_table(session, row.id, 1, 1, [(12,), (None,)])
        assert await store.decide_table(session, table.id, 0, "game", NOW)
        assert not await store.decide_table(session, table.id, 1, "adjudication", NOW, 0.9)
    async with store.transaction() as session:
        assert [(e.user_id, e.rating) for e in await store.entrants(session, row.id)] == [(12, 1500)]
        [(stored, seats)] = await store.tables(session, row.id)
        assert (stored.winner, stored.decided_by, stored.win_chance) == (0, "game", None)
        assert [(s.side, s.place, s.user_id) for s in seats] == [(0, 0, 12), (1, 0, None)]


async def test_one_live_tournament_per_channel(store: Store) -> None:
    async with store.transaction() as session:
        await store.add_tournament(session, event(status=TournamentStatus.FINISHED))
        await store.add_tournament(session, event())
    with pytest.raises(IntegrityError):
        async with store.transaction() as session:
            await store.add_tournament(session, event())
    async with store.transaction() as session:
        await store.add_tournament(session, event(channel_id=101))
        assert len(await store.live_tournaments(session)) == 2
