"""The arena: computer levels play each other as sides, to measure strength and decision time.

    python -m engine arena --side-a hard --side-b normal --games 2000 [--players 2|4]
        [--rules classic] [--seed 1] [--jobs 2] [--json]

Side A takes side 0 (Black, which throws first) in even-numbered games and side 1 in odd ones, so
both move first equally often. Games 2k and 2k+1 share their seeds (dice and players have their own
seeded RNGs) with the sides swapped, which pairs out some of the luck of the dice. Every game is fully
determined by the seed and its number, so a run repeats exactly, whatever `--jobs` is. A level may
carry a budget: `hard:nodes=300`, `expert:depth=2`. Decision times count only throws with a real
choice (two or more legal moves).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import Any

from engine import build
from engine.errors import number, shown
from engine.game import Game, play_out
from engine.players import LEVELS, Player, get_player
from engine.rules import Rules
from engine.state import Move, Position

BUDGETS = ("nodes", "depth", "beam", "entered", "root", "hybrid")
"""What `hard:` takes (nodes, depth, beam, entered) and `expert:` takes (nodes, depth, beam, root,
hybrid); the other levels take none."""


def parse_level(spec: str) -> Player:
    """`normal`, `hard`, `hard:nodes=300` or `expert:depth=2` -> a player."""
    level, _, options = spec.partition(":")
    if level not in ("random", *LEVELS):
        raise ValueError(f"unknown level {shown(level)} (choose from random, {', '.join(LEVELS)})")
    budget: dict[str, int] = {}
    for option in filter(None, options.split(",")):
        key, sep, value = option.partition("=")
        amount = number(value, 10**9)
        if not sep or amount is None or key not in BUDGETS:
            raise ValueError(
                f"bad budget {shown(option)} in {shown(spec)} (expected e.g. hard:nodes=300; "
                f"budgets: {', '.join(BUDGETS)})"
            )
        budget[key] = amount
    return get_player(level, **budget)


@dataclass
class GameResult:
    """One arena game: +1 side A won, -1 side B won, 0 drawn; each side's decision times in ms."""

    outcome: int
    throws: int
    ms_a: list[float] = field(default_factory=list)
    ms_b: list[float] = field(default_factory=list)


def play_game(spec_a: str, spec_b: str, rules: Rules, seed: int, index: int) -> GameResult:
    """Play arena game `index`: side A is side `index % 2`."""
    players = {0: parse_level(spec_a), 1: parse_level(spec_b)}
    side_a = index % 2
    pair = index // 2
    dice = Random(seed * 1_000_003 + pair * 2)
    rng = Random(seed * 1_000_003 + pair * 2 + 1)
    game = Game(Position.initial(rules))
    times: dict[int, list[float]] = {0: [], 1: []}

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        who = 0 if position.side_of(position.turn) == side_a else 1
        start = time.perf_counter()
        move = players[who].choose(position, throw, moves, rng)
        if len(moves) > 1:
            times[who].append((time.perf_counter() - start) * 1000)
        return move

    end = play_out(game, choose, dice)
    assert end is not None
    outcome = 0 if end.winner is None else (1 if end.winner == side_a else -1)
    return GameResult(outcome, game.throws, times[0], times[1])


def _play_star(args: tuple[str, str, Rules, int, int]) -> GameResult:
    return play_game(*args)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (draws may count as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values`; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def run(
    spec_a: str, spec_b: str, games: int, rules: Rules, seed: int, jobs: int = 1
) -> Iterator[tuple[int, GameResult]]:
    """Play the games (in `jobs` processes), yielding (index, result) in index order."""
    tasks = [(spec_a, spec_b, rules, seed, i) for i in range(games)]
    if jobs <= 1:
        for i, task in enumerate(tasks):
            yield i, _play_star(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from enumerate(pool.map(_play_star, tasks, chunksize=4))


def summarize(spec_a: str, spec_b: str, results: list[GameResult]) -> dict[str, Any]:
    """The `--json` object: counts, side A's win rate (a draw counts half) with its 95 % interval."""
    games = len(results)
    wins_a = sum(1 for r in results if r.outcome == 1)
    wins_b = sum(1 for r in results if r.outcome == -1)
    draws = games - wins_a - wins_b
    score = wins_a + draws / 2
    low, high = wilson(score, games)
    times: dict[str, list[float]] = {}
    for r in results:
        times.setdefault(spec_a, []).extend(r.ms_a)
        times.setdefault(spec_b, []).extend(r.ms_b)
    decision_ms = {
        spec: {
            "mean": round(sum(ms) / len(ms), 3) if ms else 0.0,
            "p99": round(percentile(ms, 99), 3),
            "decisions": len(ms),
        }
        for spec, ms in times.items()
    }
    return {
        "side_a": spec_a,
        "side_b": spec_b,
        "games": games,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "win_rate_a": round(score / games, 4) if games else 0.0,
        "ci95_a": [round(low, 4), round(high, 4)],
        "mean_throws": round(sum(r.throws for r in results) / games, 1) if games else 0.0,
        "decision_ms": decision_ms,
    }


def _parser() -> argparse.ArgumentParser:
    levels = ", ".join(("random", *LEVELS))
    parser = argparse.ArgumentParser(
        prog="python -m engine arena", description="Play computer levels against each other as sides."
    )
    parser.add_argument(
        "--side-a", required=True, help=f"level of side A ({levels}; hard:nodes=N, expert:depth=N)"
    )
    parser.add_argument("--side-b", required=True, help="level of side B")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument(
        "--players", type=int, choices=(2, 4), default=None, help="2 or 4 (default: as the rules)"
    )
    parser.add_argument("--rules", default="classic", help="rules, e.g. classic,last_square=off")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def main(argv: list[str]) -> int:
    """Arena CLI entry point; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        rules = Rules.parse(args.rules)
        if args.players is not None:
            rules = rules.with_options(players=args.players)
        parse_level(args.side_a)
        parse_level(args.side_b)
    except ValueError as error:
        parser.error(str(error))
    if args.games < 1:
        parser.error("--games must be at least 1")
    build.exit_if_stale()
    print(f"engine: {build.describe()}", file=sys.stderr)  # the decision times depend on it
    results: list[GameResult] = []
    step = max(1, args.games // 20)
    for i, result in run(args.side_a, args.side_b, args.games, rules, args.seed, args.jobs):
        results.append(result)
        if (i + 1) % step == 0 or i + 1 == args.games:
            a = sum(1 for r in results if r.outcome == 1)
            b = sum(1 for r in results if r.outcome == -1)
            print(
                f"\r{i + 1}/{args.games} games: A {a}  B {b}  draws {i + 1 - a - b}", end="", file=sys.stderr
            )
    print(file=sys.stderr)
    summary = summarize(args.side_a, args.side_b, results)
    if args.json:
        print(json.dumps(summary))
        return 0
    low, high = summary["ci95_a"]
    print(f"rules {rules.token()}, {rules.players} players, {summary['games']} games, seed {args.seed}")
    print(f"side A {args.side_a}: {summary['wins_a']} wins")
    print(f"side B {args.side_b}: {summary['wins_b']} wins")
    print(f"draws: {summary['draws']}")
    print(f"side A win rate {summary['win_rate_a']:.1%} (95% CI {low:.1%} - {high:.1%})")
    for spec, ms in summary["decision_ms"].items():
        print(f"{spec}: mean {ms['mean']:.2f} ms, p99 {ms['p99']:.2f} ms per decision ({ms['decisions']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
