"""`python -m render` writes the same picture as the API, and rejects bad arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Move, Position
from render import board_png
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


@pytest.mark.parametrize(
    "extra",
    [["--choices"], ["--throw", "7"], ["--last", "black:1"], ["--name", "purple=Bob"], ["--before", BEFORE]],
)
def test_cli_rejects_bad_arguments(tmp_path: Path, extra: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([BEFORE, "-o", str(tmp_path / "x.png"), *extra])
    assert exit_info.value.code == 2
    assert not (tmp_path / "x.png").exists()
