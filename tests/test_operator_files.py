"""The operator's files in deploy/: the Grafana dashboard loads and shows every metric an operator
watches, and it and the Prometheus alert examples name only metrics the bot's registry has; the
alerts pass `promtool check rules` and fire on the cases in tests/prometheus/alerts_test.yml."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from prometheus_client import REGISTRY

import bot.core.metrics  # noqa: F401  # registers the bot's metrics
from tests.promql import ALERTS, ROOT, alert_exprs, dashboard, dashboard_exprs, exposed, metric_names

WATCHED = {
    "pachisi_gateway_connected",
    "pachisi_gateway_latency_seconds",
    "pachisi_gateway_disconnects_total",
    "pachisi_guilds",
    "pachisi_games_open",
    "pachisi_clicks_total",
    "pachisi_commands_total",
    "pachisi_interaction_errors_total",
    "pachisi_database_errors_total",
    "pachisi_click_to_answer_seconds_bucket",
}
"""What an operator looks at first (issue 56): each has a panel."""


def test_the_dashboard_loads_and_shows_what_an_operator_watches() -> None:
    board = dashboard()
    assert board["uid"] and board["title"] and board["schemaVersion"] >= 36
    [variable] = board["templating"]["list"]
    assert (variable["name"], variable["type"], variable["query"]) == (
        "datasource",
        "datasource",
        "prometheus",
    )
    ids = [panel["id"] for panel in board["panels"]]
    assert len(ids) == len(set(ids))
    for panel in board["panels"]:
        assert panel["title"] and panel["targets"], panel
        assert panel["datasource"]["uid"] == "${datasource}"
        assert all(target["datasource"]["uid"] == "${datasource}" for target in panel["targets"])
    shown = set().union(*(metric_names(expr) for expr in dashboard_exprs()))
    assert shown >= WATCHED, WATCHED - shown


def test_no_panel_overlaps_another() -> None:
    cells: set[tuple[int, int]] = set()
    for panel in dashboard()["panels"]:
        box = panel["gridPos"]
        assert box["x"] + box["w"] <= 24
        mine = {
            (x, y) for x in range(box["x"], box["x"] + box["w"]) for y in range(box["y"], box["y"] + box["h"])
        }
        assert not mine & cells, panel["title"]
        cells |= mine


@pytest.mark.parametrize("source", ["dashboard", "alerts"])
def test_every_expression_names_metrics_the_registry_has(source: str) -> None:
    exprs = dashboard_exprs() if source == "dashboard" else alert_exprs()
    have = exposed(REGISTRY.collect())
    for expr in exprs:
        names = metric_names(expr)
        assert names, expr
        assert names <= have, (expr, names - have)


def test_metric_names_reads_promql() -> None:
    expr = 'histogram_quantile(0.95, sum by (le, level) (rate(x_bucket{kind="a b", y=~"z"}[$__rate_interval]))) > 2 and on (instance) up offset 5m'
    assert metric_names(expr) == {"x_bucket", "up"}


promtool = shutil.which("promtool")


@pytest.mark.skipif(promtool is None, reason="promtool is not installed (Debian: apt-get install prometheus)")
def test_promtool_checks_the_alerts_and_their_cases() -> None:
    assert promtool is not None
    checked = subprocess.run([promtool, "check", "rules", str(ALERTS)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    cases = ROOT / "tests" / "prometheus" / "alerts_test.yml"
    tested = subprocess.run([promtool, "test", "rules", str(cases)], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stdout + tested.stderr
