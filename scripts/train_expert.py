"""Train the `expert` level's value network by TD(lambda) on self-play (engine/network.py).

    python scripts/train_expert.py train --players 2 --games 40000 --seed 1 [--hidden 40]
    python scripts/train_expert.py export --players 2 --players 4 --seed 1   # engine/data/expert-N.net

The network plays every seat, choosing the move whose afterstate it values best for the mover's
side, no exploration beyond the dice. After each `--batch` games it learns from them at once: each
position's target is its lambda-return (the network's next estimates, discounted by lambda, the
game's result as the last one), a cross-entropy step with Adam. Estimates are turned to side 0's
view to chain them (a grace or capture keeps the turn; a move passes it). Game `i` is played with
its own seeded dice (`seed`, `i`), and a checkpoint (weights, Adam's moments, games done) is saved
under build/expert/ every `--checkpoint` games, so an interrupted run resumes where it stopped
(run the same command again) and ends with the same weights. One BLAS thread, for that reason.

80 % of the games use the classic rules, 20 % the standard preset, so the network knows both.
Not imported by the engine: it needs numpy (`pip install -e ".[train]"`).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import time
from pathlib import Path
from random import Random

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import build, weights
from engine.network import Network, derived_start, encode, input_size
from engine.rules import Rules
from engine.state import DRAW, Position
from engine.throws import throw_value
from engine.winchance import WEIGHTS as LOGISTIC

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINTS = ROOT / "build" / "expert"
WEIGHTS_DIR = ROOT / "engine" / "data"
MAX_THROWS = 10_000
STANDARD_SHARE = 0.2


class Model:
    """The weights as numpy arrays, with Adam's moments."""

    def __init__(self, players: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        size = input_size(players)
        self.players = players
        self.hidden = hidden
        self.first = rng.normal(0.0, 0.1, (size, hidden + 1))
        self.first[:, hidden] = 0.0
        start = derived_start(players)
        self.first[start : start + len(LOGISTIC[players]), hidden] = LOGISTIC[players]
        self.first_bias = np.zeros(hidden + 1)
        self.second = rng.normal(0.0, 0.1, hidden)
        self.bias = np.zeros(1)
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params()]
        self.steps = 0

    def params(self) -> list[np.ndarray]:
        return [self.first, self.first_bias, self.second, self.bias]

    def network(self) -> Network:
        """The engine's network with these weights (for self-play)."""
        return Network(
            self.players,
            self.first.T.tolist(),
            self.first_bias.tolist(),
            self.second.tolist(),
            float(self.bias[0]),
        )

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pre = x @ self.first + self.first_bias
        h = np.tanh(pre[:, : self.hidden])
        z = h @ self.second + pre[:, self.hidden] + self.bias[0]
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))), h

    def learn(self, x: np.ndarray, target: np.ndarray, rate: float) -> float:
        """One Adam step on the mean cross-entropy; returns that loss before the step."""
        p, h = self.forward(x)
        dz = (p - target) / len(target)
        d_pre = np.empty((len(target), self.hidden + 1))
        d_pre[:, : self.hidden] = dz[:, None] * self.second * (1.0 - h * h)
        d_pre[:, self.hidden] = dz
        grads = [x.T @ d_pre, d_pre.sum(axis=0), h.T @ dz, np.array([dz.sum()])]
        self.steps += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for param, grad, (m, v) in zip(self.params(), grads, self.moments, strict=True):
            m *= b1
            m += (1 - b1) * grad
            v *= b2
            v += (1 - b2) * grad * grad
            m_hat = m / (1 - b1**self.steps)
            v_hat = v / (1 - b2**self.steps)
            param -= rate * m_hat / (np.sqrt(v_hat) + eps)
        q = np.clip(p, 1e-9, 1 - 1e-9)
        return float(-np.mean(target * np.log(q) + (1 - target) * np.log(1 - q)))

    def save(self, path: Path, games: int) -> None:
        arrays = {f"p{i}": p for i, p in enumerate(self.params())}
        for i, (m, v) in enumerate(self.moments):
            arrays[f"m{i}"], arrays[f"v{i}"] = m, v
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, games=games, steps=self.steps, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)

    def load(self, path: Path) -> int:
        data = np.load(path)
        for i, p in enumerate(self.params()):
            p[...] = data[f"p{i}"]
        self.moments = [(data[f"m{i}"].copy(), data[f"v{i}"].copy()) for i in range(len(self.params()))]
        self.steps = int(data["steps"])
        return int(data["games"])


def game_rules(players: int, rng: Random) -> Rules:
    preset = "standard" if rng.random() < STANDARD_SHARE else "classic"
    return Rules.preset_rules(preset, players=players)


def self_play(net: Network, players: int, seed: int, index: int) -> tuple[list[Position], float]:
    """One game, every seat played by `net`: the positions before each throw, and side 0's result
    (1 won, 0 lost, a half drawn)."""
    rng = Random(f"expert:{players}:{seed}:{index}")
    position = Position.initial(game_rules(players, rng))
    positions = [position]
    for _ in range(MAX_THROWS):
        throw = throw_value(rng)
        moves = position.legal_moves(throw)
        if not moves:
            if position.result is not None:
                break  # frozen
            position = position.after(throw, None)
        elif len(moves) == 1:
            position = position.after(throw, moves[0])
        else:
            side = position.side_of(position.turn)
            best = -1.0
            chosen = position
            for move in moves:
                child = position.after(throw, move)
                value = net.side_value(child, side)
                if value > best:
                    best, chosen = value, child
            position = chosen
        if position.result is not None:
            break
        positions.append(position)
    result = position.result
    outcome = 0.5 if result is None or result == DRAW else (1.0 if result == 0 else 0.0)
    return positions, outcome


def dense(players: int, positions: list[Position]) -> np.ndarray:
    """The inputs of live positions, one row each."""
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for row, position in enumerate(positions):
        indices, values = encode(position)
        rows += [row] * len(indices)
        cols += indices
        vals += values
    x = np.zeros((len(positions), input_size(players)))
    x[rows, cols] = vals
    return x


def batch_targets(
    model: Model, games: list[tuple[list[Position], float]], lam: float
) -> tuple[np.ndarray, np.ndarray]:
    """The inputs of every live position of the games and its lambda-return, for its mover's side."""
    positions = [position for game, _ in games for position in game]
    x = dense(model.players, positions)
    sides = [position.side_of(position.turn) for position in positions]
    count = len(positions)
    p, _ = model.forward(x)
    side = np.array(sides)
    view = np.where(side == 0, p, 1.0 - p)  # side 0's chance
    target = np.empty(count)
    start = 0
    for game, outcome in games:
        end = start + len(game)
        ahead = outcome
        for t in range(end - 1, start - 1, -1):
            target[t] = ahead
            ahead = (1 - lam) * view[t] + lam * ahead
        start = end
    return x, np.where(side == 0, target, 1.0 - target)


def checkpoint(args: argparse.Namespace, players: int) -> Path:
    """The checkpoint of a run: its player count, hidden units and seed name it."""
    return Path(args.dir) / f"p{players}-h{args.hidden}-s{args.seed}.npz"


def train(args: argparse.Namespace) -> int:
    players = args.players
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    path = checkpoint(args, players)
    model = Model(players, args.hidden, args.seed)
    done = model.load(path) if path.exists() else 0
    print(f"engine: {build.describe()}; {path.name}: {done} games done", file=sys.stderr)
    start = time.perf_counter()
    losses: list[float] = []
    moves = 0
    while done < args.games:
        net = model.network()
        games = [self_play(net, players, args.seed, done + i) for i in range(args.batch)]
        moves += sum(len(p) for p, _ in games)
        x, target = batch_targets(model, games, args.lam)
        losses.append(model.learn(x, target, args.rate))
        done += args.batch
        if done % args.checkpoint == 0 or done >= args.games:
            model.save(path, done)
        if done % args.report == 0:
            elapsed = time.perf_counter() - start
            loss = sum(losses) / len(losses)
            print(
                f"{done} games  loss {loss:.4f}  {moves / max(1, len(losses) * args.batch):.0f} throws/game  "
                f"{elapsed:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            losses, moves = [], 0
    return 0


def export(args: argparse.Namespace) -> int:
    """Write each --players network's file (engine/data/expert-N.net) from its checkpoint; the files
    of other player counts stay as they are, so one network can be retrained without the other."""
    args.out.mkdir(parents=True, exist_ok=True)
    for players in args.players_list:
        model = Model(players, args.hidden, args.seed)
        games = model.load(checkpoint(args, players))
        flat = np.concatenate([p.ravel() for p in model.params()]).astype("<f4")
        trained = f"seed {args.seed}, {games} games"
        path = args.out / weights.filename(args.name, players)
        path.write_bytes(weights.pack(players, args.hidden, trained, flat.tolist()))
        print(f"wrote {path}: {players} players, {trained}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    build.exit_if_stale()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("train", "export"))
    parser.add_argument("--players", type=int, choices=(2, 4), action="append", dest="players_list")
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--lam", type=float, default=0.7, help="TD lambda (default 0.7)")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    parser.add_argument("--batch", type=int, default=4, help="games per learning step (default 4)")
    parser.add_argument("--checkpoint", type=int, default=500, help="games between checkpoints")
    parser.add_argument("--report", type=int, default=200, help="games between progress lines")
    parser.add_argument("--dir", type=Path, default=CHECKPOINTS, help="checkpoints (default build/expert)")
    parser.add_argument("--out", type=Path, default=WEIGHTS_DIR, help="export: the folder (engine/data)")
    parser.add_argument(
        "--name",
        choices=("expert", "forecast"),
        default="expert",
        help="export: the level's network, or the win chance's copy (default expert)",
    )
    args = parser.parse_args(argv)
    args.players_list = args.players_list or [4]
    if args.command == "train":
        if len(args.players_list) != 1:
            parser.error("train takes one --players")
        args.players = args.players_list[0]
        return train(args)
    return export(args)


if __name__ == "__main__":
    sys.exit(main())
