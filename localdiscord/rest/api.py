"""The REST application: the resources' routes behind two middlewares of Discord's own (its error
answer, recording each call; the bot's token), with room between them for those a test installs
(faults, holds, a spec check: tests/e2e/fakediscord.py)."""

from __future__ import annotations

from collections.abc import Sequence

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from localdiscord.objects import ApiError, Request, json_response
from localdiscord.rest import application, channels, guilds, webhooks
from localdiscord.rest.common import STATE, path_of, state_of
from localdiscord.state import State

OPEN_ROUTES = ("/interactions/", "/webhooks/")
"""Routes an interaction's token opens, without the bot's token."""


@web.middleware
async def discord_answers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Errors in Discord's shape (a JSON `code` and `message`); no route: 404, kept in `unhandled`;
    every call kept in `requests`."""
    state, path = state_of(request), path_of(request)
    try:
        response = await handler(request)
    except ApiError as e:
        response = json_response({"message": e.message, "code": e.code}, e.status)
    except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
        state.unhandled.append(f"{request.method} {path}")
        response = json_response({"message": "404: Not Found", "code": 0}, 404)
    state.requests.append(Request(request.method, path, response.status))
    return response


@web.middleware
async def bot_token(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every route but the interactions' wants `Authorization: Bot <token>`."""
    routed = request.match_info.http_exception is None
    token_route = routed and not path_of(request).startswith(OPEN_ROUTES)
    if token_route and request.headers.get("Authorization") != f"Bot {state_of(request).token}":
        raise ApiError(401, 0, "401: Unauthorized")
    return await handler(request)


def api(state: State, middlewares: Sequence[Middleware] = ()) -> web.Application:
    """The application to mount at /api/v10; `middlewares` run inside Discord's answers (their
    ApiError becomes Discord's error answer) and before the token is checked."""
    app = web.Application(middlewares=[discord_answers, *middlewares, bot_token])
    app[STATE] = state
    for resource in (application, guilds, channels, webhooks):
        app.add_routes(resource.routes)
    return app
