"""Command line: `python -m engine COMMAND` (contracts other tools read; `--help` lists them).

Each command is one entry of COMMANDS: its name, a line of help, and `main(argv, streams)` returning
the exit status. A batch command reads lines on standard input and answers each with one line
(`batch(answer)`): a line it cannot answer gets `error: <message>` in its place on standard output,
so answers stay paired with questions, `line N: <message>` on standard error, and the run exits 2
once every line is answered. Adding a command is a function and one line in COMMANDS.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import BinaryIO, NamedTuple, TextIO

from engine import build
from engine.errors import GameOverError, PachisiError, number, shown
from engine.rules import Rules
from engine.state import Move, Position, format_position, moves_text, parse_move, parse_position, result_text
from engine.throws import check_throw


class Streams(NamedTuple):
    """Where a command reads and writes: standard input as bytes (any junk is a bad line, not a crash)."""

    stdin: BinaryIO
    out: TextIO
    err: TextIO


class Command(NamedTuple):
    name: str
    help: str
    main: Callable[[list[str], Streams], int]


# --- batch commands ---------------------------------------------------------------------


def run_batch(lines: Iterable[bytes], answer: Callable[[str], str], out: TextIO, err: TextIO) -> int:
    """Answer every line with one line; 2 if any line was bad. A blank line gets a blank answer."""
    status = 0
    for index, raw in enumerate(lines, start=1):
        try:
            line = raw.rstrip(b"\r\n").decode("utf-8")
            reply = answer(line) if line.strip() else ""
        except UnicodeDecodeError:
            reply, status = _bad_line("the line is not UTF-8 text", index, out, err), 2
        except ValueError as exc:  # PachisiError and the rest of the engine's bad-input errors
            reply, status = _bad_line(str(exc), index, out, err), 2
        out.write(reply + "\n")
    return status


def _bad_line(message: str, index: int, out: TextIO, err: TextIO) -> str:
    message = " ".join(message.split())  # one line, whatever the message held
    err.write(f"line {index}: {message}\n")
    return f"error: {message}"


def batch(name: str, answer: Callable[[str], str], description: str) -> Callable[[list[str], Streams], int]:
    """The `main` of a batch command answering each line with `answer`."""

    def main(argv: list[str], streams: Streams) -> int:
        argparse.ArgumentParser(prog=f"python -m engine {name}", description=description).parse_args(argv)
        return run_batch(streams.stdin, answer, streams.out, streams.err)

    return main


def _throw(text: str) -> int:
    value = number(text, 25)
    if value is None:
        raise PachisiError(f"{shown(text)} is not a throw (throws are 2, 3, 4, 5, 6, 10, 25)")
    return check_throw(value)


def _live(text: str) -> Position:
    """A position whose game goes on."""
    position = parse_position(text)
    if position.result is not None:
        raise GameOverError(
            f"the game is over (result:{result_text(position.result, position.rules.players)})"
        )
    return position


def moves_line(line: str) -> str:
    """`<throw> <position>` -> the legal moves, or pass."""
    throw_text, _, position_text = line.partition(" ")
    throw = _throw(throw_text)
    return moves_text(_live(position_text).legal_moves(throw))


def play_line(line: str) -> str:
    """`<throw> <move> <position>` -> the next position."""
    throw_text, _, rest = line.partition(" ")
    move_text, _, position_text = rest.partition(" ")
    throw = _throw(throw_text)
    move: Move | None = parse_move(move_text)
    return format_position(_live(position_text).play(throw, move))


def analyse_line(line: str) -> str:
    """`<throw> <position>` -> JSON: each side's win chance, `hard`'s ranked moves with reasons."""
    from engine.analysis import analyse, as_json

    throw_text, _, position_text = line.partition(" ")
    throw = _throw(throw_text)
    return json.dumps(as_json(analyse(_live(position_text), throw)))


# --- simulate ---------------------------------------------------------------------------


def _count(text: str) -> int:
    """An argparse type: a whole number of at least 1, in ASCII digits."""
    value = number(text, 10**9)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 1000000000, not {shown(text)}")
    return value


def _seed(text: str) -> int:
    value = number(text, 2**63)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 2**63, not {shown(text)}")
    return value


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


def simulate_main(argv: list[str], streams: Streams) -> int:
    from engine.players import LEVELS
    from engine.simulate import simulate

    parser = argparse.ArgumentParser(
        prog="python -m engine simulate", description="Play whole games and print statistics."
    )
    parser.add_argument("--games", type=_count, required=True)
    parser.add_argument("--seed", type=_seed, default=None)
    parser.add_argument("--players", type=_count, choices=(2, 4), default=None)
    parser.add_argument("--pieces", type=_count, choices=(1, 2, 3, 4), default=None)
    parser.add_argument("--rules", default=None, help="e.g. classic,last_square=off (default classic)")
    parser.add_argument("--policy", default="random", choices=("random", *LEVELS))
    parser.add_argument(
        "--from",
        dest="start",
        metavar="POSITION",
        default=None,
        help="play the games on from this position (its rules are the games' rules)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    start: Position | None = None
    try:
        if args.start is not None:
            if args.rules is not None or args.players or args.pieces:
                parser.error("--from gives the rules: leave out --rules, --players and --pieces")
            start = _live(args.start)
            rules = start.rules
        else:
            rules = Rules.parse(args.rules or "classic")
            rules = rules.with_options(players=args.players or rules.players)
            if args.pieces:
                rules = rules.with_options(pieces=args.pieces)
    except ValueError as exc:
        parser.error(str(exc))
    began = time.perf_counter()
    report = simulate(
        args.games,
        rules,
        seed=args.seed,
        policy=args.policy,
        start=start,
        progress=_progress(args.games, streams.err),
    )
    report.seconds = time.perf_counter() - began
    data = report.as_json()
    out = streams.out
    if args.json:
        out.write(json.dumps(data) + "\n")
        return 0
    out.write(f"rules            {rules.token()} ({rules.players} players, {rules.pieces} pieces)\n")
    if start is not None:
        out.write(f"from             {start.notation()}\n")
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


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


# --- replay and arena -------------------------------------------------------------------


def replay_main(argv: list[str], streams: Streams) -> int:
    """Check a game record; print the final position, or each position after each throw."""
    from engine.record import RecordError, read_record

    parser = argparse.ArgumentParser(
        prog="python -m engine replay", description="Check a game record and print its final position."
    )
    parser.add_argument("file", help="the record (docs/RULES.md, Game records); - reads standard input")
    parser.add_argument("--positions", action="store_true", help="print the position after each throw")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = streams.stdin.read().decode("utf-8")
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        streams.err.write(f"replay: cannot read {args.file}: {exc}\n")
        return 2
    try:
        record = read_record(text)
    except RecordError as exc:
        streams.err.write(f"{exc}\n")
        return 2
    shown_positions = record.positions[1:] if args.positions else record.positions[-1:]
    streams.out.writelines(f"{format_position(position)}\n" for position in shown_positions)
    return 0


def arena_main(argv: list[str], streams: Streams) -> int:
    from engine.arena import main

    return main(argv)


COMMANDS: tuple[Command, ...] = (
    Command(
        "moves",
        "lines '<throw> <position>' -> the legal moves, or pass",
        batch("moves", moves_line, "Answer each line '<throw> <position>' with the legal moves, or pass."),
    ),
    Command(
        "play",
        "lines '<throw> <move> <position>' -> the next position",
        batch("play", play_line, "Answer each line '<throw> <move> <position>' with the next position."),
    ),
    Command(
        "analyse",
        "lines '<throw> <position>' -> JSON: win chances, hard's ranked moves and their reasons",
        batch(
            "analyse",
            analyse_line,
            "Answer each line '<throw> <position>' with one JSON object: each side's chance to win, and "
            "the moves in the order hard ranks them, with the mover's chance after each and the reasons.",
        ),
    ),
    Command("simulate", "play whole games and print statistics", simulate_main),
    Command("arena", "computer levels against each other (see arena --help)", arena_main),
    Command("replay", "check a game record and print its final position", replay_main),
)


def usage() -> str:
    width = max(len(c.name) for c in COMMANDS)
    lines = [f"  {c.name:<{width}}  {c.help}" for c in COMMANDS]
    return "usage: python -m engine COMMAND [options]\n\ncommands:\n" + "\n".join(lines) + "\n"


def main(
    argv: list[str] | None = None,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    stdin: BinaryIO | None = None,
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    found = {c.name: c for c in COMMANDS}
    if not argv or argv[0] in ("-h", "--help"):
        (out if argv else err).write(usage())
        return 0 if argv else 2
    if argv[0] not in found:
        err.write(usage() + f"error: unknown command {shown(argv[0])}\n")
        return 2
    build.exit_if_stale()
    return found[argv[0]].main(argv[1:], Streams(stdin or sys.stdin.buffer, out, err))


if __name__ == "__main__":
    sys.exit(main())
