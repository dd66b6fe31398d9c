"""The stand-in's gateway: sessions (one per IDENTIFY, per shard), numbered events kept for a
RESUME, and the WebSocket a bot connects to.

Events go to the newest session of the shard serving their guild; with no session connected yet
they are dropped, as the bot gets the whole state with READY.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Coroutine
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from localdiscord.objects import EVENTS_KEPT, HEARTBEAT_MS, GuildRecord, Json, Session, User

ACK_AFTER = 0.1
"""Seconds before a heartbeat is acknowledged: a network's round trip. discord.py's keep-alive
thread notes when it sent a heartbeat only after the loop has sent it; an ack that arrives sooner
(an instant one, from the same computer) is measured from the heartbeat before, a whole interval
late, and logged as "Can't keep up ... websocket is 41.3s behind" on every other beat."""


def guild_of(event: str, data: Json) -> int | None:
    """The guild an event belongs to (its shard gets it), or None."""
    guild_id = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
    return int(guild_id) if guild_id else None


class Served(Protocol):
    """What the gateway tells of: the bot's identity and the guilds (state.py's State)."""

    token: str
    application_id: int
    bot_user: User
    guilds: dict[int, GuildRecord]

    async def notify(self) -> None: ...


class Gateway:
    """Sessions and their events; `handle` serves one WebSocket."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.url = ""  # ws://host:port/gateway once the server listens
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None  # the newest session
        self.shards: dict[int, Session] = {}  # shard id -> its newest session, which gets its events
        self.identifies = 0
        self.resumes = 0
        self.heartbeat_ms = HEARTBEAT_MS  # tests may shorten it
        self.heartbeats = 0  # heartbeats acknowledged
        self._backlog: list[tuple[str, Json]] = []  # events not yet numbered and sent
        self._flushing = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def post(self, event: str, data: Json) -> None:
        """Dispatch from synchronous code: queued now, sent in order before any later event."""
        self._backlog.append((event, data))
        self._later(self._flush())

    async def dispatch(self, event: str, data: Json) -> None:
        """Send an event to its session; kept for a RESUME if the socket is down."""
        self._backlog.append((event, data))
        await self._flush()

    async def _flush(self) -> None:
        """Send queued events in order, each to the session of its guild's shard."""
        async with self._flushing:
            while self._backlog:
                event, data = self._backlog.pop(0)
                session = self.session_for(guild_of(event, data))
                if session is not None:
                    async with session.lock:
                        await self._emit(session, event, data)

    def sending(self) -> bool:
        """Events are queued or on their way out: a bot has not been sent all there is yet."""
        return bool(self._backlog) or self._flushing.locked()

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest session of the shard serving `guild_id` (the newest session of all for
        events outside guilds)."""
        if guild_id is None:
            return self.session
        return next((s for s in self.shards.values() if s.serves(guild_id)), None)

    @staticmethod
    async def _emit(session: Session, event: str, data: Json) -> None:
        """Number, keep and send one event; the caller holds `session.lock`."""
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        del session.events[:-EVENTS_KEPT]
        if session.ws is not None and not session.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_str(json.dumps(frame))

    def ready(self) -> bool:
        """A bot is connected and has been sent READY (it may still be processing it)."""
        s = self.session
        return s is not None and s.ws is not None and not s.ws.closed

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's socket with a resumable code, as Discord does now and then."""
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.close(code=code)

    async def close(self) -> None:
        """Close every socket (bounded: a client that does not answer the close frame is not
        waited for) and cancel the sends still queued."""
        sockets = [s.ws for s in self.sessions.values() if s.ws is not None]
        if sockets:
            await asyncio.wait([asyncio.ensure_future(ws.close(code=1001)) for ws in sockets], timeout=2.0)
        for task in list(self._tasks):
            task.cancel()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One bot connection: HELLO, then heartbeats, IDENTIFY or RESUME, member requests."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    self._later(self._ack(ws))
                elif op == 2:
                    if data.get("token") != self.served.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    session = await self._identify(ws, data)
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(ws, data)
                elif op == 8:
                    await self._members_chunk(data)
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
            await self.served.notify()
        return ws

    def _later(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ack(self, ws: web.WebSocketResponse) -> None:
        """Acknowledge a heartbeat after a network's round trip (ACK_AFTER says why)."""
        await asyncio.sleep(ACK_AFTER)
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps({"op": 11}))
                self.heartbeats += 1

    def _ready_payload(self, session: Session, guilds: list[GuildRecord], data: Json) -> Json:
        ready: Json = {
            "v": 10,
            "user": self.served.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(self.served.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        return ready

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        shard_id, count = data.get("shard") or (0, 1)
        if not (isinstance(count, int) and isinstance(shard_id, int) and 0 <= shard_id < count):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), (shard_id, count))
        self.sessions[session.id] = session
        session.ws = ws
        guilds = [g for g in self.served.guilds.values() if session.serves(g.id)]
        async with session.lock:  # events go to the newest session, after its READY
            self.session = self.shards[shard_id] = session
            await self._emit(session, "READY", self._ready_payload(session, guilds, data))
            for guild in guilds:
                await self._emit(session, "GUILD_CREATE", guild.payload())
        self.identifies += 1
        await self.served.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        seq = data.get("seq") or 0
        if (
            session is None
            or data.get("token") != self.served.token
            or self.shards.get(session.shard[0]) is not session  # a newer process took over
            or (session.events and session.events[0]["s"] > seq + 1)  # missed events are gone
        ):
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        async with session.lock:
            session.ws = ws
            for frame in session.events:
                if frame["s"] > seq:
                    await ws.send_str(json.dumps(frame))
            await self._emit(session, "RESUMED", {})
        self.resumes += 1
        await self.served.notify()
        return session

    async def _members_chunk(self, data: Json) -> None:
        guild = self.served.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
