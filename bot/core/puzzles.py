"""The daily puzzle: the same position for everyone on a UTC day, one answer a member, streaks, and
the servers' daily posts (no Discord here: the cog `bot.cogs.puzzle` shows it).

The day's puzzle is picked from the checked-in set (engine/puzzle_set.py) by the date alone: day
`EPOCH + n` shows entry `n` modulo the set's size, so no two days of a year show the same puzzle
while the set holds more than 366, and a set of whole weeks keeps each puzzle's grade on its
weekday. A streak is the number of days in a row a member solved the day's puzzle: a wrong answer
ends it, and so does a day without one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.core.errors import GameError
from bot.core.store import PuzzleAnswerRow, PuzzleStreakRow, Store
from engine.puzzles import Puzzle, read_set
from engine.state import Move

EPOCH = date(2026, 1, 1)
"""The day that shows the set's first puzzle (the set's grades follow its weekdays from there)."""


@functools.cache
def the_set() -> tuple[Puzzle, ...]:
    from engine.puzzle_set import LINES

    return read_set(LINES)


def day_of(moment: datetime) -> date:
    """The UTC date of a moment: the puzzle's day."""
    return moment.astimezone(UTC).date()


def number_on(day: date) -> int:
    """The number (from 1) of the puzzle shown on `day`."""
    return (day - EPOCH).days % len(the_set()) + 1


def next_day(moment: datetime) -> datetime:
    """The midnight (UTC) after `moment`, when the next puzzle comes."""
    return datetime.combine(day_of(moment) + timedelta(days=1), datetime.min.time(), UTC)


@dataclass(frozen=True)
class Streak:
    """A member's record: the streak as it stands today (0 once a day went by unsolved), the best."""

    current: int = 0
    best: int = 0
    answered: int = 0
    solved: int = 0

    @classmethod
    def of(cls, row: PuzzleStreakRow | None, today: date) -> Streak:
        if row is None:
            return cls()
        alive = row.last_solved is not None and row.last_solved >= today - timedelta(days=1)
        return cls(row.current if alive else 0, row.best, row.answered, row.solved)


@dataclass(frozen=True)
class Answer:
    move: Move
    solved: bool


@dataclass(frozen=True)
class Daily:
    """A day's puzzle as a member sees it: their answer, if they gave one, and their streak."""

    day: date
    number: int
    puzzle: Puzzle
    answer: Answer | None
    streak: Streak


@dataclass(frozen=True)
class Post:
    """A daily post due in a server's channel: who asked to be pinged, and whether it is the first
    of a new month (a season just ended)."""

    guild_id: int
    channel_id: int
    day: date
    number: int
    pings: tuple[int, ...]
    new_month: bool


class Puzzles:
    """The daily puzzle's flow: each call is one transaction."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    def today(self) -> date:
        return day_of(self.clock())

    async def daily(self, user_id: int) -> Daily:
        """Today's puzzle for a member, with their answer if they gave one."""
        day = self.today()
        async with self.store.transaction() as session:
            row = await self.store.puzzle_answer(session, user_id, day)
            streak = await self.store.puzzle_streak(session, user_id)
        return self._daily(day, row, streak)

    def _daily(self, day: date, row: PuzzleAnswerRow | None, streak: PuzzleStreakRow | None) -> Daily:
        number = number_on(day)
        answer = None if row is None else Answer(Move.parse(row.move), row.solved)
        return Daily(day, number, the_set()[number - 1], answer, Streak.of(streak, day))

    async def answer(self, user_id: int, owner_id: int, number: int, day_number: int, move: Move) -> Daily:
        """The member answers puzzle `number` of the day `day_number` (a date's ordinal), as their
        button says, with `move`: it counts once, and the streak moves. Refused: another member's
        puzzle, an earlier day's, a day, puzzle or move that was never shown, a second answer."""
        today = self.today()
        if owner_id != user_id:
            raise GameError("puzzle_not_yours")
        try:
            day = date.fromordinal(day_number)
        except ValueError:
            raise GameError("puzzle_forged") from None
        if day > today or number != number_on(day):
            raise GameError("puzzle_forged")
        if day < today:
            raise GameError("puzzle_old")
        puzzle = the_set()[number - 1]
        if move not in puzzle.moves():
            raise GameError("puzzle_forged")
        solved = move == puzzle.best
        async with self.store.transaction() as session:
            added = await self.store.add_puzzle_answer(
                session, user_id, day, number, str(move), solved, self.clock()
            )
            if not added:
                raise GameError("puzzle_answered")
            row = await self.store.puzzle_streak(session, user_id, lock=True)
            assert row is not None
            _count(row, day, solved)
        return Daily(day, number, puzzle, Answer(move, solved), Streak.of(row, day))

    async def streak(self, user_id: int) -> Streak:
        async with self.store.transaction() as session:
            row = await self.store.puzzle_streak(session, user_id)
        return Streak.of(row, self.today())

    # --- the servers' daily posts -------------------------------------------------------

    async def set_channel(self, guild_id: int, channel_id: int, user_id: int) -> None:
        async with self.store.transaction() as session:
            await self.store.set_puzzle_channel(session, guild_id, channel_id, user_id)

    async def stop_channel(self, guild_id: int) -> bool:
        async with self.store.transaction() as session:
            return await self.store.clear_puzzle_channel(session, guild_id)

    async def set_ping(self, guild_id: int, user_id: int, on: bool) -> bool:
        """Ping the member by the server's daily post, or not; whether the server has a channel."""
        async with self.store.transaction() as session:
            await self.store.set_puzzle_ping(session, guild_id, user_id, on)
            return await self.store.puzzle_channel(session, guild_id) is not None

    async def due_posts(self, guild_ids: Iterable[int]) -> list[Post]:
        """Today's posts not yet made in these servers, each claimed so that it is made once."""
        day = self.today()
        found = []
        async with self.store.transaction() as session:
            for row in await self.store.puzzle_channels(session, guild_ids):
                last = row.posted_on
                if (last is not None and last >= day) or not await self.store.claim_puzzle_post(
                    session, row.guild_id, day
                ):
                    continue
                pings = tuple(await self.store.puzzle_pings(session, row.guild_id))
                new_month = last is not None and (last.year, last.month) != (day.year, day.month)
                found.append(Post(row.guild_id, row.channel_id, day, number_on(day), pings, new_month))
        return found


def _count(row: PuzzleStreakRow, day: date, solved: bool) -> None:
    """One more answer in a member's record: a solve extends yesterday's streak or starts one."""
    row.answered += 1
    if not solved:
        row.current = 0
        return
    row.solved += 1
    row.current = row.current + 1 if row.last_solved == day - timedelta(days=1) else 1
    row.last_solved = day
    row.best = max(row.best, row.current)
