"""`/pachisi export`, `/pachisi replay` and `/pachisi history`: a server's games after they are played.

The store's move log is the source: the record and the animation are built from it, off the event
loop (the bot's render pool), and sent as attachments.
"""

from __future__ import annotations

import asyncio
import functools
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.answers import language_of, tell
from bot.cogs.group import PachisiCommands
from bot.core import records
from bot.core.errors import NoGame
from bot.core.texts import records as words
from bot.core.texts.language import choose
from engine.record import Record
from render.replay import replay_gif

if TYPE_CHECKING:
    from bot.client import PachisiBot

UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a bot without a boosted server."""
HISTORY_LIMIT = 10


class RecordsCog(PachisiCommands, name="Records"):
    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.store = bot.store

    @app_commands.command(name="export", description="A game's record as a text file (like PGN for chess)")
    @app_commands.describe(game="the game's number from /pachisi history (default: this channel's latest)")
    async def export(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        stored = await self.find(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.record(interaction, stored)
        name = records.record_filename(stored.game)
        await interaction.followup.send(
            words.export(language_of(interaction), stored.game.id, record, self.bot.settings.project_url),
            file=discord.File(io.BytesIO(record.text().encode()), name),
            ephemeral=True,
        )

    @app_commands.command(name="replay", description="Post an animation of a whole game")
    @app_commands.describe(game="the game's number from /pachisi history (default: this channel's latest)")
    async def replay(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        stored = await self.find(interaction, game)
        if not stored.moves:
            raise NoGame("no_throws", game=stored.game.id)
        await interaction.response.defer(thinking=True)
        record = await self.record(interaction, stored)
        lang = choose(stored.game.language)  # posted for the channel: the table's, as its boards were
        draw = functools.partial(replay_gif, record, words=lang.picture)
        gif = await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, draw)
        if len(gif) > UPLOAD_LIMIT:
            await interaction.followup.send(words.replay_too_large(lang, stored.game.id))
            return
        await interaction.followup.send(
            words.replay(lang, stored.game.id, record),
            file=discord.File(io.BytesIO(gif), records.record_filename(stored.game, "gif")),
        )

    @app_commands.command(name="history", description="This server's recent games")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        games = await records.history(self.store, interaction.guild_id, HISTORY_LIMIT)
        await tell(interaction, words.history(language_of(interaction), games))

    # --- helpers --------------------------------------------------------------------------

    async def find(self, interaction: discord.Interaction[Any], game_id: int | None) -> records.StoredGame:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        stored = await records.stored_game(self.store, interaction.guild_id, interaction.channel_id, game_id)
        if stored is None:
            if game_id is None:
                raise NoGame("no_game_here")
            raise NoGame("no_such_game", game=game_id)
        return stored

    async def record(self, interaction: discord.Interaction[Any], stored: records.StoredGame) -> Record:
        """The checked record, with members' names and the server and channel, built off the loop."""
        names = self.stored_names(stored)
        names.update({user: name for user in stored.users if (name := self.member_name(interaction, user))})
        site = None
        if interaction.guild is not None:
            channel = self.bot.get_channel(stored.game.channel_id)
            where = f" #{channel.name}" if isinstance(channel, discord.abc.GuildChannel) else ""
            site = f"Discord: {interaction.guild.name}{where}"
        build = functools.partial(records.game_record, stored.game, stored.seats, stored.moves, names, site)
        return await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, build)

    def member_name(self, interaction: discord.Interaction[Any], user_id: int) -> str | None:
        """A display name from what the bot knows without asking Discord; None: `user <id>`."""
        if interaction.user.id == user_id:
            return interaction.user.display_name
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        user = member or self.bot.get_user(user_id)
        if user is not None:
            return user.display_name
        return self.bot.table.flow.names.get(user_id)  # the game flow remembers who played

    @staticmethod
    def stored_names(stored: records.StoredGame) -> dict[int, str]:
        """The names stored with the game's seats (their members when the game was last written)."""
        return {seat.user_id: seat.name for seat in stored.seats if seat.user_id and seat.name}


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(RecordsCog(bot))
