"""The discord.ui views that are not a game's buttons (those are `buttons`): a finished turn's
buttons, disabled, and the question asked before a game is ended for everyone."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.answers import handle_error
from bot.cogs.pachisi.buttons import bot_of


def disabled_copy(message: discord.Message) -> discord.ui.View | None:
    """The message's buttons, all disabled: what a finished turn's message keeps."""
    if not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    return view


class ConfirmEnd(discord.ui.View):
    """Whether to end game `game_id` for everyone, asked ephemerally (so it needs no persistence);
    yes ends it (`Seats.end`), no leaves the question as `kept`."""

    def __init__(self, game_id: int, *, yes: str, no: str, kept: str, working: str) -> None:
        super().__init__(timeout=60)
        self.game_id = game_id
        self.no_text = kept
        self.working = working
        confirm: discord.ui.Button[ConfirmEnd] = discord.ui.Button(
            label=yes, style=discord.ButtonStyle.danger
        )
        cancel: discord.ui.Button[ConfirmEnd] = discord.ui.Button(
            label=no, style=discord.ButtonStyle.secondary
        )
        confirm.callback = self._yes  # type: ignore[method-assign]
        cancel.callback = self._no  # type: ignore[method-assign]
        self.add_item(confirm)
        self.add_item(cancel)

    async def _yes(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.working, view=None)
        await bot_of(interaction).seats.end(interaction, self.game_id)

    async def _no(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.no_text, view=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await handle_error(interaction, error)
