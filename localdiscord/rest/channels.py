"""A channel's messages and threads, through the bot's token: history, post, read, edit, delete,
start a thread. New messages and edits here count against the channel's bucket."""

from __future__ import annotations

from aiohttp import web

from localdiscord import messages
from localdiscord.multipart import read_body
from localdiscord.objects import PERMISSIONS, PUBLIC_THREAD, ApiError, json_response
from localdiscord.rest.common import state_of

routes = web.RouteTableDef()


@routes.get("/channels/{channel}/messages")
async def history(request: web.Request) -> web.Response:
    state = state_of(request)
    channel = state.channel(request.match_info["channel"])
    limit = int(request.query.get("limit", 50))
    before = int(request.query.get("before", 1 << 63))
    after = int(request.query.get("after", 0))
    found = [
        m
        for m in reversed(state.channel_messages.get(channel.id, []))
        if not m.deleted and not m.ephemeral and after < m.id < before
    ]
    return json_response([m.payload(state.url) for m in found[:limit]])


@routes.post("/channels/{channel}/messages")
async def post_message(request: web.Request) -> web.Response:
    state = state_of(request)
    channel = state.channel(request.match_info["channel"])
    body, files = await read_body(request)
    send = "send_messages_in_threads" if channel.type == PUBLIC_THREAD else "send_messages"
    needed = PERMISSIONS["view_channel"] | PERMISSIONS[send]
    if files:
        needed |= PERMISSIONS["attach_files"]
    if channel.denied & needed:
        raise ApiError(403, 50013, "Missing Permissions")
    if (limited := state.buckets.take(channel.id)) is not None:
        return limited
    message = messages.new_message(state, channel, body, files)
    await messages.created(state, message)
    return json_response(message.payload(state.url), headers=state.buckets.headers(channel.id))


@routes.get("/channels/{channel}/messages/{message}")
async def get_message(request: web.Request) -> web.Response:
    state = state_of(request)
    channel = state.channel(request.match_info["channel"])
    return json_response(state.message(channel, request.match_info["message"]).payload(state.url))


@routes.patch("/channels/{channel}/messages/{message}")
async def edit_message(request: web.Request) -> web.Response:
    state = state_of(request)
    channel = state.channel(request.match_info["channel"])
    message = state.message(channel, request.match_info["message"])
    if message.author.id != state.bot_user.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    body, files = await read_body(request)
    if (limited := state.buckets.take(channel.id, "edit")) is not None:
        return limited
    await messages.edit(state, message, body, files)
    return json_response(message.payload(state.url), headers=state.buckets.headers(channel.id, "edit"))


@routes.delete("/channels/{channel}/messages/{message}")
async def delete_message(request: web.Request) -> web.Response:
    state = state_of(request)
    message = state.message(state.channel(request.match_info["channel"]), request.match_info["message"])
    await messages.delete(state, message)
    return web.Response(status=204)


@routes.post("/channels/{channel}/threads")
@routes.post("/channels/{channel}/messages/{message}/threads")
async def create_thread(request: web.Request) -> web.Response:
    """A public thread from a text channel (from one of its messages or without one)."""
    state = state_of(request)
    parent = state.channel(request.match_info["channel"])
    if parent.type == PUBLIC_THREAD:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    if parent.denied & (PERMISSIONS["view_channel"] | PERMISSIONS["create_public_threads"]):
        raise ApiError(403, 50013, "Missing Permissions")
    body, _ = await read_body(request)
    thread = await messages.create_thread(state, parent, body, request.match_info.get("message"))
    return json_response(thread.payload(), 201)
