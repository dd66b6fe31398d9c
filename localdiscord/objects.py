"""The stand-in's Discord objects: what Discord stores (users, guilds, channels, messages,
interactions, gateway sessions), each with the payload discord.py 2.7's parsers require (a missing
field kills the client silently), plus Discord's constants and its error answer.
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import time
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from aiohttp import web

API = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
GUILD_MESSAGES_INTENT = 1 << 9
PERMISSIONS = {
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "use_external_emojis": 1 << 18,
    "use_application_commands": 1 << 31,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
EVERYONE_PERMISSIONS = sum(PERMISSIONS.values())  # what @everyone, and so the bot, may do
MANAGE_CHANNELS = 1 << 4
MANAGE_EVENTS = 1 << 33
MODERATOR_PERMISSIONS = MANAGE_CHANNELS | MANAGE_EVENTS  # what a guild's Moderators role adds
HEARTBEAT_MS = 41_250
OLD_MESSAGE_SECONDS = 3600.0
OLD_MESSAGE_EDITS = 3
"""Edits a message over an hour old still takes (through any route); Discord then answers 30046."""
INTERACTION_TOKEN_LIFETIME = 15 * 60.0
PUBLIC_THREAD = 11
EVENTS_KEPT = 5000  # per session, for RESUME; an older sequence number gets INVALID_SESSION

Json = dict[str, Any]

_serial = itertools.count(1)


def snowflake(offset: float = 0.0) -> int:
    """A unique, time-ordered Discord id (12 bits of increment per millisecond suffice here), made
    `offset` seconds after now (the server's clock may run ahead: `advance_clock`)."""
    ms = int((time.time() + offset) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_serial) & 0x3FFFFF)


def now_iso() -> str:
    """Now, as Discord writes a timestamp."""
    return datetime.datetime.now(datetime.UTC).isoformat()


class InteractionType(IntEnum):
    """What a member did (Discord's interaction types)."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    """How the bot answered an interaction (Discord's interaction callback types)."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class ApiError(Exception):
    """An error answer in Discord's shape: HTTP status plus a JSON `code` and `message`."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """discord.py only decodes a body whose Content-Type is exactly `application/json`."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json", headers=headers
    )


@dataclass
class User:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class MemberRecord:
    user: User
    guild_id: int
    joined_at: str = field(default_factory=now_iso)
    roles: list[int] = field(default_factory=list)
    locale: str = "en-US"  # the member's Discord language, sent with each of their interactions

    def payload(self, *, permissions: int | None = None) -> Json:
        data: Json = {
            "user": self.user.payload(),
            "roles": [str(role) for role in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class ChannelRecord:
    id: int
    guild_id: int
    name: str
    position: int
    deleted: bool = False
    bot_denied: int = 0  # permission bits a member overwrite takes from the bot here
    bot_id: int = 0
    type: int = 0
    parent: ChannelRecord | None = None  # a thread's channel
    owner_id: int = 0
    auto_archive_duration: int = 1440

    def payload(self) -> Json:
        if self.type == PUBLIC_THREAD:
            return self.thread_payload()
        overwrites = []
        if self.bot_denied:
            overwrites.append({"id": str(self.bot_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)})
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": overwrites,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "last_message_id": None,
        }

    def thread_payload(self) -> Json:
        """A public thread as Discord describes it (threads inherit their channel's permissions)."""
        assert self.parent is not None
        return {
            "id": str(self.id),
            "type": PUBLIC_THREAD,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": now_iso(),
                "locked": False,
                "create_timestamp": now_iso(),
            },
        }

    @property
    def denied(self) -> int:
        """What the bot may not do here: a thread has its channel's overwrites."""
        return self.parent.bot_denied if self.parent is not None else self.bot_denied


@dataclass
class GuildRecord:
    id: int
    name: str
    owner_id: int
    channels: dict[int, ChannelRecord] = field(default_factory=dict)
    members: dict[int, MemberRecord] = field(default_factory=dict)
    moderator_role: int = field(default_factory=lambda: snowflake())
    """A role that may manage channels, which members can be given (`set_moderator`)."""

    def permissions(self, member: MemberRecord) -> int:
        """What `member` may do in the guild: @everyone's, plus what their roles add."""
        return EVERYONE_PERMISSIONS | (MODERATOR_PERMISSIONS if self.moderator_role in member.roles else 0)

    def role_payloads(self) -> list[Json]:
        roles = [
            ("@everyone", self.id, EVERYONE_PERMISSIONS, 0),
            ("Moderators", self.moderator_role, MODERATOR_PERMISSIONS, 1),
        ]
        return [
            {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
            for name, role_id, permissions, position in roles
        ]

    def payload(self) -> Json:
        """The full GUILD_CREATE object; discord.py ignores guilds it cannot parse."""
        live = [c for c in self.channels.values() if not c.deleted and c.type != PUBLIC_THREAD]
        threads = [c for c in self.channels.values() if not c.deleted and c.type == PUBLIC_THREAD]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "roles": self.role_payloads(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c.payload() for c in live],
            "threads": [c.payload() for c in threads],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": now_iso(),
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "system_channel_flags": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "afk_timeout": 300,
        }


class Attachment(NamedTuple):
    id: int
    filename: str
    data: bytes
    content_type: str


class Button(NamedTuple):
    label: str | None
    custom_id: str | None
    disabled: bool
    style: int
    url: str | None


def buttons_in(components: list[Json]) -> list[Button]:
    """Every button in a component tree (action rows, sections, containers), in order."""
    found: list[Button] = []
    for c in components:
        if c.get("type") == 2:
            found.append(
                Button(
                    c.get("label"),
                    c.get("custom_id"),
                    bool(c.get("disabled")),
                    c.get("style", 1),
                    c.get("url"),
                )
            )
        children = list(c.get("components", []))
        if "accessory" in c:
            children.append(c["accessory"])
        found.extend(buttons_in(children))
    return found


@dataclass
class Message:
    """A message as stored by the server; `edits` keeps every earlier version (oldest first)."""

    id: int
    channel_id: int
    guild_id: int
    author: User
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    invoked: tuple[int, str] | None = None  # (user id, "pachisi start") of the command it answers
    edits: list[Json] = field(default_factory=list)
    deleted: bool = False
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    thread_id: int | None = None  # the thread started from this message
    pinged: list[int] = field(default_factory=list)  # users notified when it was posted
    late_edits: int = 0  # edits made once the message was over an hour old
    offered: tuple[str, ...] = ()  # an answer's: the buttons its channel offered when it came

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def buttons(self) -> list[Button]:
        return buttons_in(self.components)

    def button(self, label: str | None = None, custom_id: str | None = None) -> Button:
        for b in self.buttons:
            if (label is None or b.label == label) and (custom_id is None or b.custom_id == custom_id):
                return b
        raise LookupError(
            f"no button label={label!r} custom_id={custom_id!r} on message {self.id}: {self.buttons}"
        )

    def snapshot(self) -> Json:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def payload(self, base_url: str) -> Json:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "content_type": a.content_type,
                    "url": f"{base_url}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                    "proxy_url": f"{base_url}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                }
                for a in self.attachments
            ],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0,
            "flags": self.flags,
        }


@dataclass
class Interaction:
    """One interaction sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    type: InteractionType
    channel_id: int
    user: User
    payload: Json
    created: float
    message: Message | None = None  # the message a clicked component is on
    callback_type: CallbackType | None = None
    callback_data: Json = field(default_factory=dict)
    callback_latency: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[Json] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    answered_by: Message | None = None  # the message that completed a deferred answer
    answered_at: float | None = None  # loop time the answer was complete

    def complete(self, message: Message | None) -> None:
        """The answer is complete (`message` shows it); the first completion counts."""
        if not self.done.is_set():
            self.answered_by = message
            self.answered_at = asyncio.get_running_loop().time()
            self.done.set()


@dataclass
class Session:
    """One gateway session: its numbered events are kept for a RESUME."""

    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # [shard_id, shard_count] from IDENTIFY
    seq: int = 0
    events: list[Json] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def serves(self, guild_id: int) -> bool:
        """Discord's rule: a guild belongs to shard `(guild_id >> 22) % shard_count`."""
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id


@dataclass
class Request:
    """One REST call as answered (its path after /api/v10), kept for tests to count."""

    method: str
    path: str
    status: int
