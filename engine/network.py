"""The value network of the `expert` level: the chance that the side about to throw wins.

One network per player count, trained by TD(lambda) on self-play (scripts/train_expert.py,
docs/AI.md "The expert"). It sees the board from the seat about to throw: the seats in turn order
from it (two-player: that seat and the other; four-player: it, the next enemy, its partner, the
last enemy), so one set of weights serves every seat. Its inputs (`encode`):

- per seat, for each step 1-83 of its route, how many of its pieces stand there (so the network
  sees every region: its own arm, each other arm, the castles, 75-77 and 78-83), and the pieces
  still in the Charkoni and those home, each as "at least 1, 2, 3, 4";
- which sides have captured, and the rule options that change play;
- derived inputs: the logistic win-chance model's six features (engine/winchance.py), each seat's
  exposure to the enemy's next throw, and each side's blockades.

The first layer is sparse: only a few dozen inputs are non-zero, so a hidden unit's sum is its
bias plus those inputs' weight rows, scaled by their values. `tanh` hidden units, and one linear
unit straight to the output (which starts as the logistic model), then a sigmoid. Plain Python,
compiled with mypyc like the search: faster than numpy at this size (docs/AI.md).
"""

from __future__ import annotations

import math

from engine.board import HOME, IS_CASTLE, ROUTES, STEP_OF
from engine.features import features
from engine.state import Position, side_seats
from engine.throws import PROBABILITY
from engine.weights import Weights, load

STEPS = HOME - 1
"""Steps 1-83: the board squares of a seat's route."""
SEAT_INPUTS = STEPS + 8
"""Per seat: a count per step, then Charkoni >= 1..4 and home >= 1..4."""
GLOBALS = ("captured_own", "captured_enemy", "must_capture", "escape_hatch", "last_square", "enter_moves")
DERIVED = 6
"""The logistic win-chance model's features (engine.features.FEATURES), for the side about to throw."""


def input_size(players: int) -> int:
    """The number of inputs of the network for `players` (2 or 4)."""
    return players * SEAT_INPUTS + len(GLOBALS) + DERIVED + players + 2


def derived_start(players: int) -> int:
    """The index of the first of the win-chance model's features among the inputs."""
    return players * SEAT_INPUTS + len(GLOBALS)


_HIT: tuple[float, ...] = tuple(PROBABILITY.get(d, 0.0) for d in range(HOME + 1))
"""_HIT[d]: the chance that one throw moves a piece exactly d steps."""


def seat_order(position: Position) -> list[int]:
    """The seats in play in turn order, starting with the seat about to throw."""
    turn = position.turn
    if position.rules.players == 2:
        return [turn, 2 - turn]
    return [turn, (turn + 1) % 4, (turn + 2) % 4, (turn + 3) % 4]


def _exposure(position: Position, seat: int) -> float:
    """The chance (at most 1, summed over pieces and enemy seats) that an enemy throw lands on one
    of `seat`'s pieces outside the castles and its private column; blockades are not looked at."""
    players = position.rules.players
    enemies = side_seats(1 - position.side_of(seat), players)
    route = ROUTES[seat]
    total = 0.0
    for step in position.steps[seat]:
        if step < 8 or step > 76 or IS_CASTLE[route[step]]:
            continue
        square = route[step]
        for enemy in enemies:
            target = STEP_OF[enemy][square]
            for their in position.steps[enemy]:
                if 0 < their < target:
                    total += _HIT[target - their]
    return min(total, 1.0)


def _blockades(position: Position, side: int) -> int:
    """Squares off the castles holding two or more of `side`'s pieces."""
    squares: list[int] = []
    for seat in side_seats(side, position.rules.players):
        route = ROUTES[seat]
        squares += [route[s] for s in position.steps[seat] if 0 < s < HOME]
    return len({sq for sq in squares if not IS_CASTLE[sq] and squares.count(sq) > 1})


def encode(position: Position) -> tuple[list[int], list[float]]:
    """The non-zero inputs of a live position: their indices (ascending) and values."""
    rules = position.rules
    players = rules.players
    indices: list[int] = []
    values: list[float] = []
    for block, seat in enumerate(seat_order(position)):
        base = block * SEAT_INPUTS
        waiting = home = 0
        counts: dict[int, int] = {}
        for step in position.steps[seat]:
            if step == 0:
                waiting += 1
            elif step == HOME:
                home += 1
            else:
                counts[step] = counts.get(step, 0) + 1
        for step in sorted(counts):
            indices.append(base + step - 1)
            values.append(float(counts[step]))
        for k in range(waiting):
            indices.append(base + STEPS + k)
            values.append(1.0)
        for k in range(home):
            indices.append(base + STEPS + 4 + k)
            values.append(1.0)
    side = position.side_of(position.turn)
    base = players * SEAT_INPUTS
    flags = (
        position.has_captured(side),
        position.has_captured(1 - side),
        rules.must_capture,
        rules.escape_hatch,
        rules.last_square,
        rules.enter_moves,
    )
    for k, flag in enumerate(flags):
        if flag:
            indices.append(base + k)
            values.append(1.0)
    base += len(GLOBALS)
    sign = 1.0 if side == 0 else -1.0
    for k, value in enumerate(features(position)):
        indices.append(base + k)
        values.append(sign * value)
    base += DERIVED
    for block, seat in enumerate(seat_order(position)):
        exposure = _exposure(position, seat)
        if exposure:
            indices.append(base + block)
            values.append(exposure)
    base += players
    for k, which in enumerate((side, 1 - side)):
        count = _blockades(position, which)
        if count:
            indices.append(base + k)
            values.append(float(count))
    return indices, values


class Network:
    """One player count's weights, and the forward pass.

    `columns[j]` holds every input's weight to unit j: the hidden units, then the linear unit
    (kept by unit, not by input, so each unit's sum runs in one unboxed float); `first_bias` those
    units' biases; `second` the hidden units' weights to the output, and `bias` its own.
    """

    def __init__(
        self,
        players: int,
        columns: list[list[float]],
        first_bias: list[float],
        second: list[float],
        bias: float,
    ) -> None:
        if len(columns) != len(first_bias) or any(len(col) != input_size(players) for col in columns):
            raise ValueError("the first layer's shape does not fit the inputs")
        if len(second) + 1 != len(first_bias):
            raise ValueError("the second layer's shape does not fit the first")
        self.players = players
        self.columns = columns
        self.first_bias = first_bias
        self.second = second
        self.bias = bias
        self.hidden = len(second)

    def logit(self, indices: list[int], values: list[float]) -> float:
        """The output before the sigmoid, from the non-zero inputs."""
        count = len(indices)
        columns = self.columns
        first_bias = self.first_bias
        second = self.second
        total = self.bias
        for j in range(self.hidden + 1):
            column = columns[j]
            acc: float = first_bias[j]
            for k in range(count):
                acc += column[indices[k]] * values[k]
            total += second[j] * math.tanh(acc) if j < self.hidden else acc
        return total

    def value(self, position: Position) -> float:
        """The chance that the side about to throw in `position` (a live one) wins."""
        indices, values = encode(position)
        z = self.logit(indices, values)
        if z < -40.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    def side_value(self, position: Position, side: int) -> float:
        """`side`'s chance to win in `position`: 1 or 0 once won, a half for a draw."""
        result = position.result
        if result is not None:
            return 0.5 if result < 0 else (1.0 if result == side else 0.0)
        chance = self.value(position)
        return chance if position.side_of(position.turn) == side else 1.0 - chance


def unpack(weights: Weights) -> Network:
    """A network from its file's weights (engine/weights.py), stored in the order first (row by
    row), first_bias, second, bias (what scripts/train_expert.py writes)."""
    players, hidden, floats = weights.players, weights.hidden, weights.floats
    size = input_size(players)
    width = hidden + 1
    expected = size * width + width + hidden + 1
    if len(floats) != expected:
        raise ValueError(f"{len(floats)} weights, expected {expected}")
    columns = [list(floats[j : size * width : width]) for j in range(width)]
    offset = size * width
    first_bias = list(floats[offset : offset + width])
    second = list(floats[offset + width : offset + width + hidden])
    return Network(players, columns, first_bias, second, floats[-1])


_LOADED: dict[tuple[str, int], Network | None] = {}
"""Each network read once, on first use; None for one the package does not ship (asked once too)."""


def network(players: int) -> Network:
    """The `expert`'s network for `players` (engine/data/expert-N.net), read once."""
    found = _decoded("expert", players)
    if found is None:
        raise ValueError(f"no expert network for {players} players")
    return found


def forecaster(players: int) -> Network:
    """The network behind the win chance (engine/winchance.py). Its four-player weights stay those
    the win chance's calibration and the puzzles' margins were measured with
    (engine/data/forecast-4.net) while the `expert`'s train on; a player count without such a file
    reads the `expert`'s."""
    return _decoded("forecast", players) or network(players)


def _decoded(name: str, players: int) -> Network | None:
    key = (name, players)
    if key not in _LOADED:
        weights = load(name, players)
        _LOADED[key] = None if weights is None else unpack(weights)
    return _LOADED[key]
