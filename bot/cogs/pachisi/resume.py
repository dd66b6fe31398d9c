"""After a (re)start: every game of this process's guilds is shown as it stands, and games whose
channel, thread or server is gone are closed.

A process can die anywhere: after a throw or move was stored and before the message showed it,
after a post reached Discord and before its id was stored (an orphan with live buttons), after
the last move and before the result was posted. Resuming finds each of these from the store and
the channel's recent messages and shows the game once, as it stands; it says nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.cogs.pachisi.buttons import MoveButton, ThrowButton, item_of, read
from bot.cogs.pachisi.views import disabled_copy
from bot.core import present
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

ORPHAN_SEARCH = 25
"""Messages read back, on resume, for turn messages a killed process posted but never stored."""
PLAYING = (ThrowButton, MoveButton)
"""The buttons that play a turn (the Hint and Take a seat do not)."""


class Resume(commands.Cog):
    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.flow = bot.flow
        self.service = bot.service
        self.resumed_guilds: set[int] = set()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Resume the games of guilds this process has not resumed yet (READY comes again after a
        reconnect, with guilds it may not have had the first time)."""
        guilds = [g.id for g in self.bot.guilds if g.id not in self.resumed_guilds]
        self.resumed_guilds.update(guilds)
        if guilds:
            await self.resume(guilds)

    async def resume(self, guild_ids: Iterable[int]) -> None:
        games = await self.service.active_games(guild_ids, unannounced=True)
        for game in games:
            try:
                async with self.flow.locked(game.id):
                    await self.resume_game(game.id)
            except Exception:
                log.exception("game=%s could not be resumed", game.id)
        log.info("resumed games=%d", len(games))

    async def resume_game(self, game_id: int) -> None:
        current = await self.service.get(game_id)
        if current.status == Status.FINISHED:
            await self.flow.show(Played(current))  # the last move is stored, its result not posted
            return
        if current.status != Status.ACTIVE:
            return
        carded = current.card_message_id is not None  # else a card posted by a killed process is an orphan
        if carded and current.is_human_turn() and await self.turn_is_shown(current):
            self.flow.timers.schedule(current)
            return
        await self.retire_orphans(current)
        played = Played(current) if current.is_human_turn() else await self.service.play_on(game_id)
        await self.flow.show(played)

    async def retire_orphans(self, game: GameSnapshot) -> None:
        """Disable the buttons of this game's messages that the store does not know: a process
        killed after Discord took a turn's post and before its id was stored left one, live."""
        channel = self.flow.channel(game)
        if channel is None:
            return
        try:
            async for message in channel.history(limit=ORPHAN_SEARCH):
                if (
                    message.id in (game.message_id, game.card_message_id)
                    or self.bot.user is None
                    or message.author.id != self.bot.user.id
                ):
                    continue
                if any(game_of(custom_id) == game.id for custom_id in live_buttons(message)):
                    buttons = disabled_copy(message)
                    if buttons is not None:
                        await self.flow.writer.pacer.wait(channel.id, "edit")
                        await message.edit(view=buttons)
                    log.info("game=%s retired orphan message=%s", game.id, message.id)
        except (discord.NotFound, discord.Forbidden):
            pass  # no history to read: the orphan stays, and a click on it is refused as stale

    async def turn_is_shown(self, game: GameSnapshot) -> bool:
        """Whether the stored turn message offers this turn's buttons: a process killed between
        committing a throw or move and updating the message leaves buttons nobody can use."""
        channel = self.flow.channel(game)
        message = None if channel is None else await self.flow.stored_message(game, channel)
        if message is None:
            return False
        lang = self.flow.language(game)
        planned = [item_of(button) for button in present.turn_buttons(lang, game)]
        expected = {item.custom_id for item in planned if isinstance(item, PLAYING)}
        shown = {c for c in live_buttons(message) if isinstance(read(c), PLAYING)}
        return expected == shown

    # --- a game's place is gone ---------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        game = await self.service.get_active(channel.id)
        if game is not None:
            await self.flow.abandon(game.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        game = await self.service.get_active(thread.id)
        if game is not None:
            await self.flow.abandon(game.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for game in await self.service.active_games([guild.id]):
            await self.flow.abandon(game.id)


def game_of(custom_id: str) -> int | None:
    """The game a button id belongs to, if it is a game button's."""
    button = read(custom_id)
    return None if button is None else button.game_id


def live_buttons(message: discord.Message) -> list[str]:
    """The custom ids of a message's buttons that can still be clicked."""
    return [
        child.custom_id
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button) and not child.disabled and child.custom_id
    ]
