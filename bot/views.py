"""Persistent buttons: their custom ids carry the game, the turn and the move, so they outlive restarts.

A button holds no game logic: it hands its click to the Pachisi cog, which asks the service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from engine import Move, parse_move

if TYPE_CHECKING:
    from bot.cogs.pachisi import PachisiCog

THROW, MOVE, JOIN = "throw", "move", "join"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"pachisi:(?P<action>throw|move|join):(?P<game>\d+):(?P<turn>\d+)(?::(?P<move>[a-z]+:\d+-\d+))?"
    ),
):
    """One button of a turn message: throw, play a move, or take a seat."""

    def __init__(
        self,
        action: str,
        game_id: int,
        turn: int,
        move: Move | None = None,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"pachisi:{action}:{game_id}:{turn}" + (f":{move}" if move else "")
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, disabled=disabled, row=row)
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        move = parse_move(match["move"]) if match["move"] else None
        label = getattr(item, "label", None) or match["action"]
        return cls(match["action"], int(match["game"]), int(match["turn"]), move, label=label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: PachisiCog | None = interaction.client.get_cog("Pachisi")
        if cog is None:
            await interaction.response.send_message("The game is restarting; try again.", ephemeral=True)
            return
        await cog.on_button(interaction, self.action, self.game_id, self.turn, self.move)


def disabled_copy(message: discord.Message) -> discord.ui.View | None:
    """The message's buttons, all disabled: what a finished turn's message keeps."""
    if not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    return view
