"""Command line: draw one position to a PNG file.

python -m render "<position>" -o board.png [--last MOVE [--before POSITION]] [--throw T] [--choices]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.board import SEAT_NAMES
from engine.errors import PachisiError
from engine.notation import parse_move
from engine.state import Position
from engine.throws import check_throw
from render import board_png


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m render", description="Draw a Pachisi position as a PNG.")
    parser.add_argument("position", help='one-line position, e.g. "black:0,0,0,0 red:0,0,0,0 ..."')
    parser.add_argument("-o", "--output", type=Path, default=Path("board.png"), help="PNG file to write")
    parser.add_argument("--last", metavar="MOVE", help="the move just played (seat:from-to), drawn as a path")
    parser.add_argument("--before", metavar="POSITION", help="the position before --last, to mark a capture")
    parser.add_argument("--throw", type=int, metavar="T", help="the current throw, shown as cowries")
    parser.add_argument("--choices", action="store_true", help="label the legal moves of --throw A, B, C...")
    parser.add_argument(
        "--name", action="append", default=[], metavar="SEAT=NAME", help="a seat's display name"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        position = Position.parse(args.position)
        last = parse_move(args.last) if args.last else None
        before = Position.parse(args.before) if args.before else None
        throw = check_throw(args.throw) if args.throw is not None else None
    except (PachisiError, ValueError) as exc:
        parser.error(str(exc))
    if args.choices and throw is None:
        parser.error("--choices needs --throw")
    if before is not None and last is None:
        parser.error("--before needs --last")
    names: dict[int, str] = {}
    for item in args.name:
        seat, sep, name = item.partition("=")
        if not sep or seat not in SEAT_NAMES:
            parser.error(f"--name takes SEAT=NAME with SEAT one of {', '.join(SEAT_NAMES)}")
        names[SEAT_NAMES.index(seat)] = name
    choices = position.legal_moves(throw) if args.choices and throw is not None else None
    png = board_png(position, names=names, last_move=last, last_position=before, throw=throw, choices=choices)
    args.output.write_bytes(png)
    print(f"{args.output}: {len(png)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
