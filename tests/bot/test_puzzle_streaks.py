"""The daily puzzle's flow on real databases: the day's pick, streaks, one answer a day however
fast the clicks, and each server's daily post made once however many processes share the store."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.core.errors import GameError
from bot.core.puzzles import EPOCH, Puzzles, Streak, day_of, next_day, number_on, the_set
from bot.core.store import Store
from tests.support.services import ALICE, BOB, GUILD, Clock


def test_a_year_of_days_shows_a_year_of_different_puzzles() -> None:
    assert len(the_set()) >= 366
    for start in (EPOCH, date(2027, 3, 1), date(2031, 12, 31)):
        numbers = [number_on(start + timedelta(days=n)) for n in range(366)]
        assert len(set(numbers)) == 366
    assert number_on(EPOCH) == 1 and number_on(EPOCH + timedelta(days=len(the_set()))) == 1


def test_the_day_is_the_utc_date() -> None:
    late = datetime(2026, 5, 31, 23, 30, tzinfo=UTC)
    assert day_of(late) == date(2026, 5, 31)
    india = datetime.fromisoformat("2026-06-01T05:00+05:30").tzinfo
    assert day_of(late.astimezone(india)) == date(2026, 5, 31)  # already June 1st in India
    assert next_day(late) == datetime(2026, 6, 1, tzinfo=UTC)


async def _answer(puzzles: Puzzles, clock: Clock, user: int, *, right: bool) -> Streak:
    daily = await puzzles.daily(user)
    moves = daily.puzzle.moves()
    move = daily.puzzle.best if right else next(m for m in moves if m != daily.puzzle.best)
    answered = await puzzles.answer(user, user, daily.number, daily.day.toordinal(), move)
    assert answered.answer is not None and answered.answer.solved == right
    assert (await puzzles.daily(user)).answer == answered.answer
    return answered.streak


async def test_streaks_count_days_in_a_row_solved(store: Store) -> None:
    clock = Clock()
    puzzles = Puzzles(store, clock)
    assert await puzzles.streak(ALICE) == Streak()
    results = []
    for right, days in [(True, 1), (True, 1), (True, 2), (True, 1), (False, 1), (True, 0)]:
        results.append((await _answer(puzzles, clock, ALICE, right=right)).current)
        clock.advance(days * 86400)
    assert results == [1, 2, 3, 1, 0, 1]
    assert await puzzles.streak(ALICE) == Streak(current=1, best=3, answered=6, solved=5)
    clock.advance(2 * 86400)  # a day went by unsolved
    assert await puzzles.streak(ALICE) == Streak(current=0, best=3, answered=6, solved=5)
    assert await puzzles.streak(BOB) == Streak()


async def test_two_answers_at_once_count_once(store: Store) -> None:
    clock = Clock()
    puzzles = Puzzles(store, clock)
    daily = await puzzles.daily(ALICE)
    moves = daily.puzzle.moves()
    results = await asyncio.gather(
        *(puzzles.answer(ALICE, ALICE, daily.number, daily.day.toordinal(), move) for move in moves),
        return_exceptions=True,
    )
    counted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(counted) == 1 and len(refused) == len(moves) - 1
    assert {r.key for r in refused} == {"puzzle_answered"}
    assert (await puzzles.streak(ALICE)).answered == 1


async def test_answers_are_refused_for_another_member_another_day_or_puzzle(store: Store) -> None:
    clock = Clock()
    puzzles = Puzzles(store, clock)
    daily = await puzzles.daily(ALICE)
    best, day, number = daily.puzzle.best, daily.day, daily.number
    other = number % len(the_set()) + 1
    tomorrow, yesterday = day + timedelta(days=1), day - timedelta(days=1)
    cases = [
        ((BOB, ALICE, number, day.toordinal(), best), "puzzle_not_yours"),
        ((ALICE, ALICE, other, day.toordinal(), best), "puzzle_forged"),
        ((ALICE, ALICE, 0, day.toordinal(), best), "puzzle_forged"),
        ((ALICE, ALICE, number, 0, best), "puzzle_forged"),
        ((ALICE, ALICE, number_on(tomorrow), tomorrow.toordinal(), best), "puzzle_forged"),
        ((ALICE, ALICE, number_on(yesterday), yesterday.toordinal(), best), "puzzle_old"),
    ]
    for args, key in cases:
        with pytest.raises(GameError) as refused:
            await puzzles.answer(*args)
        assert refused.value.key == key
    assert await puzzles.streak(ALICE) == Streak()


async def test_each_days_post_is_made_once_by_one_of_many_processes(store: Store) -> None:
    clock = Clock()
    clock.now = datetime(2026, 1, 30, 9, tzinfo=UTC)
    other_store = Store(store.url)  # a second process on the same database
    try:
        here, there = Puzzles(store, clock), Puzzles(other_store, clock)
        await here.set_channel(GUILD, 500, ALICE)
        await here.set_channel(GUILD + 1, 600, BOB)
        await here.set_ping(GUILD, BOB, True)
        days = []
        for _ in range(3):
            found = await asyncio.gather(
                here.due_posts([GUILD, GUILD + 1]), there.due_posts([GUILD, GUILD + 1])
            )
            posts = sorted(found[0] + found[1], key=lambda p: p.guild_id)
            assert [(p.guild_id, p.channel_id) for p in posts] == [(GUILD, 500), (GUILD + 1, 600)]
            assert posts[0].pings == (BOB,) and posts[1].pings == ()
            assert await here.due_posts([GUILD, GUILD + 1]) == []
            days.append((posts[0].day, posts[0].new_month))
            clock.advance(86400)
        assert days == [(date(2026, 1, 30), False), (date(2026, 1, 31), False), (date(2026, 2, 1), True)]
        assert await here.stop_channel(GUILD) and not await here.stop_channel(GUILD)
        clock.advance(86400)
        assert [p.guild_id for p in await there.due_posts([GUILD, GUILD + 1])] == [GUILD + 1]
    finally:
        await other_store.close()
