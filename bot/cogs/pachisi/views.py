"""The discord.ui views that are not a game's buttons (those are `buttons`): a finished turn's
buttons, disabled, and the question asked before a game is ended for everyone or a member
resigns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.answers import NO_MENTIONS, error_text, handle_error


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

Act = Callable[[discord.Interaction[Any]], Awaitable[str | None]]
"""What yes does; the words the question becomes (None: the question goes, the news said it)."""


class Confirm(discord.ui.View):
    """A question asked ephemerally before something that cannot be undone (so it needs no
    persistence): yes does `act` and the question becomes what happened (or the refusal), no
    leaves it as `kept`. Nothing is left at `working`. The question is answered once: a second
    click (a double click, before the buttons are gone) is acknowledged and changes nothing, as a
    repeated click on a move already played."""

    def __init__(self, act: Act, *, yes: str, no: str, kept: str, working: str) -> None:
        super().__init__(timeout=60)
        self.act = act
        self.no_text = kept
        self.working = working
        self.answered = False
        confirm: discord.ui.Button[Confirm] = discord.ui.Button(
            label=yes, style=discord.ButtonStyle.danger, custom_id=CONFIRM_YES
        )
        cancel: discord.ui.Button[Confirm] = discord.ui.Button(
            label=no, style=discord.ButtonStyle.secondary, custom_id=CONFIRM_NO
        )
        confirm.callback = self._yes  # type: ignore[method-assign]
        cancel.callback = self._no  # type: ignore[method-assign]
        self.add_item(confirm)
        self.add_item(cancel)

    async def _once(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this click is the question's first answer; a repeat is acknowledged silently."""
        if self.answered:
            await interaction.response.defer()
            return False
        self.answered = True
        return True

    async def _yes(self, interaction: discord.Interaction[Any]) -> None:
        if not await self._once(interaction):
            return
        await interaction.response.edit_message(content=self.working, view=None)
        try:
            done = await self.act(interaction)
        except Exception as exc:  # refused after all (the game ended meanwhile): say so here
            done = error_text(interaction, exc)
        if done is None:
            await interaction.delete_original_response()
        else:
            await interaction.edit_original_response(content=done, allowed_mentions=NO_MENTIONS)

    async def _no(self, interaction: discord.Interaction[Any]) -> None:
        if not await self._once(interaction):
            return
        await interaction.response.edit_message(content=self.no_text, view=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await handle_error(interaction, error)
