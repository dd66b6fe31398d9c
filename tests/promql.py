"""The metric names a PromQL expression reads, and the names a Prometheus registry exposes: the
dashboard and the alert examples in deploy/ must name only metrics the bot has."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "deploy" / "grafana" / "pachisi.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
KEYWORDS = {
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "bool",
    "and",
    "or",
    "unless",
    "offset",
}
SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("", "_count", "_sum", "_created"),
    "info": ("_info",),
    "untyped": ("",),
}


def metric_names(expr: str) -> set[str]:
    """The metrics `expr` selects: identifiers outside label matchers, ranges, strings and
    grouping clauses that are neither functions, keywords nor numbers."""
    text = re.sub(r'"[^"]*"', "", expr)
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for found in re.finditer(r"(?<![\w.])[A-Za-z_:][A-Za-z0-9_:]*", text):  # not 5m, not 1e3
        following = text[found.end() :].lstrip()
        if following.startswith("(") or found.group() in KEYWORDS:
            continue
        names.add(found.group())
    return names


def exposed(families: Iterable[Any]) -> set[str]:
    """Every sample name the registry's metric families can expose (prometheus_client's or the
    text parser's families: `name` and `type`), whether or not a sample was recorded yet."""
    names: set[str] = set()
    for family in families:
        names |= {family.name + suffix for suffix in SUFFIXES[family.type]}
        names |= {sample.name for sample in family.samples}
    return names


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return loaded


def dashboard_exprs() -> list[str]:
    return [target["expr"] for panel in dashboard()["panels"] for target in panel["targets"]]


def alert_exprs() -> list[str]:
    rules = yaml.safe_load(ALERTS.read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
