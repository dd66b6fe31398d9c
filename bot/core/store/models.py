"""The tables: typed SQLAlchemy models, and the shapes of the values the service writes.

Games are kept so that a crash or a restart loses nothing: a game row holds the current position, the
pending throw (stored before anyone sees it), a turn counter and a version for optimistic checks; the
move log is append-only, so the position can always be rebuilt and compared.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import TypedDict

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement


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
    message_id: int | None


class ShownValues(TypedDict, total=False):
    """The Discord messages that show a game: its turn message and its table card."""

    message_id: int | None
    card_message_id: int | None


class SeatValues(TypedDict, total=False):
    """The `seats` columns a service call may write; `hints_used` may be a SQL increment."""

    user_id: int | None
    level: str
    missed: int
    joined_at: datetime
    hints_used: int | ColumnElement[int]
    name: str | None


NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Every constraint gets a predictable name, so migrations can drop and alter them (SQLite batch mode)."""


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
    language: Mapped[str] = mapped_column(String(16), server_default="en", default="en")
    """The table's language (Discord's locale code, e.g. `hi`): what the table shares is in it."""
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the game left `active` (the bot's clock): the season its ratings count in."""
    starter_name: Mapped[str | None] = mapped_column(String(100))
    """The starter's display name when they started it (the card's "Asha's table" after a restart)."""
    turn_seconds: Mapped[int | None] = mapped_column(Integer)
    """A member's time for a turn in this game (a tournament's move time); NULL: the bot's setting."""
    rematch_id: Mapped[int | None] = mapped_column(Integer)
    """The game its Rematch opened, written once in that game's transaction: a second Rematch
    finds it (`Store.claim_rematch`)."""

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
    name: Mapped[str | None] = mapped_column(String(100))
    """The seated member's display name as the bot saw it when they sat down: the board's panel
    draws it after a restart, when the process has not seen the member yet. NULL: a computer."""


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


class RatingColumns:
    """A member's rating (OpenSkill mu and sigma, bot/core/ratings.py) and their rated games, counted
    against people (some opponent was a member) and against computers apart."""

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


class RatingRow(RatingColumns, Base):
    """A member's all-time rating in one guild."""

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)


class SeasonRatingRow(RatingColumns, Base):
    """A member's rating in one guild's season: a calendar month (UTC), `2026-05`, in which every
    member starts afresh. A game counts in the season it ended in (`games.ended_at`)."""

    __tablename__ = "season_ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    season: Mapped[str] = mapped_column(String(7), primary_key=True)


class PuzzleAnswerRow(Base):
    """A member's one answer to a day's puzzle (the day is the key: a second answer is refused)."""

    __tablename__ = "puzzle_answers"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    """The puzzle's day (UTC)."""
    puzzle: Mapped[int] = mapped_column(Integer)
    """Its number in the set (engine/puzzle_set.py, from 1)."""
    move: Mapped[str] = mapped_column(String(16))
    solved: Mapped[bool]
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleStreakRow(Base):
    """A member's daily-puzzle record: days in a row solved (up to `last_solved`), the best such
    run, and how many puzzles they answered and solved."""

    __tablename__ = "puzzle_streaks"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    current: Mapped[int] = mapped_column(Integer)
    best: Mapped[int] = mapped_column(Integer)
    last_solved: Mapped[date | None] = mapped_column(Date)
    answered: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)


class PuzzleChannelRow(Base):
    """The channel a server's admins chose for the daily puzzle post, and the last day posted."""

    __tablename__ = "puzzle_channels"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    set_by: Mapped[int] = mapped_column(BigInteger)
    posted_on: Mapped[date | None] = mapped_column(Date)


class PuzzlePingRow(Base):
    """A member who asked to be pinged by a server's daily puzzle post."""

    __tablename__ = "puzzle_pings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)


# --- tournaments -----------------------------------------------------------------------------


class TournamentStatus(StrEnum):
    """A tournament's status as stored in `tournaments.status`."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


_LIVE = text("status IN ('signup', 'running')")


class TournamentRow(Base):
    """An event in one channel: its settings as the organizer opened it, and where it stands."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    organizer_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    format: Mapped[str] = mapped_column(String(16))
    """`swiss` or `round-robin`."""
    rounds: Mapped[int] = mapped_column(Integer)
    """The rounds to play: the organizer's for a Swiss, the schedule's for a round robin (set at start)."""
    table_size: Mapped[int] = mapped_column(Integer)
    """2, or 4 in partnerships."""
    rules: Mapped[str] = mapped_column(String(200))
    """Every table's rules token, players included (`classic,players=2`)."""
    move_seconds: Mapped[int] = mapped_column(Integer)
    round_seconds: Mapped[int] = mapped_column(Integer)
    """A round's time limit: a game still playing then is adjudicated by the win chance."""
    signup_closes_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    level: Mapped[str] = mapped_column(String(16))
    """The computer's level where it fills a seat (a bye's opponent, a short table)."""
    language: Mapped[str] = mapped_column(String(16), server_default="en", default="en")
    status: Mapped[str] = mapped_column(String(16))
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    """The organizer holds the next round until they say."""
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    """The round being played or last played; 0 before the first."""
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The sign-up card in the channel (Join and Leave), edited as the event goes."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("status IN ('signup', 'running', 'finished', 'cancelled')", name="status"),
        CheckConstraint("format IN ('swiss', 'round-robin')", name="format"),
        CheckConstraint("table_size IN (2, 4)", name="table_size"),
        # At most one live tournament per channel: its card is the channel's.
        Index(
            "uq_tournaments_live_channel",
            "channel_id",
            unique=True,
            sqlite_where=_LIVE,
            postgresql_where=_LIVE,
        ),
    )


class EntrantRow(Base):
    """A member signed up for a tournament, their rating as they entered, and when they withdrew."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(100))
    rating: Mapped[int] = mapped_column(Integer)
    """The rating shown in the server when they joined, again when the event started."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)
    """The first round whose game counts as their loss; NULL while they play on."""


class TournamentRoundRow(Base):
    """A round: when it was paired, its time limit, and when its last game was decided."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TournamentTableRow(Base):
    """One game of a round: its game once opened, and its result once decided."""

    __tablename__ = "tournament_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    """The table's number in its round, from 1 (the best placed first)."""
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), unique=True)
    winner: Mapped[int | None] = mapped_column(Integer)
    """The winning side (0 or 1); NULL for a draw or while undecided."""
    decided_by: Mapped[str | None] = mapped_column(String(16))
    """`game`, `adjudication` (the win chance at the round's limit) or `forfeit`; NULL while it plays."""
    win_chance: Mapped[float | None] = mapped_column(Double)
    """An adjudication's chance for the side it gave the game to."""
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "number"),
        CheckConstraint("decided_by IN ('game', 'adjudication', 'forfeit')", name="decided_by"),
    )


class TournamentSeatRow(Base):
    """A place at a tournament table: its side (0 or 1), its place in the side, a member or the
    computer (NULL)."""

    __tablename__ = "tournament_seats"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_tables.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[int] = mapped_column(Integer, primary_key=True)
    place: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
