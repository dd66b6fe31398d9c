"""A small stand-in for Discord: REST under /api/v10 and a WebSocket gateway, on 127.0.0.1.

It holds the state a bot sees (guilds, channels, members, messages, application commands,
interactions) in memory (the local table keeps it across runs: saved.py), so bot processes can
come and go: a new process IDENTIFYs and gets a fresh session, a reconnecting one RESUMEs and gets
the events it missed. Payloads carry every field discord.py 2.7's parsers require; a missing one
kills the client silently. Tests use the driver (driver.py) and add their fault injection and request
checks through the `before_rest`/`after_rest` hooks; the local table's page (page.py) follows
changes through `observers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import itertools
import json
import re
import secrets
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import WSMsgType, web

from localdiscord.commandline import leaf

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
MANAGE_CHANNELS = 1 << 4  # what a guild's Moderators role adds
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


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def parse_multipart(body: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """Split a multipart/form-data body into (lower-cased headers, exact bytes) per part.

    Our own few lines: aiohttp's reader parses every header through the email package, which
    made the fake, not the bot, the slow end of a latency benchmark.
    """
    boundary = header_param(content_type, "boundary")
    if not boundary:
        raise ApiError(400, 50035, "Invalid Form Body")
    parts = []
    for chunk in (b"\r\n" + body).split(b"\r\n--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, sep, value = line.partition(":")
            if sep:
                headers[key.strip().lower()] = value.strip()
        parts.append((headers, data))
    return parts


def header_param(header: str, name: str) -> str | None:
    """`name=value` or `name="value"` from a header such as Content-Disposition."""
    m = re.search(rf'(?:^|;)\s*{name}=(?:"([^"]*)"|([^;\s]*))', header)
    return None if m is None else urllib.parse.unquote(m[1] if m[1] is not None else m[2])


def _guild_of(event: str, data: Json) -> int | None:
    """The guild an event belongs to (its shard gets it), or None."""
    guild_id = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
    return int(guild_id) if guild_id else None


def check_message(body: Json, files: dict[int, Attachment], *, new: bool) -> None:
    """Discord's limits on a message body: a bot that breaks one gets a 400, as from Discord."""
    content = body.get("content") or ""
    if len(content) > 2000:
        raise ApiError(400, 50035, "Invalid Form Body: content must be 2000 or fewer in length")
    if len(body.get("embeds") or []) > 10 or len(files) > 10:
        raise ApiError(400, 50035, "Invalid Form Body: at most 10 embeds and 10 files")
    components = body.get("components") or []
    rows_ok = len(components) <= 5 and all(len(row.get("components", [])) <= 5 for row in components)
    if not rows_ok and not int(body.get("flags") or 0) & COMPONENTS_V2:
        raise ApiError(400, 50035, "Invalid Form Body: at most 5 rows of 5 components")
    for button in buttons_in(components):
        if len(button.custom_id or "") > 100 or len(button.label or "") > 80:
            raise ApiError(400, 50035, "Invalid Form Body: custom_id <= 100, label <= 80 characters")
    if new and not (content or body.get("embeds") or files or components or body.get("poll")):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_choices(choices: list[Json]) -> None:
    if len(choices) > 25 or any(not 1 <= len(str(c.get("name", ""))) <= 100 for c in choices):
        raise ApiError(400, 50035, "Invalid Form Body: at most 25 choices, names of 1 to 100 characters")


def pinged_users(body: Json) -> list[int]:
    """Who a new message notifies: users mentioned in its content that `allowed_mentions` lets
    through (no `allowed_mentions`: all of them). Edits never notify anyone."""
    mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", body.get("content") or "")]
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return list(dict.fromkeys(mentioned))
    users = {int(u) for u in allowed.get("users") or []}
    return [u for u in dict.fromkeys(mentioned) if u in users]


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
    joined_at: str = field(default_factory=_now)
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
                "archive_timestamp": _now(),
                "locked": False,
                "create_timestamp": _now(),
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
        return EVERYONE_PERMISSIONS | (MANAGE_CHANNELS if self.moderator_role in member.roles else 0)

    def role_payloads(self) -> list[Json]:
        roles = [
            ("@everyone", self.id, EVERYONE_PERMISSIONS, 0),
            ("Moderators", self.moderator_role, MANAGE_CHANNELS, 1),
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
            "joined_at": _now(),
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
    timestamp: str = field(default_factory=_now)
    edited_timestamp: str | None = None
    thread_id: int | None = None  # the thread started from this message
    pinged: list[int] = field(default_factory=list)  # users notified when it was posted
    late_edits: int = 0  # edits made once the message was over an hour old

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
    type: int
    channel_id: int
    user: User
    payload: Json
    created: float
    message: Message | None = None  # the message a clicked component is on
    callback_type: int | None = None
    callback_data: Json = field(default_factory=dict)
    callback_latency: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[Json] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    answered_by: Message | None = None  # the message that completed a deferred answer
    answered_at: float | None = None  # loop time the answer was complete


@dataclass
class Session:
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
    method: str
    path: str
    status: int


Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]


class FakeDiscordServer:
    """The state and the protocol; start with `await start()`, stop with `await stop()`."""

    def __init__(self, *, token: str | None = None, interaction_timeout: float | None = 3.0) -> None:
        self.token = token or "fake-" + secrets.token_hex(12)
        self.application_id = snowflake()
        self.bot_user = User(self.application_id, "Pachisi", bot=True)
        self.owner = User(snowflake(), "Owner")
        self.interaction_timeout = interaction_timeout
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, GuildRecord] = {}
        self.channels: dict[int, ChannelRecord] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[Message]] = {}  # channel id -> messages, oldest first
        self.attachments: dict[int, Attachment] = {}
        self.commands: dict[int | None, dict[str, Json]] = {None: {}}  # guild id (None: global)
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.deferred_updates: dict[int, list[Interaction]] = {}  # message id -> deferred clicks on it
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None  # the newest session
        self.shards: dict[int, Session] = {}  # shard id -> its newest session, which gets its events
        self.identifies = 0
        self.resumes = 0
        self.message_limit: tuple[int, float] | None = None  # (count, seconds) per channel
        self.written_at: dict[tuple[int, str], list[float]] = {}
        """(channel id, "post" or "edit") -> monotonic times of its recent writes through the channel."""
        self.clock_offset = 0.0
        """Seconds the fake's clock runs ahead of the real one (`advance_clock`): how old messages are."""
        self.rate_limited = 0  # 429s answered by the message buckets
        self.old_message_refusals = 0  # edits refused with 30046
        self.requests: list[Request] = []
        self.unhandled: list[str] = []
        self.changed = asyncio.Condition()  # notified on every gateway or message change
        self.observers: list[Callable[[str, int], None]] = []
        """Called with (kind, id) on every change of a guild, channel, member, message or the
        commands ("guild", "channel", "member", "message", "commands": the guild id or 0)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._backlog: list[tuple[str, Json]] = []  # events not yet numbered and sent
        self._flushing = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self.url = ""
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._add_routes()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/", self._gateway)  # a gateway URL without a path, as Discord's
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._attachment)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        sockets = [s.ws for s in self.sessions.values() if s.ws is not None]
        if sockets:  # bounded: a client that does not answer the close frame is not waited for
            await asyncio.wait([asyncio.ensure_future(ws.close(code=1001)) for ws in sockets], timeout=2.0)
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def gateway_url(self) -> str:
        """Where the gateway listens (and what READY gives as `resume_gateway_url`)."""
        return self.url.replace("http://", "ws://", 1) + "/gateway"

    def post(self, event: str, data: Json) -> None:
        """Dispatch from synchronous code: queued now, sent in order before any later event."""
        self._backlog.append((event, data))
        task = asyncio.get_running_loop().create_task(self._flush())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def touched(self, kind: str, ident: int) -> None:
        """Tell the observers (the local table's page, its saved state) what changed."""
        for observer in self.observers:
            observer(kind, ident)

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change, and every 50 ms).

        `asyncio.timeout`, not `asyncio.wait_for`: Python 3.11's wait_for can swallow a cancel
        that arrives as the change it waits for does, and a cancelled waiter would live on."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not (result := predicate()):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            async with self.changed:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(left, 0.05)):
                        await self.changed.wait()
        return result

    # --- state changes driven by tests -----------------------------------------------------

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> GuildRecord:
        guild_id = snowflake()
        while shard is not None and (guild_id >> 22) % shard[1] != shard[0]:
            guild_id = snowflake()
        guild = GuildRecord(guild_id, name, self.owner.id)
        guild.members[self.bot_user.id] = MemberRecord(self.bot_user, guild.id)
        self.guilds[guild.id] = guild
        self.post("GUILD_CREATE", guild.payload())
        self.touched("guild", guild.id)
        return guild

    def add_channel(self, guild: GuildRecord, name: str) -> ChannelRecord:
        channel = ChannelRecord(snowflake(), guild.id, name, len(guild.channels), bot_id=self.bot_user.id)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.post("CHANNEL_CREATE", channel.payload())
        self.touched("channel", channel.id)
        return channel

    def add_member(self, guild: GuildRecord, name: str) -> MemberRecord:
        user = User(snowflake(), name)
        self.users[user.id] = user
        member = MemberRecord(user, guild.id)
        guild.members[user.id] = member
        self.post("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        self.touched("member", user.id)
        return member

    def set_moderator(self, guild: GuildRecord, member: MemberRecord, moderator: bool) -> None:
        """Give `member` the guild's Moderators role (Manage Channels), or take it away."""
        roles = [r for r in member.roles if r != guild.moderator_role]
        member.roles = [*roles, guild.moderator_role] if moderator else roles
        self.post("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)})
        self.touched("member", member.user.id)

    def remove_member(self, guild: GuildRecord, member: MemberRecord) -> None:
        del guild.members[member.user.id]
        self.post("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": member.user.payload()})
        self.touched("member", member.user.id)

    def deny_bot(self, channel: ChannelRecord, *permissions: str) -> None:
        """Take permissions from the bot in one channel; REST calls needing them get 50013."""
        for name in permissions:
            channel.bot_denied |= PERMISSIONS[name]
        self.post("CHANNEL_UPDATE", channel.payload())
        self.touched("channel", channel.id)

    def delete_channel(self, channel: ChannelRecord) -> None:
        channel.deleted = True
        self.post("CHANNEL_DELETE", channel.payload())
        self.touched("channel", channel.id)

    # --- gateway ---------------------------------------------------------------------------

    async def dispatch(self, event: str, data: Json) -> None:
        """Send an event to the current session; kept for a RESUME if the socket is down."""
        self._backlog.append((event, data))
        await self._flush()

    async def _flush(self) -> None:
        """Send queued events in order, each to the session of its guild's shard (none connected
        yet: dropped, as the bot gets the whole state with READY)."""
        async with self._flushing:
            while self._backlog:
                event, data = self._backlog.pop(0)
                session = self.session_for(_guild_of(event, data))
                if session is not None:
                    async with session.lock:
                        await self._emit(session, event, data)

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest session of the shard serving `guild_id` (the newest session of all for
        events outside guilds)."""
        if guild_id is None:
            return self.session
        return next((s for s in self.shards.values() if s.serves(guild_id)), None)

    @staticmethod
    async def _emit(session: Session, event: str, data: Json) -> None:
        """Number, keep and send one event; the caller holds `session.lock`."""
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        del session.events[:-EVENTS_KEPT]
        if session.ws is not None and not session.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_str(json.dumps(frame))

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway socket with a resumable code, as Discord does now and then."""
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.close(code=code)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    if data.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    session = await self._identify(ws, data)
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(ws, data)
                elif op == 8:
                    await self._members_chunk(data)
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
            await self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        shard_id, count = data.get("shard") or (0, 1)
        if not (isinstance(count, int) and isinstance(shard_id, int) and 0 <= shard_id < count):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), (shard_id, count))
        self.sessions[session.id] = session
        session.ws = ws
        guilds = [g for g in self.guilds.values() if session.serves(g.id)]
        ready: Json = {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        async with session.lock:  # events go to the newest session, after its READY
            self.session = self.shards[shard_id] = session
            await self._emit(session, "READY", ready)
            for guild in guilds:
                await self._emit(session, "GUILD_CREATE", guild.payload())
        self.identifies += 1
        await self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        seq = data.get("seq") or 0
        if (
            session is None
            or data.get("token") != self.token
            or self.shards.get(session.shard[0]) is not session  # a newer process took over
            or (session.events and session.events[0]["s"] > seq + 1)  # missed events are gone
        ):
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        async with session.lock:
            session.ws = ws
            for frame in session.events:
                if frame["s"] > seq:
                    await ws.send_str(json.dumps(frame))
            await self._emit(session, "RESUMED", {})
        self.resumes += 1
        await self._notify()
        return session

    async def _members_chunk(self, data: Json) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def ready(self) -> bool:
        """A bot is connected and has been sent READY (it may still be processing it)."""
        s = self.session
        return s is not None and s.ws is not None and not s.ws.closed

    # --- interactions ----------------------------------------------------------------------

    async def send_interaction(
        self,
        kind: int,
        member: MemberRecord,
        channel: ChannelRecord,
        data: Json,
        message: Message | None = None,
        *,
        forged: bool = False,
    ) -> Interaction:
        """Send INTERACTION_CREATE as Discord does when a member uses a command or a component.

        `forged`: the message as sent carries a button with `data`'s custom id, whatever the
        message really has (a hostile client, or a bot of another version)."""
        if channel.deleted:
            raise ValueError(f"channel {channel.name!r} was deleted: nobody can use it")
        guild = self.guilds[channel.guild_id]
        interaction = Interaction(
            snowflake(),
            "itok-" + secrets.token_urlsafe(24),
            kind,
            channel.id,
            member.user,
            {},
            asyncio.get_running_loop().time(),
            message=message,
        )
        payload: Json = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": member.payload(permissions=guild.permissions(member)),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(EVERYONE_PERMISSIONS & ~channel.denied),
            "locale": member.locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload(self.url)
            if forged:
                button = {"type": 2, "style": 2, "label": "?", "custom_id": data["custom_id"]}
                payload["message"]["components"] = [{"type": 1, "components": [button]}]
        interaction.payload = payload
        self.interactions[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def find_command(self, guild_id: int, name: str) -> Json | None:
        return self.commands.get(guild_id, {}).get(name) or self.commands[None].get(name)

    # --- REST ------------------------------------------------------------------------------

    def _add_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user}", self._get_user)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway)
        r("GET", "/applications/{app}/commands", self._list_commands)
        r("PUT", "/applications/{app}/commands", self._put_commands)
        r("POST", "/applications/{app}/commands", self._post_command)
        r("GET", "/applications/{app}/guilds/{guild}/commands", self._list_commands)
        r("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r("POST", "/applications/{app}/guilds/{guild}/commands", self._post_command)
        r("GET", "/guilds/{guild}", self._get_guild)
        r("GET", "/guilds/{guild}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild}/members/{user}", self._get_member)
        r("GET", "/channels/{channel}", self._get_channel)
        r("POST", "/channels/{channel}/typing", self._typing)
        r("GET", "/channels/{channel}/messages", self._history)
        r("POST", "/channels/{channel}/messages", self._post_message)
        r("GET", "/channels/{channel}/messages/{message}", self._get_message)
        r("PATCH", "/channels/{channel}/messages/{message}", self._edit_message)
        r("DELETE", "/channels/{channel}/messages/{message}", self._delete_message)
        r("POST", "/channels/{channel}/threads", self._create_thread)
        r("POST", "/channels/{channel}/messages/{message}/threads", self._create_thread)
        r("POST", "/interactions/{interaction}/{token}/callback", self._callback)
        r("POST", "/webhooks/{app}/{token}", self._followup)
        r("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message)
        r("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_webhook_message)
        r("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message)

    def _route(self, method: str, template: str, handler: Handler) -> None:
        regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        self._routes.append((method, re.compile(regex + "$"), handler))

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API) :]
        try:
            response = await self.before_rest(request, path) or await self._answer(request, path)
        except ApiError as e:
            response = json_response({"message": e.message, "code": e.code}, e.status)
        self.requests.append(Request(request.method, path, response.status))
        await self.after_rest(request, path)
        return response

    async def before_rest(self, request: web.Request, path: str) -> web.StreamResponse | None:
        """A hook for tests: an answer (or an ApiError) instead of carrying the call out; None
        carries it out. `path` is after /api/v10."""
        return None

    async def after_rest(self, request: web.Request, path: str) -> None:
        """A hook for tests: runs once the call was carried out, before it is answered."""

    async def _answer(self, request: web.Request, path: str) -> web.StreamResponse:
        for method, pattern, handler in self._routes:
            if method == request.method and (m := pattern.match(path)):
                open_route = path.startswith(("/interactions/", "/webhooks/"))
                if not open_route and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise ApiError(401, 0, "401: Unauthorized")
                return await handler(request, m.groupdict())
        self.unhandled.append(f"{request.method} {path}")
        raise ApiError(404, 0, "404: Not Found")

    async def _attachment(self, request: web.Request) -> web.Response:
        found = self.attachments.get(int(request.match_info["attachment"]))
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, content_type=found.content_type)

    async def _get_me(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request, p: dict[str, str]) -> web.Response:
        user = self.users.get(int(p["user"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_gateway(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _command_scope(self, p: dict[str, str]) -> int | None:
        if p["app"] != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")
        return int(p["guild"]) if "guild" in p else None

    def _store_command(self, scope: int | None, body: Json) -> Json:
        table = self.commands.setdefault(scope, {})
        old = table.get(body["name"])
        command = {
            "type": 1,
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **body,
            "id": old["id"] if old else str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
        }
        if scope is not None:
            command["guild_id"] = str(scope)
        table[body["name"]] = command
        return command

    async def _list_commands(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(list(self.commands.get(self._command_scope(p), {}).values()))

    async def _put_commands(self, request: web.Request, p: dict[str, str]) -> web.Response:
        scope = self._command_scope(p)
        bodies = await request.json()
        old = self.commands.get(scope, {})
        self.commands[scope] = {b["name"]: old[b["name"]] for b in bodies if b["name"] in old}
        stored = [self._store_command(scope, b) for b in bodies]
        self.touched("commands", scope or 0)
        await self._notify()
        return json_response(stored)

    async def _post_command(self, request: web.Request, p: dict[str, str]) -> web.Response:
        scope = self._command_scope(p)
        command = self._store_command(scope, await request.json())
        self.touched("commands", scope or 0)
        await self._notify()
        return json_response(command, 201)

    def _guild(self, gid: str) -> GuildRecord:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _channel(self, cid: str) -> ChannelRecord:
        channel = self.channels.get(int(cid))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel: ChannelRecord, mid: str) -> Message:
        message = self.messages.get(int(mid))
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_guild(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(self._guild(p["guild"]).payload())

    async def _get_guild_channels(self, request: web.Request, p: dict[str, str]) -> web.Response:
        guild = self._guild(p["guild"])
        return json_response([c.payload() for c in guild.channels.values() if not c.deleted])

    async def _get_member(self, request: web.Request, p: dict[str, str]) -> web.Response:
        member = self._guild(p["guild"]).members.get(int(p["user"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def _get_channel(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(self._channel(p["channel"]).payload())

    async def _typing(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._channel(p["channel"])
        return web.Response(status=204)

    async def _history(self, request: web.Request, p: dict[str, str]) -> web.Response:
        channel = self._channel(p["channel"])
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        found = [
            m
            for m in reversed(self.channel_messages.get(channel.id, []))
            if not m.deleted and not m.ephemeral and after < m.id < before
        ]
        return json_response([m.payload(self.url) for m in found[:limit]])

    async def _body(self, request: web.Request) -> tuple[Json, dict[int, Attachment]]:
        """A JSON body, or a multipart one: payload_json plus files[n] (bytes kept exactly)."""
        content_type = request.headers.get("Content-Type", "")
        body = await request.read()
        if not content_type.startswith("multipart/"):
            return (json.loads(body) if body else {}), {}
        payload: Json = {}
        files: dict[int, Attachment] = {}
        for headers, data in parse_multipart(body, content_type):
            disposition = headers.get("content-disposition", "")
            name = header_param(disposition, "name") or ""
            if name == "payload_json":
                payload = json.loads(data)
            elif m := re.fullmatch(r"files\[(\d+)\]", name):
                filename = header_param(disposition, "filename") or name
                ctype = headers.get("content-type", "application/octet-stream")
                new = Attachment(snowflake(), filename, data, ctype)
                files[int(m[1])] = self.attachments[new.id] = new
        return payload, files

    def _new_message(self, channel: ChannelRecord, body: Json, files: dict[int, Attachment]) -> Message:
        check_message(body, files, new=not int(body.get("flags") or 0) & LOADING)
        message = Message(snowflake(self.clock_offset), channel.id, channel.guild_id, self.bot_user)
        message.attachments = self._attachments([], body, files)
        self._apply(message, body)
        message.pinged = pinged_users(body)
        self.messages[message.id] = message
        self.channel_messages.setdefault(channel.id, []).append(message)
        self.touched("message", message.id)
        return message

    @staticmethod
    def _attachments(current: list[Attachment], body: Json, files: dict[int, Attachment]) -> list[Attachment]:
        """Discord's rule: `attachments` lists what to keep (by id) and the new files[n] (by n)."""
        if "attachments" not in body:
            return current + [files[n] for n in sorted(files)]
        kept = {str(a.id): a for a in current}
        result = []
        for entry in body["attachments"] or []:
            key = str(entry.get("id"))
            if key in kept:
                result.append(kept[key])
            elif key.isdigit() and int(key) in files:
                new = files[int(key)]
                result.append(new._replace(filename=entry.get("filename") or new.filename))
        return result

    @staticmethod
    def _apply(message: Message, body: Json) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = body["components"] or []
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & EPHEMERAL) | int(body["flags"])

    def _check_late_edit(self, message: Message) -> None:
        """A message over an hour old takes OLD_MESSAGE_EDITS more edits, then Discord refuses them."""
        if self.age(message) > OLD_MESSAGE_SECONDS and message.late_edits >= OLD_MESSAGE_EDITS:
            self.old_message_refusals += 1
            raise ApiError(429, 30046, "Maximum number of edits to messages older than 1 hour reached.")

    async def _edit(self, message: Message, body: Json, files: dict[int, Attachment]) -> None:
        check_message(body, files, new=False)
        self._check_late_edit(message)
        if self.age(message) > OLD_MESSAGE_SECONDS:
            message.late_edits += 1
        message.edits.append(message.snapshot())
        message.attachments = self._attachments(message.attachments, body, files)
        self._apply(message, body)
        message.flags &= ~LOADING
        message.edited_timestamp = _now()
        self.touched("message", message.id)
        for interaction in self.deferred_updates.pop(message.id, []):
            self._complete(interaction, message)  # a deferred click answered by editing its message
        if not message.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", message)
        await self._notify()

    async def _dispatch_message(self, event: str, message: Message) -> None:
        session = self.session_for(message.guild_id)
        if session is not None and session.intents & GUILD_MESSAGES_INTENT:
            await self.dispatch(event, message.payload(self.url))

    async def _created(self, message: Message) -> None:
        if not message.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE", message)
        await self._notify()

    async def member_says(self, member: MemberRecord, channel: ChannelRecord, content: str) -> Message:
        """A member posts `content` in a channel from Discord's client (the bot hears of it)."""
        if not 1 <= len(content) <= 2000:
            raise ValueError("a message has 1 to 2000 characters")
        message = Message(
            snowflake(self.clock_offset), channel.id, channel.guild_id, member.user, content=content
        )
        self.messages[message.id] = message
        self.channel_messages.setdefault(channel.id, []).append(message)
        self.touched("message", message.id)
        await self._created(message)
        return message

    async def _post_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        channel = self._channel(p["channel"])
        body, files = await self._body(request)
        send = "send_messages_in_threads" if channel.type == PUBLIC_THREAD else "send_messages"
        needed = PERMISSIONS["view_channel"] | PERMISSIONS[send]
        if files:
            needed |= PERMISSIONS["attach_files"]
        if channel.denied & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        if (limited := self._message_bucket(channel)) is not None:
            return limited
        message = self._new_message(channel, body, files)
        await self._created(message)
        return json_response(message.payload(self.url), headers=self._bucket_headers(channel))

    # --- threads and the per-channel message bucket -------------------------------------------

    def enforce_message_limit(self, count: int = 5, seconds: float = 5.0) -> None:
        """Discord's per-channel limits on new messages and on edits through the channel route:
        each kind `count` per `seconds`, then a 429."""
        self.message_limit = (count, seconds)

    def advance_clock(self, seconds: float) -> None:
        """Move the fake's clock on: its messages are that much older (for the old-message edit limit)."""
        self.clock_offset += seconds

    def age(self, message: Message) -> float:
        """Seconds since `message` was posted, by the fake's clock (its id holds the time)."""
        posted_ms = (message.id >> 22) + DISCORD_EPOCH_MS
        return time.time() + self.clock_offset - posted_ms / 1000

    def _recent(self, channel: ChannelRecord, kind: str) -> list[float]:
        now = time.monotonic()
        window = self.message_limit[1] if self.message_limit else 0.0
        recent = [t for t in self.written_at.get((channel.id, kind), []) if now - t < window]
        self.written_at[channel.id, kind] = recent
        return recent

    def _message_bucket(self, channel: ChannelRecord, kind: str = "post") -> web.Response | None:
        """None when a message may be posted (or edited) now, and counts it; else Discord's 429."""
        if self.message_limit is None:
            return None
        count, seconds = self.message_limit
        recent = self._recent(channel, kind)
        if len(recent) >= count:
            retry = max(0.001, recent[0] + seconds - time.monotonic())
            self.rate_limited += 1
            headers = {**self._bucket_headers(channel, kind), "X-RateLimit-Scope": "shared"}
            body = {"message": "You are being rate limited.", "retry_after": retry, "global": False}
            return json_response(body, 429, headers)
        recent.append(time.monotonic())
        return None

    def _bucket_headers(self, channel: ChannelRecord, kind: str = "post") -> dict[str, str]:
        if self.message_limit is None:
            return {}
        count, seconds = self.message_limit
        recent = self._recent(channel, kind)
        reset_after = recent[0] + seconds - time.monotonic() if recent else seconds
        return {
            "X-RateLimit-Limit": str(count),
            "X-RateLimit-Remaining": str(max(0, count - len(recent))),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"messages-{kind}-{channel.id}",
        }

    async def _create_thread(self, request: web.Request, p: dict[str, str]) -> web.Response:
        """A public thread from a text channel (from one of its messages or without one)."""
        parent = self._channel(p["channel"])
        if parent.type == PUBLIC_THREAD:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if parent.denied & (PERMISSIONS["view_channel"] | PERMISSIONS["create_public_threads"]):
            raise ApiError(403, 50013, "Missing Permissions")
        body, _ = await self._body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: name")
        guild = self.guilds[parent.guild_id]
        thread = ChannelRecord(
            snowflake(),
            guild.id,
            name,
            0,
            bot_id=self.bot_user.id,
            type=PUBLIC_THREAD,
            parent=parent,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 4320),
        )
        guild.channels[thread.id] = self.channels[thread.id] = thread
        if "message" in p:
            starter = self._message(parent, p["message"])
            starter.thread_id = thread.id
            self.touched("message", starter.id)
        self.touched("channel", thread.id)
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        await self._notify()
        return json_response(thread.payload(), 201)

    async def _get_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return json_response(self._message(self._channel(p["channel"]), p["message"]).payload(self.url))

    async def _edit_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        channel = self._channel(p["channel"])
        message = self._message(channel, p["message"])
        if message.author.id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._body(request)
        if (limited := self._message_bucket(channel, "edit")) is not None:
            return limited
        await self._edit(message, body, files)
        return json_response(message.payload(self.url), headers=self._bucket_headers(channel, "edit"))

    async def _delete_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        message = self._message(self._channel(p["channel"]), p["message"])
        message.deleted = True
        self.touched("message", message.id)
        await self.dispatch(
            "MESSAGE_DELETE",
            {"id": str(message.id), "channel_id": str(message.channel_id), "guild_id": str(message.guild_id)},
        )
        await self._notify()
        return web.Response(status=204)

    def _interaction(self, token: str) -> Interaction:
        interaction = self.by_token.get(token)
        if interaction is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - interaction.created > INTERACTION_TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    async def _callback(self, request: web.Request, p: dict[str, str]) -> web.Response:
        interaction = self.interactions.get(int(p["interaction"]))
        if interaction is None or interaction.token != p["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        latency = asyncio.get_running_loop().time() - interaction.created
        if self.interaction_timeout is not None and latency > self.interaction_timeout:
            raise ApiError(404, 10062, "Unknown interaction")
        if interaction.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._body(request)
        kind, data = int(body["type"]), body.get("data") or {}
        if kind in (4, 7):  # refused answers leave the interaction unacknowledged
            check_message(data, files, new=kind == 4)
        if kind == 7 and interaction.message is not None:
            self._check_late_edit(interaction.message)
        elif kind == 8:
            check_choices(data.get("choices", []))
        interaction.callback_type, interaction.callback_data = kind, data
        interaction.callback_latency = latency
        channel = self.channels[interaction.channel_id]
        message: Message | None = None
        if kind in (4, 5):  # a message, or "thinking" to be completed by a followup or an edit
            flags = int(data.get("flags") or 0) | (LOADING if kind == 5 else 0)
            message = self._new_message(channel, {**data, "flags": flags}, files)
            self._answers(message, interaction)
            interaction.original = message
            await self._created(message)
        elif kind in (6, 7):  # acknowledge a component, or update the message it is on
            message = interaction.message
            interaction.original = message
            if kind == 6 and message is not None:
                self.deferred_updates.setdefault(message.id, []).append(interaction)
            if kind == 7 and message is not None:
                await self._edit(message, data, files)
        elif kind == 8:
            interaction.choices = list(data.get("choices", []))
        if kind in (4, 7, 8, 9):
            self._complete(interaction, message)
        await self._notify()
        answer: Json = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"]["message"] = message.payload(self.url)
        return json_response(answer)

    async def _followup(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        interaction = self._interaction(p["token"])
        if interaction.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")  # a followup needs the first answer
        body, files = await self._body(request)
        original = interaction.original
        if interaction.callback_type == 5 and original is not None and original.flags & LOADING:
            message = original  # the first followup replaces the "thinking" message
            await self._edit(message, body, files)
        else:
            message = self._new_message(self.channels[interaction.channel_id], body, files)
            self._answers(message, interaction)
            await self._created(message)
        interaction.followups.append(message)
        self._complete(interaction, message)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload(self.url))
        return web.Response(status=204)

    @staticmethod
    def _answers(message: Message, interaction: Interaction) -> None:
        """Mark `message` as an answer to `interaction` (and to whom, for a command)."""
        message.interaction_id = interaction.id
        if interaction.type == 2:
            names, _ = leaf(interaction.payload.get("data") or {})
            message.invoked = (interaction.user.id, " ".join(names))

    def _complete(self, interaction: Interaction, message: Message | None) -> None:
        if not interaction.done.is_set():
            interaction.answered_by = message
            interaction.answered_at = asyncio.get_running_loop().time()
            interaction.done.set()

    def _webhook_message(self, interaction: Interaction, mid: str) -> Message:
        message = interaction.original if mid == "@original" else self.messages.get(int(mid))
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        interaction = self._interaction(p["token"])
        return json_response(self._webhook_message(interaction, p["message"]).payload(self.url))

    async def _edit_webhook_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        interaction = self._interaction(p["token"])
        message = self._webhook_message(interaction, p["message"])
        body, files = await self._body(request)
        await self._edit(message, body, files)
        self._complete(interaction, message)
        return json_response(message.payload(self.url))

    async def _delete_webhook_message(self, request: web.Request, p: dict[str, str]) -> web.Response:
        message = self._webhook_message(self._interaction(p["token"]), p["message"])
        message.deleted = True
        self.touched("message", message.id)
        await self._notify()
        return web.Response(status=204)
