"""`/pachisi puzzle`, `/pachisi puzzle-channel` and `/pachisi puzzle-ping`: the daily puzzle.

The puzzle goes only to the member who asks (ephemeral): the board with the throw and the lettered
choices, and a button per choice (`bot.cogs.pachisi.buttons.PuzzleButton`), whose id names the
puzzle, its day and the member it was sent to, so a click is judged without anything kept in
memory (`bot.cogs.puzzle_answer`). The answer replaces the question: the verdict, every choice's
chance and reasons, the tactic.

A server's admins choose a channel for a short daily post at midnight UTC (`puzzle_channel`); it
pings only the members who asked (`puzzle_ping`), and the first post of a month shows the season
that ended's top three. A task waits on the bot's clock for each
midnight, and each post is claimed in the database first, so it is made once however many
processes serve the server.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

import render
from bot.cogs.answers import NO_MENTIONS, language_of, tell
from bot.cogs.group import PachisiCommands
from bot.cogs.pachisi.buttons import PuzzleButton, face
from bot.cogs.puzzle_answer import analysis
from bot.core import ratings, stats
from bot.core.errors import GameError
from bot.core.puzzles import Daily, Post, Puzzles, next_day
from bot.core.texts import Language, board, puzzles, seasons
from bot.core.texts.language import choose

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

PODIUM = 3
"""A season's top three, shown in the first post of the next month."""


def choice_view(lang: Language, daily: Daily, user_id: int) -> discord.ui.View:
    """One button per choice, lettered as on the board, carrying the puzzle, day and member."""
    position = daily.puzzle.position
    choices = discord.ui.View(timeout=None)
    for index, move in enumerate(daily.puzzle.moves()):
        label = board.choice_button(lang, index, position, move)
        choices.add_item(
            PuzzleButton(daily.number, daily.day.toordinal(), user_id, move, **face(label, "primary"))
        )
    return choices


class PuzzleCog(PachisiCommands, name="Puzzle"):
    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.puzzles = Puzzles(bot.store, bot.clock.now)
        self.poster: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.poster = asyncio.create_task(self.post_every_day(), name="puzzle-poster")

    async def cog_unload(self) -> None:
        await super().cog_unload()
        if self.poster is not None:
            self.poster.cancel()

    # --- the puzzle -----------------------------------------------------------------------

    @app_commands.command(name="puzzle", description="Today's Pachisi puzzle: find the best move")
    async def puzzle(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = language_of(interaction)
        daily = await self.puzzles.daily(interaction.user.id)
        png = await self.board_png(lang, daily)
        if daily.answer is not None:
            content = puzzles.verdict(lang, daily, await analysis(self.bot, daily))
            view = None
        else:
            content = puzzles.question(lang, daily)
            view = choice_view(lang, daily, interaction.user.id)
        await interaction.followup.send(
            content,
            file=discord.File(io.BytesIO(png), "puzzle.png"),
            view=view or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    async def board_png(self, lang: Language, daily: Daily) -> bytes:
        puzzle = daily.puzzle
        draw = functools.partial(
            render.board_png,
            puzzle.position,
            throw=puzzle.throw,
            choices=puzzle.moves(),
            words=lang.picture,
        )
        return await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, draw)

    # --- the daily post -------------------------------------------------------------------

    @app_commands.command(
        name="puzzle-channel", description="Post the daily puzzle in this channel (Manage Channels)"
    )
    @app_commands.describe(post="here: post it in this channel every day; off: stop posting it")
    async def puzzle_channel(
        self, interaction: discord.Interaction[Any], post: Literal["here", "off"] = "here"
    ) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or not member.guild_permissions.manage_channels:
            raise GameError("puzzle_channel_manage")
        assert interaction.guild_id is not None and interaction.channel_id is not None
        lang = language_of(interaction)
        if post == "off":
            stopped = await self.puzzles.stop_channel(interaction.guild_id)
            await tell(interaction, puzzles.channel_stopped(lang, stopped))
            return
        permissions = interaction.app_permissions
        if not (permissions.view_channel and permissions.send_messages):
            raise GameError("puzzle_cannot_post")
        await self.puzzles.set_channel(interaction.guild_id, interaction.channel_id, member.id)
        await tell(interaction, puzzles.channel_set(lang, interaction.channel_id))
        await self.post_due([interaction.guild_id])  # today's post at once: the member sees it works

    @app_commands.command(name="puzzle-ping", description="Be pinged by this server's daily puzzle post")
    @app_commands.describe(ping="on: the daily post mentions you; off: it does not (the default)")
    async def puzzle_ping(self, interaction: discord.Interaction[Any], ping: Literal["on", "off"]) -> None:
        assert interaction.guild_id is not None
        has_channel = await self.puzzles.set_ping(interaction.guild_id, interaction.user.id, ping == "on")
        await tell(interaction, puzzles.ping_set(language_of(interaction), ping == "on", has_channel))

    async def post_every_day(self) -> None:
        """Post in every server that asked, now if today's post is due, then at each midnight."""
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.post_due([guild.id for guild in self.bot.guilds])
            except Exception:  # a database or Discord outage: try again at the next midnight
                log.exception("daily puzzle posts failed")
            await self.bot.clock.sleep_until(next_day(self.bot.clock.now()))

    async def post_due(self, guild_ids: list[int]) -> None:
        for post in await self.puzzles.due_posts(guild_ids):
            try:
                await self.send_post(post)
            except discord.HTTPException as exc:
                log.warning(
                    "daily puzzle post failed guild=%s channel=%s: %s", post.guild_id, post.channel_id, exc
                )

    async def send_post(self, post: Post) -> None:
        channel = self.bot.get_channel(post.channel_id) or await self.bot.fetch_channel(post.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        lang = self.language(post.guild_id)
        text = puzzles.daily_post(lang, post.number, post.day, post.pings)
        if post.new_month:  # a season has ended: its top three
            ended = ratings.previous_season(f"{post.day.year:04d}-{post.day.month:02d}")
            podium = await stats.leaderboard(self.bot.store, post.guild_id, limit=PODIUM, season=ended)
            if podium:
                text += "\n" + seasons.top_three(lang, ended, podium)
        mentions = discord.AllowedMentions(users=[discord.Object(user) for user in post.pings])
        await channel.send(text, allowed_mentions=mentions if post.pings else NO_MENTIONS)

    def language(self, guild_id: int) -> Language:
        """The language of a post the whole server reads: the server's own, when the bot speaks it."""
        guild = self.bot.get_guild(guild_id)
        return choose(guild.preferred_locale.value if guild is not None else None)


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(PuzzleCog(bot))
