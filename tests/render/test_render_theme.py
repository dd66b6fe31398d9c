"""Seat colours stay apart for the common colour-vision deficiencies, and render imports no I/O code.

Deficiencies are simulated with the Machado, Oliveira & Fernandes (2009) matrices at full severity,
applied in linear RGB; distances are CIE76 Delta E in Lab.
"""

from __future__ import annotations

import itertools

import pytest

from render import theme

SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb  # linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(colour: tuple[int, int, int], matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    linear = [_linear(c) for c in colour]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear, strict=True)))) for row in matrix)
    return _lab((r, g, b))


def _distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_seat_colours_stay_apart(vision: str) -> None:
    seen = [_seen(colour, SIMULATIONS[vision]) for colour in theme.SEAT_COLOURS]
    closest = min(_distance(a, b) for a, b in itertools.combinations(seen, 2))
    assert closest > 30, f"{vision}: two seats differ by only {closest:.1f}"


def test_every_seat_has_its_own_letter_and_shape() -> None:
    assert len(set(theme.SEAT_LETTERS)) == 4
    assert len(set(zip(theme.SEAT_SIDES, theme.SEAT_ROTATION, strict=True))) == 4
