"""`python -m engine analyse`: one JSON object per `<throw> <position>` line, the contract's keys,
the moves in `hard`'s order with the analysis's chances; a bad line is refused like the batch CLI's."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.analysis import analyse
from engine.state import Position

SEARCH = "black:1,1,15,37 red:0,1,1,26 yellow:0,0,31,40 green:0,0,0,26 turn:black captured:- rules:classic"


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "analyse"], input=stdin, capture_output=True, text=True, timeout=300
    )


def test_analyse_writes_the_contract_for_each_line() -> None:
    done = run(f"2 {SEARCH}\n")
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    data = json.loads(line)
    assert set(data) == {"win_chance", "moves"}
    assert set(data["win_chance"]) == {"black+yellow", "red+green"}
    assert abs(sum(data["win_chance"].values()) - 1.0) < 1e-3
    expected = analyse(Position.parse(SEARCH), 2)
    assert [m["move"] for m in data["moves"]] == [str(c.move) for c in expected.choices]
    assert data["moves"][0]["move"] == "black:15-17" and data["moves"][0]["best"] is True
    assert [m["best"] for m in data["moves"][1:]] == [False] * (len(data["moves"]) - 1)
    for got, choice in zip(data["moves"], expected.choices, strict=True):
        assert set(got) == {"move", "win_chance", "best", "reasons"}
        assert got["win_chance"] == round(choice.win_chance, 4)
        assert got["reasons"] == [reason.as_json() for reason in choice.reasons]
        assert all(set(reason) >= {"kind"} for reason in got["reasons"])
    assert {"kind": "search_prefers", "move": "black:37-39", "depth": 3} in data["moves"][0]["reasons"]


def test_analyse_refuses_a_bad_line_and_answers_the_rest() -> None:
    lost = "black:82,84,84,84 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:black+yellow rules:classic"
    done = run(f"7 {SEARCH}\n4 {lost}\n")
    assert done.returncode == 2
    bad, answer = done.stdout.splitlines()
    assert bad.startswith("error: 7 is not a throw")  # in the line's place, as moves and play answer
    assert done.stderr.startswith("line 1: 7 is not a throw")
    assert json.loads(answer)["moves"] == []  # a lost throw: no move to rank
