"""`/pachisi stats` and `/pachisi leaderboard`: members' stats and ratings in a server.

Ratings are OpenSkill's (bot/core/ratings.py), shown on the scale chess players know (a newcomer
shows 1500, with a `?` until their third rated game); the leaderboard ranks by the conservative
`skill - 3 x uncertainty`, which rises as a member plays and wins. Ratings are kept all time and per
season (a calendar month, UTC, starting afresh): the leaderboard shows the current season, with the
last season's top three; `season:` picks an earlier one, or all time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.answers import language_of
from bot.cogs.group import PachisiCommands
from bot.core import ratings, stats
from bot.core.errors import GameError
from bot.core.puzzles import Puzzles
from bot.core.texts import puzzles, seasons
from bot.core.texts import records as words

if TYPE_CHECKING:
    from bot.client import PachisiBot

ALL_TIME = "all"
"""The `season:` value of the all-time leaderboard."""
PODIUM = 3


class StatsCog(PachisiCommands, name="Stats"):
    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.puzzles = Puzzles(bot.store, bot.clock.now)

    def season(self) -> str:
        """The season now (the bot's clock)."""
        return ratings.season_of(self.bot.clock.now())

    @app_commands.command(name="stats", description="A member's Pachisi record in this server")
    @app_commands.describe(member="whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = member or interaction.user
        assert interaction.guild_id is not None
        store, guild, season = self.bot.store, interaction.guild_id, self.season()
        record = await stats.member_stats(store, guild, who.id)
        rating = await stats.member_rating(store, guild, who.id)
        season_row = await stats.member_season_rating(store, guild, season, who.id)
        streak = await self.puzzles.streak(who.id)
        lang = language_of(interaction)
        lines = [
            words.stats(lang, who.display_name, record, rating),
            seasons.season_rating(lang, season, season_row),
            puzzles.stats_line(lang, streak),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="leaderboard", description="The best Pachisi players in this server")
    @app_commands.describe(season="a month like 2026-05, or all time (default: this month's season)")
    async def leaderboard(self, interaction: discord.Interaction[Any], season: str | None = None) -> None:
        assert interaction.guild_id is not None
        store, guild, lang = self.bot.store, interaction.guild_id, language_of(interaction)
        wanted = (season or self.season()).strip()
        if wanted == ALL_TIME:
            text = words.leaderboard(lang, await stats.leaderboard(store, guild, limit=10))
        elif ratings.is_season(wanted):
            rows = await stats.leaderboard(store, guild, limit=10, season=wanted)
            last = ratings.previous_season(wanted)
            podium = await stats.leaderboard(store, guild, limit=PODIUM, season=last)
            text = seasons.leaderboard(lang, wanted, rows, last, podium)
        else:
            raise GameError("unknown_season", typed=wanted)
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @leaderboard.autocomplete("season")
    async def season_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """All time, then the server's seasons with a rated game, newest first."""
        assert interaction.guild_id is not None
        lang = language_of(interaction)
        found = [(seasons.all_time(lang), ALL_TIME)]
        found += [(name, name) for name in await stats.seasons(self.bot.store, interaction.guild_id)]
        typed = current.strip().lower()
        return [app_commands.Choice(name=n, value=v) for n, v in found if typed in n.lower()][:25]


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(StatsCog(bot))
