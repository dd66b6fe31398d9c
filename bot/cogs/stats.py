"""`/pachisi stats` and `/pachisi leaderboard`: members' records and ratings in a server.

Ratings are OpenSkill's (bot/core/ratings.py), shown on the scale chess players know (a newcomer
shows 1500, with a `?` until their third rated game); the leaderboard ranks by the conservative
`skill - 3 x uncertainty`, which rises as a member plays and wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.answers import language_of
from bot.cogs.group import PachisiCommands
from bot.core import records
from bot.core.texts import records as words

if TYPE_CHECKING:
    from bot.client import PachisiBot


class StatsCog(PachisiCommands, name="Stats"):
    @app_commands.command(name="stats", description="A member's Pachisi record in this server")
    @app_commands.describe(member="whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = member or interaction.user
        assert interaction.guild_id is not None
        record = await records.member_stats(self.bot.store, interaction.guild_id, who.id)
        rating = await records.member_rating(self.bot.store, interaction.guild_id, who.id)
        text = words.stats(language_of(interaction), who.display_name, record, rating)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="leaderboard", description="The best Pachisi players in this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await records.leaderboard(self.bot.store, interaction.guild_id, limit=10)
        await interaction.response.send_message(
            words.leaderboard(language_of(interaction), rows),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(StatsCog(bot))
