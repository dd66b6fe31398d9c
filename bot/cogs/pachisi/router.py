"""The game buttons' router: a click is matched to its handler by the action in its custom id,
checked, and handed to the table with the service call it makes.

Handlers hold no game logic: the service decides (and refuses), the table shows. Other modules
add their buttons with `add_button` (the Hint does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cogs.pachisi.seats import Seats
from bot.cogs.pachisi.table import Table
from bot.cogs.pachisi.views import ButtonHandler, GameButton
from bot.core.errors import AlreadyThrown, GameError
from bot.core.present import JOIN, MOVE, REMATCH, THROW
from bot.core.snapshot import Played
from engine import parse_move
from engine.errors import NotationError

if TYPE_CHECKING:
    from bot.client import PachisiBot


def clicked(interaction: discord.Interaction[Any]) -> int | None:
    """The message whose button was clicked (it shows the answer)."""
    return interaction.message.id if interaction.message is not None else None


class Router(commands.Cog, name="Pachisi"):
    """Routes every game button to its handler."""

    def __init__(self, bot: PachisiBot, tables: Table, seats: Seats) -> None:
        self.bot = bot
        self.table = tables
        self.seats = seats
        self.service = bot.service
        self.buttons: dict[str, ButtonHandler] = {}
        self.add_button(THROW, self.on_throw)
        self.add_button(MOVE, self.on_move)
        self.add_button(JOIN, self.on_join)
        self.add_button(REMATCH, self.on_rematch)

    async def cog_unload(self) -> None:
        self.table.timers.cancel_all()

    def add_button(self, action: str, handler: ButtonHandler) -> None:
        """Route clicks on buttons with this action to `handler`."""
        self.buttons[action] = handler

    async def on_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        handler = self.buttons.get(button.action)
        if handler is None:
            raise GameError("stale_button")
        await handler(interaction, button)

    async def on_throw(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        user = interaction.user.id

        async def throw() -> Played:
            try:
                return await self.service.act(
                    button.game_id, user, button.turn, shown_on=clicked(interaction)
                )
            except AlreadyThrown:
                # The throw is stored but this message still offers "Throw" (a restart between
                # the two): show the stored throw's choices on it.
                return Played(await self.service.get(button.game_id))

        await self.table.click(interaction, button.game_id, throw)

    async def on_move(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        try:
            move = parse_move(button.arg or "")
        except NotationError:
            move = None
        if move is None:  # unreadable, or `pass`, which no button offers
            raise GameError("stale_button")
        user = interaction.user.id

        async def play() -> Played:
            return await self.service.act(
                button.game_id, user, button.turn, move, shown_on=clicked(interaction)
            )

        await self.table.click(interaction, button.game_id, play)

    async def on_join(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.seats.take(interaction, await self.service.get(button.game_id), None)

    async def on_rematch(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.seats.rematch(interaction, button.game_id)
