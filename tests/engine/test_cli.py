"""The command line contracts: `python -m engine moves|play|simulate`, and bad input answered."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.__main__ import main

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
    lines = done.stdout.splitlines()
    assert len(lines) == 4  # one answer per question, the bad ones in their places
    assert lines[0] == (
        "black:0,1,12,84 red:0,0,0,0 yellow:0,0,5,5 green:0,0,0,0 turn:black captured:- rules:classic"
    )
    assert lines[1].startswith("error: ") and "black:12-17" in lines[1]
    assert lines[2].startswith("error: ") and "7 is not a throw" in lines[2]
    assert lines[3] == (
        "black:0,0,16,84 red:0,0,0,0 yellow:0,0,5,5 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    errors = done.stderr.splitlines()
    assert errors[0] == f"line 2: {lines[1].removeprefix('error: ')}"
    assert errors[1] == f"line 3: {lines[2].removeprefix('error: ')}"


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


def batch(command: str, stdin: bytes) -> tuple[int, list[str], list[str]]:
    """Run a batch command in this process: (status, stdout lines, stderr lines)."""
    out, err = io.StringIO(), io.StringIO()
    status = main([command], out, err, io.BytesIO(stdin))
    return status, out.getvalue().splitlines(), err.getvalue().splitlines()


def test_binary_junk_is_a_bad_line_and_the_batch_goes_on() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "moves"],
        input=f"4 {START}\n".encode() + b"\xff\xfe\x00junk\n" + f"10 {START}\n".encode(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout.decode().splitlines() == [
        "black:12-16",
        "error: the line is not UTF-8 text",
        "black:0-1 black:12-22",
    ]
    assert done.stderr.decode() == "line 2: the line is not UTF-8 text\n"


def test_a_blank_line_gets_a_blank_answer() -> None:
    assert batch("moves", f"4 {START}\n\n4 {START}\n".encode()) == (0, ["black:12-16", "", "black:12-16"], [])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # Python's int() would read these digits as 4, or give its own 4,300-digit message.
        (f"\u0664 {START}", "'\u0664' is not a throw"),
        (
            f"{'4' * 5000} {START}",
            "'4444444444444444444444444444444444444...' (5000 characters) is not a throw",
        ),
        ("4 " + START.replace("0,0,12,84", "0,0,12," + "8" * 5000), "steps run from 0 to 84"),
        (
            "4 " + START.replace("0,0,12,84", "0,0,\u0661\u0662,84"),
            "seat steps must be comma-separated numbers",
        ),
        (
            "4 " + START.replace("classic", "classic,start_on_board=" + "1" * 5000),
            "takes a number from 0 to 4",
        ),
        # A 10 MB line is quoted, cut, not echoed whole.
        ("4 " + "x" * 10_000_000, "(10000000 characters)"),
    ],
)
def test_bad_numbers_and_huge_lines_get_a_short_clear_message(line: str, message: str) -> None:
    status, out, err = batch("moves", line.encode() + b"\n")
    assert status == 2 and len(out) == 1 and len(err) == 1
    assert out[0].startswith("error: ") and message in out[0], out[0][:300]
    assert err[0] == f"line 1: {out[0].removeprefix('error: ')}"
    assert len(out[0]) < 300


WON = "black:84,84,84,84 red:0,0,0,0 yellow:84,84,84,84 green:0,0,0,1 turn:green captured:black+yellow rules:classic"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            f"4 {START} result:black+yellow",
            "result:black+yellow, but black+yellow has not brought every piece home",
        ),
        (f"4 {WON}", "black+yellow has every piece home: the position must end result:black+yellow"),
        (f"4 {WON} result:red+green", "black+yellow has every piece home"),
        (f"4 {WON} result:draw", "black+yellow has every piece home"),
        (f"4 {WON} result:black+yellow", "the game is over (result:black+yellow)"),
    ],
)
def test_a_result_must_match_the_pieces_and_a_finished_game_is_not_played_on(line: str, message: str) -> None:
    for command, text in (("moves", line), ("play", line.replace("4 ", "4 green:1-5 ", 1))):
        status, out, _ = batch(command, text.encode() + b"\n")
        assert status == 2 and out[0].startswith("error: ") and message in out[0], (command, out)


def test_a_draw_by_the_throw_limit_reads_but_is_not_played_on() -> None:
    # The position alone cannot see the throw limit, so result:draw is read on any position.
    status, out, _ = batch("moves", f"4 {START} result:draw\n".encode())
    assert (status, out) == (2, ["error: the game is over (result:draw)"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "bogus"], "argument --policy: invalid choice: 'bogus'"),
        (["--games", "-5"], "argument --games: expected a whole number from 1"),
        (["--games", "0"], "argument --games: expected a whole number from 1"),
        (["--games", "\u0665"], "argument --games: expected a whole number from 1"),
        (["--games", "9" * 5000], "argument --games: expected a whole number from 1"),
        (["--players", "3"], "argument --players: invalid choice: 3"),
        (["--rules", "classic,nonsense=on"], "unknown rule option 'nonsense=on'"),
        (["--from", START, "--rules", "standard"], "--from gives the rules"),
        (["--from", "black:1"], "seat tokens must be"),
        (["--from", WON + " result:black+yellow"], "the game is over"),
    ],
)
def test_simulate_refuses_bad_options_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--games", "1", *args] if "--games" not in args else ["simulate", *args]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err) < 2000


def test_simulate_from_a_position_plays_on_from_it() -> None:
    # Black + Yellow need one piece from 80 to come home; Red + Green have not started.
    near = (
        "black:84,84,84,84 red:0,0,0,0 yellow:80,84,84,84 green:0,0,0,0 "
        "turn:yellow captured:black+yellow rules:classic"
    )
    out = io.StringIO()
    assert main(["simulate", "--from", near, "--games", "30", "--seed", "2", "--json"], out) == 0
    data = json.loads(out.getvalue())
    assert data["games"] == 30 and data["wins"] == {"black+yellow": 30, "red+green": 0}
    assert 1 <= data["throws_median"] < 20
    # From the start the same seed gives the same report as without --from.
    start = "black:0,0,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    a, b = io.StringIO(), io.StringIO()
    main(["simulate", "--from", start, "--games", "5", "--seed", "3", "--json"], a)
    main(["simulate", "--games", "5", "--seed", "3", "--json"], b)
    keys = ("games", "frozen", "throws_mean", "wins")
    assert [json.loads(a.getvalue())[k] for k in keys] == [json.loads(b.getvalue())[k] for k in keys]


def test_help_lists_every_command_and_an_unknown_one_is_refused() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--help"], out, err) == 0
    for command in ("moves", "play", "simulate", "arena", "replay"):
        assert f"  {command} " in out.getvalue()
    assert main(["bogus"], out, err) == 2 and "unknown command 'bogus'" in err.getvalue()
