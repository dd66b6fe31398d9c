"""Puzzles: a set built from seeded self-play states only what the analysis holds (its best move,
ahead by the stated margin, the tactic its reasons show), the difficulties are what the weaker
computers really play, and the checked-in set holds a year of them with a spread of tactics."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from engine.analysis import analyse
from engine.players import EasyPlayer, NormalPlayer, get_player
from engine.puzzle_set import LINES
from engine.puzzles import MARGIN, NINE_GAPS, TACTICS, Puzzle, choose_set, harvest, lead, read_set, tactic_of
from engine.rules import Rules
from engine.state import Move, Position

SEEDED_GAMES = [("classic,players=2,pieces=2", 2), ("classic,pieces=2", 2)]
"""Short games (two pieces a seat) that between them give puzzles of several tactics."""


@pytest.fixture(scope="module")
def small_set() -> list[Puzzle]:
    found = []
    for rules, seed in SEEDED_GAMES:
        found += harvest(Rules.parse(rules), get_player("hard", nodes=300), seed)
    return found


def test_each_claim_of_a_set_built_from_seeded_games_holds_for_the_analysis(small_set: list[Puzzle]) -> None:
    assert len(small_set) >= 10
    assert len({p.tactic for p in small_set}) >= 4
    for puzzle in small_set:
        analysis = analyse(puzzle.position, puzzle.throw)
        assert analysis.choices[0].move == puzzle.best
        others = [c.win_chance for c in analysis.choices[1:]]
        assert analysis.choices[0].win_chance - max(others) >= puzzle.margin >= MARGIN
        assert puzzle.margin > lead(analysis) - 0.001  # stated to the thousandth, never above
        assert tactic_of(analysis) == puzzle.tactic
        assert "wins" not in {reason.kind for reason in analysis.choices[0].reasons}
        assert Puzzle.parse(puzzle.line()) == puzzle


def test_the_difficulty_is_how_often_the_weaker_computers_play_the_move(small_set: list[Puzzle]) -> None:
    rng = Random(5)
    for puzzle in small_set[:8]:
        moves = puzzle.moves()
        for player, share in ((NormalPlayer(), puzzle.normal), (EasyPlayer(), puzzle.easy)):
            played = [player.choose(puzzle.position, puzzle.throw, moves, rng) for _ in range(200)]
            assert played.count(puzzle.best) / 200 == pytest.approx(share, abs=0.12)


def test_a_chosen_set_spreads_its_tactics_along_the_days(small_set: list[Puzzle]) -> None:
    chosen = choose_set(small_set + small_set, size=12)  # duplicates are dropped
    assert len(chosen) == 12 == len({(p.position, p.throw) for p in chosen})
    counts = Counter(p.tactic for p in chosen)
    available = Counter(p.tactic for p in {(p.position, p.throw): p for p in small_set}.values())
    fair = 12 // len(available)
    for tactic, count in available.items():  # each tactic its share, or all it has
        assert counts[tactic] >= min(count, fair)
    first = max(counts, key=lambda t: counts[t])
    places = [i for i, p in enumerate(chosen) if p.tactic == first]
    assert places[-1] - places[0] >= len(chosen) // 2  # spread out, not bunched at one end


def test_nine_gaps_are_the_steps_between_castles_nine_apart() -> None:
    assert sorted(NINE_GAPS) == [*range(13, 21), *range(30, 38), *range(47, 55), *range(64, 72)]


def test_a_line_that_is_not_a_puzzle_is_refused() -> None:
    position = Position.parse("black:12,12,14,41 yellow:0,7,12,46 turn:yellow captured:- rules:classic")
    good = f"{position} throw:2 best:yellow:46-48 margin:0.119 tactic:capture_condition normal:1.00 easy:1.00"
    assert Puzzle.parse(good).best == Move.parse("yellow:46-48")
    for bad in (
        good.replace("best:yellow:46-48", "best:yellow:46-49"),  # not a move of the throw
        good.replace("capture_condition", "luck"),
        good.replace(" easy:1.00", ""),
        good.replace("turn:yellow", "turn:purple"),
    ):
        with pytest.raises(ValueError):
            Puzzle.parse(bad)


def test_the_checked_in_set_holds_a_year_of_distinct_puzzles_of_every_tactic() -> None:
    puzzles = read_set(LINES)
    assert len(puzzles) >= 366
    assert len({(p.position, p.throw) for p in puzzles}) == len(puzzles)
    counts = Counter(p.tactic for p in puzzles)
    assert set(counts) == set(TACTICS)
    assert max(counts.values()) <= len(puzzles) // 3
    assert {p.position.rules.players for p in puzzles} == {2, 4}
    assert all(p.margin >= MARGIN for p in puzzles)
    week_runs = [len({p.tactic for p in puzzles[i : i + 7]}) for i in range(0, len(puzzles) - 7, 7)]
    assert min(week_runs) >= 4  # a week shows several tactics


@pytest.mark.parametrize("index", range(0, 400, 40))
def test_the_checked_in_claims_hold(index: int) -> None:
    puzzle = Puzzle.parse(LINES[index % len(LINES)])
    analysis = analyse(puzzle.position, puzzle.throw)
    assert analysis.choices[0].move == puzzle.best
    assert lead(analysis) >= puzzle.margin
    assert tactic_of(analysis) == puzzle.tactic
