"""Property tests over random games, and the seed's figures statistically (RULES.md 8)."""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DRAW, MAX_THROWS, Game, Position, Rules, Termination
from engine.board import HOME, IS_CASTLE, ROUTES
from engine.simulate import simulate
from engine.throws import GRACES, THROW_VALUES

RULE_SETS = [
    Rules(),
    Rules.preset_rules("standard"),
    Rules(players=2),
    Rules(pieces=2),
    Rules(pieces=1, players=2),
    Rules(enter_moves=True),
    Rules(last_square=False),
    Rules(escape_hatch=False, pieces=2),
    Rules(start_on_board=4),
]


def enemy_blockades(position: Position, seat: int) -> set[int]:
    """Independent of the engine's occupancy: count enemy pieces per square by hand."""
    side = position.side_of(seat)
    counts: Counter[int] = Counter()
    for other in position.rules.seats:
        if position.side_of(other) != side:
            counts.update(ROUTES[other][s] for s in position.steps[other] if 0 < s < HOME)
    return {sq for sq, n in counts.items() if n >= 2 and not IS_CASTLE[sq]}


def check_move(position: Position, throw: int, move) -> None:
    rules = position.rules
    seat, src, dst = move
    assert seat == position.owner(position.turn)
    assert src in position.steps[seat]
    if src == 0:
        assert dst == (1 + throw if rules.enter_moves else 1)
        on_board = any(0 < s < HOME for s in position.steps[seat])
        assert throw in GRACES or not on_board
        path_from = 1
    else:
        assert dst == src + throw or (src == 83 and dst == HOME and rules.last_square)
        path_from = src
    barriers = enemy_blockades(position, seat)
    for step in range(path_from + 1, min(dst, 83) + 1):
        assert ROUTES[seat][step] not in barriers, f"{move} passes a blockade in {position}"


def stuck(position: Position) -> bool:
    """Independent of the engine's frozen test: no seat, put to throw, has a move for any throw."""
    return not any(
        Position(position.rules, position.steps, seat, position.captured).legal_moves(throw)
        for seat in position.rules.seats
        for throw in THROW_VALUES
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS))
def test_random_games_keep_every_invariant(seed: int, rules: Rules) -> None:
    rng = Random(seed)
    game = Game.new(rules)
    while game.outcome() is None:
        before = game.position
        throw = game.throw(rng).value
        moves = game.legal_moves()
        assert moves == before.legal_moves(throw)
        assert moves == sorted(moves, key=lambda m: (m.seat, m.src, m.dst))
        assert len(set(moves)) == len(moves)
        move = rng.choice(moves) if moves else None
        if move:
            check_move(before, throw, move)
        position = game.play(move)
        for seat in rules.seats:
            assert len(position.steps[seat]) == rules.pieces  # pieces are conserved
            assert all(0 <= s <= HOME for s in position.steps[seat])
            assert list(position.steps[seat]) == sorted(position.steps[seat])
        assert Position.parse(position.notation()) == position
        # Only enemy pieces go back to the Charkoni.
        sent_back = sum(s == 0 for seat in rules.seats for s in position.steps[seat]) - sum(
            s == 0 for seat in rules.seats for s in before.steps[seat]
        )
        if move is not None and move.src == 0:
            sent_back += 1
        captured = before.captures(move) if move else []
        assert sent_back == len(captured)
        if move is not None:
            assert all(before.side_of(s) != before.side_of(move.seat) for s, _ in captured)
    final = game.position
    termination, winner = game.outcome() or (None, None)
    assert game.throws <= MAX_THROWS
    if termination is Termination.WIN:
        assert winner is not None and final.result == winner
        assert all(x == HOME for s in rules.seats if final.side_of(s) == winner for x in final.steps[s])
        assert any(x != HOME for s in rules.seats if final.side_of(s) != winner for x in final.steps[s])
    elif termination is Termination.FROZEN:
        assert winner is None and final.result == DRAW and stuck(final)
    else:
        assert termination is Termination.THROW_LIMIT and winner is None
        assert game.throws == MAX_THROWS and not stuck(final)


def test_seed_figure_last_square_rule_prevents_deadlock() -> None:
    without = simulate(200, Rules(last_square=False), seed=11)
    with_rule = simulate(400, Rules(), seed=12)
    assert without.frozen / without.games > 0.5
    assert with_rule.frozen / with_rule.games < 0.02


def test_escape_hatch_figures_in_two_and_four_piece_games() -> None:
    two = simulate(1000, Rules(pieces=2), seed=5)
    assert 0.06 < two.escape_hatch_decided / two.games < 0.15  # "one game in ten"
    four = simulate(300, Rules(), seed=6)
    assert four.escape_hatch_games / four.games < 0.06  # "almost never arises"


def test_simulation_is_deterministic_for_a_seed() -> None:
    a = simulate(20, Rules(), seed=3).as_json()
    b = simulate(20, Rules(), seed=3).as_json()
    assert (a["throws_mean"], a["wins"]) == (b["throws_mean"], b["wins"])
