"""The gateway's heartbeats, timed as they are sent.

discord.py's keep-alive thread notes when it sent a heartbeat only once the event loop has sent it
and the thread gets to run again. When the bot's process is busy (its loop working through a burst
of games, on a loaded machine), the acknowledgement, a round trip later, can be read first: its
latency is then measured from the heartbeat before, one interval (41.25 s) too much, and logged as
"Can't keep up, shard ID 0 websocket is 41.4s behind" although the heartbeat went out and was
answered on time. `time_heartbeats` notes the time on the loop, as the heartbeat goes out, so the
latency (`bot.latency`, the warning) is the round trip's.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from discord.gateway import DiscordWebSocket

Send = Callable[[DiscordWebSocket, Any], Awaitable[None]]


def time_heartbeats() -> None:
    """Note each heartbeat's send time on the event loop (once per process; again is a no-op)."""
    send: Send = DiscordWebSocket.send_heartbeat
    if getattr(send, "timed", False):
        return

    async def send_heartbeat(self: DiscordWebSocket, data: Any) -> None:
        keep_alive = self._keep_alive
        if keep_alive is not None:
            keep_alive._last_send = time.perf_counter()
        await send(self, data)

    send_heartbeat.timed = True  # type: ignore[attr-defined]
    DiscordWebSocket.send_heartbeat = send_heartbeat  # type: ignore[method-assign]
