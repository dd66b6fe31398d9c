"""Command line: draw one position (or the key to the marks) to a PNG file.

python -m render "<position>" -o out.png [--moves "black:1-7,red:20-26"] [--throw N] [--choices]
    [--from POSITION] [--name SEAT=NAME] [--termination frozen|throw_limit]
python -m render --legend -o legend.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.board import SEAT_NAMES
from engine.errors import PachisiError
from engine.state import Move, Position, parse_move
from engine.throws import check_throw
from render import DrawnMove, board_png, legend_png


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m render", description="Draw a Pachisi position as a PNG.")
    parser.add_argument("position", nargs="?", help='one-line position, e.g. "black:0,0,0,0 red:0,0,0,0 ..."')
    parser.add_argument("-o", "--output", type=Path, default=Path("board.png"), help="PNG file to write")
    parser.add_argument(
        "--moves",
        metavar="MOVES",
        help='the story, oldest first: "black:1-7,red:20-26", numbered on the board',
    )
    parser.add_argument(
        "--from",
        dest="start",
        metavar="POSITION",
        help="the position the first of --moves was played from, to mark captures",
    )
    parser.add_argument("--last", metavar="MOVE", help="the move just played (seat:from-to), drawn as a path")
    parser.add_argument("--before", metavar="POSITION", help="the position before --last, to mark a capture")
    parser.add_argument("--throw", type=int, metavar="N", help="the current throw, shown as cowries")
    parser.add_argument(
        "--choices", action="store_true", help="draw the legal moves of --throw as A, B, C..."
    )
    parser.add_argument(
        "--termination",
        choices=("frozen", "throw_limit"),
        help="why a drawn game ended (default: worked out)",
    )
    parser.add_argument(
        "--name", action="append", default=[], metavar="SEAT=NAME", help="a seat's display name"
    )
    parser.add_argument("--legend", action="store_true", help="draw the key to the board's marks instead")
    return parser


def _moves(text: str) -> list[Move]:
    moves = []
    for item in text.split(","):
        move = parse_move(item.strip())
        if move is None:
            raise ValueError(f"{item.strip()!r} is not a move (seat:from-to)")
        moves.append(move)
    return moves


def _story(moves: list[Move], start: Position | None) -> list[DrawnMove]:
    """The moves with the positions they were played from, replayed from `start` when given."""
    if start is None:
        return [DrawnMove(m) for m in moves]
    story = []
    for move in moves:
        story.append(DrawnMove(move, start))
        # Only the pieces matter for drawing (captures); the throw only decides whose turn is next.
        start = start.after(1, move)
    return story


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.legend:
        png = legend_png()
    else:
        if args.position is None:
            parser.error("a position is needed (or --legend)")
        try:
            position = Position.parse(args.position)
            last = parse_move(args.last) if args.last else None
            before = Position.parse(args.before) if args.before else None
            throw = check_throw(args.throw) if args.throw is not None else None
            story = _moves(args.moves) if args.moves else []
            start = Position.parse(args.start) if args.start else None
        except (PachisiError, ValueError) as exc:
            parser.error(str(exc))
        if args.choices and throw is None:
            parser.error("--choices needs --throw")
        if before is not None and last is None:
            parser.error("--before needs --last")
        if story and last is not None:
            parser.error("give the story with --moves or --last, not both")
        if start is not None and not story:
            parser.error("--from needs --moves")
        names: dict[int, str] = {}
        for item in args.name:
            seat, sep, name = item.partition("=")
            if not sep or seat not in SEAT_NAMES:
                parser.error(f"--name takes SEAT=NAME with SEAT one of {', '.join(SEAT_NAMES)}")
            names[SEAT_NAMES.index(seat)] = name
        moves = _story(story, start) if story else ([DrawnMove(last, before)] if last else [])
        choices = position.legal_moves(throw) if args.choices and throw is not None else None
        png = board_png(
            position, names=names, moves=moves, throw=throw, choices=choices, termination=args.termination
        )
    args.output.write_bytes(png)
    print(f"{args.output}: {len(png)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
