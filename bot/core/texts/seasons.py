"""Seasons in words: a season's leaderboard, the last season's top three, a member's season rating.

A season is a calendar month (UTC), named as `2026-05` (bot/core/ratings.py)."""

from __future__ import annotations

from bot.core import ratings
from bot.core.store import RatingColumns
from bot.core.texts.language import Language
from bot.core.texts.records import board_lines, rating

MEDALS = ("🥇", "🥈", "🥉")


def leaderboard(
    lang: Language, season: str, rows: list[RatingColumns], last: str, podium: list[RatingColumns]
) -> str:
    """`/pachisi leaderboard` for `season`, with the top three of the season before (`last`)."""
    if rows:
        lines = [
            lang.gettext(
                "**Leaderboard, season {season}** (the games that ended in it; by rating, surest first)",
                season=season,
            ),
            *board_lines(lang, rows),
        ]
    else:
        lines = [
            lang.ngettext(
                "Nobody has played {count} rated game in season {season} yet.",
                "Nobody has played {count} rated games in season {season} yet.",
                ratings.MIN_GAMES,
                season=season,
            )
        ]
    if podium:
        lines.append(top_three(lang, last, podium))
    lines.append(lang.gettext("`season:` shows an earlier season, or all time."))
    return "\n".join(lines)


def top_three(lang: Language, season: str, podium: list[RatingColumns]) -> str:
    """`Season 2026-04's top three: 🥇 <@a> **1620** ± 90 · 🥈 ...`."""
    places = [
        lang.gettext("{medal} <@{user}> {rating}", medal=medal, user=row.user_id, rating=rating(lang, row))
        for medal, row in zip(MEDALS, podium, strict=False)
    ]
    return lang.gettext("Season {season}'s top three: {places}", season=season, places=" · ".join(places))


def season_rating(lang: Language, season: str, row: RatingColumns | None) -> str:
    """A member's rating in the season, for `/pachisi stats`."""
    if row is None:
        return lang.gettext("Season {season}: no rated game yet.", season=season)
    return lang.ngettext(
        "Season {season}: rating {rating} in {count} game.",
        "Season {season}: rating {rating} in {count} games.",
        row.games,
        season=season,
        rating=rating(lang, row),
    )


def all_time(lang: Language) -> str:
    """The choice of the `season:` option that shows the all-time leaderboard."""
    return lang.gettext("all time")
