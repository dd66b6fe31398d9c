"""Command line: `python -m engine moves|play|simulate|arena|replay` (contracts other tools read)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from engine import build
from engine.errors import PachisiError
from engine.notation import format_position, parse_move, parse_position
from engine.rules import Rules
from engine.state import Move, moves_text
from engine.throws import check_throw


def _parse_throw(text: str) -> int:
    if not text.isdigit():
        raise PachisiError(f"{text!r} is not a throw (throws are 2, 3, 4, 5, 6, 10, 25)")
    return check_throw(int(text))


def _moves_line(line: str) -> str:
    throw_text, _, position_text = line.partition(" ")
    throw = _parse_throw(throw_text)
    return moves_text(parse_position(position_text).legal_moves(throw))


def _play_line(line: str) -> str:
    throw_text, _, rest = line.partition(" ")
    move_text, _, position_text = rest.partition(" ")
    throw = _parse_throw(throw_text)
    move: Move | None = parse_move(move_text)
    position = parse_position(position_text)
    return format_position(position.play(throw, move))


def _each_line(lines: Iterable[str], handle: Callable[[str], str], out: TextIO, err: TextIO) -> int:
    """Answer every line; a bad line gets a message naming its number and makes the status 2."""
    status = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        try:
            out.write(handle(line) + "\n")
        except ValueError as exc:
            err.write(f"line {number}: {exc}\n")
            status = 2
    return status


def _progress(total: int, err: TextIO) -> Callable[[int], None] | None:
    if not err.isatty():
        return None

    def show(done: int) -> None:
        width = 30
        filled = width * done // total
        err.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            err.write("\n")
        err.flush()

    return show


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.simulate import simulate

    try:
        rules = Rules.parse(args.rules)
        rules = rules.with_options(players=args.players or rules.players)
        if args.pieces:
            rules = rules.with_options(pieces=args.pieces)
    except ValueError as exc:
        err.write(f"simulate: {exc}\n")
        return 2
    report = simulate(
        args.games, rules, seed=args.seed, policy=args.policy, progress=_progress(args.games, err)
    )
    data = report.as_json()
    if args.json:
        out.write(json.dumps(data) + "\n")
        return 0
    out.write(f"rules            {rules.token()} ({rules.players} players, {rules.pieces} pieces)\n")
    out.write(f"policy           {args.policy}\n")
    out.write(f"games            {data['games']}\n")
    out.write(f"frozen (drawn)   {data['frozen']}  ({_percent(data['frozen'], data['games'])})\n")
    if data["capped"]:
        out.write(f"throw cap draws  {data['capped']}\n")
    out.write(f"throws per game  mean {data['throws_mean']}, median {data['throws_median']}\n")
    for side, wins in data["wins"].items():
        out.write(f"wins {side:<14}{wins}  ({_percent(wins, data['games'])})\n")
    out.write(
        f"escape hatch     used in {data['escape_hatch_games']} games, "
        f"decided {data['escape_hatch_decided']}\n"
    )
    out.write(f"speed            {data['games_per_s']} games/s, {data['throws_per_s']} throws/s\n")
    return 0


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check a game record; print the final position, or each position after each throw."""
    from engine.record import RecordError, read_record

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        err.write(f"replay: cannot read {args.file}: {exc}\n")
        return 2
    try:
        record = read_record(text)
    except RecordError as exc:
        err.write(f"{exc}\n")
        return 2
    shown = record.positions[1:] if args.positions else record.positions[-1:]
    out.writelines(f"{format_position(position)}\n" for position in shown)
    return 0


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main(argv: list[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "arena":
        from engine.arena import main as arena_main

        return arena_main(argv[1:])
    build.exit_if_stale()
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("moves", help="lines '<throw> <position>' -> the legal moves, or pass")
    commands.add_parser("play", help="lines '<throw> <move> <position>' -> the next position")
    commands.add_parser("arena", help="computer levels against each other (see arena --help)")
    sim = commands.add_parser("simulate", help="play whole games and print statistics")
    sim.add_argument("--games", type=int, required=True)
    sim.add_argument("--seed", type=int, default=None)
    sim.add_argument("--players", type=int, choices=(2, 4), default=None)
    sim.add_argument("--pieces", type=int, choices=(1, 2, 3, 4), default=None)
    sim.add_argument("--rules", default="classic", help="e.g. classic,last_square=off")
    sim.add_argument("--policy", default="random", help="random, easy, normal or hard")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    replay = commands.add_parser("replay", help="check a game record and print its final position")
    replay.add_argument("file", help="the record (docs/RULES.md, Game records); - reads standard input")
    replay.add_argument("--positions", action="store_true", help="print the position after each throw")
    args = parser.parse_args(argv)
    if args.command == "moves":
        return _each_line(sys.stdin, _moves_line, out, err)
    if args.command == "play":
        return _each_line(sys.stdin, _play_line, out, err)
    if args.command == "replay":
        return _replay(args, out, err)
    return _simulate(args, out, err)


if __name__ == "__main__":
    sys.exit(main())
