"""The one store module: typed SQLAlchemy models, the engine and session maker, and the queries.

Games are kept so that a crash or a restart loses nothing: a game row holds the current position, the
pending throw (stored before anyone sees it), a turn counter and a version for optimistic checks; the
move log is append-only, so the position can always be rebuilt and compared. The game flow itself
lives in `bot.core.service`; this module only reads and writes rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, TypedDict, Unpack

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    and_,
    delete,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

ROOT = Path(__file__).resolve().parents[2]


class Status(StrEnum):
    """A game's status as stored in `games.status` (the strings are the stored values)."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class GameValues(TypedDict, total=False):
    """The `games` columns a service call may write (identity, version and times are the store's)."""

    status: str
    position: str
    pending_throw: int | None
    pending_cowries: str | None
    turn_number: int
    deadline: datetime | None
    last_move: str | None
    last_position: str | None
    conceded_to: int | None


class SeatValues(TypedDict, total=False):
    """The `seats` columns a service call may write; `hints_used` may be a SQL increment."""

    user_id: int | None
    level: str
    missed: int
    joined_at: datetime
    hints_used: int | ColumnElement[int]


SQLITE_BUSY_TIMEOUT_MS = 10_000
SCHEMA_LOCK_KEY = 0x5041_4348_4953_4931  # "PACHISI1": any fixed bigint shared by every process

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Every constraint gets a predictable name, so migrations can drop and alter them (SQLite batch mode)."""


class StoreUnavailable(Exception):
    """The database did not answer (PostgreSQL down or unreachable, SQLite locked past the busy
    timeout): the transaction was rolled back, nothing was written, the request can be repeated."""

    def __init__(self) -> None:
        super().__init__("The database is not answering right now. The game is saved; try again in a moment.")


def unavailable(error: BaseException) -> bool:
    """Whether `error` means the database could not be used (rather than a bug or a conflict)."""
    if isinstance(error, sa_exc.OperationalError | sa_exc.InterfaceError | sa_exc.TimeoutError | OSError):
        return True
    if isinstance(error, sa_exc.DBAPIError):
        return error.connection_invalidated or isinstance(error.orig, OSError)
    return type(error).__module__.startswith("asyncpg") and "Connection" in type(error).__name__


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands timestamps back without a zone; all of ours are UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


_ACTIVE = text("status = 'active'")


class GameRow(Base):
    """One game in one channel: options, status, the current position and what is pending."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    started_by: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[str] = mapped_column(String(200))
    """The rules token (`classic,last_square=off`, with players and pieces when not the default)."""
    status: Mapped[str] = mapped_column(String(16))
    position: Mapped[str] = mapped_column(Text)
    """The position about to throw, in the one-line notation."""
    pending_throw: Mapped[int | None] = mapped_column(Integer)
    pending_cowries: Mapped[str | None] = mapped_column(String(6))
    """Six faces as `1` (mouth up) and `0`."""
    turn_number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    last_move: Mapped[str | None] = mapped_column(String(16))
    last_position: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    hints: Mapped[bool] = mapped_column(Boolean, server_default=true(), default=True)
    """The game option `hints`: the Hint button and the win chances under /pachisi board."""
    card_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    """The channel that shows the table card when the game plays in a thread of it."""
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)
    conceded_to: Mapped[int | None] = mapped_column(Integer)
    """The side a resignation conceded the game to; `position` stays the live one it was resigned
    in, since the notation's `result:` names only a side with every piece home."""

    __table_args__ = (
        CheckConstraint("status IN ('active', 'finished', 'abandoned')", name="status"),
        # At most one active game per channel, enforced by the database itself.
        Index(
            "uq_games_active_channel",
            "channel_id",
            unique=True,
            sqlite_where=_ACTIVE,
            postgresql_where=_ACTIVE,
        ),
        Index(None, "status", "guild_id"),
    )


class SeatRow(Base):
    """A seat of a game: a Discord user, or the computer at `level` when `user_id` is NULL."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    level: Mapped[str] = mapped_column(String(16))
    missed: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    hints_used: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    """Hints the seat's members asked for (the game's summary counts them)."""


class ResignationRow(Base):
    """A user who resigned from a game and may not take a seat in it again."""

    __tablename__ = "resignations"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)


class GamePlayerRow(Base):
    """Everyone who held a seat in a game (the last seat they held): each gets the game counted."""

    __tablename__ = "game_players"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)


class PlayerSettingsRow(Base):
    """A member's own choices, the same in every game and server."""

    __tablename__ = "player_settings"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    auto_throw: Mapped[bool]


class MoveRow(Base):
    """One played throw, append-only: replaying a game's rows from its start rebuilds its position."""

    __tablename__ = "moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    turn_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    """The user who played it; NULL when the computer did (its own seat, or a timed-out human's)."""
    throw: Mapped[int] = mapped_column(Integer)
    cowries: Mapped[str] = mapped_column(String(6))
    move: Mapped[str | None] = mapped_column(String(16))
    """`black:12-16`, or NULL when the throw offered no move."""
    captures: Mapped[int] = mapped_column(Integer)
    by_timer: Mapped[bool]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("game_id", "turn_number"),)


class UserStatsRow(Base):
    """A user's totals in one guild, updated once per game when it ends."""

    __tablename__ = "user_stats"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    captures: Mapped[int] = mapped_column(Integer)
    pieces_home: Mapped[int] = mapped_column(Integer)


class CommandSyncRow(Base):
    """The hash of the slash commands last synced to Discord, per scope (0: global, else a guild id),
    so that processes starting with the same commands do not overwrite them again."""

    __tablename__ = "command_sync"

    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    payload_hash: Mapped[str] = mapped_column(String(64))
    synced_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A member's rating in one guild (OpenSkill mu and sigma, bot/core/ratings.py) and rated games.

    Games are counted against people (some opponent was a member) and against computers apart.
    """

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games_people: Mapped[int] = mapped_column(Integer)
    wins_people: Mapped[int] = mapped_column(Integer)
    games_computers: Mapped[int] = mapped_column(Integer)
    wins_computers: Mapped[int] = mapped_column(Integer)

    @property
    def games(self) -> int:
        return self.games_people + self.games_computers


# --- engine and sessions -------------------------------------------------------------------


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine; on SQLite, WAL, a busy timeout, foreign keys and write-locking transactions.

    SQLite transactions begin with BEGIN IMMEDIATE: a transaction that reads a game and then writes it
    holds the write lock from the start, so a concurrent writer waits (busy timeout) instead of failing
    to upgrade a stale read snapshot.
    """
    if make_url(url).get_backend_name() == "postgresql":
        kwargs.setdefault("pool_pre_ping", True)  # after a server restart, pooled connections are dead
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (_sqlite_begin)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def lock_schema(connection: Connection) -> None:
    """Hold the one schema lock until this transaction ends: processes starting together take turns
    to migrate (and to sync the slash commands) instead of racing. On PostgreSQL an advisory lock;
    SQLite's BEGIN IMMEDIATE already lets one writer in at a time."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})")


class Store:
    """The database: an engine, one session maker, and the queries the game flow needs."""

    def __init__(self, url: str, **engine_kwargs: Any) -> None:
        self.url = url
        self.engine = make_engine(url, **engine_kwargs)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def close(self) -> None:
        await self.engine.dispose()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One transaction: committed when the block ends, rolled back if it raises; a database
        that does not answer raises StoreUnavailable."""
        try:
            async with self.sessions() as session, session.begin():
                yield session
        except Exception as exc:
            if unavailable(exc):
                raise StoreUnavailable() from exc
            raise

    @asynccontextmanager
    async def schema_locked(self) -> AsyncIterator[AsyncSession]:
        """A transaction holding the schema lock of the migrations (`lock_schema`)."""
        async with self.transaction() as session:
            await (await session.connection()).run_sync(lock_schema)
            yield session

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
    ) -> tuple[GameRow, list[SeatRow]] | None:
        """A game with its seats in one round trip (every service call starts with this)."""
        query = (
            select(GameRow, SeatRow)
            .join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(GameRow.id == game_id)
            .order_by(SeatRow.seat)
            .execution_options(populate_existing=True)
        )
        rows = (await session.execute(query)).all()
        return (rows[0][0], [seat for _, seat in rows]) if rows else None

    async def active_game(self, session: AsyncSession, channel_id: int) -> GameRow | None:
        query = select(GameRow).where(GameRow.channel_id == channel_id, GameRow.status == Status.ACTIVE)
        return (await session.scalars(query)).first()

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
        query = (
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.version == version)
            .values(version=version + 1, updated_at=utcnow(), **values)
            .execution_options(synchronize_session=False)
        )
        result = await session.execute(query)
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def set_message(self, session: AsyncSession, game_id: int, message_id: int | None) -> None:
        query = (
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(message_id=message_id)
            .execution_options(synchronize_session=False)
        )
        await session.execute(query)

    async def set_card(self, session: AsyncSession, game_id: int, message_id: int | None) -> None:
        query = (
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(card_message_id=message_id)
            .execution_options(synchronize_session=False)
        )
        await session.execute(query)

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

    async def auto_throw(self, session: AsyncSession, user_id: int) -> bool | None:
        """The member's auto-throw choice, None if they never made one."""
        found = await session.get(PlayerSettingsRow, user_id, populate_existing=True)
        return None if found is None else found.auto_throw

    async def set_auto_throw(self, session: AsyncSession, user_id: int, on: bool) -> None:
        found = await session.get(PlayerSettingsRow, user_id, populate_existing=True)
        if found is None:
            session.add(PlayerSettingsRow(user_id=user_id, auto_throw=on))
        else:
            found.auto_throw = on
        await session.flush()

    # --- the move log -------------------------------------------------------------------

    async def add_move(self, session: AsyncSession, **values: Any) -> None:
        """Append one played throw to the log (a plain INSERT: no unit-of-work bookkeeping)."""
        await session.execute(insert(MoveRow).values(**values))

    async def moves(self, session: AsyncSession, game_id: int) -> list[MoveRow]:
        query = select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.turn_number)
        return list(await session.scalars(query))

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

    async def leaderboard(self, session: AsyncSession, guild_id: int, limit: int) -> list[UserStatsRow]:
        query = (
            select(UserStatsRow)
            .where(UserStatsRow.guild_id == guild_id)
            .order_by(
                UserStatsRow.wins.desc(),
                UserStatsRow.pieces_home.desc(),
                UserStatsRow.captures.desc(),
                UserStatsRow.games,
                UserStatsRow.user_id,
            )
            .limit(limit)
        )
        return list(await session.scalars(query))

    # --- ratings and history ------------------------------------------------------------

    async def ratings(
        self, session: AsyncSession, guild_id: int, user_ids: Iterable[int], *, lock: bool = False
    ) -> dict[int, RatingRow]:
        """The users' rating rows; `lock` holds them (PostgreSQL) until the transaction ends."""
        query = (
            select(RatingRow)
            .where(RatingRow.guild_id == guild_id, RatingRow.user_id.in_(sorted(set(user_ids))))
            .order_by(RatingRow.user_id)
            .execution_options(populate_existing=True)
        )
        if lock:
            query = query.with_for_update()
        return {row.user_id: row for row in await session.scalars(query)}

    async def add_ratings(
        self, session: AsyncSession, guild_id: int, user_ids: Iterable[int], mu: float, sigma: float
    ) -> None:
        """A starting rating row for each user who has none (an upsert: races add each row once)."""
        dialect = self.engine.dialect.name
        upsert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        for user_id in sorted(set(user_ids)):
            query = upsert(RatingRow).values(
                guild_id=guild_id,
                user_id=user_id,
                mu=mu,
                sigma=sigma,
                games_people=0,
                wins_people=0,
                games_computers=0,
                wins_computers=0,
            )
            await session.execute(query.on_conflict_do_nothing())

    async def clear_ratings(self, session: AsyncSession, guild_id: int | None = None) -> None:
        query = delete(RatingRow)
        if guild_id is not None:
            query = query.where(RatingRow.guild_id == guild_id)
        await session.execute(query)

    async def rating_board(
        self, session: AsyncSession, guild_id: int, min_games: int, limit: int
    ) -> list[RatingRow]:
        """Rows with at least `min_games` rated games, by ordinal (mu - 3 sigma), best first."""
        query = (
            select(RatingRow)
            .where(
                RatingRow.guild_id == guild_id,
                RatingRow.games_people + RatingRow.games_computers >= min_games,
            )
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.user_id)
            .limit(limit)
        )
        return list(await session.scalars(query))

    async def finished_games(self, session: AsyncSession, guild_id: int | None = None) -> list[GameRow]:
        """Finished games in the order they ended (by their last move), for rebuilding ratings."""
        last = (
            select(MoveRow.game_id, func.max(MoveRow.id).label("last")).group_by(MoveRow.game_id).subquery()
        )
        query = (
            select(GameRow)
            .join(last, last.c.game_id == GameRow.id)
            .where(GameRow.status == Status.FINISHED)
            .order_by(last.c.last)
        )
        if guild_id is not None:
            query = query.where(GameRow.guild_id == guild_id)
        return list(await session.scalars(query))

    async def recent_games(
        self, session: AsyncSession, guild_id: int, limit: int, channel_id: int | None = None
    ) -> list[GameRow]:
        """A guild's games (or one channel's), newest first."""
        query = select(GameRow).where(GameRow.guild_id == guild_id)
        if channel_id is not None:
            query = query.where(GameRow.channel_id == channel_id)
        query = query.order_by(GameRow.id.desc()).limit(limit).execution_options(populate_existing=True)
        return list(await session.scalars(query))


# --- migrations ----------------------------------------------------------------------------


def alembic_config(url: str | None = None) -> Any:
    """Alembic's config for our migrations folder, pointing at `url` when given."""
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` to `revision` (the bot calls this at start-up)."""
    await _run_alembic(url, "upgrade", revision)


async def downgrade(url: str, revision: str = "base") -> None:
    await _run_alembic(url, "downgrade", revision)


async def _run_alembic(url: str, command_name: str, revision: str) -> None:
    """Run an Alembic command on a connection of ours (migrations/env.py uses it when given one)."""
    from alembic import command

    config = alembic_config(url)
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:

            def run(sync_connection: Connection) -> None:
                config.attributes["connection"] = sync_connection
                getattr(command, command_name)(config, revision)

            await connection.run_sync(run)
    finally:
        await engine.dispose()
