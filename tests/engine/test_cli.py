"""The command line contracts: `python -m engine moves|play|simulate`."""

from __future__ import annotations

import json
import subprocess
import sys

START = "black:0,0,12,84 red:0,0,0,0 yellow:5,5,0,0 green:0,0,0,0 turn:black captured:- rules:classic"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_moves_prints_sorted_moves_or_pass() -> None:
    done = run("moves", stdin=f"10 {START}\n4 {START}\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["black:0-1 black:12-22", "black:12-16"]
    stuck = "black:0,0,0,80 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    assert run("moves", stdin=f"4 {stuck}\n").stdout == "pass\n"


def test_play_prints_the_next_position_and_names_bad_lines() -> None:
    stdin = f"10 black:0-1 {START}\n4 black:12-17 {START}\n7 black:12-19 {START}\n4 black:12-16 {START}\n"
    done = run("play", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout.splitlines() == [
        "black:0,1,12,84 red:0,0,0,0 yellow:0,0,5,5 green:0,0,0,0 turn:black captured:- rules:classic",
        "black:0,0,16,84 red:0,0,0,0 yellow:0,0,5,5 green:0,0,0,0 turn:red captured:- rules:classic",
    ]
    errors = done.stderr.splitlines()
    assert errors[0].startswith("line 2:") and "black:12-17" in errors[0]
    assert errors[1].startswith("line 3:") and "7 is not a throw" in errors[1]


def test_play_reports_the_result_once_the_game_is_over() -> None:
    last = "black:84,84,84,84 red:0,0,0,0 yellow:80,84,84,84 green:0,0,0,0 turn:yellow captured:black+yellow rules:classic"
    done = run("play", stdin=f"4 yellow:80-84 {last}\n")
    assert done.stdout.strip().endswith("turn:green captured:black+yellow rules:classic result:black+yellow")


def test_simulate_json_has_the_contract_keys() -> None:
    done = run("simulate", "--games", "20", "--seed", "4", "--players", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    for key in (
        "games",
        "frozen",
        "throws_mean",
        "throws_median",
        "wins",
        "escape_hatch_games",
        "games_per_s",
    ):
        assert key in data
    assert data["games"] == 20
    assert sum(data["wins"].values()) + data["frozen"] == 20
    assert set(data["wins"]) == {"black", "yellow"}


def test_simulate_text_and_rules_option() -> None:
    done = run("simulate", "--games", "10", "--seed", "1", "--rules", "classic,last_square=off")
    assert done.returncode == 0, done.stderr
    assert "last_square=off" in done.stdout and "frozen" in done.stdout
    bad = run("simulate", "--games", "1", "--rules", "classic,nonsense=on")
    assert bad.returncode == 2 and "nonsense" in bad.stderr
