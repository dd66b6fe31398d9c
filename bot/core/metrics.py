"""The bot's Prometheus metrics, all in one place: each event elsewhere is one call of a function here.

They live in prometheus_client's default registry, so `python -m bot` with METRICS_PORT set serves
them (bot/health.py) together with the process's own (CPU, memory, open files). Recording costs a
lock and an addition whether or not anyone scrapes, so the hooks stay in the click path.
No Discord import: the store and the game's turns record here too (bot/core may not import discord).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from prometheus_client import Counter, Gauge, Histogram

GAMES_OPEN = Gauge(
    "pachisi_games_open", "Games being played (status active) in the database, read at scrape time"
)
CLICKS = Counter(
    "pachisi_clicks_total",
    "Button clicks received, by the button's action (the part of its custom id after `pachisi:`)",
    ["action"],
)
COMMANDS = Counter(
    "pachisi_commands_total", "Slash commands received, by the command's full name", ["command"]
)
INTERACTION_ERRORS = Counter(
    "pachisi_interaction_errors_total",
    "Commands and clicks answered with an error, by kind: refused (against the rules), database "
    "(did not answer), bad_value, not_here (a check failed), unexpected (a fault, logged with a reference)",
    ["kind"],
)
GATEWAY_CONNECTED = Gauge(
    "pachisi_gateway_connected",
    "1 when the bot is ready and every shard's gateway connection is open, else 0",
)
GATEWAY_LATENCY = Gauge(
    "pachisi_gateway_latency_seconds",
    "Time between a gateway heartbeat and Discord's acknowledgement, by shard (NaN until measured)",
    ["shard"],
)
GATEWAY_DISCONNECTS = Counter(
    "pachisi_gateway_disconnects_total", "Gateway connections lost (discord.py reconnects by itself)"
)
GUILDS = Gauge("pachisi_guilds", "Servers (guilds) this process is in")
CLICK_TO_ANSWER = Histogram(
    "pachisi_click_to_answer_seconds",
    "From a click (Discord's time in its id) to the clicked message's update sent by the bot",
    buckets=(0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0),
)
RATE_LIMITED = Counter(
    "pachisi_discord_rate_limited_total",
    "Discord REST answers 429, by Discord's bucket (X-RateLimit-Bucket) and scope",
    ["bucket", "scope"],
)
DATABASE_ERRORS = Counter(
    "pachisi_database_errors_total",
    "Transactions refused because the database did not answer (PostgreSQL down, SQLite locked)",
)
WORKER_RETRIES = Counter(
    "pachisi_worker_retries_total", "Jobs run again because their worker process died (bot/core/workers.py)"
)
DATABASE_RETRIES = Counter(
    "pachisi_database_retries_total",
    "Work tried again after the database did not answer or another writer won the race, by what",
    ["what"],
)
COMPUTER_DECISION = Histogram(
    "pachisi_computer_decision_seconds",
    "Time a computer player took to choose among two or more moves, by level",
    ["level"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

DISCORD_EPOCH_MS = 1_420_070_400_000


def created_at(snowflake: int) -> datetime:
    """When Discord made the object with this id (the time is in its upper bits)."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


ERROR_KINDS = (
    ("GameError", "refused"),
    ("StoreUnavailable", "database"),
    ("TransformerError", "bad_value"),
    ("CheckFailure", "not_here"),
)
"""An error's kind by the name of its class or a base class (this module imports neither discord
nor the store); any other error is `unexpected`."""
for _name, _kind in (*ERROR_KINDS, ("", "unexpected")):
    INTERACTION_ERRORS.labels(kind=_kind)  # every kind at 0 from the start: rates and alerts work


def clicked(action: str) -> None:
    CLICKS.labels(action=action).inc()


def commanded(command: str) -> None:
    COMMANDS.labels(command=command).inc()


def interaction_failed(error: BaseException) -> None:
    """A command or click ended in `error` (the one error handler's, bot/cogs/answers.py)."""
    original = getattr(error, "original", error)
    names = {cls.__name__ for cls in (*type(error).__mro__, *type(original).__mro__)}
    kind = next((kind for name, kind in ERROR_KINDS if name in names), "unexpected")
    INTERACTION_ERRORS.labels(kind=kind).inc()


def gateway(connected: bool, latencies: list[tuple[int, float]], guilds: int) -> None:
    """The gateway as it is now (set at each scrape); a latency not measured yet is NaN."""
    GATEWAY_CONNECTED.set(1 if connected else 0)
    for shard, seconds in latencies:
        GATEWAY_LATENCY.labels(shard=str(shard)).set(seconds if math.isfinite(seconds) else math.nan)
    GUILDS.set(guilds)


def disconnected() -> None:
    GATEWAY_DISCONNECTS.inc()


def answered(interaction_id: int) -> None:
    """The clicked message was updated: observe the time since the click (never below zero, for a
    clock a little behind Discord's)."""
    elapsed = (datetime.now(UTC) - created_at(interaction_id)).total_seconds()
    CLICK_TO_ANSWER.observe(max(0.0, elapsed))


def rate_limited(bucket: str | None, scope: str | None) -> None:
    RATE_LIMITED.labels(bucket=bucket or "unknown", scope=scope or "unknown").inc()


def database_error() -> None:
    DATABASE_ERRORS.inc()


def worker_retry() -> None:
    WORKER_RETRIES.inc()


def database_retry(what: str) -> None:
    DATABASE_RETRIES.labels(what=what).inc()


def games_open(count: int) -> None:
    GAMES_OPEN.set(count)


@contextmanager
def computer_deciding(level: str, thought: list[tuple[str, float]]) -> Iterator[None]:
    """Time the block: one computer decision at `level`, also noted in `thought` (a worker process
    sends its notes back to the bot's metrics)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - start
        thought.append((level, seconds))
        computer_decided(level, seconds)


def computer_decided(level: str, seconds: float) -> None:
    """One computer decision at `level` took `seconds` (timed here, or in a worker process)."""
    COMPUTER_DECISION.labels(level=level).observe(seconds)
