"""A heartbeat's latency is its own round trip, however late discord.py's keep-alive thread gets to
note that it sent it (bot/heartbeat.py): no "Can't keep up ... 41.4s behind" for an ack on time."""

from __future__ import annotations

import logging

import discord
import pytest
from discord.gateway import DiscordWebSocket

import localdiscord.gateway
from bot.heartbeat import time_heartbeats
from tests.support.driver import FakeDiscord

INTERVAL_MS = 10_500
"""Just over the 10 s from which discord.py calls a heartbeat behind."""
BEATS = 3


async def test_an_ack_read_before_the_keep_alive_thread_notes_its_beat_is_not_behind(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(DiscordWebSocket, "send_heartbeat", DiscordWebSocket.send_heartbeat)  # undone after
    time_heartbeats()
    # An instant ack, in the same process: read before the keep-alive thread runs again, as a busy
    # bot reads a network's ack (the stand-in waits a round trip, which a loaded machine outlasts).
    monkeypatch.setattr(localdiscord.gateway, "ACK_AFTER", 0.0)
    caplog.set_level(logging.WARNING, logger="discord.gateway")
    async with FakeDiscord.start() as fake:
        fake.server.gateway.heartbeat_ms = INTERVAL_MS
        client = discord.Client(intents=discord.Intents.none())
        async with fake.running(client):
            latencies: list[float] = []
            for beat in range(1, BEATS + 1):
                await fake.wait_until(
                    lambda beat=beat: fake.server.gateway.heartbeats >= beat,  # type: ignore[misc]
                    timeout=INTERVAL_MS / 1000 + 20,
                    what=f"heartbeat {beat}",
                )
                await fake.wait_until(lambda: client.latency < float("inf"), timeout=5, what="the ack read")
                latencies.append(client.latency)
            await client.close()
    assert max(latencies) < 1.0, latencies
    assert "Can't keep up" not in caplog.text
