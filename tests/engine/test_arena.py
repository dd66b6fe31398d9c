"""The arena CLI: its JSON report, repeatable runs, fair seat rotation and the statistics it prints."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import arena


def _run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert arena.main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_report_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    report = _run_json(capsys, "--side-a", "normal", "--side-b", "random", "--games", "6", "--players", "2")
    assert report["games"] == 6
    assert report["wins_a"] + report["wins_b"] + report["draws"] == 6
    low, high = report["ci95_a"]
    assert 0 <= low <= report["win_rate_a"] <= high <= 1
    timing = report["decision_ms"]
    assert set(timing) == {"normal", "random"}
    assert timing["normal"]["decisions"] > 0 and timing["normal"]["mean"] > 0


def test_same_seed_same_result_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--side-a", "easy", "--side-b", "hard:nodes=50", "--games", "4", "--players", "2", "--seed", "3")
    one = _run_json(capsys, *args)
    two = _run_json(capsys, *args, "--jobs", "2")
    keys = ("wins_a", "wins_b", "draws", "mean_throws")
    assert [one[k] for k in keys] == [two[k] for k in keys]


def test_sides_swap_seats_within_each_pair_of_games() -> None:
    # Games 2k and 2k+1 share their dice with the sides swapped: naming the levels the other way
    # round in the odd game replays the even game exactly, with the outcome seen from the other side.
    rules = arena.Rules()
    for pair in range(3):
        even = arena.play_game("normal", "easy", rules, seed=4, index=2 * pair)
        odd = arena.play_game("easy", "normal", rules, seed=4, index=2 * pair + 1)
        assert (odd.outcome, odd.throws, len(odd.ms_a)) == (-even.outcome, even.throws, len(even.ms_b))


def test_normal_side_wins_from_either_seat() -> None:
    rules = arena.Rules()
    outcomes = [arena.play_game("normal", "random", rules, seed=2, index=i).outcome for i in range(8)]
    assert sum(o == 1 for o in outcomes[0::2]) >= 3
    assert sum(o == 1 for o in outcomes[1::2]) >= 3


def test_wilson_interval_and_percentile() -> None:
    low, high = arena.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert arena.wilson(0, 0) == (0.0, 1.0)
    assert arena.percentile(list(map(float, range(1, 101))), 99) == 99.0
    assert arena.percentile([], 99) == 0.0


def test_bad_levels_and_budgets_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("grandmaster", "hard:nodes=x", "hard:speed=3", "normal:nodes=5"):
        with pytest.raises(SystemExit):
            arena.main(["--side-a", bad, "--side-b", "normal", "--games", "1"])
    assert "error" in capsys.readouterr().err
