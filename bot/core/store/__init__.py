"""The store: the tables (`models`), the database and its transactions (`database`), and the
queries the bot needs (`games`, `standings`). A game's changes live in `bot.core.service`;
the store only reads and writes rows."""

from bot.core.store.database import (
    SCHEMA_LOCK_KEY,
    SQLITE_BUSY_TIMEOUT_MS,
    StoreUnavailable,
    alembic_config,
    downgrade,
    lock_schema,
    make_engine,
    unavailable,
    upgrade,
)
from bot.core.store.games import GameQueries
from bot.core.store.models import (
    NAMING_CONVENTION,
    Base,
    CommandSyncRow,
    EntrantRow,
    GamePlayerRow,
    GameRow,
    GameValues,
    MoveRow,
    PlayerSettingsRow,
    PuzzleAnswerRow,
    PuzzleChannelRow,
    PuzzlePingRow,
    PuzzleStreakRow,
    RatingColumns,
    RatingRow,
    ResignationRow,
    SeasonRatingRow,
    SeatRow,
    SeatValues,
    ShownValues,
    Status,
    TournamentRoundRow,
    TournamentRow,
    TournamentSeatRow,
    TournamentStatus,
    TournamentTableRow,
    UserStatsRow,
    aware,
    utcnow,
)
from bot.core.store.puzzles import PuzzleQueries
from bot.core.store.standings import StandingQueries
from bot.core.store.tournaments import TournamentQueries


class Store(GameQueries, StandingQueries, PuzzleQueries, TournamentQueries):
    """The database: an engine, one session maker, and every query the bot makes."""


__all__ = [
    "NAMING_CONVENTION",
    "SCHEMA_LOCK_KEY",
    "SQLITE_BUSY_TIMEOUT_MS",
    "Base",
    "CommandSyncRow",
    "EntrantRow",
    "GamePlayerRow",
    "GameRow",
    "GameValues",
    "MoveRow",
    "PlayerSettingsRow",
    "PuzzleAnswerRow",
    "PuzzleChannelRow",
    "PuzzlePingRow",
    "PuzzleStreakRow",
    "RatingColumns",
    "RatingRow",
    "ResignationRow",
    "SeasonRatingRow",
    "SeatRow",
    "SeatValues",
    "ShownValues",
    "Status",
    "Store",
    "StoreUnavailable",
    "TournamentRoundRow",
    "TournamentRow",
    "TournamentSeatRow",
    "TournamentStatus",
    "TournamentTableRow",
    "UserStatsRow",
    "alembic_config",
    "aware",
    "downgrade",
    "lock_schema",
    "make_engine",
    "unavailable",
    "upgrade",
    "utcnow",
]
