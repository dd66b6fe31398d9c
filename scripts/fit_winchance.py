"""Fit engine/winchance.py's WEIGHTS to `normal`-against-`normal` games, and measure its calibration.

    python scripts/fit_winchance.py fit --players 4 --games 3000 --seed 1
    python scripts/fit_winchance.py check --players 4 --games 3000 --seed 2 [--model network]

`fit` plays the games (every seat `normal`), takes every `--every`-th position of each, and prints
the weights of a logistic regression of the winner on engine.winchance.features, ready to paste
into WEIGHTS. `check` plays other games (another seed: games the fit never saw) and prints the
committed logistic model's Brier score and its reliability table: the positions grouped by the chance the
model gives the side to throw, in ten-point bins, with the rate at which that side went on to win
and a 95 % interval that counts each game's positions as one cluster (they are not independent).
`--model network` checks the expert's value network (engine/network.py) on the same games instead
(engine.winchance takes the better of the two per player count).
Drawn games are left out. Played games are cached under build/winchance/ (git-ignored), keyed by
their options, so a refit with other features does not replay them.

Not imported by the engine: it reads and writes files. Runs on the compiled engine if built.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import build
from engine.players import NormalPlayer
from engine.rules import Rules
from engine.state import DRAW, Position
from engine.throws import throw_value
from engine.winchance import FEATURES, features, logistic_chances, network_chances

CACHE = Path(__file__).resolve().parent.parent / "build" / "winchance"
MAX_THROWS = 10_000

Sample = tuple[tuple[tuple[int, ...], ...], int, int]
"""A position as stored: steps, turn, captured."""


def play(rules: Rules, seed: int, index: int, every: int) -> tuple[int, list[Sample]]:
    """One game, every seat `normal`: (result, every `every`-th position before a throw, from a
    random offset)."""
    rng = Random(f"winchance:{rules.token()}:{rules.players}:{seed}:{index}")
    player = NormalPlayer()
    position = Position.initial(rules)
    offset = rng.randrange(every)
    samples: list[Sample] = []
    for count in range(MAX_THROWS):
        if position.result is not None:
            break
        if count % every == offset:
            samples.append((position.steps, position.turn, position.captured))
        throw = throw_value(rng)
        moves = position.legal_moves(throw)
        move = None
        if moves:
            move = moves[0] if len(moves) == 1 else player.choose(position, throw, moves, rng)
        position = position.after(throw, move)
    result = position.result
    return (DRAW if result is None else result), samples


def games(rules: Rules, seed: int, count: int, every: int) -> list[tuple[int, list[Sample]]]:
    """The games of these options, from the cache when played before."""
    path = CACHE / f"{rules.token()}-p{rules.players}-s{seed}-n{count}-e{every}.jsonl"
    if path.exists():
        played = []
        for line in path.read_text().splitlines():
            data = json.loads(line)
            samples = [(tuple(tuple(s) for s in steps), turn, cap) for steps, turn, cap in data["samples"]]
            played.append((data["result"], samples))
        return played
    start = time.perf_counter()
    played = []
    for index in range(count):
        played.append(play(rules, seed, index, every))
        if (index + 1) % 250 == 0:
            print(f"  {index + 1}/{count} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for result, samples in played:
            out.write(json.dumps({"result": result, "samples": samples}) + "\n")
    return played


def positions(rules: Rules, played: list[tuple[int, list[Sample]]]) -> list[tuple[int, Position, int]]:
    """(game number, position, winning side) of every sample of a decided game."""
    return [
        (game, Position(rules, steps, turn, captured), result)
        for game, (result, samples) in enumerate(played)
        if result != DRAW
        for steps, turn, captured in samples
    ]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are tiny)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for row in range(col + 1, n):
            factor = a[row][col] / a[col][col]
            for k in range(col, n + 1):
                a[row][k] -= factor * a[col][k]
    x = [0.0] * n
    for row in range(n - 1, -1, -1):
        x[row] = (a[row][n] - sum(a[row][k] * x[k] for k in range(row + 1, n))) / a[row][row]
    return x


def logistic_fit(rows: list[tuple[float, ...]], wins: list[int], ridge: float = 1e-3) -> list[float]:
    """Maximum-likelihood logistic regression without a constant term, by Newton's method."""
    n = len(rows[0])
    weights = [0.0] * n
    for _ in range(30):
        gradient = [-ridge * w for w in weights]
        hessian = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in zip(rows, wins, strict=True):
            z = sum(w * v for w, v in zip(weights, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))
            g = y - p
            h = p * (1.0 - p)
            for i in range(n):
                gradient[i] += g * x[i]
                hi = h * x[i]
                row = hessian[i]
                for j in range(i + 1):
                    row[j] += hi * x[j]
        for i in range(n):
            for j in range(i):
                hessian[j][i] = hessian[i][j]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def fit(args: argparse.Namespace, rules: Rules) -> int:
    samples = positions(rules, games(rules, args.seed, args.games, args.every))
    rows = [features(p) for _, p, _ in samples]
    wins = [1 if result == 0 else 0 for _, _, result in samples]
    weights = logistic_fit(rows, wins)
    print(f"# {len(rows)} positions of {args.games} games, seed {args.seed}, every {args.every}")
    print(f"# features {', '.join(FEATURES)}")
    print(f"{rules.players}: ({', '.join(f'{w:.5g}' for w in weights)}),")
    return 0


def check(args: argparse.Namespace, rules: Rules) -> int:
    samples = positions(rules, games(rules, args.seed, args.games, args.every))
    bins: list[list[tuple[int, float, int]]] = [[] for _ in range(10)]
    brier = 0.0
    model = network_chances if args.model == "network" else logistic_chances
    for game, position, result in samples:
        side = position.side_of(position.turn)
        chance = model(position)[side]
        won = 1 if result == side else 0
        brier += (chance - won) ** 2
        bins[min(int(chance * 10), 9)].append((game, chance, won))
    decided = len({game for game, _, _ in samples})
    table: list[dict[str, Any]] = []
    worst = 0.0
    for number, rows in enumerate(bins):
        if not rows:
            continue
        predicted = sum(c for _, c, _ in rows) / len(rows)
        observed = sum(w for _, _, w in rows) / len(rows)
        clusters: dict[int, float] = {}
        for game, _, won in rows:
            clusters[game] = clusters.get(game, 0.0) + won - observed
        error = math.sqrt(sum(v * v for v in clusters.values())) / len(rows)
        worst = max(worst, abs(predicted - observed))
        table.append(
            {
                "bin": f"{10 * number}-{10 * number + 10} %",
                "positions": len(rows),
                "games": len(clusters),
                "predicted": round(100 * predicted, 1),
                "observed": round(100 * observed, 1),
                "interval": [
                    round(100 * (observed - 1.96 * error), 1),
                    round(100 * (observed + 1.96 * error), 1),
                ],
            }
        )
    report = {
        "engine": build.describe(),
        "model": args.model,
        "rules": rules.token(),
        "players": rules.players,
        "games": args.games,
        "decided": decided,
        "seed": args.seed,
        "positions": len(samples),
        "brier": round(brier / len(samples), 4),
        "coin": 0.25,
        "worst_gap": round(100 * worst, 1),
        "bins": table,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    shape = f"{rules.token()}, {rules.players} players"
    print(f"{report['positions']} positions of {decided} decided games ({shape})")
    print(f"Brier {report['brier']} (a coin: 0.25); largest gap {report['worst_gap']} points")
    print("| the model's chance | positions (games) | mean forecast | observed [95 % CI] |")
    print("|---|---|---|---|")
    for row in table:
        low, high = row["interval"]
        print(
            f"| {row['bin']} | {row['positions']} ({row['games']}) | {row['predicted']} % "
            f"| {row['observed']} % [{low}, {high}] |"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    build.exit_if_stale()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("fit", "check"))
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=5, help="keep every N-th position of a game")
    parser.add_argument(
        "--model", choices=("logistic", "network"), default="logistic", help="check: which model"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules).with_options(players=args.players)
    return fit(args, rules) if args.command == "fit" else check(args, rules)


if __name__ == "__main__":
    sys.exit(main())
