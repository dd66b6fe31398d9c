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


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("grandmaster", "unknown level 'grandmaster' (choose from random, easy, normal, hard, expert)"),
        ("hard:nodes=x", "bad budget 'nodes=x' in 'hard:nodes=x'"),
        ("hard:nodes=\u0665", "bad budget 'nodes=\u0665'"),
        (
            "hard:speed=3",
            "bad budget 'speed=3' in 'hard:speed=3' (expected e.g. hard:nodes=300; budgets: nodes,",
        ),
        ("normal:nodes=5", "level 'normal' takes no budget"),
        ("hard:nodes=0", "nodes and beam must be at least 1"),
        ("hard:depth=9", "depth must be 1 to 4"),
        ("expert:entered=30", "expert takes nodes, depth, beam, root and hybrid"),
        ("expert:hybrid=2", "hybrid must be 0 or 1"),
        ("expert:root=101", "root must be 0 to 100"),
        ("hard:root=30", "hard takes nodes, depth, beam and entered"),
        ("expert:depth=4", "depth must be 0 to 3"),
        ("x" * 10_000, "unknown level 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (10000 characters)"),
    ],
)
def test_bad_levels_and_budgets_are_refused(
    bad: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["--side-a", bad, "--side-b", "normal"], ["--side-a", "normal", "--side-b", bad]):
        with pytest.raises(SystemExit) as stopped:
            arena.main([*argv, "--games", "1"])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert f"error: {message}" in err and len(err) < 1000, err[-500:]
