"""The bot's own user, its application, the gateway's address and the application commands."""

from __future__ import annotations

from aiohttp import web

from localdiscord.objects import ApiError, Json, json_response, snowflake
from localdiscord.rest.common import state_of
from localdiscord.state import State

routes = web.RouteTableDef()


@routes.get("/users/@me")
async def get_me(request: web.Request) -> web.Response:
    state = state_of(request)
    return json_response({**state.bot_user.payload(), "verified": True, "mfa_enabled": False})


@routes.get("/users/{user}")
async def get_user(request: web.Request) -> web.Response:
    user = state_of(request).users.get(int(request.match_info["user"]))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return json_response(user.payload())


@routes.get("/oauth2/applications/@me")
@routes.get("/applications/@me")
async def get_application(request: web.Request) -> web.Response:
    state = state_of(request)
    return json_response(
        {
            "id": str(state.application_id),
            "name": state.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": state.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": state.bot_user.payload(),
        }
    )


@routes.get("/gateway")
@routes.get("/gateway/bot")
async def get_gateway(request: web.Request) -> web.Response:
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    return json_response({"url": state_of(request).gateway.url, "shards": 1, "session_start_limit": limit})


def command_scope(state: State, request: web.Request) -> int | None:
    """The guild whose commands a route names (None: the global ones)."""
    if request.match_info["app"] != str(state.application_id):
        raise ApiError(403, 50001, "Missing Access")
    guild = request.match_info.get("guild")
    return int(guild) if guild is not None else None


def store_command(state: State, scope: int | None, body: Json) -> Json:
    """Create or overwrite a command by name (it keeps its id; its version changes)."""
    table = state.commands.setdefault(scope, {})
    old = table.get(body["name"])
    command = {
        "type": 1,
        "options": [],
        "default_member_permissions": None,
        "nsfw": False,
        **body,
        "id": old["id"] if old else str(snowflake()),
        "application_id": str(state.application_id),
        "version": str(snowflake()),
    }
    if scope is not None:
        command["guild_id"] = str(scope)
    table[body["name"]] = command
    return command


@routes.get("/applications/{app}/commands")
@routes.get("/applications/{app}/guilds/{guild}/commands")
async def list_commands(request: web.Request) -> web.Response:
    state = state_of(request)
    return json_response(list(state.commands.get(command_scope(state, request), {}).values()))


@routes.put("/applications/{app}/commands")
@routes.put("/applications/{app}/guilds/{guild}/commands")
async def put_commands(request: web.Request) -> web.Response:
    """The whole set: commands not in it are gone, those kept by name keep their ids."""
    state = state_of(request)
    scope = command_scope(state, request)
    bodies = await request.json()
    old = state.commands.get(scope, {})
    state.commands[scope] = {b["name"]: old[b["name"]] for b in bodies if b["name"] in old}
    stored = [store_command(state, scope, b) for b in bodies]
    state.touched("commands", scope or 0)
    await state.notify()
    return json_response(stored)


@routes.post("/applications/{app}/commands")
@routes.post("/applications/{app}/guilds/{guild}/commands")
async def post_command(request: web.Request) -> web.Response:
    state = state_of(request)
    scope = command_scope(state, request)
    command = store_command(state, scope, await request.json())
    state.touched("commands", scope or 0)
    await state.notify()
    return json_response(command, 201)
