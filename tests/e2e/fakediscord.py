"""The fake Discord as the tests run it: the product's stand-in (`localdiscord`) with three aiohttp
middlewares that only tests need:

- `SpecCheck`: every REST request is checked against Discord's OpenAPI spec (openapi.py); one it
  rejects is answered 400, as Discord would, and fails the `FakeDiscord.start()` block when it ends;
- `Faults`: `fail_next` answers matching calls with an error;
- `Holds`: `hold_next` carries one out and never answers.

A call matches a path such as `/channels/{c}/messages` segment by segment, `{name}` matching any.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Self

from aiohttp import web
from aiohttp.typedefs import Handler

from localdiscord.limits import bucket_headers, too_many
from localdiscord.multipart import split_body
from localdiscord.objects import ApiError, json_response
from localdiscord.rest.common import path_of
from localdiscord.server import FakeDiscordServer
from tests.e2e import openapi
from tests.support import driver


def matches(method: str, path: str, request: web.Request) -> bool:
    """`request` is a `method` call to `path` (after /api/v10), where `{name}` is any one segment."""
    wanted, called = path.split("/"), path_of(request).split("/")
    same = all(w.startswith("{") or w == c for w, c in zip(wanted, called, strict=False))
    return method == request.method and len(wanted) == len(called) and same


@dataclass
class Fault:
    method: str
    path: str
    status: int
    code: int
    message: str
    retry_after: float | None
    times: int
    body_contains: str | None = None
    bucket: str = "fault"
    """A 429's X-RateLimit-Bucket: Discord names the limit it hit."""

    def response(self) -> web.Response:
        """The error; a 429 as Discord's, with its headers and how long to wait."""
        if self.status != 429:
            return json_response({"message": self.message, "code": self.code}, self.status)
        retry = self.retry_after if self.retry_after is not None else 0.1
        headers = {"Via": "1.1 google", **bucket_headers(5, 0, retry, scope="user", bucket=self.bucket)}
        return too_many(retry, headers, message=self.message, code=self.code)


@dataclass
class Hold:
    """A REST call carried out and then never answered: the bot waits for an answer that does not
    come (and can be killed exactly between Discord acting on a request and the bot hearing of it)."""

    method: str
    path: str
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class Faults:
    """Errors answered instead of carrying calls out."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        for fault in self.pending:
            if not matches(fault.method, fault.path, request):
                continue
            if fault.body_contains is not None and fault.body_contains.encode() not in await request.read():
                continue
            fault.times -= 1
            if fault.times <= 0:
                self.pending.remove(fault)
            return fault.response()
        return await handler(request)

    def clear(self) -> None:
        self.pending.clear()


class Holds:
    """Calls carried out and not answered until released."""

    def __init__(self, server: FakeDiscordServer) -> None:
        self.server = server
        self.pending: list[Hold] = []

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        hold = next((h for h in self.pending if matches(h.method, h.path, request)), None)
        if hold is not None and not hold.reached.is_set():
            hold.reached.set()
            await self.server.notify()
            await hold.release.wait()
        return response

    def release(self) -> None:
        """Forget every hold: unreached ones hold nothing more, reached ones end their wait."""
        for hold in self.pending:
            hold.release.set()
        self.pending.clear()


class SpecCheck:
    """Refuse, as Discord would, what its OpenAPI spec does not allow (and keep it for the test)."""

    def __init__(self) -> None:
        self.spec = openapi.load()
        self.violations: list[str] = []

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        content_type = request.headers.get("Content-Type", "")
        body, _ = split_body(await request.read(), content_type)  # aiohttp keeps it for the handler
        problems = self.spec.check(request.method, path_of(request), request.query, content_type, body)
        if problems:
            self.violations.extend(problems)
            raise ApiError(400, 50035, "Invalid Form Body (Discord's OpenAPI spec): " + "; ".join(problems))
        return await handler(request)


class CheckedServer(FakeDiscordServer):
    """The stand-in with the spec check, faults and holds installed."""

    def __init__(self, **options: object) -> None:
        self.faults, self.spec = Faults(), SpecCheck()
        self.holds = Holds(self)
        middlewares = [self.holds.middleware, self.spec.middleware, self.faults.middleware]
        super().__init__(middlewares=middlewares, **options)  # type: ignore[arg-type]

    @property
    def spec_violations(self) -> list[str]:
        """What Discord's OpenAPI spec rejected in requests sent to us (answered 400, as Discord would)."""
        return self.spec.violations

    async def stop(self) -> None:
        self.holds.release()
        await super().stop()

    def release_holds(self) -> None:
        self.holds.release()


class FakeDiscord(driver.FakeDiscord):
    """The driver over a `CheckedServer`."""

    server: CheckedServer

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *, interaction_timeout: float | None = 3.0) -> AsyncIterator[Self]:
        """Serve on 127.0.0.1 with an ephemeral port until the block ends (even on failure).

        Every REST request is checked against Discord's OpenAPI spec (see openapi.py); one it
        rejects is answered 400 and fails the block when it ends."""
        server = CheckedServer(interaction_timeout=interaction_timeout)
        async with cls.serving(server) as fake:
            yield fake
        if server.spec_violations:
            raise AssertionError("requests real Discord would reject:\n" + "\n".join(server.spec_violations))

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int,
        code: int = 0,
        message: str | None = None,
        retry_after: float | None = None,
        times: int = 1,
        body_contains: str | None = None,
        bucket: str = "fault",
    ) -> None:
        """Fail the next REST call(s) to the route `path` (after /api/v10; `{x}` = any segment), and
        with `body_contains` only those whose body holds that text; a 429 names `bucket` as the
        limit hit."""
        default = {429: "You are being rate limited.", 403: "Missing Permissions", 404: "Unknown Channel"}
        text = message or default.get(status, "Error")
        fault = Fault(method.upper(), path, status, code, text, retry_after, times, body_contains, bucket)
        self.server.faults.pending.append(fault)

    def hold_next(self, method: str, path: str) -> Hold:
        """Carry out the next REST call to the route `path` (as fail_next) and never answer it: kill
        the bot once `hold.reached` is set, and Discord has acted on a request the bot never heard
        back from."""
        hold = Hold(method.upper(), path)
        self.server.holds.pending.append(hold)
        return hold
