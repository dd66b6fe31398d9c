"""The expert's training command: lambda-returns, and a resumed run that ends where a straight one does."""

from __future__ import annotations

import importlib.util
import sys
from argparse import Namespace
from pathlib import Path

import pytest

pytest.importorskip("numpy")
import numpy as np

from engine.network import unpack
from engine.rules import Rules
from engine.state import Position
from engine.weights import parse

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("train_expert", ROOT / "scripts" / "train_expert.py")
assert _spec is not None and _spec.loader is not None
train_expert = importlib.util.module_from_spec(_spec)
sys.modules["train_expert"] = train_expert
_spec.loader.exec_module(train_expert)


def _args(tmp_path: Path, games: int, players: int = 2) -> Namespace:
    return Namespace(
        players=players,
        players_list=[players],
        games=games,
        seed=3,
        hidden=4,
        lam=0.7,
        rate=1e-3,
        batch=2,
        checkpoint=2,
        report=1000,
        dir=tmp_path,
        out=tmp_path / "data",
        name="expert",
    )


def test_lambda_returns_chain_the_estimates_to_the_result() -> None:
    model = train_expert.Model(2, 4, seed=1)
    start = Position.initial(Rules.preset_rules("classic", players=2))
    after = start.after(3, start.legal_moves(3)[0] if start.legal_moves(3) else None)  # Yellow to throw
    positions = [start, after]
    x, target = train_expert.batch_targets(model, [(positions, 1.0)], lam=0.5)
    p, _ = model.forward(x)
    # The last position's target is the result for its mover (Yellow lost); the first's is half
    # the next estimate (turned to Black's view) and half the result.
    assert target[1] == 0.0
    assert target[0] == pytest.approx(0.5 * (1 - p[1]) + 0.5 * 1.0)


def test_a_resumed_run_ends_with_the_weights_of_a_straight_one(tmp_path: Path) -> None:
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    assert train_expert.train(_args(straight, 4)) == 0
    assert train_expert.train(_args(resumed, 2)) == 0
    assert train_expert.train(_args(resumed, 4)) == 0
    one, two = (np.load(d / "p2-h4-s3.npz") for d in (straight, resumed))
    for key in one.files:
        assert np.array_equal(one[key], two[key]), key
    assert int(one["games"]) == 4


def test_export_writes_weights_the_engine_reads(tmp_path: Path) -> None:
    args = _args(tmp_path, 2)
    train_expert.train(args)
    assert train_expert.export(args) == 0
    written = parse((args.out / "expert-2.net").read_bytes())
    assert (written.players, written.hidden, written.trained) == (2, 4, "seed 3, 2 games")
    net = unpack(written)
    model = train_expert.Model(2, 4, seed=3)
    model.load(tmp_path / "p2-h4-s3.npz")
    position = Position.initial(Rules.preset_rules("classic", players=2))
    p, _ = model.forward(train_expert.dense(model.players, [position]))
    assert net.value(position) == pytest.approx(float(p[0]), abs=1e-5)


def test_exporting_one_player_count_keeps_the_others_weights(tmp_path: Path) -> None:
    two, four = _args(tmp_path, 2, players=2), _args(tmp_path, 2, players=4)
    train_expert.train(two)
    train_expert.train(four)
    assert train_expert.export(two) == 0
    first = (two.out / "expert-2.net").read_bytes()
    assert train_expert.export(four) == 0
    assert (two.out / "expert-2.net").read_bytes() == first
    assert unpack(parse((four.out / "expert-4.net").read_bytes())).players == 4  # the right size


def test_export_as_the_forecast_writes_the_win_chances_file(tmp_path: Path) -> None:
    args = _args(tmp_path, 2, players=4)
    args.name = "forecast"
    train_expert.train(args)
    assert train_expert.export(args) == 0
    assert [p.name for p in args.out.iterdir()] == ["forecast-4.net"]
