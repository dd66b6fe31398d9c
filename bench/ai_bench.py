"""Decision time of each computer level on the same real decisions, and the evaluation's speed.

    python bench/ai_bench.py [--positions 2000] [--players 4] [--seed 1] [--json] [--level SPEC ...]

The decisions are taken from games `normal` plays against itself (seeded), keeping only throws with
two or more legal moves, so every level answers exactly the same questions. Prints mean, median,
p99 and max milliseconds per decision for each level (`hard` at one to four chance layers: its
default is three; `expert` as it plays, its figures also as `expert_mean_ms`, `expert_p50_ms` and
`expert_p99_ms`), and for the Hint button's answer (`hint_ms`: engine.analysis.analyse, `hard`'s
ranking with the win chances and reasons of every choice), and the expert's network per position
(`network_us`: its inputs, its compiled forward pass, and numpy's for comparison when installed).
`--level expert:depth=3` times a level spelt as the arena spells it beside them (repeatable).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from random import Random

import figures

from engine import build
from engine.analysis import analyse
from engine.arena import parse_level, percentile
from engine.evaluate import evaluate
from engine.game import Game, play_out
from engine.network import encode, network
from engine.players import get_player
from engine.rules import Rules
from engine.state import Move, Position

LEVEL_SPECS = (
    "random",
    "easy",
    "normal",
    "hard:depth=1",
    "hard:depth=2",
    "hard:depth=3",
    "hard:depth=4",
    "expert",
)


def sample_decisions(rules: Rules, count: int, seed: int) -> list[tuple[Position, int, list[Move]]]:
    """`count` decisions (position, throw, moves with 2+ entries) from seeded normal-vs-normal games."""
    player = get_player("normal")
    dice, rng = Random(seed), Random(seed + 1)
    found: list[tuple[Position, int, list[Move]]] = []

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        if len(moves) > 1:
            found.append((position, throw, moves))
        return player.choose(position, throw, moves, rng)

    while len(found) < count:
        game = Game.new(rules, record=False)
        while len(found) < count and play_out(game, choose, dice, throws=1) is None:
            pass
    return found[:count]


def time_level(spec: str, decisions: list[tuple[Position, int, list[Move]]], seed: int) -> dict[str, float]:
    player = parse_level(spec)
    rng = Random(seed)
    times = []
    for position, throw, moves in decisions:
        start = time.perf_counter()
        player.choose(position, throw, moves, rng)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "mean": round(sum(times) / len(times), 3),
        "p50": round(percentile(times, 50), 3),
        "p99": round(percentile(times, 99), 3),
        "max": round(max(times), 3),
    }


def time_hints(decisions: list[tuple[Position, int, list[Move]]]) -> dict[str, float]:
    """The Hint button's answer: `hard`'s ranking, the win chances and the reasons of every choice."""
    times = []
    for position, throw, _ in decisions:
        start = time.perf_counter()
        analyse(position, throw)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "mean": round(sum(times) / len(times), 3),
        "p50": round(percentile(times, 50), 3),
        "p99": round(percentile(times, 99), 3),
        "max": round(max(times), 3),
    }


def evaluations_per_second(decisions: list[tuple[Position, int, list[Move]]]) -> float:
    positions = [p.after(t, moves[0]) for p, t, moves in decisions]
    start = time.perf_counter()
    for p in positions:
        evaluate(p, 0)
    return len(positions) / (time.perf_counter() - start)


def network_us(decisions: list[tuple[Position, int, list[Move]]]) -> dict[str, float]:
    """Microseconds per position for the expert's network: its inputs (`encode`), the compiled
    forward pass, and, when numpy is installed (the train extra), the same pass in numpy, one
    position at a time and 20 at once (how a search could batch its leaves)."""
    positions = [p.after(t, moves[0]) for p, t, moves in decisions]
    live = [p for p in positions if p.result is None]
    net = network(live[0].rules.players)
    inputs = [encode(p) for p in live]

    def per_position(run: Callable[[], object]) -> float:
        start = time.process_time()
        run()
        return round((time.process_time() - start) / len(live) * 1e6, 2)

    report = {
        "encode": per_position(lambda: [encode(p) for p in live]),
        "forward": per_position(lambda: [net.logit(i, v) for i, v in inputs]),
    }
    try:
        import numpy as np
    except ImportError:
        return report
    first = np.array(net.columns).T
    bias, second, hidden = np.array(net.first_bias), np.array(net.second), net.hidden

    def one_by_one() -> None:
        for indices, values in inputs:
            pre = first[indices].T @ np.array(values) + bias
            np.tanh(pre[:hidden]) @ second + pre[hidden]

    def in_twenties() -> None:
        for k in range(0, len(inputs), 20):
            x = np.zeros((len(inputs[k : k + 20]), first.shape[0]))
            for row, (indices, values) in enumerate(inputs[k : k + 20]):
                x[row, indices] = values
            pre = x @ first + bias
            np.tanh(pre[:, :hidden]) @ second + pre[:, hidden]

    report["forward_numpy"] = per_position(one_by_one)
    report["forward_numpy_batch20"] = per_position(in_twenties)
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--seed", type=int, default=1)
    figures.add_arguments(parser)
    parser.add_argument(
        "--level", action="append", default=[], help="another level to time, e.g. expert:depth=3"
    )
    args = parser.parse_args(argv)
    build.exit_if_stale()
    rules = Rules().with_options(players=args.players)
    decisions = sample_decisions(rules, args.positions, args.seed)
    levels = {spec: time_level(spec, decisions, args.seed) for spec in (*LEVEL_SPECS, *args.level)}
    report = {
        "players": args.players,
        "engine": build.describe(),
        "positions": len(decisions),
        "evaluations_per_s": round(evaluations_per_second(decisions)),
        "decision_ms": levels,
        "hint_ms": time_hints(decisions),
        "network_us": network_us(decisions),
        **{f"expert_{key}_ms": levels["expert"][key] for key in ("mean", "p50", "p99")},
    }
    figures.save(f"ai_bench-{args.players}p", report, args)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['positions']} decisions with a choice, {args.players} players, seed {args.seed}")
    print(f"engine: {report['engine']}")
    print(f"static evaluation: {report['evaluations_per_s']:,} positions/s")
    for spec, ms in report["decision_ms"].items():
        shown = "  ".join(f"{key} {ms[key]:.3f}" for key in ("mean", "p50", "p99", "max"))
        print(f"{spec:>16}: {shown} ms")
    shown = "  ".join(f"{key} {report['hint_ms'][key]:.3f}" for key in ("mean", "p50", "p99", "max"))
    print(f"{'hint':>16}: {shown} ms")
    shown = "  ".join(f"{key} {us:.1f}" for key, us in report["network_us"].items())
    print(f"{'network':>16}: {shown} us per position")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
