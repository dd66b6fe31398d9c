"""Build the daily puzzles from self-play of the strong levels, and check the set (docs/PUZZLES.md).

    python scripts/build_puzzles.py build [--games 100] [--seed 1] [--size 371] [--jobs 1]
    python scripts/build_puzzles.py check [--every 1]      # each entry's claim and grade, again
    python scripts/build_puzzles.py stats [--json]         # tactics, grades, what normal misses

`build` plays `--games` games, taking turns through KINDS (rules, players, the level at every
seat); game `i` throws with `Random(seed * 1_000_000 + i)`. Every position a game reaches is tried
with every throw (engine/puzzles.py, `harvest`); each game's finds are kept under build/puzzles/, so
an interrupted build resumes where it stopped (run the same command again). `choose_set` then keeps
`--size` of them (a multiple of 7: each entry keeps its weekday's grade) with a spread of tactics,
and engine/puzzle_set.py is rewritten.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import build as engine_build
from engine.analysis import analyse
from engine.players import get_player
from engine.puzzles import (
    TACTICS,
    WEEK,
    Puzzle,
    choose_set,
    easy_share,
    hard_share,
    harvest,
    lead,
    least_margin,
    normal_share,
    read_set,
    weekday_of,
)
from engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "puzzles"
SET_MODULE = ROOT / "engine" / "puzzle_set.py"
KINDS: tuple[tuple[str, str], ...] = (
    ("classic", "expert"),
    ("classic,players=2", "hard"),
    ("classic", "hard"),
    ("classic,players=2", "expert"),
    ("standard", "expert"),
)
"""(rules, level) of the games, in turn: four- and two-player classic games of `hard` and `expert`,
and some of the standard preset (a piece out from the start, no capture condition)."""


def game_finds(args: tuple[int, int]) -> list[str]:
    """The puzzle lines of game `index` (read from the cache when it was played before)."""
    seed, index = args
    rules_text, level = KINDS[index % len(KINDS)]
    path = CACHE / f"{seed}-{index}.txt"
    if path.exists():
        return path.read_text().splitlines()
    found = harvest(Rules.parse(rules_text), get_player(level), seed * 1_000_000 + index)
    lines = [p.line() for p in found]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines))
    return lines


def build(args: argparse.Namespace) -> int:
    engine_build.exit_if_stale()
    if args.size % len(WEEK):
        print(f"--size must be a multiple of {len(WEEK)}: each entry keeps its weekday", file=sys.stderr)
        return 2
    started = time.monotonic()
    jobs = [(args.seed, index) for index in range(args.games)]
    found: list[Puzzle] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, lines in enumerate(pool.map(game_finds, jobs), start=1):
            found += read_set(lines)
            if done % 10 == 0 or done == len(jobs):
                print(f"{done}/{len(jobs)} games, {len(found)} puzzles found", file=sys.stderr)
    chosen = choose_set(found, args.size, seed=args.seed)
    command = (
        f"python scripts/build_puzzles.py build --games {args.games} --seed {args.seed} --size {args.size}"
    )
    SET_MODULE.write_text(module_text(chosen, command))
    print(f"{len(chosen)} of {len(found)} puzzles written to {SET_MODULE.relative_to(ROOT)} "
          f"in {time.monotonic() - started:.0f} s")  # fmt: skip
    print(json.dumps(summary(chosen)))
    return 0


def module_text(puzzles: list[Puzzle], command: str) -> str:
    lines = "".join(f'    "{p.line()}",\n' for p in puzzles)
    return (
        "# ruff: noqa: E501\n"
        '"""The daily puzzles, one line each (engine/puzzles.py reads them): written by\n'
        f"`{command}`;\n"
        'do not edit by hand (docs/PUZZLES.md says how to rebuild them)."""\n\n'
        f"LINES: tuple[str, ...] = (\n{lines})\n"
    )


def summary(puzzles: list[Puzzle]) -> dict[str, object]:
    """What the set holds: its size, each tactic's and grade's count, the grades by weekday, the
    shares that `normal`'s, `easy`'s and `hard`'s own choices miss (played less than half the time)
    and their expected misses."""
    count = len(puzzles) or 1
    weekdays = [weekday_of(n) for n in range(len(puzzles))]
    return {
        "puzzles": len(puzzles),
        "tactics": {t: n for t in TACTICS if (n := Counter(p.tactic for p in puzzles)[t])},
        "difficulties": dict(sorted(Counter(p.difficulty for p in puzzles).items())),
        "by_weekday": {  # Monday first
            day: dict(
                sorted(
                    Counter(p.difficulty for p, d in zip(puzzles, weekdays, strict=True) if d == day).items()
                )
            )
            for day in sorted(set(weekdays))
        },
        "normal_misses": round(sum(p.normal < 0.5 for p in puzzles) / count, 3),
        "easy_misses": round(sum(p.easy < 0.5 for p in puzzles) / count, 3),
        "hard_misses": round(sum(p.hard < 0.5 for p in puzzles) / count, 3),
        "normal_wrong": round(sum(1 - p.normal for p in puzzles) / count, 3),
        "easy_wrong": round(sum(1 - p.easy for p in puzzles) / count, 3),
        "four_player": sum(p.position.rules.players == 4 for p in puzzles),
        "least_margin": min((p.margin for p in puzzles), default=0.0),
    }


def check_one(line: str) -> str | None:
    """What is wrong with a puzzle's claim, or None: the analysis must rank its best move first, ahead
    of every other move by at least its margin (at least the margin its grade needs), and `normal`,
    `easy` and `hard` must play it as often as the line says (its grade)."""
    puzzle = Puzzle.parse(line)
    analysis = analyse(puzzle.position, puzzle.throw)
    best = analysis.best
    if best is None or best.move != puzzle.best:
        return f"{line}: the analysis plays {best.move if best else 'nothing'}"
    if lead(analysis) < puzzle.margin or puzzle.margin < least_margin(puzzle.normal):
        return f"{line}: the lead is {lead(analysis):.4f}"
    position, throw, move = puzzle.position, puzzle.throw, puzzle.best
    shares = tuple(share(position, throw, move) for share in (normal_share, easy_share, hard_share))
    if tuple(round(share, 2) for share in shares) != (puzzle.normal, puzzle.easy, puzzle.hard):
        return f"{line}: normal, easy and hard play it {shares}"
    return None


def check(args: argparse.Namespace) -> int:
    from engine.puzzle_set import LINES

    lines = LINES[:: args.every]
    with ProcessPoolExecutor(args.jobs) as pool:
        wrong = [problem for problem in pool.map(check_one, lines) if problem]
    for problem in wrong:
        print(problem)
    print(f"{len(lines) - len(wrong)} of {len(lines)} claims and grades hold")
    return 1 if wrong else 0


def stats(args: argparse.Namespace) -> int:
    from engine.puzzle_set import LINES

    figures = summary(list(read_set(LINES)))
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("build", "check", "stats"))
    parser.add_argument("--games", type=int, default=100, help="self-play games to harvest (build)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=371, help="puzzles to keep, a multiple of 7 (build)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (build, check)")
    parser.add_argument("--every", type=int, default=1, help="check every N-th entry (check)")
    parser.add_argument("--json", action="store_true", help="one line of JSON (stats)")
    args = parser.parse_args()
    return {"build": build, "check": check, "stats": stats}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
