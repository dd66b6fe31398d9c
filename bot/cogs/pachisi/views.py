"""Buttons. A game button's custom id carries its action, the game, the turn and an argument (a
move), so it outlives restarts; it holds no game logic and hands its click to the router cog.

The presenter (`bot.core.present`) decides which buttons a message shows; `buttons_view` makes
them Discord components. To add a button: an action name and a `present.Button` where it is
shown, and its handler registered with `Router.add_button(action, handler)`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.answers import NO_MENTIONS, error_text, handle_error, refuse
from bot.core.present import Button

ROUTER_COG = "Pachisi"
"""The cog that owns the game buttons' handlers (looked up at click time: no import)."""
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


MAX_ID = 2**31 - 1
"""Game ids and turn numbers are INTEGER columns (32 bits on PostgreSQL)."""
UNKNOWN = ""
"""The action of a button id that does not parse: no handler has it, so the click is refused."""
CUSTOM_ID = re.compile(
    r"(?P<action>[a-z]{1,16}):(?P<game>\d{1,10}):(?P<turn>\d{1,10})(?::(?P<arg>[a-z0-9:=,-]{1,40}))?"
)


def parse_custom_id(rest: str) -> tuple[str, int, int, str | None]:
    """(action, game, turn, argument) from what follows `pachisi:` in a button id. Any client can
    send any id, so one out of range or malformed becomes UNKNOWN before it reaches the database."""
    m = CUSTOM_ID.fullmatch(rest)
    if m is None or not 1 <= int(m["game"]) <= MAX_ID or int(m["turn"]) > MAX_ID:
        return UNKNOWN, 0, 0, None
    return m["action"], int(m["game"]), int(m["turn"]), m["arg"]


def game_of(custom_id: str) -> int | None:
    """The game a button id belongs to, if it is a game button's."""
    if not custom_id.startswith("pachisi:"):
        return None
    action, game_id, _, _ = parse_custom_id(custom_id.removeprefix("pachisi:"))
    return game_id if action != UNKNOWN else None


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pachisi:(?P<rest>.*)"):
    """One button of a game message: throw, play a move, take a seat, or whatever a cog registered."""

    def __init__(
        self,
        action: str,
        game_id: int,
        turn: int,
        arg: object = None,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"pachisi:{action}:{game_id}:{turn}" + (f":{arg}" if arg is not None else "")
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, disabled=disabled, row=row)
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn
        self.arg = None if arg is None else str(arg)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        action, game_id, turn, arg = parse_custom_id(match["rest"])
        return cls(action, game_id, turn, arg, label=getattr(item, "label", None) or action or "?")

    @classmethod
    def of(cls, button: Button) -> GameButton:
        return cls(
            button.action,
            button.game_id,
            button.turn,
            button.arg,
            label=button.label,
            style=STYLES[button.style],
            row=button.row,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            handler: ButtonHandler | None = getattr(interaction.client.get_cog(ROUTER_COG), "on_button", None)
            if handler is None:
                await refuse(interaction, "restarting")
                return
            await handler(interaction, self)
        except Exception as exc:  # every click gets an answer; the handler logs what is unexpected
            await handle_error(interaction, exc)


ButtonHandler = Callable[[discord.Interaction[Any], GameButton], Awaitable[None]]


def buttons_view(buttons: tuple[Button, ...]) -> discord.ui.View | None:
    """The message's components (None: a message without buttons)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(GameButton.of(button))
    return view


def disabled_copy(message: discord.Message) -> discord.ui.View | None:
    """The message's buttons, all disabled: what a finished turn's message keeps."""
    if not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    return view


CONFIRM_YES, CONFIRM_NO = "confirm:yes", "confirm:no"
"""The confirmation's buttons (a view per message: the same ids on two questions never mix)."""


class Confirm(discord.ui.View):
    """A yes/no question asked ephemerally (so it needs no persistence); `on_yes` runs on yes and
    returns what happened, which the question becomes (or the refusal, if it refused); `kept` is
    what the question becomes on no. Nothing is left at `working`."""

    def __init__(
        self,
        on_yes: Callable[[discord.Interaction[Any]], Awaitable[str]],
        *,
        yes: str,
        no: str,
        kept: str,
        working: str,
    ) -> None:
        super().__init__(timeout=60)
        self.on_yes = on_yes
        self.no_text = kept
        self.working = working
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

    async def _yes(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.working, view=None)
        try:
            done = await self.on_yes(interaction)
        except Exception as exc:  # refused after all (the game ended meanwhile): say so here
            done = error_text(interaction, exc)
        await interaction.edit_original_response(content=done, allowed_mentions=NO_MENTIONS)

    async def _no(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=self.no_text, view=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await handle_error(interaction, error)
