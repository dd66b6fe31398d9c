"""`/pachisi stats` and `/pachisi leaderboard`: members' records and ratings in a server.

Ratings are OpenSkill's (bot/core/ratings.py): `skill ± uncertainty`, and the rating shown and ranked by
is the conservative `skill - 3 x uncertainty`, which rises as a member plays and wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.group import PachisiCommands
from bot.core import ratings, records
from bot.core.store import RatingRow

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
        rating = await records.member_rating(self.bot.store, interaction.guild_id, who.id)
        await interaction.response.send_message(
            f"**{who.display_name}**: {record.games} games, {record.wins} wins, "
            f"{record.captures} captures, {record.pieces_home} pieces home.\n" + rating_text(rating),
            ephemeral=True,
        )

    @app_commands.command(name="leaderboard", description="The best Pachisi players in this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await records.leaderboard(self.bot.store, interaction.guild_id, limit=10)
        if not rows:
            await interaction.response.send_message(
                f"Nobody has played {ratings.MIN_GAMES} rated games in this server yet.", ephemeral=True
            )
            return
        lines = [
            f"{rank}. <@{row.user_id}>: **{_ordinal(row):.1f}** (skill {row.mu:.1f} ± {row.sigma:.1f}), "
            f"{row.wins_people + row.wins_computers} wins in {row.games} games"
            for rank, row in enumerate(rows, start=1)
        ]
        await interaction.response.send_message(
            "**Leaderboard** (by rating)\n" + "\n".join(lines),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def _ordinal(row: RatingRow) -> float:
    return ratings.Rating(row.mu, row.sigma).ordinal


def rating_text(row: RatingRow | None) -> str:
    """The stats' rating line: the rating, skill and uncertainty, people and computers apart."""
    if row is None:
        return "Not rated yet: a finished game against people or computers gives a rating."
    return (
        f"Rating **{_ordinal(row):.1f}** (skill {row.mu:.1f} ± {row.sigma:.1f}) · "
        f"against people {row.wins_people} wins in {row.games_people} games · "
        f"against computers {row.wins_computers} wins in {row.games_computers} games."
    )


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(StatsCog(bot))
