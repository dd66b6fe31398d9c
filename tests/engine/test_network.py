"""The expert's value network: its inputs, its sparse forward pass, its weights, and its search."""

from __future__ import annotations

import math
from random import Random

import pytest

from engine.game import Game, play_out
from engine.network import (
    SEAT_INPUTS,
    STEPS,
    Network,
    encode,
    input_size,
    network,
    seat_order,
    unpack,
)
from engine.players import STEPS_PER_LOGIT, ExpertPlayer, HardPlayer, NormalPlayer, get_player
from engine.rules import Rules
from engine.state import Move, Position
from engine.throws import OUTCOMES
from engine.weights import pack, parse


def _positions(players: int, count: int, seed: int) -> list[Position]:
    """Positions from seeded `normal` self-play, every fifth throw."""
    rules = Rules().with_options(players=players)
    found: list[Position] = []
    player, dice, rng = NormalPlayer(), Random(seed), Random(seed + 1)
    while len(found) < count:
        game = Game.new(rules, record=False)
        while (
            len(found) < count
            and play_out(game, lambda p, t, m: player.choose(p, t, m, rng), dice, throws=5) is None
        ):
            found.append(game.position)
    return found


def _random_network(players: int, hidden: int, seed: int) -> Network:
    rng = Random(seed)
    size = input_size(players)
    columns = [[rng.gauss(0.0, 0.2) for _ in range(size)] for _ in range(hidden + 1)]
    return Network(
        players,
        columns,
        [rng.gauss(0, 0.1) for _ in range(hidden + 1)],
        [rng.gauss(0, 0.5) for _ in range(hidden)],
        0.1,
    )


def _dense_value(net: Network, position: Position) -> float:
    """The forward pass written the plain way: every input, zero or not, times every weight."""
    dense = [0.0] * input_size(net.players)
    for i, v in zip(*encode(position), strict=True):
        dense[i] = v
    pre = [
        b + sum(w * x for w, x in zip(col, dense, strict=True))
        for b, col in zip(net.first_bias, net.columns, strict=True)
    ]
    z = net.bias + pre[-1] + sum(w * math.tanh(a) for w, a in zip(net.second, pre[:-1], strict=True))
    return 1 / (1 + math.exp(-z))


@pytest.mark.parametrize("players", [2, 4])
def test_the_inputs_show_each_seat_from_the_seat_to_throw(players: int) -> None:
    position = Position.parse(
        "black:0,12,12,84 red:0,0,5,30 yellow:1,2,3,84 green:0,0,0,0 turn:red captured:red+green rules:classic"
        if players == 4
        else "black:0,12,12,84 yellow:0,0,5,30 turn:yellow captured:yellow rules:classic"
    )
    indices, values = encode(position)
    assert indices == sorted(set(indices)) and max(indices) < input_size(players)
    plain = dict(zip(indices, values, strict=True))
    # The seat to throw is block 0: two pieces waiting, one on 5, one on 30.
    assert plain[5 - 1] == 1.0 and plain[30 - 1] == 1.0 and plain[STEPS] == plain[STEPS + 1] == 1.0
    assert STEPS + 2 not in plain
    black = seat_order(position).index(0)
    assert plain[black * SEAT_INPUTS + 12 - 1] == 2.0  # two pieces on one step count 2
    assert plain[black * SEAT_INPUTS + STEPS + 4] == 1.0 and black * SEAT_INPUTS + STEPS + 5 not in plain
    assert plain[players * SEAT_INPUTS] == 1.0  # the side to throw has captured
    assert players * SEAT_INPUTS + 1 not in plain  # the other has not


def test_the_inputs_are_the_same_for_every_seat_of_a_rotated_board() -> None:
    """The board turns with its seats: a position moved one seat on looks the same to its mover."""
    for position in _positions(4, 40, seed=3):
        steps = position.steps
        turned = Position(
            position.rules,
            (steps[3], steps[0], steps[1], steps[2]),
            (position.turn + 1) % 4,
            (position.captured >> 1 & 1) | (position.captured & 1) << 1,
        )
        first, second = encode(position), encode(turned)
        assert first[0] == second[0]
        assert first[1] == pytest.approx(second[1], abs=1e-9)


@pytest.mark.parametrize("players", [2, 4])
def test_the_sparse_forward_pass_equals_the_dense_one(players: int) -> None:
    net = _random_network(players, 6, seed=players)
    for position in _positions(players, 30, seed=players):
        assert net.value(position) == pytest.approx(_dense_value(net, position), rel=1e-9)


def test_weights_unpack_in_the_order_they_are_written() -> None:
    net = _random_network(2, 3, seed=9)
    flat = [w for i in range(input_size(2)) for w in (col[i] for col in net.columns)]
    flat += [*net.first_bias, *net.second, net.bias]
    back = unpack(parse(pack(2, 3, "test", flat)))
    position = _positions(2, 1, seed=1)[0]
    assert back.value(position) == pytest.approx(net.value(position), abs=1e-5)  # float32
    with pytest.raises(ValueError, match="expected"):
        unpack(parse(pack(2, 4, "test", flat)))


@pytest.mark.parametrize("players", [2, 4])
def test_the_committed_network_knows_who_is_ahead(players: int) -> None:
    net = network(players)
    assert network(players) is net  # read once
    seats = (
        "black:84,84,84,80 red:0,0,0,0 yellow:84,84,84,84 green:0,0,0,1"
        if players == 4
        else ("black:84,84,84,80 yellow:0,0,0,1")
    )
    captured = "black+yellow" if players == 4 else "black"
    ahead = Position.parse(f"{seats} turn:black captured:{captured} rules:classic")
    assert net.value(ahead) > 0.9
    assert net.side_value(ahead, 1) == pytest.approx(1 - net.value(ahead))
    for position in _positions(players, 50, seed=5):
        assert 0.0 < net.value(position) < 1.0


def _plain_expectation(net: Network, position: Position, side: int) -> float:
    """One chance layer by the book: each throw's best reply for the seat to throw, by the network."""
    if position.result is not None:
        return net.side_value(position, side)
    mine = position.side_of(position.turn) == side
    total = 0.0
    for value, _, weight in OUTCOMES:
        moves = position.legal_moves(value)
        children = [position.after(value, m) for m in moves] or [position.after(value, None)]
        scores = [net.side_value(c, side) for c in children]
        total += weight * (max(scores) if mine or not moves else min(scores))
    return total / 64


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_values_each_move_by_one_chance_layer(players: int) -> None:
    net = network(players)
    expert = ExpertPlayer(nodes=10**6, depth=1)
    checked = 0
    for position in _positions(players, 60, seed=7):
        for throw in (2, 10):
            moves = position.legal_moves(throw)
            if len(moves) < 2:
                continue
            side = position.side_of(position.turn)
            ranked = expert.rank(position, throw, moves)
            assert sorted(m for _, m in ranked) == sorted(moves)
            expected = {m: _plain_expectation(net, position.after(throw, m), side) for m in moves}
            for value, move in ranked:
                assert value == pytest.approx(expected[move], abs=1e-12)
            assert [v for v, _ in ranked] == sorted((v for v, _ in ranked), reverse=True)
            checked += 1
    assert checked > 5


def _plain_two_layers(net: Network, position: Position, side: int) -> float:
    """Two chance layers by the book: each throw's reply chosen by its one-layer value."""
    if position.result is not None:
        return net.side_value(position, side)
    mine = position.side_of(position.turn) == side
    total = 0.0
    for value, _, weight in OUTCOMES:
        moves = position.legal_moves(value)
        children = [position.after(value, m) for m in moves] or [position.after(value, None)]
        scores = [_plain_expectation(net, c, side) for c in children]
        total += weight * (max(scores) if mine or not moves else min(scores))
    return total / 64


@pytest.mark.parametrize("players", [2, 4])
def test_two_layers_with_a_full_beam_are_a_plain_expectimax(players: int) -> None:
    net = network(players)
    expert = ExpertPlayer(nodes=10**6, depth=2, beam=99)
    checked = 0
    for position in _positions(players, 40, seed=8)[::4]:
        moves = position.legal_moves(3)
        if len(moves) < 2:
            continue
        side = position.side_of(position.turn)
        for value, move in expert.rank(position, 3, moves):
            assert value == pytest.approx(_plain_two_layers(net, position.after(3, move), side), abs=1e-12)
        checked += 1
    assert checked >= 2


def test_expert_takes_the_winning_move_and_obeys_its_budget() -> None:
    position = Position.parse("black:84,84,84,80 yellow:70,70,1,1 turn:black captured:black rules:classic")
    moves = position.legal_moves(4)
    assert get_player("expert").choose(position, 4, moves, Random(1)) == Move(0, 80, 84)
    small = ExpertPlayer(nodes=1, depth=2)
    busy = _positions(4, 30, seed=2)[-1]
    moves = busy.legal_moves(2) or busy.legal_moves(10)
    assert sorted(m for _, m in small.rank(busy, 2 if busy.legal_moves(2) else 10, moves)) == sorted(moves)
    with pytest.raises(ValueError):
        get_player("expert", entered=3)
    with pytest.raises(ValueError):
        ExpertPlayer(depth=4)
    with pytest.raises(ValueError):
        ExpertPlayer(root=101)
    with pytest.raises(ValueError):
        get_player("expert", hybrid=2)


def _log_odds(net: Network, position: Position, side: int) -> float:
    """The network's log-odds that `side` wins, written from its chance."""
    chance = net.side_value(position, side)
    return math.log(chance / (1.0 - chance))


def test_four_players_blend_hards_search_with_the_networks_verdict_on_each_move() -> None:
    net = network(4)
    checked = 0
    for position in _positions(4, 60, seed=9):
        for throw in (3, 10):
            moves = position.legal_moves(throw)
            if len(moves) < 2 or any(position.after(throw, m).result is not None for m in moves):
                continue
            side = position.side_of(position.turn)
            expected = {}
            for move in moves:
                child = position.after(throw, move)
                searched = HardPlayer(depth=1).expect(child, side)[0]
                expected[move] = 0.7 * searched + 0.3 * STEPS_PER_LOGIT * _log_odds(net, child, side)
            blended = HardPlayer(nodes=10**6, depth=1, net=net, root=0.3).rank(
                position, throw, moves, Random(1)
            )
            assert [expected[m] for m in blended] == pytest.approx(sorted(expected.values(), reverse=True))
            alone = HardPlayer(nodes=10**6, depth=1, net=net, root=1.0).rank(
                position, throw, moves, Random(1)
            )
            odds = [_log_odds(net, position.after(throw, m), side) for m in alone]
            assert odds == pytest.approx(sorted(odds, reverse=True))
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_searches_as_its_player_count_needs(players: int) -> None:
    """Four players: `hard`'s search with the network's verdict (root 0 plays as `hard` itself);
    two players, or `hybrid=0`: the network's own search."""
    hard, plain = get_player("hard"), get_player("expert", hybrid=0)
    blended = HardPlayer(net=network(players), root=0.3)
    differs = 0
    for position in _positions(players, 80, seed=10)[::2]:
        moves = position.legal_moves(3)
        if len(moves) < 2:
            continue
        chosen = get_player("expert").choose(position, 3, moves, Random(4))
        own = plain.choose(position, 3, moves, Random(4))
        if players == 2:
            assert chosen == own
            continue
        assert chosen == blended.rank(position, 3, moves, Random(4))[0]
        assert get_player("expert", root=0).choose(position, 3, moves, Random(4)) == hard.choose(
            position, 3, moves, Random(4)
        )
        differs += chosen != own
    assert players == 2 or differs > 0
