"""Computer players: always legal, repeatable for a seed, and playing the way the guide teaches."""

from __future__ import annotations

from random import Random

import pytest

from engine.board import IS_CASTLE, ROUTES, STEP_OF
from engine.evaluate import ENTERED, SEARCH_ENTERED, WIN, evaluate
from engine.game import Game, play_out
from engine.players import (
    HARD_DEPTH,
    LEVELS,
    EasyPlayer,
    HardPlayer,
    NormalPlayer,
    RandomPlayer,
    get_player,
)
from engine.rules import Rules
from engine.state import DRAW, Move, Position
from engine.throws import OUTCOMES, throw_value

ALL_LEVELS = ("random", *LEVELS)


def _play_out(rules: Rules, levels: tuple[str, str], seed: int) -> tuple[Position, list[str]]:
    """One whole game, side 0 played by levels[0] and side 1 by levels[1], checking every move."""
    # A small budget keeps these whole games quick; the search is the same at any budget.
    players = [HardPlayer(nodes=200) if level == "hard" else get_player(level) for level in levels]
    dice, rng = Random(seed), Random(seed + 1)

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        move = players[position.side_of(position.turn)].choose(position, throw, moves, rng)
        assert move in moves
        return move

    game = Game.new(rules)
    play_out(game, choose, dice)
    assert game.record is not None
    # The checked replay agrees: every move was legal and the game ends where the playout did.
    replayed = Game.replay(Position.initial(rules), [(t.throw, t.move) for t in game.record])
    assert replayed.position == game.position
    return game.position, [f"{t.throw}:{t.move}" for t in game.record]


@pytest.mark.parametrize(
    "rules", ["classic", "classic,players=2", "standard", "classic,pieces=2,enter_moves=on"]
)
def test_every_level_plays_whole_games_legally(rules: str) -> None:
    for i, level in enumerate(ALL_LEVELS):
        final, _ = _play_out(Rules.parse(rules), (level, ALL_LEVELS[-1 - i]), seed=i)
        assert final.result is not None


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_same_seed_same_game(level: str) -> None:
    rules = Rules.parse("classic,players=2")
    assert _play_out(rules, (level, "normal"), 5)[1] == _play_out(rules, (level, "normal"), 5)[1]


def test_get_player_levels_and_budget() -> None:
    assert isinstance(get_player("random"), RandomPlayer)
    assert isinstance(get_player("easy"), EasyPlayer)
    assert isinstance(get_player("normal"), NormalPlayer)
    hard = get_player("hard", nodes=50)
    assert isinstance(hard, HardPlayer) and hard.nodes == 50
    with pytest.raises(ValueError):
        get_player("grandmaster")
    with pytest.raises(ValueError):
        get_player("normal", nodes=10)
    with pytest.raises(ValueError):
        get_player("hard", nodes=0)
    for depth in (0, 5):
        with pytest.raises(ValueError):
            get_player("hard", depth=depth)
    assert get_player("hard").entered == SEARCH_ENTERED and get_player("hard", entered=12).entered == 12
    with pytest.raises(ValueError):
        get_player("hard", entered=-1)


def _position(
    black: list[int], red: list[int], yellow: list[int], green: list[int], captured: str = "-"
) -> Position:
    def text(steps: list[int]) -> str:
        return ",".join(map(str, sorted(steps)))

    return Position.parse(
        f"black:{text(black)} red:{text(red)} yellow:{text(yellow)} green:{text(green)} "
        f"turn:black captured:{captured} rules:classic"
    )


def _choices(position: Position, throw: int) -> dict[str, Move]:
    moves = position.legal_moves(throw)
    return {
        level: get_player(level).choose(position, throw, moves, Random(seed))
        for level in ("easy", "normal", "hard")
        for seed in (1,)
    }


def test_evaluation_is_zero_sum_and_knows_a_win() -> None:
    position = _position([10, 30, 0, 0], [20, 0, 0, 0], [5, 0, 0, 0], [40, 41, 0, 0])
    assert evaluate(position, 0) == pytest.approx(-evaluate(position, 1))
    won = _position([84, 84, 84, 83], [20, 0, 0, 0], [84, 84, 84, 84], [0, 0, 0, 0], "black+yellow")
    after = won.play(3, Move(0, 83, 84))
    assert evaluate(after, 0) == WIN and evaluate(after, 1) == -WIN


def test_every_level_but_random_takes_the_capture_that_unlocks_home() -> None:
    # Black 20 -> 24 with a 4 lands on red's piece (a plain square); 30 -> 34 captures nothing.
    square = ROUTES[0][24]
    assert not IS_CASTLE[square]
    red_step = STEP_OF[1][square]
    position = _position([20, 30, 0, 0], [red_step, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0])
    capture = Move(0, 20, 24)
    assert position.captures(capture)
    assert set(_choices(position, 4).values()) == {capture}


def test_normal_builds_a_blockade_with_its_partner() -> None:
    # A throw of 3 takes black 40 -> 43 onto yellow's piece, or black 50 -> 53 onto an empty square.
    square = ROUTES[0][43]
    assert not IS_CASTLE[square]
    yellow_step = STEP_OF[2][square]
    position = _position([40, 50, 0, 0], [0, 0, 0, 0], [yellow_step, 0, 0, 0], [0, 0, 0, 0])
    blockade = Move(0, 40, 43)
    assert blockade in position.legal_moves(3)
    after = position.after(3, blockade)
    assert square in after.blockades()
    chosen = _choices(position, 3)
    assert chosen["normal"] == blockade
    assert chosen["hard"] == blockade


def test_normal_heads_for_a_square_that_can_still_finish() -> None:
    # Seed 000: aim for 78-83, avoid lingering on 75-77. A 4 plays 73 -> 77 or 79 -> 83.
    position = _position([73, 79, 84, 84], [0, 0, 0, 0], [84, 84, 84, 84], [0, 0, 0, 0], "black+yellow")
    assert _choices(position, 4)["normal"] == Move(0, 79, 83)


def test_normal_moves_a_piece_out_of_danger() -> None:
    # Red stands 4 behind black's piece at 30 (a plain square); a 4 takes 30 -> 34, out of reach
    # (8 is no throw), or 50 -> 54, which leaves the piece where a 4 (15 in 64) catches it.
    threat = STEP_OF[1][ROUTES[0][26]]
    position = _position([30, 50, 0, 0], [threat, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0])
    assert not IS_CASTLE[ROUTES[0][30]] and not IS_CASTLE[ROUTES[0][34]]
    chosen = _choices(position, 4)
    assert chosen["normal"] == Move(0, 30, 34)
    assert chosen["hard"] == Move(0, 30, 34)


def test_hard_expectation_counts_nodes_and_respects_the_budget() -> None:
    position = _position(
        [10, 20, 30, 40], [15, 25, 35, 45], [12, 22, 32, 42], [17, 27, 37, 47], "black+yellow"
    )
    moves = position.legal_moves(4)
    assert len(moves) == 4
    value, cost = HardPlayer().expect(position.after(4, moves[0]), 0)
    assert cost > 7
    assert -WIN < value < WIN
    # With a budget of one node, hard still compares the two statically best moves one layer
    # deep (one move alone could not change the choice), and searches nothing further. Here the
    # static order (56 -> 60 first, as normal plays) and the one-layer order disagree.
    position = Position.parse("black:0,25,30,49 yellow:16,16,56,73 turn:yellow captured:- rules:classic")
    moves = position.legal_moves(4)
    ranked = sorted(moves, key=lambda m: -evaluate(position.after(4, m), 1))
    assert ranked[:2] == [Move(2, 56, 60), Move(2, 73, 77)]
    values = [HardPlayer().expect(position.after(4, m), 1, 1)[0] for m in ranked]
    assert values[1] > values[0] > values[2]
    for seed in range(5):
        assert NormalPlayer().choose(position, 4, moves, Random(seed)) == Move(2, 56, 60)
        assert HardPlayer(nodes=1).choose(position, 4, moves, Random(seed)) == Move(2, 73, 77)


def test_normal_beats_random_as_a_side() -> None:
    rules = Rules()
    wins = 0
    for seed in range(20):
        normal_side = seed % 2
        levels = ("normal", "random") if normal_side == 0 else ("random", "normal")
        final, _ = _play_out(rules, levels, seed)
        wins += final.result == normal_side
    assert wins >= 16


def test_a_finished_seat_plays_for_its_partner() -> None:
    # Black's pieces are all home, so Black throws for Yellow: Yellow 20 -> 24 with a 4 captures.
    square = ROUTES[2][24]
    red_step = STEP_OF[1][square]
    position = Position.parse(
        f"black:84,84,84,84 red:0,0,0,{red_step} yellow:0,0,20,30 green:0,0,0,0 "
        "turn:black captured:- rules:classic"
    )
    capture = Move(2, 20, 24)
    assert capture in position.legal_moves(4) and position.captures(capture)
    assert set(_choices(position, 4).values()) == {capture}


def test_hard_brings_out_a_second_piece_early_with_a_grace() -> None:
    # Seed 000: "bring out a second and third piece early, while there is little on the board to
    # lose." Yellow throws a 25 with one piece out: hard enters a second one.
    position = Position.parse(
        "black:0,1,1,19 red:0,0,0,16 yellow:0,0,0,14 green:0,0,7,8 turn:yellow captured:- rules:classic"
    )
    moves = position.legal_moves(25)
    for seed in range(3):
        assert str(HardPlayer().choose(position, 25, moves, Random(seed))) == "yellow:0-1"
        # Searching with normal's worth of a piece on the board, it would run its one piece instead.
        assert str(HardPlayer(entered=ENTERED).choose(position, 25, moves, Random(seed))) == "yellow:14-39"


def test_hard_scores_a_frozen_position_as_a_draw() -> None:
    # Without the last-square rule a piece on 83 can never move: every seat is stuck, a draw.
    frozen = Position.parse(
        "black:83,84,84,84 red:83,84,84,84 yellow:84,84,84,84 green:84,84,84,84 "
        "turn:black captured:black+yellow,red+green rules:classic,last_square=off"
    )
    assert frozen.result == DRAW
    assert HardPlayer().expect(frozen, 0) == (0.0, 0)


def _plain_expectimax(
    position: Position, side: int, layers: list[tuple[int, ...]], beam: int, passed_over: int | None
) -> float:
    """The search written the slow, obvious way (no caches), to check the real one against:
    `layers` holds the throws each chance layer looks at (the first layer first), the `beam`
    best replies of each throw are searched again, and the seat `passed_over` loses every throw.
    Positions are judged as `hard` judges them (a piece on the board worth SEARCH_ENTERED)."""

    def judge(judged: Position) -> float:
        return evaluate(judged, side, SEARCH_ENTERED)

    if position.result is not None:
        return 0.0 if position.result == DRAW else judge(position)
    if position.turn == passed_over:
        return _plain_expectimax(position.after(2, None), side, layers, beam, passed_over)
    sign = 1.0 if position.side_of(position.turn) == side else -1.0
    outcomes = [o for o in OUTCOMES if o.value in layers[0]]
    deeper = layers[1:]
    total = 0.0
    for throw, _, weight in outcomes:
        replies = position.legal_moves(throw)
        if not replies:
            lost = position.after(throw, None)
            total += weight * (
                _plain_expectimax(lost, side, deeper, beam, passed_over) if deeper else judge(position)
            )
            continue
        children = sorted((position.after(throw, r) for r in replies), key=lambda c: -sign * judge(c))
        if not deeper:
            total += weight * judge(children[0])
        else:
            total += (
                weight
                * sign
                * max(sign * _plain_expectimax(c, side, deeper, beam, passed_over) for c in children[:beam])
            )
    return total / sum(o.weight for o in outcomes)


EVERY = (2, 3, 4, 5, 6, 10, 25)
COMMON = (2, 3, 4)
Plan = list[tuple[int, ...]]
PLAIN_PLANS: dict[int, tuple[Plan, int]] = {
    # layers: (plan, beam)
    1: ([EVERY], 1),
    2: ([EVERY] * 2, 2),
    3: ([EVERY] * 3, 1),
    4: ([EVERY, EVERY, EVERY, COMMON], 1),
}
"""The plans of each depth, written out by hand: one layer; two with the best two replies searched
again; three and four with the best reply only, every throw at each layer but the fourth, which
looks at 2, 3 and 4 (in four-player games the partner's throws are passed over, so three layers
reach the seat's own next throw)."""


@pytest.mark.parametrize("players", [2, 4])
def test_hard_search_with_its_caches_equals_plain_expectimax(players: int) -> None:
    rules = Rules.parse(f"classic,players={players}")
    dice, rng = Random(players), Random(players + 1)
    position = Position.initial(rules)
    checked = 0
    for _ in range(600):
        throw = throw_value(dice)
        moves = position.legal_moves(throw)
        if len(moves) > 1 and dice.random() < 0.1:
            child = position.after(throw, moves[0])
            side = position.side_of(position.turn)
            partner = (position.turn + 2) % 4 if players == 4 else None
            for depth, (layers, beam) in PLAIN_PLANS.items():
                value, nodes = HardPlayer().expect(child, side, depth)
                assert value == pytest.approx(_plain_expectimax(child, side, layers, beam, partner))
                assert nodes > 0
            checked += 1
        position = position.after(
            throw, NormalPlayer().choose(position, throw, moves, rng) if moves else None
        )
        if position.result is not None:
            break
    assert checked >= 5


def test_danger_counts_per_seat_in_turn_order() -> None:
    # Red to throw. Yellow's piece on a plain square, four steps ahead of an enemy piece: Red's
    # throws come before Yellow's next one (full danger), Green's after it (Yellow can still run).
    yellow_step = 30
    square = ROUTES[2][yellow_step]
    assert not IS_CASTLE[square]

    def position(hunter: int, distance: int) -> Position:
        steps = {1: "0,0,0,0", 3: "0,0,0,0"}
        steps[hunter] = f"0,0,0,{STEP_OF[hunter][square] - distance}"
        return Position.parse(
            f"black:0,0,0,0 red:{steps[1]} yellow:0,0,0,{yellow_step} green:{steps[3]} "
            "turn:red captured:- rules:classic"
        )

    def danger(hunter: int) -> float:
        # Seven steps behind no throw reaches; four behind, a 4 does. The hunter's own three steps
        # of progress are the same for both hunters, so the difference is the danger's weight.
        return evaluate(position(hunter, 7), 0) - evaluate(position(hunter, 4), 0)

    assert danger(1) > danger(3) > 3


def test_normal_parks_on_a_castle_when_nothing_else_differs() -> None:
    # No enemy on the board: a 3 takes black 9 -> 12 (a castle) or 30 -> 33 (a plain square).
    assert IS_CASTLE[ROUTES[0][12]] and not IS_CASTLE[ROUTES[0][33]]
    position = _position([9, 30, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0])
    assert _choices(position, 3)["normal"] == Move(0, 9, 12)


def test_a_side_that_has_not_captured_values_an_exposed_enemy_piece_more() -> None:
    # Black stands 4 (a throw) or 7 (no throw) behind a red piece on a plain square, Black to throw;
    # on these squares Red's route runs alongside Black's (Red's steps 30 and 33).
    black_step = 43
    assert not IS_CASTLE[ROUTES[0][black_step + 4]] and not IS_CASTLE[ROUTES[0][black_step + 7]]

    def threat(captured: str) -> float:
        def position(distance: int) -> Position:
            red = STEP_OF[1][ROUTES[0][black_step + distance]]
            return _position([black_step, 0, 0, 0], [red, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], captured)

        return evaluate(position(4), 0) - evaluate(position(7), 0)

    # The same threat is worth more while Black's side still needs its capture to come home.
    assert threat("-") > threat("black+yellow") > 0


@pytest.mark.parametrize(
    ("notation", "throw", "by_depth"),
    [
        # Two players: three layers play black:13-15, two would play black:4-6.
        (
            "black:0,4,8,13 yellow:0,1,1,25 turn:black captured:- rules:classic",
            2,
            {3: "black:13-15", 2: "black:4-6"},
        ),
        # Two players: three layers play black:21-26, four (reaching Black's own throw after the
        # enemy's reply to it) would play black:1-6.
        (
            "black:0,1,1,21 yellow:0,0,0,19 turn:black captured:- rules:classic",
            5,
            {3: "black:21-26", 4: "black:1-6"},
        ),
        # Four players: three layers (the default, reaching Black's own next throw) play black:1-5,
        # two (the enemies' throws only) would play black:6-10.
        (
            "black:0,0,1,6 red:0,0,0,4 yellow:0,0,0,5 green:0,0,0,4 turn:black captured:- rules:classic",
            4,
            {3: "black:1-5", 2: "black:6-10"},
        ),
        # Four players: three layers play red:12-15, two would play red:27-30.
        (
            "black:0,0,26,37 red:0,0,12,27 yellow:4,4,12,34 green:0,0,0,16 turn:red "
            "captured:black+yellow rules:classic",
            3,
            {3: "red:12-15", 2: "red:27-30"},
        ),
    ],
)
def test_hard_searches_three_layers_by_default(notation: str, throw: int, by_depth: dict[int, str]) -> None:
    position = Position.parse(notation)
    moves = position.legal_moves(throw)
    assert HARD_DEPTH == 3
    for seed in range(3):
        default = HardPlayer().choose(position, throw, moves, Random(seed))
        assert default == HardPlayer(depth=3).choose(position, throw, moves, Random(seed))
        for depth, expected in by_depth.items():
            assert str(HardPlayer(depth=depth).choose(position, throw, moves, Random(seed))) == expected
