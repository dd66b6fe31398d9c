"""Interactions: a member's command, click or typing sent to the bot, and the bot's answers to it
(the callback, followups, edits of the original answer), as Discord takes them."""

from __future__ import annotations

import asyncio
import secrets

from localdiscord import messages
from localdiscord.commandline import leaf
from localdiscord.limits import check_choices, check_message
from localdiscord.objects import (
    EVERYONE_PERMISSIONS,
    INTERACTION_TOKEN_LIFETIME,
    LOADING,
    ApiError,
    Attachment,
    CallbackType,
    ChannelRecord,
    Interaction,
    InteractionType,
    Json,
    MemberRecord,
    Message,
    snowflake,
)
from localdiscord.state import State

ANSWERS = (CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE)
"""Callbacks that post a message (a "thinking" one for the deferred kind)."""
COMPONENT_ANSWERS = (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE)
"""Callbacks on the message a clicked component is on."""
COMPLETE = (
    CallbackType.CHANNEL_MESSAGE,
    CallbackType.UPDATE_MESSAGE,
    CallbackType.AUTOCOMPLETE_RESULT,
    CallbackType.MODAL,
)
"""Callbacks that are the whole answer (the deferred kinds wait for a followup or an edit)."""


def interaction_payload(
    state: State, interaction: Interaction, member: MemberRecord, channel: ChannelRecord, data: Json
) -> Json:
    """INTERACTION_CREATE's data, every field discord.py reads."""
    guild = state.guilds[channel.guild_id]
    return {
        "id": str(interaction.id),
        "application_id": str(state.application_id),
        "type": int(interaction.type),
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


async def send_interaction(
    state: State,
    kind: InteractionType,
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
    interaction = Interaction(
        snowflake(),
        "itok-" + secrets.token_urlsafe(24),
        InteractionType(kind),
        channel.id,
        member.user,
        {},
        asyncio.get_running_loop().time(),
        message=message,
    )
    payload = interaction_payload(state, interaction, member, channel, data)
    if message is not None:
        payload["message"] = message.payload(state.url)
        if forged:
            button = {"type": 2, "style": 2, "label": "?", "custom_id": data["custom_id"]}
            payload["message"]["components"] = [{"type": 1, "components": [button]}]
    interaction.payload = payload
    state.interactions[interaction.id] = interaction
    state.by_token[interaction.token] = interaction
    await state.gateway.dispatch("INTERACTION_CREATE", payload)
    return interaction


def by_token(state: State, token: str) -> Interaction:
    """The interaction a webhook token belongs to, while the token lives (15 minutes)."""
    interaction = state.by_token.get(token)
    if interaction is None:
        raise ApiError(404, 10015, "Unknown Webhook")
    if asyncio.get_running_loop().time() - interaction.created > INTERACTION_TOKEN_LIFETIME:
        raise ApiError(401, 50027, "Invalid Webhook Token")
    return interaction


def to_callback(state: State, interaction_id: str, token: str) -> tuple[Interaction, float]:
    """The interaction a callback answers, and how late the answer is; Discord's refusals raise."""
    interaction = state.interactions.get(int(interaction_id))
    if interaction is None or interaction.token != token:
        raise ApiError(404, 10062, "Unknown interaction")
    latency = asyncio.get_running_loop().time() - interaction.created
    if state.interaction_timeout is not None and latency > state.interaction_timeout:
        raise ApiError(404, 10062, "Unknown interaction")
    if interaction.callback_type is not None:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    return interaction, latency


def check_callback(
    state: State, interaction: Interaction, kind: CallbackType, data: Json, files: dict[int, Attachment]
) -> None:
    """Refused answers leave the interaction unacknowledged."""
    if kind in (CallbackType.CHANNEL_MESSAGE, CallbackType.UPDATE_MESSAGE):
        check_message(data, files, new=kind == CallbackType.CHANNEL_MESSAGE)
    if kind == CallbackType.UPDATE_MESSAGE and interaction.message is not None:
        messages.check_late_edit(state, interaction.message)
    elif kind == CallbackType.AUTOCOMPLETE_RESULT:
        check_choices(data.get("choices", []))


async def callback(
    state: State, interaction: Interaction, kind: CallbackType, data: Json, files: dict[int, Attachment]
) -> Message | None:
    """Carry out the bot's first answer to `interaction`; returns the message it shows, if any."""
    channel = state.channels[interaction.channel_id]
    message: Message | None = None
    if kind in ANSWERS:  # a message, or "thinking" to be completed by a followup or an edit
        loading = LOADING if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE else 0
        message = messages.new_message(
            state, channel, {**data, "flags": int(data.get("flags") or 0) | loading}, files
        )
        answers(state, message, interaction)
        interaction.original = message
        await messages.created(state, message)
    elif kind in COMPONENT_ANSWERS:  # acknowledge a component, or update the message it is on
        message = interaction.message
        interaction.original = message
        if kind == CallbackType.DEFERRED_UPDATE_MESSAGE and message is not None:
            state.deferred_updates.setdefault(message.id, []).append(interaction)
        if kind == CallbackType.UPDATE_MESSAGE and message is not None:
            await messages.edit(state, message, data, files)
    elif kind == CallbackType.AUTOCOMPLETE_RESULT:
        interaction.choices = list(data.get("choices", []))
    if kind in COMPLETE:
        interaction.complete(message)
    await state.notify(interaction.channel_id)
    return message


def callback_answer(
    state: State, interaction: Interaction, kind: CallbackType, message: Message | None
) -> Json:
    """The callback's response body (with_response): the interaction and what it made."""
    answer: Json = {
        "interaction": {
            "id": str(interaction.id),
            "type": int(interaction.type),
            "response_message_loading": kind == CallbackType.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        },
        "resource": {"type": int(kind)},
    }
    if message is not None:
        answer["interaction"]["response_message_id"] = str(message.id)
        answer["resource"]["message"] = message.payload(state.url)
    return answer


async def followup(
    state: State, interaction: Interaction, body: Json, files: dict[int, Attachment]
) -> Message:
    """A followup message; the first one after "thinking" replaces the thinking message."""
    if interaction.callback_type is None:
        raise ApiError(404, 10015, "Unknown Webhook")  # a followup needs the first answer
    original = interaction.original
    thinking = interaction.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    if thinking and original is not None and original.flags & LOADING:
        message = original
        await messages.edit(state, message, body, files)
    else:
        message = messages.new_message(state, state.channels[interaction.channel_id], body, files)
        answers(state, message, interaction)
        await messages.created(state, message)
    interaction.followups.append(message)
    interaction.complete(message)
    return message


def answers(state: State, message: Message, interaction: Interaction) -> None:
    """Mark `message` as an answer to `interaction` (and to whom, for a command); an answer only
    for its member notes the buttons its channel offers now (the turn it is about: the page lets
    it go with that turn)."""
    message.interaction_id = interaction.id
    if interaction.type == InteractionType.APPLICATION_COMMAND:
        names, _ = leaf(interaction.payload.get("data") or {})
        message.invoked = (interaction.user.id, " ".join(names))
    if message.ephemeral:
        message.offered = offered(state, message.channel_id)


def offered(state: State, channel_id: int, newest: int = 20) -> tuple[str, ...]:
    """The custom ids of the enabled buttons on the channel's newest messages everyone sees."""
    shown = [m for m in state.channel_messages.get(channel_id, []) if not m.deleted and not m.ephemeral]
    return tuple(b.custom_id for m in shown[-newest:] for b in m.buttons if b.custom_id and not b.disabled)


def webhook_message(state: State, interaction: Interaction, mid: str) -> Message:
    """`@original` or another message, as a webhook route names it."""
    message = interaction.original if mid == "@original" else state.messages.get(int(mid))
    if message is None or message.deleted:
        raise ApiError(404, 10008, "Unknown Message")
    return message
