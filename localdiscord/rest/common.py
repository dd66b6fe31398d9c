"""What every REST resource uses: the state the application serves, and where a request went."""

from __future__ import annotations

from aiohttp import web

from localdiscord.objects import API
from localdiscord.state import State

STATE = web.AppKey("state", State)


def state_of(request: web.Request) -> State:
    return request.app[STATE]


def path_of(request: web.Request) -> str:
    """The request's path after /api/v10, as Discord's documentation writes routes."""
    return request.path.removeprefix(API)
