"""The bot's connection to the stand-in stays healthy while the table is idle: its heartbeats are
acknowledged as Discord acknowledges them, and the bot never thinks it is falling behind (a
heartbeat that late would have Discord close the connection as a zombie).

discord.py measures each heartbeat's latency from its send to its ack, and warns ("Can't keep up")
past 10 s. An ack read before the keep-alive thread noted the send is measured from the beat
before, a whole interval late: with Discord's 41 s interval, that warning. The stand-in announces
a short interval here, so a few beats take seconds, and the latency the bot measured is read from
its /metrics at each beat: a round trip, never near an interval."""

from __future__ import annotations

import asyncio
import functools
import math
import urllib.request
from pathlib import Path

import pytest

from localdiscord.child import READY_LINE
from localdiscord.table import LocalTable
from tests.local.conftest import QUICK_BOT
from tests.support.processes import free_port

INTERVAL_MS = 1_000
"""Short enough that the beats take little time, long enough that a beat measured from the one
before (the fault this finds: a latency of an interval and more) stands apart from a round trip:
the stand-in's ACK_AFTER and a busy loop's lag, up to half a second on a loaded machine."""
WITHIN = 0.75 * INTERVAL_MS / 1000
"""The latency a round trip stays under: a quarter of an interval short of the fault's."""
BEATS = 3
"""Idle beats after the start's work: each one's latency read, all but one must be known."""
LATENCY = "pachisi_gateway_latency_seconds{"


def gateway_latency(port: int) -> float:
    """The heartbeat latency the bot measured last, from its /metrics (NaN before the first ack)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        lines = answer.read().decode().splitlines()
    [line] = [line for line in lines if line.startswith(LATENCY)]
    return float(line.split()[-1])


def acked(table: LocalTable, beats: int) -> bool:
    """The stand-in has acknowledged `beats` heartbeats."""
    return table.server.gateway.heartbeats >= beats


async def test_an_idle_bot_keeps_up_with_its_heartbeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    port = free_port()
    monkeypatch.setenv("METRICS_PORT", str(port))
    for name, value in QUICK_BOT.items():
        monkeypatch.setenv(name, value)
    table = LocalTable(tmp_path / "table.sqlite3", port=0, say=lambda text: None)
    table.server.gateway.heartbeat_ms = INTERVAL_MS
    await table.start()
    latencies = []
    try:
        await table.wait_ready()
        await table.server.wait_until(lambda: READY_LINE in table.log_path.read_text(), 60, "the bot's ready")
        idle = table.server.gateway.heartbeats  # the beats from now on: its start's work is done
        for beat in range(idle + 1, idle + BEATS + 1):
            await table.server.wait_until(functools.partial(acked, table, beat), 60, f"heartbeat {beat}")
            await asyncio.sleep(INTERVAL_MS / 4000)  # the bot reads the ack before its next beat
            latencies.append(await asyncio.to_thread(gateway_latency, port))
    finally:
        await table.stop()
    measured = [seconds for seconds in latencies if math.isfinite(seconds)]
    assert len(measured) >= BEATS - 1, latencies
    assert all(seconds < WITHIN for seconds in measured), latencies
    log = table.log_path.read_text()
    assert "Can't keep up" not in log, [line for line in log.splitlines() if "keep up" in line]
    assert "stopped responding" not in log
