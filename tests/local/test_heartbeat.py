"""The bot's connection to the stand-in stays healthy while the table is idle: its heartbeats are
acknowledged as Discord acknowledges them, and the bot never thinks it is falling behind (a
heartbeat that late would have Discord close the connection as a zombie)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from localdiscord.table import LocalTable

INTERVAL_MS = 11_000
"""Short, for the test, but over the 10 s discord.py calls falling behind."""
BEATS = 4


async def test_an_idle_bot_keeps_up_with_its_heartbeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    table = LocalTable(tmp_path / "table.sqlite3", port=0, say=lambda text: None)
    table.server.gateway.heartbeat_ms = INTERVAL_MS
    await table.start()
    try:
        await table.wait_ready()
        await table.server.wait_until(
            lambda: table.server.gateway.heartbeats >= BEATS, BEATS * INTERVAL_MS / 1000 + 20, "heartbeats"
        )
        await asyncio.sleep(1)  # the bot's log catches up with the last ack
    finally:
        await table.stop()
    log = table.log_path.read_text()
    assert "Can't keep up" not in log, [line for line in log.splitlines() if "keep up" in line]
    assert "stopped responding" not in log
