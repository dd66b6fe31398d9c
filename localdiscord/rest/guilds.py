"""Guilds, their channels and members, as the bot reads them."""

from __future__ import annotations

from aiohttp import web

from localdiscord.objects import ApiError, json_response
from localdiscord.rest.common import state_of

routes = web.RouteTableDef()


@routes.get("/guilds/{guild}")
async def get_guild(request: web.Request) -> web.Response:
    return json_response(state_of(request).guild(request.match_info["guild"]).payload())


@routes.get("/guilds/{guild}/channels")
async def get_guild_channels(request: web.Request) -> web.Response:
    guild = state_of(request).guild(request.match_info["guild"])
    return json_response([c.payload() for c in guild.channels.values() if not c.deleted])


@routes.get("/guilds/{guild}/members/{user}")
async def get_member(request: web.Request) -> web.Response:
    guild = state_of(request).guild(request.match_info["guild"])
    member = guild.members.get(int(request.match_info["user"]))
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return json_response(member.payload())


@routes.get("/channels/{channel}")
async def get_channel(request: web.Request) -> web.Response:
    return json_response(state_of(request).channel(request.match_info["channel"]).payload())


@routes.post("/channels/{channel}/typing")
async def typing(request: web.Request) -> web.Response:
    state_of(request).channel(request.match_info["channel"])
    return web.Response(status=204)
