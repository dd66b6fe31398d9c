"""The fake Discord as the tests run it: the product's stand-in (`localdiscord`) plus what only
tests need, installed through its REST hooks:

- every REST request is checked against Discord's OpenAPI spec (openapi.py); one it rejects is
  answered 400, as Discord would, and fails the `FakeDiscord.start()` block when it ends;
- `fail_next` answers matching calls with an error, `hold_next` carries one out and never answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import web

import localdiscord
from localdiscord.server import ApiError, FakeDiscordServer, header_param, json_response, parse_multipart
from tests.e2e import openapi


def path_regex(path: str) -> str:
    """`/channels/{c}/messages` as a regex: `{name}` is any one segment."""
    return "".join(
        "[^/]+" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]*\})", path)
    )


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    retry_after: float | None
    times: int
    body_contains: str | None = None
    bucket: str = "fault"
    """A 429's X-RateLimit-Bucket: Discord names the limit it hit."""


@dataclass
class Hold:
    """A REST call carried out and then never answered: the bot waits for an answer that does not
    come (and can be killed exactly between Discord acting on a request and the bot hearing of it)."""

    method: str
    pattern: re.Pattern[str]
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class CheckedServer(FakeDiscordServer):
    """The stand-in with the spec check, faults and holds."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []
        self.spec = openapi.load()
        self.spec_violations: list[str] = []
        """What Discord's OpenAPI spec rejected in requests sent to us (answered 400, as Discord would)."""

    async def stop(self) -> None:
        self.release_holds()
        await super().stop()

    async def before_rest(self, request: web.Request, path: str) -> web.StreamResponse | None:
        await self._check_spec(request, path)
        for fault in self.faults:
            if fault.method == request.method and fault.pattern.match(path):
                if (
                    fault.body_contains is not None
                    and fault.body_contains.encode() not in await request.read()
                ):
                    continue
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return self._fault_response(fault)
        return None

    async def after_rest(self, request: web.Request, path: str) -> None:
        hold = next((h for h in self.holds if h.method == request.method and h.pattern.match(path)), None)
        if hold is not None and not hold.reached.is_set():
            hold.reached.set()
            await self._notify()
            await hold.release.wait()

    async def _check_spec(self, request: web.Request, path: str) -> None:
        """Refuse, as Discord would, what its OpenAPI spec does not allow (and keep it for the test)."""
        content_type = request.headers.get("Content-Type", "")
        raw = await request.read()  # aiohttp keeps it for the handler
        body: Any = None
        if content_type.startswith("multipart/"):
            body = {}
            for headers, data in parse_multipart(raw, content_type):
                if header_param(headers.get("content-disposition", ""), "name") == "payload_json":
                    body = json.loads(data)
        elif raw:
            body = json.loads(raw)
        problems = self.spec.check(request.method, path, request.query, content_type, body)
        if problems:
            self.spec_violations.extend(problems)
            raise ApiError(400, 50035, "Invalid Form Body (Discord's OpenAPI spec): " + "; ".join(problems))

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
        """Answer the next `times` matching REST calls with an error; `{name}` in path is a wildcard.
        With `body_contains`, only calls whose body holds that text match (one message of many);
        a 429 names `bucket` as the limit hit."""
        regex = path_regex(path)
        default = {429: "You are being rate limited.", 403: "Missing Permissions", 404: "Unknown Channel"}
        text = message or default.get(status, "Error")
        self.faults.append(
            Fault(
                method.upper(),
                re.compile(regex + "$"),
                status,
                code,
                text,
                retry_after,
                times,
                body_contains,
                bucket,
            )
        )

    def release_holds(self) -> None:
        """Forget every hold: unreached ones hold nothing more, reached ones end their wait."""
        for hold in self.holds:
            hold.release.set()
        self.holds.clear()

    def hold_next(self, method: str, path: str) -> Hold:
        """Carry out the next REST call matching `path` but never answer it; `reached` is set once
        it was carried out."""
        hold = Hold(method.upper(), re.compile(path_regex(path) + "$"))
        self.holds.append(hold)
        return hold

    @staticmethod
    def _fault_response(fault: Fault) -> web.Response:
        if fault.status != 429:
            return json_response({"message": fault.message, "code": fault.code}, fault.status)
        retry = fault.retry_after if fault.retry_after is not None else 0.1
        headers = {
            "Via": "1.1 google",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
            "X-RateLimit-Reset-After": f"{retry:.3f}",
            "X-RateLimit-Scope": "user",
            "X-RateLimit-Bucket": fault.bucket,
        }
        body = {"message": fault.message, "retry_after": retry, "global": False, "code": fault.code}
        return json_response(body, 429, headers)


class FakeDiscord(localdiscord.FakeDiscord):
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
    ) -> None:
        """Fail the next REST call(s) matching `path` (after /api/v10; `{x}` = any segment), and
        with `body_contains` only those whose body holds that text."""
        self.server.fail_next(
            method,
            path,
            status=status,
            code=code,
            message=message,
            retry_after=retry_after,
            times=times,
            body_contains=body_contains,
        )

    def hold_next(self, method: str, path: str) -> Hold:
        """Carry out the next REST call matching `path` (as fail_next) and never answer it: kill
        the bot once `hold.reached` is set, and Discord has acted on a request the bot never heard
        back from."""
        return self.server.hold_next(method, path)
