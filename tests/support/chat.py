"""An in-memory chat behind the table layer's protocols (bot/table/channel.py): rooms that hold
the messages the table posts and edits, a member's click or command as a `Reply`, and a clock the
test moves. What a member would see is read from here: every message, its live buttons, who it
pinged, each write in order."""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.core.clock import Clock
from bot.core.present import Board, Button, Message
from bot.core.texts import ENGLISH, Language
from bot.table.channel import Attachment, Gone, Key, NotPermitted, Shown, WriteRefused
from bot.table.writes import DISCORD_EPOCH_MS


class MovedClock(Clock):
    """Time stands still until the test moves it; whoever waits for a moment wakes once it is
    reached (turn timers), so no test sleeps through a timeout."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 1, 1, tzinfo=UTC)
        self._moved = asyncio.Event()

    def now(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep_until(self, moment: datetime) -> None:
        while moment > self.moment:
            await self._moved.wait()


@dataclass
class Posted:
    """A message in a room, as a member sees it."""

    id: int
    content: str
    buttons: tuple[Button, ...]
    files: tuple[str, ...] = ()
    pings: tuple[int, ...] = ()
    mine: bool = True
    disabled: bool = False
    edits: int = 0
    board: Board | None = None
    """The picture's arguments, as last drawn on the message."""

    def live(self) -> tuple[Button, ...]:
        """The buttons a member can still click."""
        return () if self.disabled else self.buttons

    def actions(self) -> list[str]:
        return [button.action for button in self.live()]

    def shown(self) -> Shown:
        keys = tuple(Key(b.action, b.game_id, b.turn, b.move) for b in self.live())
        return Shown(self.id, self.content, keys, mine=self.mine, handle=self)

    def becomes(self, message: Message, files: list[Attachment], *, replace_files: bool = False) -> None:
        """An edit: its files stay unless `files` has some (a channel's edit), or are exactly
        `files` with `replace_files` (an interaction's answer, as the Discord side sends it)."""
        self.content, self.buttons, self.edits = message.content, message.buttons, self.edits + 1
        self.disabled = False
        if files or replace_files:
            self.files = tuple(file.name for file in files)
        if message.board is not None:
            self.board = message.board


class Room:
    """A channel or thread of the chat (the table's `Channel`)."""

    def __init__(self, chat: Chat, room_id: int) -> None:
        self.chat = chat
        self.room_id = room_id
        self.messages: list[Posted] = []
        self.writes: list[tuple[str, float]] = []
        """(post or edit, monotonic time) for each write through the channel, in order."""
        self.refusing: WriteRefused | None = None
        """Every write or read here is refused with this (a deleted channel, lost permissions)."""

    @property
    def id(self) -> int:
        return self.room_id

    def find(self, message_id: int) -> Posted:
        for message in self.messages:
            if message.id == message_id:
                return message
        raise Gone(404, 10008)

    def live(self) -> list[Posted]:
        """The messages with buttons a member can click."""
        return [message for message in self.messages if message.live()]

    def add(self, message: Message, files: list[Attachment], *, mine: bool = True) -> Posted:
        names = tuple(file.name for file in files)
        posted = Posted(
            self.chat.new_id(),
            message.content,
            message.buttons,
            names,
            message.pings,
            mine,
            board=message.board,
        )
        self.messages.append(posted)
        return posted

    async def send(self, message: Message, files: list[Attachment]) -> Shown:
        self._check()
        self.writes.append(("post", time.monotonic()))
        return self.add(message, files).shown()

    async def edit(self, message_id: int, message: Message, files: list[Attachment]) -> None:
        self._check()
        self.writes.append(("edit", time.monotonic()))
        self.find(message_id).becomes(message, files)

    async def fetch(self, message_id: int) -> Shown:
        self._check()
        return self.find(message_id).shown()

    async def history(self, limit: int) -> list[Shown]:
        self._check()
        return [message.shown() for message in reversed(self.messages[-limit:])]

    async def disable_buttons(self, message: Shown) -> None:
        self._check()
        self.writes.append(("edit", time.monotonic()))
        self.find(message.id).disabled = True

    def _check(self) -> None:
        if self.refusing is not None:
            raise self.refusing


class Chat:
    """The chat's rooms by id (the table's `Channels`); a hidden room is one the bot cannot see."""

    def __init__(self, clock: MovedClock) -> None:
        self.clock = clock
        self.rooms: dict[int, Room] = {}
        self.hidden: set[int] = set()
        self._counter = itertools.count()
        self.threads: dict[int, tuple[int, str]] = {}
        """Threads the table opened: thread id -> (its channel, its name)."""
        self.no_threads: set[int] = set()
        """Channels where the bot may not open a thread."""
        self.left: set[int] = set()
        """Members who left the server (the table's `Roster` reads it)."""

    def new_id(self) -> int:
        """A message id whose upper bits hold the clock's time, as a Discord snowflake's do."""
        ms = int(self.clock.now().timestamp() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def room(self, room_id: int) -> Room:
        return self.rooms.setdefault(room_id, Room(self, room_id))

    async def open_thread(self, channel_id: int, guild_id: int, name: str) -> int:
        """A new room as a thread of `channel_id` (the table's `Threads`)."""
        if channel_id in self.no_threads:
            raise NotPermitted(403, 160002)
        thread = self.new_id()
        self.threads[thread] = (channel_id, name)
        self.room(thread)
        return thread

    async def gone(self, guild_id: int, members: list[int]) -> list[int]:
        return [m for m in members if m in self.left]

    def get(self, channel_id: int, guild_id: int, *, new_thread: bool = False) -> Room | None:
        if channel_id in self.hidden:
            return None
        if channel_id not in self.rooms and not new_thread:
            return None
        return self.room(channel_id)


@dataclass
class Click:
    """A member's interaction: a click on `clicked`, or a command (no message). It records what
    went through it; `refuse_answers` and `refuse_followups` make the chat refuse those."""

    chat: Chat
    room: Room
    user_id: int
    user_name: str
    clicked: Posted | None = None
    language: Language = ENGLISH
    id: int = 0
    deferred: bool = False
    answers: list[Message] = field(default_factory=list)
    followups: list[Posted] = field(default_factory=list)
    told: list[tuple[str, bool]] = field(default_factory=list)
    refuse_answers: WriteRefused | None = None
    refuse_followups: WriteRefused | None = None

    def __post_init__(self) -> None:
        self.id = self.chat.new_id()

    @property
    def channel_id(self) -> int:
        return self.room.id

    @property
    def message(self) -> Shown | None:
        return None if self.clicked is None else self.clicked.shown()

    def done(self) -> bool:
        return self.deferred or bool(self.answers) or bool(self.told)

    async def defer(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        self.deferred = True

    async def answer(self, message: Message, files: list[Attachment]) -> None:
        if self.refuse_answers is not None:
            raise self.refuse_answers
        assert self.clicked is not None
        self.answers.append(message)
        self.clicked.becomes(message, files, replace_files=True)

    async def follow(self, message: Message, files: list[Attachment]) -> Shown:
        if self.refuse_followups is not None:
            raise self.refuse_followups
        posted = self.room.add(message, files)
        self.followups.append(posted)
        return posted.shown()

    async def tell(self, text: str, *, ephemeral: bool = True) -> None:
        self.told.append((text, ephemeral))
        if not ephemeral:
            self.room.add(Message(text), [], mine=True)
