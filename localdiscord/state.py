"""The stand-in's state: every record a bot can see, how tests and the page change the guild
(members, channels, permissions), and the change notification everyone waits on.

Message changes are in messages.py, interactions in interactions.py; both change this state and
tell the gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from localdiscord.gateway import Gateway
from localdiscord.limits import MessageBuckets
from localdiscord.objects import (
    DISCORD_EPOCH_MS,
    PERMISSIONS,
    ApiError,
    Attachment,
    ChannelRecord,
    GuildRecord,
    Interaction,
    Json,
    MemberRecord,
    Message,
    Request,
    User,
    snowflake,
)


class State:
    """The objects (by id), the gateway they are told through, and `changed`, notified on every
    change a test may wait for."""

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
        self.buckets = MessageBuckets()
        self.clock_offset = 0.0
        """Seconds the stand-in's clock runs ahead of the real one (`advance_clock`): how old messages are."""
        self.old_message_refusals = 0  # edits refused with 30046
        self.requests: list[Request] = []
        self.unhandled: list[str] = []  # REST calls no route takes
        self.changed = asyncio.Event()
        """Set, and replaced by a new one, on every gateway or message change: unscoped waits wake."""
        self.channel_changed: dict[int, asyncio.Event] = {}
        """The same for one channel's changes: waits scoped to it wake on those alone (a bench with
        hundreds of tables would otherwise wake every wait on every change)."""
        self.observers: list[Callable[[str, int], None]] = []
        """Called with (kind, id) on every change of a guild, channel, member, message or the
        commands ("guild", "channel", "member", "message", "commands": the guild id or 0)."""
        self.url = ""  # http://127.0.0.1:<port> once the server listens
        self.gateway = Gateway(self)

    # --- changes: who hears of them ----------------------------------------------------------

    def touched(self, kind: str, ident: int) -> None:
        """Tell the observers (the local table's page, its saved state) what changed."""
        for observer in self.observers:
            observer(kind, ident)

    async def notify(self, channel_id: int | None = None) -> None:
        """A change, in the channel `channel_id` (None: anywhere, so every wait looks again)."""
        self.changed.set()
        self.changed = asyncio.Event()
        if channel_id is None:
            woken, self.channel_changed = list(self.channel_changed.values()), {}
        else:
            woken = [event] if (event := self.channel_changed.pop(channel_id, None)) else []
        for event in woken:
            event.set()

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float, what: str, channel_id: int | None = None
    ) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change, or every change in the
        channel `channel_id`, and every 50 ms).

        `asyncio.timeout`, not `asyncio.wait_for`: Python 3.11's wait_for can swallow a cancel
        that arrives as the change it waits for does, and a cancelled waiter would live on."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not (result := predicate()):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            if channel_id is None:
                change = self.changed
            else:
                change = self.channel_changed.setdefault(channel_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 0.05)):
                    await change.wait()
        return result

    def ready(self) -> bool:
        """A bot is connected and has been sent READY (it may still be processing it)."""
        return self.gateway.ready()

    # --- the clock and the limits ------------------------------------------------------------

    @property
    def rate_limited(self) -> int:
        """429s answered by the message buckets."""
        return self.buckets.refused

    def enforce_message_limit(self, count: int = 5, seconds: float = 5.0) -> None:
        """Discord's per-channel limits on new messages and on edits through the channel route:
        each kind `count` per `seconds`, then a 429."""
        self.buckets.enforce(count, seconds)

    def advance_clock(self, seconds: float) -> None:
        """Move the stand-in's clock on: its messages are that much older (the old-message edit limit)."""
        self.clock_offset += seconds

    def age(self, message: Message) -> float:
        """Seconds since `message` was posted, by the stand-in's clock (its id holds the time)."""
        posted_ms = (message.id >> 22) + DISCORD_EPOCH_MS
        return time.time() + self.clock_offset - posted_ms / 1000

    # --- finding objects, as REST paths name them ----------------------------------------------

    def guild(self, gid: str | int) -> GuildRecord:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def channel(self, cid: str | int) -> ChannelRecord:
        channel = self.channels.get(int(cid))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def message(self, channel: ChannelRecord, mid: str | int) -> Message:
        message = self.messages.get(int(mid))
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def find_command(self, guild_id: int, name: str) -> Json | None:
        return self.commands.get(guild_id, {}).get(name) or self.commands[None].get(name)

    # --- the guild, changed by tests and the page ------------------------------------------------

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> GuildRecord:
        guild_id = snowflake()
        while shard is not None and (guild_id >> 22) % shard[1] != shard[0]:
            guild_id = snowflake()
        guild = GuildRecord(guild_id, name, self.owner.id)
        guild.members[self.bot_user.id] = MemberRecord(self.bot_user, guild.id)
        self.guilds[guild.id] = guild
        self.gateway.post("GUILD_CREATE", guild.payload())
        self.touched("guild", guild.id)
        return guild

    def add_channel(self, guild: GuildRecord, name: str) -> ChannelRecord:
        channel = ChannelRecord(snowflake(), guild.id, name, len(guild.channels), bot_id=self.bot_user.id)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.gateway.post("CHANNEL_CREATE", channel.payload())
        self.touched("channel", channel.id)
        return channel

    def add_member(self, guild: GuildRecord, name: str) -> MemberRecord:
        user = User(snowflake(), name)
        self.users[user.id] = user
        member = MemberRecord(user, guild.id)
        guild.members[user.id] = member
        self.gateway.post("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        self.touched("member", user.id)
        return member

    def set_moderator(self, guild: GuildRecord, member: MemberRecord, moderator: bool) -> None:
        """Give `member` the guild's Moderators role (Manage Channels, Manage Events), or take it away."""
        roles = [r for r in member.roles if r != guild.moderator_role]
        member.roles = [*roles, guild.moderator_role] if moderator else roles
        self.gateway.post("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)})
        self.touched("member", member.user.id)

    def remove_member(self, guild: GuildRecord, member: MemberRecord) -> None:
        del guild.members[member.user.id]
        self.gateway.post("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": member.user.payload()})
        self.touched("member", member.user.id)

    def deny_bot(self, channel: ChannelRecord, *permissions: str) -> None:
        """Take permissions from the bot in one channel; REST calls needing them get 50013."""
        for name in permissions:
            channel.bot_denied |= PERMISSIONS[name]
        self.gateway.post("CHANNEL_UPDATE", channel.payload())
        self.touched("channel", channel.id)

    def delete_channel(self, channel: ChannelRecord) -> None:
        channel.deleted = True
        self.gateway.post("CHANNEL_DELETE", channel.payload())
        self.touched("channel", channel.id)
