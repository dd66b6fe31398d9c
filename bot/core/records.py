"""A game's record and the server's history, from the store's move log (no Discord here).

`game_record` turns a game's rows into an engine `Record` (checked throw by throw), `history`
lists the newest games with who played them, `tallies` counts each seat's throws for the summary
at the end. What a finished game does to its members' ratings and stats is `bot.core.stats`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.core.snapshot import stored_position
from bot.core.store import (
    GameRow,
    MoveRow,
    SeatRow,
    Status,
    Store,
    aware,
)
from engine.record import SEAT_TAGS, Record, Throw
from engine.rules import Rules
from engine.state import parse_move, result_text, side_seats


@dataclass(frozen=True)
class GameSummary:
    """One line of `/pachisi history`."""

    id: int
    created_at: datetime
    status: str
    rules: Rules
    throws: int
    result: str
    """The winning side, `draw`, `*` (abandoned), or `active`."""
    seats: dict[int, list[Member]]


Member = int | str
"""A user id, or `computer:<level>`."""


def seat_players(seats: Sequence[SeatRow], moves: Sequence[MoveRow]) -> dict[int, list[Member]]:
    """Who played each seat, in order: users by id, computers as `computer:<level>`.

    A throw the clock played for an absent member (`by_timer`) is still that member's turn; a seat
    nobody threw for yet lists its current occupant.
    """
    levels = {s.seat: s.level for s in seats}
    found: dict[int, list[Member]] = {}
    for row in moves:
        if row.by_timer:
            continue
        who: Member = row.actor_id if row.actor_id is not None else f"computer:{levels[row.seat]}"
        players = found.setdefault(row.seat, [])
        if not players or players[-1] != who:
            players.append(who)
    for seat in seats:
        if seat.seat not in found:
            found[seat.seat] = [seat.user_id if seat.user_id is not None else f"computer:{seat.level}"]
    return dict(sorted(found.items()))


def player_text(member: Member, names: Mapping[int, str]) -> str:
    """`Asha (user 5512)` or `computer (hard)`, as the record's seat tags write players."""
    if isinstance(member, int):
        name = " ".join(names.get(member, f"user {member}").replace(";", ",").split())
        return f"{name} (user {member})"
    return f"computer ({member.removeprefix('computer:')})"


def game_record(
    game: GameRow,
    seats: Sequence[SeatRow],
    moves: Sequence[MoveRow],
    names: Mapping[int, str] | None = None,
    site: str | None = None,
) -> Record:
    """A stored game as a checked record; raises RecordError if its log breaks the rules."""
    names = names or {}
    rules = Rules.parse(game.rules)
    created = aware(game.created_at)
    tags = {"Event": "Pachisi"}
    if site:
        tags["Site"] = site
    tags["Game"] = str(game.id)
    if created is not None:
        tags["Date"] = created.strftime("%Y-%m-%d")
        tags["Time"] = created.strftime("%H:%M:%S")
    for seat, players in seat_players(seats, moves).items():
        tags[SEAT_TAGS[seat]] = "; ".join(player_text(p, names) for p in players)
    throws = [
        Throw(row.seat, row.throw, parse_move(row.move or "pass"), "timer" if row.by_timer else "")
        for row in moves
    ]
    stopped = "abandoned" if game.status == Status.ABANDONED else "unfinished"
    resigned = None if game.conceded_to is None else side_seats(1 - game.conceded_to, rules.players)[0]
    return Record.play(rules, throws, tags, stopped=stopped, resigned=resigned)


def record_filename(game: GameRow, extension: str = "txt") -> str:
    return f"pachisi-game-{game.id}.{extension}"


@dataclass(frozen=True)
class StoredGame:
    """A game's rows, as the record and the replay are built from them."""

    game: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]

    @property
    def users(self) -> set[int]:
        found = {s.user_id for s in self.seats if s.user_id is not None}
        return found | {m.actor_id for m in self.moves if m.actor_id is not None}


async def stored_game(store: Store, guild_id: int, channel_id: int, game_id: int | None) -> StoredGame | None:
    """Game `game_id` of this guild, or without one the channel's newest game (a table played in a
    thread of it included); None if there is none."""
    async with store.transaction() as session:
        if game_id is None:
            newest = await store.recent_games(session, guild_id, 1, channel_id=channel_id)
            game = newest[0] if newest else None
        else:
            game = await store.game(session, game_id)
        if game is None or game.guild_id != guild_id:
            return None
        return StoredGame(game, await store.seats(session, game.id), await store.moves(session, game.id))


@dataclass(frozen=True)
class SeatTally:
    """How one seat's game went, for the summary at the end."""

    seat: int
    throws: int
    turns: int
    """Runs of consecutive throws: a grace or a capture extends a turn."""
    captures: int


async def tallies(store: Store, game_id: int) -> dict[int, SeatTally]:
    """Throws, turns and captures per seat, counted from the move log."""
    async with store.transaction() as session:
        rows = await store.moves(session, game_id)
    counts: dict[int, list[int]] = {}
    previous: int | None = None
    for row in rows:
        throws, turns, captures = counts.setdefault(row.seat, [0, 0, 0])
        counts[row.seat] = [throws + 1, turns + (row.seat != previous), captures + row.captures]
        previous = row.seat
    return {seat: SeatTally(seat, *numbers) for seat, numbers in counts.items()}


async def game_players(store: Store, game_id: int) -> dict[int, int]:
    """Everyone who held a seat in the game: member -> the seat they held last."""
    async with store.transaction() as session:
        return {p.user_id: p.seat for p in await store.players(session, game_id)}


# --- history ------------------------------------------------------------------------------


async def history(store: Store, guild_id: int, limit: int = 10) -> list[GameSummary]:
    """The guild's newest games with who played them, their rules, result and length."""
    async with store.transaction() as session:
        games = await store.recent_games(session, guild_id, limit)
        seats = await store.seats_of(session, [g.id for g in games])
        summaries = []
        for game in games:
            moves = await store.moves(session, game.id)
            position = stored_position(game)
            rules = Rules.parse(game.rules)
            if game.status == Status.ACTIVE:
                result = "active"
            elif position.result is None:
                result = "*"
            else:
                result = result_text(position.result, rules.players)
            summaries.append(
                GameSummary(
                    game.id,
                    aware(game.created_at) or game.created_at,
                    game.status,
                    rules,
                    game.turn_number,
                    result,
                    seat_players(seats.get(game.id, []), moves),
                )
            )
    return summaries


__all__ = [
    "GameSummary",
    "SeatTally",
    "StoredGame",
    "game_players",
    "game_record",
    "history",
    "record_filename",
    "seat_players",
    "stored_game",
    "tallies",
]
