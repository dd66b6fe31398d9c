"""The bot's answers to interactions: the callback, followups and the answer's messages, reached
by the interaction's token (no bot token needed, as on Discord)."""

from __future__ import annotations

from aiohttp import web

from localdiscord import interactions, messages
from localdiscord.multipart import read_body
from localdiscord.objects import CallbackType, json_response
from localdiscord.rest.common import state_of

routes = web.RouteTableDef()


@routes.post("/interactions/{interaction}/{token}/callback")
async def callback(request: web.Request) -> web.Response:
    state = state_of(request)
    interaction, latency = interactions.to_callback(
        state, request.match_info["interaction"], request.match_info["token"]
    )
    body, files = await read_body(request)
    kind, data = CallbackType(int(body["type"])), body.get("data") or {}
    interactions.check_callback(state, interaction, kind, data, files)
    interaction.callback_type, interaction.callback_data = kind, data
    interaction.callback_latency = latency
    message = await interactions.callback(state, interaction, kind, data, files)
    return json_response(interactions.callback_answer(state, interaction, kind, message))


@routes.post("/webhooks/{app}/{token}")
async def followup(request: web.Request) -> web.StreamResponse:
    state = state_of(request)
    interaction = interactions.by_token(state, request.match_info["token"])
    body, files = await read_body(request)
    message = await interactions.followup(state, interaction, body, files)
    if request.query.get("wait") in ("1", "true", "True"):
        return json_response(message.payload(state.url))
    return web.Response(status=204)


@routes.get("/webhooks/{app}/{token}/messages/{message}")
async def get_webhook_message(request: web.Request) -> web.Response:
    state = state_of(request)
    interaction = interactions.by_token(state, request.match_info["token"])
    message = interactions.webhook_message(state, interaction, request.match_info["message"])
    return json_response(message.payload(state.url))


@routes.patch("/webhooks/{app}/{token}/messages/{message}")
async def edit_webhook_message(request: web.Request) -> web.Response:
    state = state_of(request)
    interaction = interactions.by_token(state, request.match_info["token"])
    message = interactions.webhook_message(state, interaction, request.match_info["message"])
    body, files = await read_body(request)
    await messages.edit(state, message, body, files)
    interaction.complete(message)
    return json_response(message.payload(state.url))


@routes.delete("/webhooks/{app}/{token}/messages/{message}")
async def delete_webhook_message(request: web.Request) -> web.Response:
    state = state_of(request)
    interaction = interactions.by_token(state, request.match_info["token"])
    message = interactions.webhook_message(state, interaction, request.match_info["message"])
    await messages.delete(state, message, tell=False)
    return web.Response(status=204)
