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

from bot.cogs.answers import tell
from bot.cogs.group import PachisiCommands
from bot.core import records
from bot.core.errors import NoGame
from engine.record import Record
from render.moves import side_words
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
            f"The record of game #{stored.game.id}: {len(record.throws)} throws, {_result(record)}. "
            f"Check it with `python -m engine replay {name}`.",
            file=discord.File(io.BytesIO(record.text().encode()), name),
            ephemeral=True,
        )

    @app_commands.command(name="replay", description="Post an animation of a whole game")
    @app_commands.describe(game="the game's number from /pachisi history (default: this channel's latest)")
    async def replay(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        stored = await self.find(interaction, game)
        if not stored.moves:
            raise NoGame(f"Game #{stored.game.id} has no throws yet: nothing to replay.")
        await interaction.response.defer(thinking=True)
        record = await self.record(interaction, stored)
        gif = await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, replay_gif, record)
        if len(gif) > UPLOAD_LIMIT:
            await interaction.followup.send(f"The replay of game #{stored.game.id} is too large to post.")
            return
        await interaction.followup.send(
            f"Game #{stored.game.id}: {len(record.throws)} throws, {_result(record)}.",
            file=discord.File(io.BytesIO(gif), records.record_filename(stored.game, "gif")),
        )

    @app_commands.command(name="history", description="This server's recent games")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        games = await records.history(self.store, interaction.guild_id, HISTORY_LIMIT)
        if not games:
            await tell(interaction, "No games in this server yet. Start one with `/pachisi start`.")
            return
        lines = [_history_line(g) for g in games]
        lines.append(
            "Replay one with `/pachisi replay game:<number>`, or get its record with `/pachisi export`."
        )
        await tell(interaction, "**Recent games**\n" + "\n".join(lines))

    # --- helpers --------------------------------------------------------------------------

    async def find(self, interaction: discord.Interaction[Any], game_id: int | None) -> records.StoredGame:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        stored = await records.stored_game(self.store, interaction.guild_id, interaction.channel_id, game_id)
        if stored is None:
            if game_id is None:
                raise NoGame(
                    "No game has been played in this channel. `/pachisi history` lists the server's."
                )
            raise NoGame(f"There is no game #{game_id} in this server. `/pachisi history` lists its games.")
        return stored

    async def record(self, interaction: discord.Interaction[Any], stored: records.StoredGame) -> Record:
        """The checked record, with members' names and the server and channel, built off the loop."""
        names = {user: name for user in stored.users if (name := self.member_name(interaction, user))}
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
        tables = self.bot.get_cog("Pachisi")  # the table flow remembers the names of who played
        known: dict[int, str] = getattr(tables, "names", {})
        return known.get(user_id)


def _result(record: Record) -> str:
    if record.result == "*":
        return "abandoned" if record.termination == "abandoned" else "still being played"
    if record.result == "draw":
        return "a draw (frozen)" if record.termination == "frozen" else "a draw (throw limit)"
    sides = record.result.replace("+", " + ").title()
    return f"{sides} won by resignation" if record.termination == "resignation" else f"{sides} won"


def _member_text(member: records.Member) -> str:
    if isinstance(member, int):
        return f"<@{member}>"
    return f"computer ({member.removeprefix('computer:')})"


def _history_line(game: records.GameSummary) -> str:
    rules = game.rules
    pieces = "1 piece" if rules.pieces == 1 else f"{rules.pieces} pieces"
    shape = f"{rules.players} players" + (f", {pieces}" if rules.pieces != 4 else "")
    sides = " vs ".join(
        ", ".join(_member_text(m) for m in records.side_members(game, side)) or "nobody" for side in (0, 1)
    )
    if game.result == "active":
        result = "in play"
    elif game.result == "*":
        result = "abandoned"
    elif game.result == "draw":
        result = "draw"
    else:
        side = 0 if game.result.startswith("black") else 1
        result = f"{side_words(side, rules.players)} won"
    when = game.created_at.strftime("%Y-%m-%d %H:%M")
    return f"`#{game.id}` {when} UTC · {rules.token()}, {shape} · {sides} · {result} · {game.throws} throws"


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(RecordsCog(bot))
