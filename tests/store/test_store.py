"""The store's own guarantees, on SQLite and PostgreSQL: constraints in the database, the version check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.core.members import MemberSettings
from bot.core.store import SQLITE_BUSY_TIMEOUT_MS, GameRow, SeatRow, Store, aware, utcnow
from tests.support.services import ALICE, BOB, CAROL


def _game(channel_id: int = 10, status: str = "active") -> GameRow:
    now = utcnow()
    return GameRow(
        guild_id=1,
        channel_id=channel_id,
        started_by=7,
        rules="classic",
        status=status,
        position="black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic",
        turn_number=0,
        version=0,
        created_at=now,
        updated_at=now,
    )


async def _add(store: Store, game: GameRow) -> int:
    async with store.transaction() as session:
        await store.add_game(session, game, [])
        return game.id


async def test_one_active_game_per_channel_is_enforced_by_the_database(store: Store) -> None:
    await _add(store, _game(channel_id=10))
    with pytest.raises(IntegrityError):
        await _add(store, _game(channel_id=10))
    # Finished and abandoned games do not count, and other channels are free.
    await _add(store, _game(channel_id=10, status="finished"))
    await _add(store, _game(channel_id=10, status="abandoned"))
    await _add(store, _game(channel_id=11))


async def test_status_is_checked_by_the_database(store: Store) -> None:
    with pytest.raises(IntegrityError):
        await _add(store, _game(status="paused"))


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(IntegrityError):
        async with store.transaction() as session:
            session.add(
                SeatRow(game_id=999, seat=0, user_id=None, level="normal", missed=0, joined_at=utcnow())
            )
            await session.flush()


async def test_update_with_a_stale_version_changes_nothing(store: Store) -> None:
    game_id = await _add(store, _game())
    async with store.transaction() as session:
        assert await store.update_game(session, game_id, 0, turn_number=1)
    async with store.transaction() as session:
        assert not await store.update_game(session, game_id, 0, turn_number=99)
    async with store.transaction() as session:
        row = await store.game(session, game_id)
        assert row is not None
        assert (row.turn_number, row.version) == (1, 1)


async def test_updates_of_different_columns_write_those_columns_only(store: Store) -> None:
    """`update_game` builds one statement per set of columns: each set must write its own."""
    game_id = await _add(store, _game())
    deadline = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    async with store.transaction() as session:
        assert await store.update_game(session, game_id, 0, turn_number=1)
        assert await store.update_game(session, game_id, 1, deadline=deadline, message_id=9)
        assert await store.update_game(session, game_id, 2, turn_number=2)
        assert not await store.update_game(session, game_id, 2, deadline=None, message_id=None)
    async with store.transaction() as session:
        row = await store.game(session, game_id)
        assert row is not None
        assert (row.turn_number, row.version, aware(row.deadline), row.message_id) == (2, 3, deadline, 9)


async def test_an_update_of_a_column_it_does_not_write_is_refused(store: Store) -> None:
    """The prebuilt update would skip a key that names no column it writes: it is refused instead."""
    game_id = await _add(store, _game())
    async with store.transaction() as session:
        with pytest.raises(TypeError, match="turn_numbr"):
            await store.update_game(session, game_id, 0, turn_numbr=1)  # type: ignore[call-arg]
    async with store.transaction() as session:
        row = await store.game(session, game_id)
        assert row is not None and row.version == 0


async def test_turn_messages_are_written_only_to_games_still_at_their_version(store: Store) -> None:
    ids = [await _add(store, _game(channel_id=10 + n)) for n in range(4)]
    async with store.transaction() as session:
        assert await store.update_game(session, ids[1], 0, turn_number=1)  # moved on to version 1
    async with store.transaction() as session:
        await store.set_shown_at(session, {ids[0]: (0, 500), ids[1]: (0, 501), ids[2]: (0, 502)})
        await store.set_shown_at(session, {})
    async with store.transaction() as session:
        rows = [await store.game(session, game_id) for game_id in ids]
    assert [(row.message_id, row.version) for row in rows if row] == [
        (500, 0),
        (None, 1),
        (502, 0),
        (None, 0),
    ]


async def test_a_game_loads_with_its_seated_members_auto_throw_choices(store: Store) -> None:
    """None: a member who never chose; the computer's seat has no member to ask about."""
    now = utcnow()
    seats = [
        SeatRow(seat=seat, user_id=user, level="normal", missed=0, joined_at=now)
        for seat, user in ((0, ALICE), (1, BOB), (2, None), (3, CAROL))
    ]
    game = _game()
    async with store.transaction() as session:
        await store.add_game(session, game, seats)
        await store.set_auto_throw(session, ALICE, False)
        await store.set_auto_throw(session, CAROL, True)
    async with store.transaction() as session:
        found = await store.game_and_seats(session, game.id)
        missing = await store.game_and_seats(session, game.id + 1)
    assert found is not None and missing is None
    row, loaded, choices = found
    assert row.id == game.id and [seat.user_id for seat in loaded] == [ALICE, BOB, None, CAROL]
    assert choices == {ALICE: False, BOB: None, CAROL: True}


async def test_only_choices_not_read_with_the_game_are_asked_for(store: Store) -> None:
    members = MemberSettings(store, default_auto_throw=True)
    await members.set_auto_throw(BOB, False)
    await members.set_auto_throw(CAROL, False)
    async with store.transaction() as session:
        # Alice was read and never chose (the default); Carol was read as on, so her stored "off"
        # is not asked for again; Bob was not read: his stored "off" is.
        read = {ALICE: None, CAROL: True}
        assert await members.auto_throwers(session, [ALICE, BOB, CAROL], read) == {ALICE, CAROL}
        assert await members.auto_throwers(session, [ALICE, BOB, CAROL]) == {ALICE}


async def test_stats_accumulate_per_guild_and_user(store: Store) -> None:
    async with store.transaction() as session:
        await store.add_stats(session, 1, 5, wins=1, captures=2, pieces_home=4)
    async with store.transaction() as session:
        await store.add_stats(session, 1, 5, wins=0, captures=3, pieces_home=1)
        await store.add_stats(session, 2, 5, wins=1, captures=0, pieces_home=0)
    async with store.transaction() as session:
        row = await store.user_stats(session, 1, 5)
        assert row is not None
        assert (row.games, row.wins, row.captures, row.pieces_home) == (2, 1, 5, 5)
        other = await store.user_stats(session, 2, 5)
        assert other is not None and other.games == 1


async def test_sqlite_runs_in_wal_mode_with_busy_timeout_and_foreign_keys(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        async with store.engine.connect() as connection:
            journal = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
            timeout = (await connection.execute(text("PRAGMA busy_timeout"))).scalar()
            foreign = (await connection.execute(text("PRAGMA foreign_keys"))).scalar()
    finally:
        await store.close()
    assert (journal, timeout, foreign) == ("wal", SQLITE_BUSY_TIMEOUT_MS, 1)
