"""The queries of a game's life: games, seats, players, members' settings, the move log, the
totals per member, and the hash of the synced slash commands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Unpack, cast

from sqlalchemy import Table, and_, bindparam, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.store.database import Database
from bot.core.store.models import (
    CommandSyncRow,
    GamePlayerRow,
    GameRow,
    GameValues,
    MoveRow,
    PlayerSettingsRow,
    ResignationRow,
    SeatRow,
    SeatValues,
    ShownValues,
    Status,
    UserStatsRow,
    utcnow,
)

# What a click runs is built once, here: SQLAlchemy then reuses each statement and its cache key
# instead of building them again on every call. The writes go through the tables (Core):
# a list of parameters is then a plain executemany, not the ORM's bulk update by primary key.
_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)

_GAME_AND_SEATS = (
    select(GameRow, SeatRow, PlayerSettingsRow.auto_throw)
    .join(SeatRow, SeatRow.game_id == GameRow.id)
    .outerjoin(PlayerSettingsRow, PlayerSettingsRow.user_id == SeatRow.user_id)
    .where(GameRow.id == bindparam("game_id"))
    .order_by(SeatRow.seat)
    .execution_options(populate_existing=True)
)
_AT_VERSION = (_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("seen_version"))
_UPDATE_GAME = update(_GAMES).where(*_AT_VERSION)
"""SET: the columns named by the parameters (SQLAlchemy compiles it once per set of columns)."""
_SET_SHOWN_AT = update(_GAMES).where(*_AT_VERSION).values(message_id=bindparam("message_id"))
_AUTO_THROWS = select(PlayerSettingsRow.user_id, PlayerSettingsRow.auto_throw).where(
    PlayerSettingsRow.user_id.in_(bindparam("user_ids", expanding=True))
)
_ADD_MOVES = insert(_MOVES)
_GAME_VALUES = frozenset(GameValues.__annotations__)
"""The columns `update_game` writes: the prebuilt update would skip any other key silently."""


class GameQueries(Database):
    # --- slash command sync -------------------------------------------------------------

    async def synced_hash(self, session: AsyncSession, scope: int) -> str | None:
        row = await session.get(CommandSyncRow, scope, populate_existing=True)
        return None if row is None else row.payload_hash

    async def set_synced_hash(self, session: AsyncSession, scope: int, payload_hash: str) -> None:
        await session.merge(CommandSyncRow(scope=scope, payload_hash=payload_hash, synced_at=utcnow()))

    # --- games --------------------------------------------------------------------------

    async def game(self, session: AsyncSession, game_id: int) -> GameRow | None:
        return await session.get(GameRow, game_id, populate_existing=True)

    async def game_and_seats(
        self, session: AsyncSession, game_id: int
    ) -> tuple[GameRow, list[SeatRow], dict[int, bool | None]] | None:
        """A game with its seats and its seated members' auto-throw choices (None: never chose), in
        one round trip: every service call starts with this, and a click that plays on needs both."""
        rows = (await session.execute(_GAME_AND_SEATS, {"game_id": game_id})).all()
        if not rows:
            return None
        choices: dict[int, bool | None] = {
            seat.user_id: choice for _, seat, choice in rows if seat.user_id is not None
        }
        return rows[0][0], [seat for _, seat, _ in rows], choices

    async def active_game(self, session: AsyncSession, channel_id: int) -> GameRow | None:
        query = select(GameRow).where(GameRow.channel_id == channel_id, GameRow.status == Status.ACTIVE)
        return (await session.scalars(query)).first()

    async def newest_game(self, session: AsyncSession, channel_id: int) -> GameRow | None:
        """The channel's newest game in any state (not those of its threads)."""
        query = select(GameRow).where(GameRow.channel_id == channel_id).order_by(GameRow.id.desc()).limit(1)
        return (await session.scalars(query)).first()

    async def tables_started(
        self, session: AsyncSession, user_id: int, card_channel_id: int, up_to: int | None = None
    ) -> int:
        """How many tables `user_id` opened in threads of the channel `card_channel_id` (up to the
        game `up_to`, included)."""
        query = select(func.count(GameRow.id)).where(
            GameRow.started_by == user_id, GameRow.card_channel_id == card_channel_id
        )
        if up_to is not None:
            query = query.where(GameRow.id <= up_to)
        return int(await session.scalar(query) or 0)

    async def active_games(
        self, session: AsyncSession, guild_ids: Iterable[int] | None, *, unannounced: bool = False
    ) -> list[GameRow]:
        """Active games by id; with `unannounced`, also finished games whose turn message is still
        stored: the process died after the last move and before the result was posted."""
        wanted = GameRow.status == Status.ACTIVE
        if unannounced:
            wanted = or_(wanted, and_(GameRow.status == Status.FINISHED, GameRow.message_id.is_not(None)))
        query = select(GameRow).where(wanted).order_by(GameRow.id)
        if guild_ids is not None:
            query = query.where(GameRow.guild_id.in_(list(guild_ids)))
        return list(await session.scalars(query))

    async def add_game(self, session: AsyncSession, game: GameRow, seats: list[SeatRow]) -> None:
        """Insert a game and its seats; raises IntegrityError if the channel has an active game."""
        session.add(game)
        await session.flush()
        for seat in seats:
            seat.game_id = game.id
        session.add_all(seats)
        await session.flush()

    async def update_game(
        self, session: AsyncSession, game_id: int, version: int, **values: Unpack[GameValues]
    ) -> bool:
        """Write `values` and bump the version, only if the row still has `version`.

        False means another writer got there first: the caller rolls back.
        """
        if unknown := values.keys() - _GAME_VALUES:
            raise TypeError(f"not a column update_game writes: {sorted(unknown)}")  # Core would skip it
        params = {"game_id": game_id, "seen_version": version, "version": version + 1, "updated_at": utcnow()}
        result = await session.execute(_UPDATE_GAME, {**values, **params})
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def claim_rematch(self, session: AsyncSession, game_id: int, rematch_id: int) -> int:
        """Record `rematch_id` as the rematch of `game_id` unless one is recorded already (two
        writers: the second waits for the first's row and finds it set); the game's rematch."""
        query = (
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.rematch_id.is_(None))
            .values(rematch_id=rematch_id)
            .execution_options(synchronize_session=False)
        )
        if (await session.execute(query)).rowcount == 1:  # type: ignore[attr-defined]
            return rematch_id
        found = await session.scalar(select(GameRow.rematch_id).where(GameRow.id == game_id))
        return rematch_id if found is None else found

    async def set_shown(self, session: AsyncSession, game_id: int, **values: Unpack[ShownValues]) -> None:
        """Which Discord messages show the game (display only: no version bump)."""
        query = (
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        await session.execute(query)

    async def set_shown_at(self, session: AsyncSession, shown: dict[int, tuple[int, int | None]]) -> None:
        """game -> (version, message): each game's turn message, unless the game has moved on from
        that version (the call that moved it stored its own). One executemany for all."""
        if shown:
            rows = [
                {"game_id": game_id, "seen_version": version, "message_id": message_id}
                for game_id, (version, message_id) in shown.items()
            ]
            await session.execute(_SET_SHOWN_AT, rows)

    # --- seats --------------------------------------------------------------------------

    async def seats(self, session: AsyncSession, game_id: int) -> list[SeatRow]:
        query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        return list(await session.scalars(query.execution_options(populate_existing=True)))

    async def seats_of(self, session: AsyncSession, game_ids: list[int]) -> dict[int, list[SeatRow]]:
        """The seats of many games in one query (listing every active game at start-up)."""
        found: dict[int, list[SeatRow]] = {game_id: [] for game_id in game_ids}
        if game_ids:
            query = (
                select(SeatRow).where(SeatRow.game_id.in_(game_ids)).order_by(SeatRow.game_id, SeatRow.seat)
            )
            for seat in await session.scalars(query.execution_options(populate_existing=True)):
                found[seat.game_id].append(seat)
        return found

    async def update_seat(
        self, session: AsyncSession, game_id: int, seat: int, **values: Unpack[SeatValues]
    ) -> None:
        query = (
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        await session.execute(query)

    async def add_resignation(self, session: AsyncSession, game_id: int, user_id: int) -> None:
        session.add(ResignationRow(game_id=game_id, user_id=user_id))
        await session.flush()

    async def has_resigned(self, session: AsyncSession, game_id: int, user_id: int) -> bool:
        return await session.get(ResignationRow, (game_id, user_id)) is not None

    async def add_player(self, session: AsyncSession, game_id: int, user_id: int, seat: int) -> None:
        """Count `user_id` among the game's players (again: the seat they hold now)."""
        found = await session.get(GamePlayerRow, (game_id, user_id), populate_existing=True)
        if found is None:
            session.add(GamePlayerRow(game_id=game_id, user_id=user_id, seat=seat))
        else:
            found.seat = seat
        await session.flush()

    async def players(self, session: AsyncSession, game_id: int) -> list[GamePlayerRow]:
        query = select(GamePlayerRow).where(GamePlayerRow.game_id == game_id).order_by(GamePlayerRow.user_id)
        return list(await session.scalars(query.execution_options(populate_existing=True)))

    # --- members' settings --------------------------------------------------------------

    async def auto_throws(self, session: AsyncSession, user_ids: Iterable[int]) -> dict[int, bool]:
        """The auto-throw choices these members made (those who never chose are missing)."""
        rows = await session.execute(_AUTO_THROWS, {"user_ids": sorted(set(user_ids))})
        return {user_id: auto_throw for user_id, auto_throw in rows}

    async def set_auto_throw(self, session: AsyncSession, user_id: int, on: bool) -> None:
        found = await session.get(PlayerSettingsRow, user_id, populate_existing=True)
        if found is None:
            session.add(PlayerSettingsRow(user_id=user_id, auto_throw=on))
        else:
            found.auto_throw = on
        await session.flush()

    # --- the move log -------------------------------------------------------------------

    async def add_moves(self, session: AsyncSession, rows: list[dict[str, Any]]) -> None:
        """Append played throws to the log (one INSERT for all: no unit-of-work bookkeeping)."""
        await session.execute(_ADD_MOVES, rows)

    async def moves(self, session: AsyncSession, game_id: int) -> list[MoveRow]:
        query = select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.turn_number)
        return list(await session.scalars(query))

    async def move_at(self, session: AsyncSession, game_id: int, turn_number: int) -> MoveRow | None:
        """The throw played on `turn_number`, if it was."""
        query = select(MoveRow).where(MoveRow.game_id == game_id, MoveRow.turn_number == turn_number)
        return await session.scalar(query)

    async def captures_by(self, session: AsyncSession, game_id: int) -> dict[int, int]:
        """Pieces captured per user in one game (moves the computer played for them not counted)."""
        query = (
            select(MoveRow.actor_id, func.sum(MoveRow.captures))
            .where(MoveRow.game_id == game_id, MoveRow.actor_id.is_not(None))
            .group_by(MoveRow.actor_id)
        )
        return {user: int(total) for user, total in (await session.execute(query)).all() if user is not None}

    # --- statistics ---------------------------------------------------------------------

    async def add_stats(
        self,
        session: AsyncSession,
        guild_id: int,
        user_id: int,
        *,
        wins: int,
        captures: int,
        pieces_home: int,
    ) -> None:
        """Add one game to a user's totals (an upsert, so two games ending at once both count)."""
        dialect = self.engine.dialect.name
        upsert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        query = upsert(UserStatsRow).values(
            guild_id=guild_id, user_id=user_id, games=1, wins=wins, captures=captures, pieces_home=pieces_home
        )
        table = UserStatsRow.__table__.c
        query = query.on_conflict_do_update(
            index_elements=[table.guild_id, table.user_id],
            set_={
                "games": table.games + 1,
                "wins": table.wins + wins,
                "captures": table.captures + captures,
                "pieces_home": table.pieces_home + pieces_home,
            },
        )
        await session.execute(query)

    async def user_stats(self, session: AsyncSession, guild_id: int, user_id: int) -> UserStatsRow | None:
        return await session.get(UserStatsRow, (guild_id, user_id), populate_existing=True)
