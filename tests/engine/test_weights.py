"""The networks' weights as package data: read with the standard library, the same numbers bit for bit.

The checksums and values below are those of the base64 modules the files replaced (the commit that
added engine/data/ compared the two bit for bit): a changed file, or a reader that rounds, fails here.
"""

from __future__ import annotations

import hashlib
import struct
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from engine.network import forecaster, network
from engine.state import Position
from engine.weights import load, pack, parse

SHIPPED = {
    ("expert", 2): (
        "7e915dc281ade3ff894d286a099e8ba3e0c91a1ebb50850b67ccac5687d7cb27",
        "seed 1, 130000 games",
    ),
    ("expert", 4): (
        "18557bcd8ff0c9a670457d02ca9c985785d47bec184756e00e7aa2681639d066",
        "seed 1, 68000 games",
    ),
    ("forecast", 4): (
        "d5dd12c4a087bd92ad9b157424c08bb793270916fa72b037e055da0c9f8c9a45",
        "seed 1, 20000 games",
    ),
}
"""Each shipped network: the SHA-256 of its weights as little-endian float32, and its training run."""


@pytest.mark.parametrize(("name", "players"), sorted(SHIPPED))
def test_each_shipped_network_holds_the_weights_it_was_trained_to(name: str, players: int) -> None:
    loaded = load(name, players)
    assert loaded is not None
    digest, trained = SHIPPED[(name, players)]
    raw = struct.pack(f"<{len(loaded.floats)}f", *loaded.floats)
    assert hashlib.sha256(raw).hexdigest() == digest
    assert (loaded.players, loaded.hidden, loaded.trained) == (players, 40, trained)


KNOWN = [
    ("black:0,0,7,17 yellow:0,0,0,17 turn:yellow captured:- rules:classic", "0x1.bc6b087498f39p-2", None),
    ("black:0,4,12,34 yellow:0,0,13,38 turn:black captured:- rules:classic", "0x1.2d20516e483afp-1", None),
    (
        "black:0,0,6,9 red:0,0,0,7 yellow:0,0,0,7 green:0,0,0,7 turn:red captured:- rules:classic",
        "0x1.d70ad69224a20p-2",
        "0x1.e323f115748bfp-2",
    ),
    (
        "black:0,4,12,13 red:0,0,8,17 yellow:0,0,0,19 green:0,0,0,23 turn:black captured:- rules:classic",
        "0x1.0c43ebc55d3a4p-1",
        "0x1.1b1e9995deee8p-1",
    ),
]
"""Positions from seeded `normal` self-play, with the exact values the base64-era networks gave
(the expert's, then the win chance's network where it has its own)."""


@pytest.mark.parametrize(("notation", "expert", "forecast"), KNOWN)
def test_the_networks_value_positions_exactly_as_before(
    notation: str, expert: str, forecast: str | None
) -> None:
    position = Position.parse(notation)
    players = position.rules.players
    assert network(players).value(position) == float.fromhex(expert)
    assert forecaster(players).value(position) == float.fromhex(forecast or expert)


def test_a_player_count_without_its_own_forecast_reads_the_experts_network() -> None:
    assert load("forecast", 2) is None
    assert forecaster(2) is network(2)
    assert forecaster(4) is not network(4)
    assert forecaster(4) is forecaster(4)  # read once


def test_a_file_reads_back_as_written_and_anything_else_is_refused() -> None:
    floats = [0.5, -1.25, 3.0e-8]
    back = parse(pack(4, 2, "seed 9, 10 games", floats))
    assert (back.players, back.hidden, back.trained) == (4, 2, "seed 9, 10 games")
    assert back.floats == struct.unpack("<3f", struct.pack("<3f", *floats))  # float32, exactly
    written = pack(2, 1, "x", [1.0])
    for bad in (b"", b"PNET", b"XNET" + written[4:], written[:-1]):
        with pytest.raises(ValueError, match="not a network's weights"):
            parse(bad)


ROOT = Path(__file__).resolve().parents[2]


def test_the_weight_files_are_package_data_and_reach_the_image() -> None:
    """A wheel (and so the container image, built from one) carries engine/data/*.net, and the
    image's build context keeps them (.dockerignore)."""
    shipped = sorted((ROOT / "engine" / "data").glob("*.net"))
    assert [p.name for p in shipped] == ["expert-2.net", "expert-4.net", "forecast-4.net"]
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for path in shipped:
        relative = path.relative_to(ROOT / "engine").as_posix()
        assert any(fnmatch(relative, pattern) for pattern in patterns["engine"]), relative
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for path in shipped:
        relative = path.relative_to(ROOT).as_posix()
        assert not any(fnmatch(relative, p) or fnmatch(relative, p.removeprefix("**/")) for p in ignored)
        assert not any(relative.startswith(p.rstrip("/") + "/") for p in ignored)
