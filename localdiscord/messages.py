"""Messages as the stand-in changes them: posted (by the bot or a member), edited, deleted, and
the threads started from them; each change is stored, told to the gateway and notified."""

from __future__ import annotations

from localdiscord.limits import check_message, pinged_users
from localdiscord.objects import (
    EPHEMERAL,
    GUILD_MESSAGES_INTENT,
    LOADING,
    OLD_MESSAGE_EDITS,
    OLD_MESSAGE_SECONDS,
    PUBLIC_THREAD,
    ApiError,
    Attachment,
    ChannelRecord,
    Json,
    Message,
    User,
    now_iso,
    snowflake,
)
from localdiscord.state import State


def keep_files(state: State, files: dict[int, Attachment]) -> None:
    """Store a request's uploaded files (the attachment route serves them)."""
    state.attachments.update({a.id: a for a in files.values()})


def new_message(
    state: State, channel: ChannelRecord, body: Json, files: dict[int, Attachment], author: User | None = None
) -> Message:
    """Store a message the bot (or `author`) posts; the caller tells of it (`created`)."""
    check_message(body, files, new=not int(body.get("flags") or 0) & LOADING)
    keep_files(state, files)
    message = Message(snowflake(state.clock_offset), channel.id, channel.guild_id, author or state.bot_user)
    message.attachments = attachments_after(message.attachments, body, files)
    apply(message, body)
    message.pinged = pinged_users(body)
    state.messages[message.id] = message
    state.channel_messages.setdefault(channel.id, []).append(message)
    state.touched("message", message.id)
    return message


async def created(state: State, message: Message) -> None:
    """Tell of a new message (an ephemeral one only to the page)."""
    if not message.ephemeral:
        await dispatch_message(state, "MESSAGE_CREATE", message)
    await state.notify(message.channel_id)


async def dispatch_message(state: State, event: str, message: Message) -> None:
    """Message events reach a bot only with the GUILD_MESSAGES intent."""
    session = state.gateway.session_for(message.guild_id)
    if session is not None and session.intents & GUILD_MESSAGES_INTENT:
        await state.gateway.dispatch(event, message.payload(state.url))


async def member_says(state: State, author: User, channel: ChannelRecord, content: str) -> Message:
    """A member posts `content` in a channel from Discord's client (the bot hears of it)."""
    if not 1 <= len(content) <= 2000:
        raise ValueError("a message has 1 to 2000 characters")
    message = Message(snowflake(state.clock_offset), channel.id, channel.guild_id, author, content=content)
    state.messages[message.id] = message
    state.channel_messages.setdefault(channel.id, []).append(message)
    state.touched("message", message.id)
    await created(state, message)
    return message


def attachments_after(
    current: list[Attachment], body: Json, files: dict[int, Attachment]
) -> list[Attachment]:
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


def apply(message: Message, body: Json) -> None:
    """Content, embeds, components and flags as a body sets them (an ephemeral message stays so)."""
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = body["embeds"] or []
    if "components" in body:
        message.components = body["components"] or []
    if "flags" in body and body["flags"] is not None:
        message.flags = (message.flags & EPHEMERAL) | int(body["flags"])


def check_late_edit(state: State, message: Message) -> None:
    """A message over an hour old takes OLD_MESSAGE_EDITS more edits, then Discord refuses them."""
    if state.age(message) > OLD_MESSAGE_SECONDS and message.late_edits >= OLD_MESSAGE_EDITS:
        state.old_message_refusals += 1
        raise ApiError(429, 30046, "Maximum number of edits to messages older than 1 hour reached.")


async def edit(state: State, message: Message, body: Json, files: dict[int, Attachment]) -> None:
    """Edit a message through any route; a click deferred on it is answered by the edit."""
    check_message(body, files, new=False)
    check_late_edit(state, message)
    keep_files(state, files)
    if state.age(message) > OLD_MESSAGE_SECONDS:
        message.late_edits += 1
    message.edits.append(message.snapshot())
    message.attachments = attachments_after(message.attachments, body, files)
    apply(message, body)
    message.flags &= ~LOADING
    message.edited_timestamp = now_iso()
    state.touched("message", message.id)
    for interaction in state.deferred_updates.pop(message.id, []):
        interaction.complete(message)
    if not message.ephemeral:
        await dispatch_message(state, "MESSAGE_UPDATE", message)
    await state.notify(message.channel_id)


async def delete(state: State, message: Message, *, tell: bool = True) -> None:
    """Delete a message (`tell`: the bot hears of it, as when deleted through the channel route)."""
    message.deleted = True
    state.touched("message", message.id)
    if tell:
        ids = {"id": message.id, "channel_id": message.channel_id, "guild_id": message.guild_id}
        await state.gateway.dispatch("MESSAGE_DELETE", {key: str(value) for key, value in ids.items()})
    await state.notify(message.channel_id)


async def create_thread(
    state: State, parent: ChannelRecord, body: Json, starter_id: str | None = None
) -> ChannelRecord:
    """A public thread from a text channel (from one of its messages, `starter_id`, or without one)."""
    name = str(body.get("name") or "")
    if not 1 <= len(name) <= 100:
        raise ApiError(400, 50035, "Invalid Form Body: name")
    thread = ChannelRecord(
        snowflake(),
        parent.guild_id,
        name,
        0,
        bot_id=state.bot_user.id,
        type=PUBLIC_THREAD,
        parent=parent,
        owner_id=state.bot_user.id,
        auto_archive_duration=int(body.get("auto_archive_duration") or 4320),
    )
    state.guilds[parent.guild_id].channels[thread.id] = state.channels[thread.id] = thread
    if starter_id is not None:
        starter = state.message(parent, starter_id)
        starter.thread_id = thread.id
        state.touched("message", starter.id)
    state.touched("channel", thread.id)
    await state.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
    await state.notify()
    return thread
