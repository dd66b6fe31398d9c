"""Engine speed: random-playout throughput and legal-move generation time.

    python bench/engine_bench.py [--games 300] [--seed 1] [--json]

Prints figures; it passes or fails nothing. Run on an otherwise idle machine and take the best of
a few runs (the figure is one core's).
"""

from __future__ import annotations

import argparse
import sys
import time
from random import Random

import figures

from engine import Game, Move, Position, Rules, build, play_out


def playouts(games: int, rules: Rules, seed: int) -> tuple[int, float]:
    """Uniformly random games with every rule in force: (throws, seconds)."""
    rng = Random(seed)

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        return moves[rng.randrange(len(moves))]

    throws = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game.new(rules, record=False)
        play_out(game, choose, rng)
        throws += game.throws
    return throws, time.perf_counter() - start


def sample_positions(count: int, seed: int) -> list[tuple[Position, int]]:
    """Positions met in random games, each with its throw, to time move generation on."""
    rng = Random(seed)
    found: list[tuple[Position, int]] = []
    while len(found) < count:
        game = Game.new()
        play_out(game, lambda position, throw, moves: rng.choice(moves), rng)
        position = Position.initial()
        for _, throw, move in game.record or ():
            found.append((position, throw))
            position = position.after(throw, move)
    return found[:count]


def movegen_us(samples: list[tuple[Position, int]]) -> float:
    """Mean microseconds per legal_moves call on a fresh copy (no cached occupancy)."""
    fresh = [(Position(p.rules, p.steps, p.turn, p.captured), t) for p, t in samples]
    start = time.perf_counter()
    for position, throw in fresh:
        position.legal_moves(throw)
    return (time.perf_counter() - start) / len(fresh) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    figures.add_arguments(parser)
    args = parser.parse_args()
    build.exit_if_stale()
    results: dict[str, int | float | str] = {}
    for label, rules in (("classic4", Rules()), ("classic2", Rules(players=2))):
        throws, seconds = playouts(args.games, rules, args.seed)
        results[f"{label}_throws_per_s"] = round(throws / seconds)
    results["movegen_us"] = round(movegen_us(sample_positions(20_000, args.seed)), 2)
    results["python"] = sys.version.split()[0]
    results["engine"] = build.describe()
    figures.save("engine_bench", results, args)
    figures.show(results, args)


if __name__ == "__main__":
    main()
