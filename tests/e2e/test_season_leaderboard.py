"""Seasons through the fake Discord: the leaderboard shows this month's season by default with the
last season's top three, `season:` an earlier one or all time, and the puzzle channel's first post
of a month names the season that ended's top three. (How games land in seasons, and the rebuild:
tests/bot/test_seasons.py.)"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from bot.core import ratings
from bot.core.store import RatingRow, SeasonRatingRow
from tests.support.table import MovableClock, Table

SKILLS = {
    "mu": 30.0,
    "sigma": 2.0,
    "games_people": 2,
    "wins_people": 2,
    "games_computers": 2,
    "wins_computers": 1,
}


async def rate(table: Table, season: str | None, users: list[int], games: int = 4) -> None:
    """Give each of `users` a rating (best first) in `season`, or all time."""
    async with table.bot.store.transaction() as session:
        for place, user in enumerate(users):
            values = {
                **SKILLS,
                "mu": 30.0 - place,
                "games_people": games // 2,
                "games_computers": games - games // 2,
            }
            if season is None:
                session.add(RatingRow(guild_id=table.guild.id, user_id=user, **values))
            else:
                session.add(SeasonRatingRow(guild_id=table.guild.id, season=season, user_id=user, **values))


def mentioned(text: str, users: list[int]) -> list[int]:
    """`users` in the order `text` names them."""
    return sorted((u for u in users if f"<@{u}>" in text), key=lambda u: text.index(f"<@{u}>"))


async def test_the_leaderboard_shows_this_season_the_last_ones_top_three_an_earlier_one_or_all_time(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    clock = MovableClock()
    async with start_table(clock=clock) as table:
        now = ratings.season_of(clock.now())
        last = ratings.previous_season(now)
        people = [table.alice, table.bob, table.guild.add_member("Cy"), table.guild.add_member("Di")]
        ids = [p.id for p in people]
        await rate(table, now, [ids[1], ids[0]])
        await rate(table, last, [ids[2], ids[3], ids[0], ids[1]])
        await rate(table, None, [ids[3], ids[2], ids[1], ids[0]], games=8)
        await rate(table, "2025-01", [ids[0]], games=2)  # too few games to rank

        default = (await table.alice.slash(table.channel, "pachisi leaderboard")).content
        head, *rest = default.splitlines()
        assert head.startswith(f"**Leaderboard, season {now}**")
        assert mentioned("\n".join(rest[:2]), ids) == [ids[1], ids[0]]
        podium = next(line for line in rest if line.startswith(f"Season {last}'s top three: "))
        assert mentioned(podium, ids) == [ids[2], ids[3], ids[0]] and "🥇" in podium

        earlier = (await table.alice.slash(table.channel, "pachisi leaderboard", season=last)).content
        assert earlier.startswith(f"**Leaderboard, season {last}**")
        assert mentioned(earlier.split("top three")[0], ids) == [ids[2], ids[3], ids[0], ids[1]]

        all_time = (await table.alice.slash(table.channel, "pachisi leaderboard", season="all")).content
        assert all_time.startswith("**Leaderboard**") and mentioned(all_time, ids) == [
            ids[3],
            ids[2],
            ids[1],
            ids[0],
        ]

        unranked = (await table.alice.slash(table.channel, "pachisi leaderboard", season="2025-01")).content
        assert unranked.startswith("Nobody has played 3 rated games in season 2025-01 yet.")

        refused = await table.alice.slash(table.channel, "pachisi leaderboard", season="May")
        assert refused.ephemeral and refused.content.startswith("`May` is not a season")

        offered = await table.alice.autocomplete(table.channel, "pachisi leaderboard", "season", "")
        assert [value for _, value in offered] == ["all", now, last, "2025-01"]
        assert offered[0][0] == "all time"

        stats = (await table.alice.slash(table.channel, "pachisi stats")).content
        assert f"Season {now}: rating **" in stats and "in 4 games." in stats


async def test_the_first_puzzle_post_of_a_month_names_the_last_seasons_top_three(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    clock = MovableClock()
    now = clock.now()
    month_end = datetime.datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=datetime.UTC)
    clock.advance((month_end - now).total_seconds() - 12 * 3600)  # noon of the month's last day
    async with start_table(clock=clock) as table:
        ending = ratings.season_of(clock.now())
        ids = [table.alice.id, table.bob.id]
        await rate(table, ending, ids)
        table.fake.server.set_moderator(table.guild.record, table.alice.record, True)
        await table.alice.slash(table.channel, "pachisi puzzle-channel")
        first = await table.fake.wait_until(
            lambda: table.channel.messages[-1:] and table.channel.messages[-1], what="today's post"
        )
        assert first.content.startswith("🧩") and "top three" not in first.content

        clock.advance(24 * 3600)
        second = await table.fake.wait_until(
            lambda: len(table.channel.messages) > 1 and table.channel.messages[-1],
            what="the new month's post",
        )
        assert second.content.startswith("🧩")
        line = second.content.splitlines()[-1]
        assert line.startswith(f"Season {ending}'s top three: 🥇 ") and mentioned(line, ids) == ids
        assert second.pinged == []  # named, not pinged
