"""What the page shows of the stand-in's objects, as JSON, and who may see it.

The page renders these views (markdown, mentions, embeds, buttons) itself; here only the data is
chosen: a message's attachments become page addresses, an embed's `attachment://` pictures point
at them, and an ephemeral message exists only for the member its interaction came from.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from localdiscord.objects import (
    LOADING,
    PUBLIC_THREAD,
    Attachment,
    ChannelRecord,
    GuildRecord,
    MemberRecord,
    Message,
)
from localdiscord.state import State

Json = dict[str, Any]
HISTORY = 200
"""Messages per channel a page gets when it connects (the newest ones)."""


PICTURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"))


def picture_type(attachment: Attachment) -> str | None:
    """The picture type of an attachment's bytes (bots often upload as octet-stream), or None."""
    for magic, kind in PICTURES:
        if attachment.data.startswith(magic):
            return kind
    return None


def attachment_url(attachment: Attachment) -> str:
    return f"/attachments/{attachment.id}/{urllib.parse.quote(attachment.filename)}"


def recipient(server: State, message: Message) -> int | None:
    """The member an ephemeral message is for (None: nobody, once its interaction is forgotten)."""
    interaction = server.interactions.get(message.interaction_id or 0)
    return interaction.user.id if interaction is not None else None


def visible(server: State, message: Message, member_id: int) -> bool:
    return not message.deleted and (not message.ephemeral or recipient(server, message) == member_id)


def message_view(server: State, message: Message, member_id: int) -> Json:
    """The message as `member_id` sees it; a gone one (deleted, or not theirs) has only its ids."""
    ids = {"id": str(message.id), "channel_id": str(message.channel_id)}
    if not visible(server, message, member_id):
        return {**ids, "gone": True}
    urls = {a.filename: attachment_url(a) for a in message.attachments}
    view: Json = {
        **ids,
        "author": {"id": str(message.author.id), "name": message.author.name, "bot": message.author.bot},
        "content": message.content,
        "embeds": [_embed(embed, urls) for embed in message.embeds],
        "components": message.components,
        "attachments": [
            {"url": attachment_url(a), "filename": a.filename, "image": picture_type(a) is not None}
            for a in message.attachments
            if not any(_uses(embed, a.filename) for embed in message.embeds)
        ],
        "timestamp": message.timestamp,
        "edited": message.edited_timestamp is not None,
        "ephemeral": message.ephemeral,
        "thinking": bool(message.flags & LOADING),
        "thread_id": str(message.thread_id) if message.thread_id else None,
    }
    if message.invoked is not None:
        user_id, command = message.invoked
        view["invoked"] = {"user_id": str(user_id), "command": command}
    if message.ephemeral and message.offered:
        view["during"] = list(message.offered)
    asked = server.interactions.get(message.interaction_id or 0)
    if message.ephemeral and asked is not None and asked.message is not None:
        custom_id = str((asked.payload.get("data") or {}).get("custom_id", ""))
        view["answers"] = {"message": str(asked.message.id), "custom_id": custom_id}
    return view


def _uses(embed: Json, filename: str) -> bool:
    """An embed shows the attachment as its image or thumbnail (so it is not shown twice)."""
    wanted = "attachment://" + filename
    return any((embed.get(key) or {}).get("url") == wanted for key in ("image", "thumbnail"))


def _embed(embed: Json, urls: dict[str, str]) -> Json:
    """The embed with `attachment://name` pictures as page addresses (others are dropped: the
    page loads nothing from outside)."""
    shown = dict(embed)
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url", "")
        if url.startswith("attachment://") and url.removeprefix("attachment://") in urls:
            shown[key] = {"url": urls[url.removeprefix("attachment://")]}
        else:
            shown.pop(key, None)
    return shown


def channel_view(channel: ChannelRecord) -> Json:
    return {
        "id": str(channel.id),
        "name": channel.name,
        "thread": channel.type == PUBLIC_THREAD,
        "parent_id": str(channel.parent.id) if channel.parent else None,
        "deleted": channel.deleted,
    }


def member_view(guild: GuildRecord, member: MemberRecord) -> Json:
    return {
        "id": str(member.user.id),
        "name": member.user.name,
        "bot": member.user.bot,
        "moderator": guild.moderator_role in member.roles,
        "locale": member.locale,
    }


def snapshot(server: State, guild: GuildRecord, member: MemberRecord) -> Json:
    """Everything a page shows when it connects, for `member`."""
    channels = [c for c in guild.channels.values() if not c.deleted]
    messages = []
    for channel in channels:
        seen = [m for m in server.channel_messages.get(channel.id, []) if visible(server, m, member.user.id)]
        messages += [message_view(server, m, member.user.id) for m in seen[-HISTORY:]]
    return {
        "guild": {"id": str(guild.id), "name": guild.name},
        "me": member_view(guild, member),
        "members": [member_view(guild, m) for m in guild.members.values()],
        "users": {str(u.id): u.name for u in server.users.values()},
        "channels": [channel_view(c) for c in channels],
        "messages": messages,
        "bot_online": server.ready(),
    }
