"""The discord.ui views that are not a game's buttons (those are `buttons`): a finished turn's
buttons, disabled, and the question asked before a game is ended for everyone."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.answers import NO_MENTIONS, error_text, handle_error, language_of
from bot.cogs.host import host_of
from bot.core.texts import table


def disabled_copy(message: discord.Message) -> discord.ui.View | None:
    """The message's buttons, all disabled: what a finished turn's message keeps."""
    if not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    return view


def manages_channels(interaction: discord.Interaction[Any]) -> bool:
    """The member may manage the server's channels (and so end anyone's game)."""
    member = interaction.user
    return isinstance(member, discord.Member) and member.guild_permissions.manage_channels


CONFIRM_YES, CONFIRM_NO = "confirm:yes", "confirm:no"
"""The confirmation's buttons (a view per message: the same ids on two questions never mix)."""


class ConfirmEnd(discord.ui.View):
    """Whether to end game `game_id` for everyone, asked ephemerally (so it needs no persistence);
    yes ends it (`bot.table.seats.end`) and the question becomes what happened (or the refusal), no leaves
    it as `kept`. Nothing is left at `working`."""

    def __init__(self, game_id: int, *, yes: str, no: str, kept: str, working: str) -> None:
        super().__init__(timeout=60)
        self.game_id = game_id
        self.no_text = kept
        self.working = working
        confirm: discord.ui.Button[ConfirmEnd] = discord.ui.Button(
            label=yes, style=discord.ButtonStyle.danger, custom_id=CONFIRM_YES
        )
        cancel: discord.ui.Button[ConfirmEnd] = discord.ui.Button(
            label=no, style=discord.ButtonStyle.secondary, custom_id=CONFIRM_NO
        )
        confirm.callback = self._yes  # type: ignore[method-assign]
        cancel.callback = self._no  # type: ignore[method-assign]
        self.add_item(confirm)
        self.add_item(cancel)

    async def _yes(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.working, view=None)
        try:
            seats = host_of(interaction).table.seats
            ended = await seats.end(
                interaction.user.id, self.game_id, can_manage=manages_channels(interaction)
            )
            done = table.ended(language_of(interaction), interaction.user.id, ended)
        except Exception as exc:  # refused after all (the game ended meanwhile): say so here
            done = error_text(interaction, exc)
        await interaction.edit_original_response(content=done, allowed_mentions=NO_MENTIONS)

    async def _no(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.no_text, view=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await handle_error(interaction, error)
