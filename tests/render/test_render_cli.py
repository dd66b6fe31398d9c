"""`python -m render` writes the same picture as the API, and rejects bad arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Move, Position
from render import DrawnMove, board_png, legend_png
from render.__main__ import main

BEFORE = "black:0,0,13,16 red:0,0,38,71 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"


def test_cli_draws_what_the_api_draws(tmp_path: Path) -> None:
    before = Position.parse(BEFORE)
    move = Move(0, 16, 20)
    after = before.after(4, move)
    out = tmp_path / "board.png"
    args = [after.notation(), "-o", str(out), "--last", str(move), "--before", BEFORE, "--throw", "25"]
    assert main([*args, "--choices", "--name", "black=Alice"]) == 0
    expected = board_png(
        after,
        names={0: "Alice"},
        last_move=move,
        last_position=before,
        throw=25,
        choices=after.legal_moves(25),
    )
    assert out.read_bytes() == expected


def test_cli_draws_a_story_of_moves(tmp_path: Path) -> None:
    position = Position.parse(BEFORE)
    out = tmp_path / "story.png"
    assert main([BEFORE, "-o", str(out), "--moves", "red:34-38, black:10-13", "--throw", "4"]) == 0
    story = [DrawnMove(Move(1, 34, 38)), DrawnMove(Move(0, 10, 13))]
    assert out.read_bytes() == board_png(position, moves=story, throw=4)
    assert out.read_bytes() != board_png(position, throw=4)


def test_cli_draws_the_legend(tmp_path: Path) -> None:
    out = tmp_path / "legend.png"
    assert main(["--legend", "-o", str(out)]) == 0
    assert out.read_bytes() == legend_png()


@pytest.mark.parametrize(
    "extra",
    [
        ["--choices"],
        ["--throw", "7"],
        ["--last", "black:1"],
        ["--name", "purple=Bob"],
        ["--before", BEFORE],
        ["--moves", "black:1-5,red"],
        ["--moves", "black:1-5", "--last", "black:5-9"],
        ["--from", BEFORE],
    ],
)
def test_cli_rejects_bad_arguments(tmp_path: Path, extra: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([BEFORE, "-o", str(tmp_path / "x.png"), *extra])
    assert exit_info.value.code == 2
    assert not (tmp_path / "x.png").exists()


def test_cli_needs_a_position_unless_drawing_the_legend(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["-o", str(tmp_path / "x.png")])
    assert exit_info.value.code == 2


def test_cli_marks_the_storys_captures_when_told_where_it_started(tmp_path: Path) -> None:
    start = Position.parse(BEFORE)
    capture = Move(0, 16, 20)
    assert start.captures(capture)
    position = start.after(4, capture)
    out = tmp_path / "story.png"
    args = [position.notation(), "-o", str(out), "--moves", "black:16-20", "--from", BEFORE]
    assert main(args) == 0
    assert out.read_bytes() == board_png(position, moves=[DrawnMove(capture, start)])
    assert out.read_bytes() != board_png(position, moves=[capture])
