"""The table's start-up and its places going: when the gateway is ready, each guild's games are
resumed (`bot.table.resumer`), then its tournaments' rounds and clocks; a game whose channel,
thread or server is gone is abandoned."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import PachisiBot


class Resume(commands.Cog):
    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.resumer = bot.table.resumer
        self.resumed_guilds: set[int] = set()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Resume the games of guilds this process has not resumed yet (READY comes again after a
        reconnect, with guilds it may not have had the first time)."""
        guilds = [g.id for g in self.bot.guilds if g.id not in self.resumed_guilds]
        self.resumed_guilds.update(guilds)
        if guilds:
            await self.resumer.resume(guilds)
            await self.bot.table.tournaments.resume(guilds)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.resumer.place_gone(channel.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self.resumer.place_gone(thread.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.resumer.guild_gone(guild.id)
