"""A small stand-in for Discord: REST under /api/v10 and a WebSocket gateway, on 127.0.0.1.

It holds the state a bot sees (state.py; the objects in objects.py) in memory (the local table
keeps it across runs: saved.py), so bot processes can come and go: a new process IDENTIFYs and gets
a fresh session, a reconnecting one RESUMEs and gets the events it missed (gateway.py). The REST
resources are in rest/; tests add faults, holds and a spec check as aiohttp middlewares
(`middlewares=`, tests/e2e/fakediscord.py); the local table's page (page.py) follows changes
through `observers`. Tests drive it through tests/support/driver.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from aiohttp import web
from aiohttp.typedefs import Middleware

from localdiscord import interactions, messages
from localdiscord.objects import API, ChannelRecord, InteractionType, Json, MemberRecord, Message
from localdiscord.rest.api import api
from localdiscord.state import State

LISTEN_BACKLOG = 4096
"""Connections waiting to be accepted (the kernel caps it at net.core.somaxconn). Discord takes a
burst of new connections; aiohttp's default of 128 dropped them when a busy bot deferred hundreds
of clicks at once, and the bot's retries of the connection came a second or three later."""


class FakeDiscordServer(State):
    """The state served over HTTP; start with `await start()`, stop with `await stop()`."""

    def __init__(
        self,
        *,
        token: str | None = None,
        interaction_timeout: float | None = 3.0,
        middlewares: Sequence[Middleware] = (),
    ) -> None:
        super().__init__(token=token, interaction_timeout=interaction_timeout)
        self.middlewares = list(middlewares)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/", self.gateway.handle)  # a gateway URL without a path, as Discord's
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._attachment)
        app.add_subapp(API, api(self, self.middlewares))
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=LISTEN_BACKLOG)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        self.gateway.url = self.gateway_url

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def gateway_url(self) -> str:
        """Where the gateway listens (and what READY gives as `resume_gateway_url`)."""
        return self.url.replace("http://", "ws://", 1) + "/gateway"

    async def _attachment(self, request: web.Request) -> web.Response:
        found = self.attachments.get(int(request.match_info["attachment"]))
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, content_type=found.content_type)

    # --- the gateway, as tests see it ----------------------------------------------------------

    @property
    def identifies(self) -> int:
        return self.gateway.identifies

    @property
    def resumes(self) -> int:
        return self.gateway.resumes

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway socket with a resumable code, as Discord does now and then."""
        await self.gateway.drop(code)

    async def dispatch(self, event: str, data: Json) -> None:
        await self.gateway.dispatch(event, data)

    # --- what members do -------------------------------------------------------------------------

    async def send_interaction(
        self,
        kind: InteractionType,
        member: MemberRecord,
        channel: ChannelRecord,
        data: Json,
        message: Message | None = None,
        *,
        forged: bool = False,
    ) -> interactions.Interaction:
        """A member uses a command or a component (interactions.send_interaction)."""
        return await interactions.send_interaction(self, kind, member, channel, data, message, forged=forged)

    async def member_says(self, member: MemberRecord, channel: ChannelRecord, content: str) -> Message:
        """A member posts `content` in a channel from Discord's client (the bot hears of it)."""
        return await messages.member_says(self, member.user, channel, content)
