"""Where a new table plays, on Discord: a new public thread of the channel (with the table card in
the channel), or the thread or channel the member is in when they asked for none, or the bot may
not make one. The table layer opens the game there (`Seats.open`)."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.cogs.pachisi.channels import refusals
from bot.core.texts.language import choose
from bot.table.channel import NotPermitted, Reply
from bot.table.seats import Opening, Place, Seats

THREAD_ARCHIVE_MINUTES: Final = 1440
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


async def open_table(
    interaction: discord.Interaction[Any], reply: Reply, seats: Seats, opening: Opening
) -> None:
    """Open `opening` where the member asked (the interaction is deferred)."""
    assert interaction.guild_id is not None and interaction.channel_id is not None
    here = interaction.channel
    missing = [p for p in THREAD_PERMISSIONS if not getattr(interaction.app_permissions, p)]
    place = Place(interaction.guild_id, interaction.channel_id)
    wants_thread = (
        opening.thread and not isinstance(here, discord.Thread) and isinstance(here, discord.TextChannel)
    )
    if wants_thread and not missing:
        assert isinstance(here, discord.TextChannel)
        created = await here.create_thread(
            name=await seats.thread_name(
                choose(opening.language), interaction.user.id, interaction.user.display_name, here.id
            ),
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread,
        )
        place = Place(interaction.guild_id, created.id, card_channel_id=interaction.channel_id)
    await seats.open(reply, place, opening, note=missing if wants_thread else [])


class DiscordThreads:
    """The table layer's `Threads` on Discord: a tournament table's public thread of its channel."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def open_thread(self, channel_id: int, guild_id: int, name: str) -> int:
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise NotPermitted(403, 0)
        with refusals():
            created = await channel.create_thread(
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread,
            )
        return created.id


class DiscordRoster:
    """The table layer's `Roster` on Discord: a member the server no longer has (Unknown Member)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def gone(self, guild_id: int, members: list[int]) -> list[int]:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return []
        found = []
        for member in members:
            try:
                await guild.fetch_member(member)
            except discord.NotFound:
                found.append(member)
            except discord.HTTPException:
                continue  # cannot tell now: asked again before the next round
        return found
