"""The cowrie throw as a chance node (RULES.md 3): outcomes with exact weights, sampled by a given RNG."""

from __future__ import annotations

from fractions import Fraction
from random import Random
from typing import NamedTuple

MOUTHS_TO_VALUE: tuple[int, ...] = (25, 10, 2, 3, 4, 5, 6)
"""Move value for 0..6 cowries landing mouth up."""

GRACES: frozenset[int] = frozenset({6, 10, 25})
THROW_VALUES: tuple[int, ...] = (2, 3, 4, 5, 6, 10, 25)


class Outcome(NamedTuple):
    """One chance outcome of a throw: its value, how many mouths up, and its weight out of 64."""

    value: int
    mouths: int
    weight: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.weight, 64)


_BINOMIAL_6 = (1, 6, 15, 20, 15, 6, 1)
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome(MOUTHS_TO_VALUE[m], m, _BINOMIAL_6[m]) for m in range(7))
"""The seven outcomes, for search code that enumerates the chance node."""

PROBABILITY: dict[int, float] = {o.value: o.weight / 64 for o in OUTCOMES}
VALUE_TO_MOUTHS: dict[int, int] = {o.value: o.mouths for o in OUTCOMES}

_VALUE_OF_BITS: tuple[int, ...] = tuple(MOUTHS_TO_VALUE[bin(bits).count("1")] for bits in range(64))


def throw_cowries(rng: Random) -> tuple[int, tuple[bool, ...]]:
    """Throw six cowries: the move value and each shell's face (True = mouth up)."""
    bits = rng.getrandbits(6)
    return _VALUE_OF_BITS[bits], tuple(bool(bits >> i & 1) for i in range(6))


def throw_value(rng: Random) -> int:
    """Throw six cowries and return only the move value (the fast path for simulation)."""
    return _VALUE_OF_BITS[rng.getrandbits(6)]


def is_grace(value: int) -> bool:
    return value in GRACES


def check_throw(value: int) -> int:
    """Return `value` if six cowries can produce it, else raise ValueError."""
    if value not in PROBABILITY:
        raise ValueError(f"{value} is not a throw (throws are 2, 3, 4, 5, 6, 10, 25)")
    return value
