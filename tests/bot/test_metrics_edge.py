"""What the Discord edge counts (bot/health.py, bot/core/metrics.py): a click by its button's
action, a command by its full name, an error by its kind; the gateway's state read at a scrape."""

from __future__ import annotations

import math
from typing import Any

import discord
import pytest
from discord import app_commands
from prometheus_client import REGISTRY

from bot.core import metrics
from bot.core.errors import GameError
from bot.core.store import StoreUnavailable
from bot.health import action_of, command_of


@pytest.mark.parametrize(
    ("custom_id", "action"),
    [
        ("pachisi:move:12:7:b3-b7", "move"),
        ("pachisi:throw:12:7", "throw"),
        ("pachisi:puzzle:3:20261206:99:a1", "puzzle"),
        ("confirm:yes", "confirm"),
        ("", "none"),
        ("pachisi:" + "x" * 100, "x" * 32),
    ],
)
def test_a_click_counts_under_its_action_never_its_game(custom_id: str, action: str) -> None:
    assert action_of(custom_id) == action


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (
            {
                "name": "pachisi",
                "options": [
                    {"type": 1, "name": "start", "options": [{"type": 4, "name": "players", "value": 2}]}
                ],
            },
            "pachisi start",
        ),
        (
            {
                "name": "pachisi",
                "options": [{"type": 2, "name": "puzzle", "options": [{"type": 1, "name": "ping"}]}],
            },
            "pachisi puzzle ping",
        ),
        ({"name": "leaderboard", "options": [{"type": 3, "name": "season", "value": "all"}]}, "leaderboard"),
        ({"name": "pachisi"}, "pachisi"),
    ],
)
def test_a_command_counts_under_its_full_name(data: dict[str, Any], name: str) -> None:
    assert command_of(data) == name


def errors(kind: str) -> float:
    return REGISTRY.get_sample_value("pachisi_interaction_errors_total", {"kind": kind}) or 0.0


class Original(app_commands.AppCommandError):
    """discord.py's wrapping of a command's exception (`CommandInvokeError` needs a command)."""

    def __init__(self, original: BaseException) -> None:
        self.original = original


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (GameError("not_seated"), "refused"),
        (Original(GameError("busy")), "refused"),
        (Original(StoreUnavailable()), "database"),
        (app_commands.CheckFailure(), "not_here"),
        (
            app_commands.TransformerError(
                "x",
                discord.AppCommandOptionType.integer,
                app_commands.Range[int, 1, 2],  # type: ignore[arg-type]  # a transformer at run time
            ),
            "bad_value",
        ),
        (Original(KeyError("a fault")), "unexpected"),
    ],
)
def test_an_error_counts_under_its_kind(error: BaseException, kind: str) -> None:
    before = {k: errors(k) for k in ("refused", "database", "not_here", "bad_value", "unexpected")}
    metrics.interaction_failed(error)
    after = {k: errors(k) for k in before}
    assert {k: after[k] - before[k] for k in before if after[k] != before[k]} == {kind: 1}


def test_every_kind_is_exposed_at_zero_before_the_first_error() -> None:
    kinds = {
        s.labels["kind"]
        for f in REGISTRY.collect()
        if f.name == "pachisi_interaction_errors"
        for s in f.samples
    }
    assert kinds == {"refused", "database", "not_here", "bad_value", "unexpected"}


def test_the_gateway_at_a_scrape() -> None:
    metrics.gateway(False, [(0, 0.125), (1, math.inf)], 7)
    assert REGISTRY.get_sample_value("pachisi_gateway_connected") == 0
    assert REGISTRY.get_sample_value("pachisi_gateway_latency_seconds", {"shard": "0"}) == 0.125
    assert math.isnan(REGISTRY.get_sample_value("pachisi_gateway_latency_seconds", {"shard": "1"}) or 0)
    assert REGISTRY.get_sample_value("pachisi_guilds") == 7
    metrics.gateway(True, [(0, 0.05)], 8)
    assert REGISTRY.get_sample_value("pachisi_gateway_connected") == 1
