"""Discord's side of the table's protocols (`bot.table.channel`): a text channel or thread as a
`Channel`, the client's channel cache as `Channels`, an interaction as a `Reply`.

Here files become `discord.File`s, pings `AllowedMentions`, and discord.py's HTTP errors the
table's `WriteRefused` kinds. How planned buttons become a message's components, and a live
button's id is read back, is the buttons' own (`buttons.COMPONENTS`), handed in.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import discord

from bot.cogs.answers import NO_MENTIONS, language_of, tell
from bot.cogs.pachisi.views import disabled_copy
from bot.core.present import Button, Message
from bot.core.texts import Language
from bot.table.channel import Attachment, Channel, Gone, Key, NotPermitted, Shown, WriteRefused

GameChannel = discord.TextChannel | discord.Thread | discord.PartialMessageable


@dataclass(frozen=True)
class Components:
    """The buttons' shape on Discord: planned buttons as a message's components (None: none), and
    a live button's custom id read back (None: not a game's button)."""

    view: Callable[[tuple[Button, ...]], discord.ui.View | None]
    key: Callable[[str], Key | None]


@contextmanager
def refusals() -> Iterator[None]:
    """discord.py's HTTP errors as the table's."""
    try:
        yield
    except discord.NotFound as exc:
        raise Gone(exc.status, exc.code) from exc
    except discord.Forbidden as exc:
        raise NotPermitted(exc.status, exc.code) from exc
    except discord.HTTPException as exc:
        raise WriteRefused(exc.status, exc.code) from exc


def mentioning(users: tuple[int, ...]) -> discord.AllowedMentions:
    """Only these members are pinged (never roles or everyone)."""
    if not users:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False, everyone=False)


def files_of(files: list[Attachment]) -> list[discord.File]:
    return [discord.File(io.BytesIO(file.data), file.name) for file in files]


def live_buttons(message: discord.Message) -> list[str]:
    """The custom ids of a message's buttons that can still be clicked."""
    return [
        child.custom_id
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button) and not child.disabled and child.custom_id
    ]


def shown(message: discord.Message, me: int | None, components: Components) -> Shown:
    """A Discord message as the table reads it: its content and its live game buttons."""
    keys = [key for custom_id in live_buttons(message) if (key := components.key(custom_id)) is not None]
    return Shown(message.id, message.content, tuple(keys), mine=message.author.id == me, handle=message)


class DiscordChannel:
    """A game's channel, thread or card channel through discord.py."""

    def __init__(self, channel: GameChannel, me: int | None, components: Components) -> None:
        self.channel = channel
        self.me = me
        self.components = components

    @property
    def id(self) -> int:
        return self.channel.id

    async def send(self, message: Message, files: list[Attachment]) -> Shown:
        with refusals():
            posted = await self.channel.send(
                message.content,
                files=files_of(files),
                view=self.components.view(message.buttons) or discord.utils.MISSING,
                allowed_mentions=mentioning(message.pings),
            )
        return shown(posted, self.me, self.components)

    async def edit(self, message_id: int, message: Message, files: list[Attachment]) -> None:
        extra: dict[str, Any] = {"attachments": files_of(files)} if files else {}
        with refusals():
            await self.channel.get_partial_message(message_id).edit(
                content=message.content,
                view=self.components.view(message.buttons),
                allowed_mentions=NO_MENTIONS,
                **extra,
            )

    async def fetch(self, message_id: int) -> Shown:
        with refusals():
            return shown(await self.channel.fetch_message(message_id), self.me, self.components)

    async def history(self, limit: int) -> list[Shown]:
        with refusals():
            return [
                shown(message, self.me, self.components)
                async for message in self.channel.history(limit=limit)
            ]

    async def disable_buttons(self, message: Shown) -> None:
        assert isinstance(message.handle, discord.Message)
        buttons = disabled_copy(message.handle)
        if buttons is not None:
            with refusals():
                await message.handle.edit(view=buttons)


class DiscordChannels:
    """The channels the client sees, by id."""

    def __init__(self, client: discord.Client, components: Components) -> None:
        self.client = client
        self.components = components

    def get(self, channel_id: int, guild_id: int, *, new_thread: bool = False) -> Channel | None:
        me = self.client.user.id if self.client.user is not None else None
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            return DiscordChannel(channel, me, self.components)
        if channel is None and new_thread:  # a thread just created may not be cached yet
            partial = self.client.get_partial_messageable(
                channel_id, guild_id=guild_id, type=discord.ChannelType.public_thread
            )
            return DiscordChannel(partial, me, self.components)
        return None


class InteractionReply:
    """A member's interaction (a click or a command) as the table's `Reply`."""

    def __init__(self, interaction: discord.Interaction[Any], components: Components) -> None:
        self.interaction = interaction
        self.components = components
        clicked = interaction.message
        me = interaction.client.user.id if interaction.client.user is not None else None
        self.message = None if clicked is None else shown(clicked, me, components)

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def user_name(self) -> str:
        return self.interaction.user.display_name

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    @property
    def language(self) -> Language:
        return language_of(self.interaction)

    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        with refusals():
            if thinking:
                await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
            else:
                await self.interaction.response.defer()

    async def answer(self, message: Message, files: list[Attachment]) -> None:
        view = self.components.view(message.buttons)
        with refusals():
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(
                    content=message.content,
                    attachments=files_of(files),
                    view=view,
                    allowed_mentions=NO_MENTIONS,
                )
            else:
                await self.interaction.response.edit_message(
                    content=message.content,
                    attachments=files_of(files),
                    view=view,
                    allowed_mentions=NO_MENTIONS,
                )

    async def follow(self, message: Message, files: list[Attachment]) -> Shown:
        with refusals():
            posted = await self.interaction.followup.send(
                message.content,
                files=files_of(files),
                view=self.components.view(message.buttons) or discord.utils.MISSING,
                allowed_mentions=mentioning(message.pings),
                wait=True,
            )
        return Shown(posted.id, posted.content)

    async def tell(self, text: str, *, ephemeral: bool = True) -> None:
        with refusals():
            await tell(self.interaction, text, ephemeral=ephemeral)
