"""The value networks' weights, shipped as binary files beside the engine (engine/data/).

The one place the engine reads a file, and only its own package data: `load` reads a network's file
through importlib.resources (so it works from a checkout, a wheel or a zip), once per network, when
engine/network.py first needs it. scripts/train_expert.py export writes the files with `pack`.

A file `NAME-PLAYERS.net` (NAME `expert` for the level, `forecast` for the win chance's copy):

    b"PNET", then players, hidden units and the byte length of the run's note (each uint16),
    then the note (UTF-8: which training run made these weights),
    then the weights as float32, in the order engine/network.py's `unpack` reads them.

Every number is little-endian, whatever the machine. Standard library only: `struct` over the bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC = b"PNET"
_HEADER = struct.Struct("<4sHHH")


@dataclass(frozen=True)
class Weights:
    """One network's file, read: its shape, which run trained it, and its weights as Python floats
    (each exactly the float32 stored)."""

    players: int
    hidden: int
    trained: str
    floats: tuple[float, ...]


def filename(name: str, players: int) -> str:
    """The file of network `name` (expert or forecast) for `players`, in engine/data/."""
    return f"{name}-{players}.net"


def pack(players: int, hidden: int, trained: str, floats: list[float]) -> bytes:
    """The bytes of a network's file (each float rounded to float32)."""
    note = trained.encode()
    return _HEADER.pack(MAGIC, players, hidden, len(note)) + note + struct.pack(f"<{len(floats)}f", *floats)


def parse(data: bytes) -> Weights:
    """A network's file, read back; ValueError for bytes that are not one.

    >>> parse(pack(2, 1, "seed 1, 2 games", [0.5, -0.1]))
    Weights(players=2, hidden=1, trained='seed 1, 2 games', floats=(0.5, -0.10000000149011612))
    """
    if len(data) < _HEADER.size:
        raise ValueError("not a network's weights: too short")
    magic, players, hidden, length = _HEADER.unpack_from(data)
    start = _HEADER.size + length
    if magic != MAGIC or (len(data) - start) % 4 or start > len(data):
        raise ValueError("not a network's weights: bad header or length")
    trained = data[_HEADER.size : start].decode()
    floats = struct.unpack_from(f"<{(len(data) - start) // 4}f", data, start)
    return Weights(players, hidden, trained, floats)


def load(name: str, players: int) -> Weights | None:
    """Network `name`'s weights for `players` from the engine's package data, None if it ships none.
    importlib.resources is imported here, on first use: a program that never asks for a network
    does not pay its import (some 8 ms)."""
    from importlib.resources import files

    resource = files("engine").joinpath("data", filename(name, players))
    if not resource.is_file():
        return None
    found = parse(resource.read_bytes())
    if found.players != players:
        raise ValueError(f"{filename(name, players)} holds a {found.players}-player network")
    return found
