"""`/pachisi stats` and `/pachisi leaderboard`: members' records in a server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.group import PachisiCommands

if TYPE_CHECKING:
    from bot.client import PachisiBot


class StatsCog(PachisiCommands, name="Stats"):
    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.service = bot.service

    @app_commands.command(name="stats", description="A member's Pachisi record in this server")
    @app_commands.describe(member="whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = member or interaction.user
        assert interaction.guild_id is not None
        record = await self.service.stats(interaction.guild_id, who.id)
        await interaction.response.send_message(
            f"**{who.display_name}**: {record.games} games, {record.wins} wins, "
            f"{record.captures} captures, {record.pieces_home} pieces home.",
            ephemeral=True,
        )

    @app_commands.command(name="leaderboard", description="The best Pachisi players in this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await self.service.leaderboard(interaction.guild_id, limit=10)
        if not rows:
            await interaction.response.send_message("No finished games in this server yet.", ephemeral=True)
            return
        lines = [
            f"{rank}. <@{row.user_id}>: {row.wins} wins in {row.games} games, {row.captures} captures"
            for rank, row in enumerate(rows, start=1)
        ]
        await interaction.response.send_message(
            "**Leaderboard**\n" + "\n".join(lines),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(StatsCog(bot))
