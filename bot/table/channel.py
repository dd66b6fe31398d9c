"""What the table writes to and reads back, as the table sees it: a game's channel, the channels by
id, and the member's own interaction (a click or a command) that carries an answer.

These are protocols, so the layer needs no chat library: the bot hands it Discord's channels and
interactions through an adapter (`bot/cogs/pachisi/channels.py`), a test an in-memory channel.
A write the chat refuses raises `WriteRefused` (`Gone`: the message or channel is no more;
`NotPermitted`: the bot may not write there), never the library's own errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.core.present import Message
from bot.core.texts import Language
from engine import Move


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message: the board, a result's chart."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Key:
    """A live button of a message read back: what it does, for which game and turn."""

    action: str
    game_id: int
    turn: int
    move: Move | None = None


@dataclass(frozen=True)
class Shown:
    """A message of a game's channel as the table reads it back: its words and live buttons.
    `handle` is the adapter's own object for it (the table never looks inside)."""

    id: int
    content: str = ""
    buttons: tuple[Key, ...] = ()
    mine: bool = True
    """Posted by this bot (a member's message is never the table's)."""
    handle: object = field(default=None, compare=False, repr=False)


class WriteRefused(Exception):
    """The chat refused a write or a read: `status` is the HTTP status, `code` the chat's own."""

    def __init__(self, status: int, code: int = 0) -> None:
        super().__init__(f"{status} {code}")
        self.status = status
        self.code = code


class Gone(WriteRefused):
    """The message or the channel is no more (404)."""


class NotPermitted(WriteRefused):
    """The bot may not read or write there (403)."""


class Channel(Protocol):
    """A game's channel or thread (or the channel of its table card)."""

    @property
    def id(self) -> int: ...

    async def send(self, message: Message, files: list[Attachment]) -> Shown:
        """Post `message` (with its buttons), pinging only whom it names."""
        ...

    async def edit(self, message_id: int, message: Message, files: list[Attachment]) -> None:
        """Message `message_id` becomes `message`; its files stay unless `files` has some."""
        ...

    async def fetch(self, message_id: int) -> Shown: ...

    async def history(self, limit: int) -> list[Shown]:
        """The channel's latest messages, newest first."""
        ...

    async def disable_buttons(self, message: Shown) -> None:
        """The message keeps its buttons, all disabled."""
        ...


class Channels(Protocol):
    """Finding a channel by its id."""

    def get(self, channel_id: int, guild_id: int, *, new_thread: bool = False) -> Channel | None:
        """The channel, or None when the bot cannot see it. `new_thread`: it may be a thread just
        created that the chat has not announced yet, and is written to all the same."""
        ...


class Reply(Protocol):
    """The member's own interaction (a click or a command): who acted, where, and the answers
    that go through it, outside the channel's rate limits."""

    @property
    def id(self) -> int:
        """The interaction's id (a snowflake: it says when the member acted)."""
        ...

    @property
    def user_id(self) -> int: ...

    @property
    def user_name(self) -> str: ...

    @property
    def channel_id(self) -> int | None: ...

    @property
    def message(self) -> Shown | None:
        """The message whose button was clicked (None for a command)."""
        ...

    @property
    def language(self) -> Language:
        """The member's own language, for what only they read."""
        ...

    def done(self) -> bool:
        """Whether the interaction has had its first response (an answer or a deferral)."""
        ...

    async def defer(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        """Acknowledge now, answer later (`thinking`: a command's reply to come, else an update of
        the clicked message)."""
        ...

    async def answer(self, message: Message, files: list[Attachment]) -> None:
        """The clicked message becomes `message`: the first response, or an edit of it."""
        ...

    async def follow(self, message: Message, files: list[Attachment]) -> Shown:
        """A new message in the channel sent as a followup (it pings whom `message` names)."""
        ...

    async def tell(self, text: str, *, ephemeral: bool = True) -> None:
        """Say `text` to the member (ephemeral) or to the channel."""
        ...
