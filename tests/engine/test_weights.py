"""The networks' weights as package data: read with the standard library, the same numbers bit for bit."""

from __future__ import annotations

import struct
from base64 import b64decode

import pytest

from engine import forecast_weights, network_weights
from engine.weights import load


@pytest.mark.parametrize(
    ("name", "module", "players"),
    [("expert", network_weights, 2), ("expert", network_weights, 4), ("forecast", forecast_weights, 4)],
)
def test_the_files_hold_the_base64_modules_weights_bit_for_bit(name: str, module, players: int) -> None:
    old = b64decode(module.WEIGHTS[players])
    loaded = load(name, players)
    assert loaded is not None
    assert loaded.hidden == module.HIDDEN[players] and loaded.trained == module.TRAINED[players]
    assert struct.pack(f"<{len(loaded.floats)}f", *loaded.floats) == old
    assert loaded.floats == struct.unpack(f"<{len(old) // 4}f", old)
