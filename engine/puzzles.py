"""Puzzles: a position and a throw where one move is clearly the best, and the tactic it shows.

A puzzle is found, not composed: strong computers play each other (`harvest`), and every position
they reach is tried with every throw. A (position, throw) becomes a puzzle when the analysis behind
the Hint (engine/analysis.py) ranks a move first whose chance to win beats every other move's by
MARGIN or more (`judge`), and its reasons, set against the runner-up's, name a tactic of the
player's guide (`tactic_of`). How hard it is comes from how often the weaker computers find it.

`choose_set` keeps a spread of tactics and difficulties and orders them so that the days vary;
scripts/build_puzzles.py writes the result to engine/puzzle_set.py (docs/PUZZLES.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from random import Random

from engine import analysis as why
from engine.analysis import Analysis, Choice, analyse
from engine.board import CASTLE_STEPS, HOME, IS_CASTLE, ROUTES
from engine.evaluate import evaluate
from engine.game import Game, play_out
from engine.players import HARD_NODES, Player
from engine.rules import Rules
from engine.state import Move, Position
from engine.throws import GRACES, THROW_VALUES
from engine.winchance import win_chance

MARGIN = 0.10
"""The least lead, in chance to win, of the best move over every other one."""

TACTICS: tuple[str, ...] = (
    "capture_condition",
    "endgame",
    "partner",
    "grace",
    "blockade",
    "capture",
    "nine_gap",
    "castle",
)
"""The tactics a puzzle can show, in the order `tactic_of` tries them (the most particular first);
each is a part of the rules' strategy section (docs/RULES.md, "Strategy")."""

NINE_GAPS: frozenset[int] = frozenset(
    step for low, high in pairwise(CASTLE_STEPS) if high - low == 9 for step in range(low + 1, high)
)
"""Steps between two castles nine apart: no throw crosses them, so a piece there stands in the open."""

EASY, MEDIUM, HARD = 1, 2, 3
"""Difficulties: `normal` and `easy` usually find the move; only `normal` does; `normal` misses it."""


@dataclass(frozen=True)
class Puzzle:
    """A position with a throw to play, the move that is best by `margin`, and the tactic it shows.

    `normal` and `easy`: the chance that those computers play `best` (they break ties at random)."""

    position: Position
    throw: int
    best: Move
    margin: float
    tactic: str
    normal: float
    easy: float

    @property
    def difficulty(self) -> int:
        if self.normal < 0.5:
            return HARD
        return MEDIUM if self.easy < 0.5 else EASY

    def line(self) -> str:
        """One line: the position's notation, then `throw:`, `best:`, `margin:`, `tactic:`,
        `normal:` and `easy:`."""
        return (
            f"{self.position.notation()} throw:{self.throw} best:{self.best} margin:{self.margin:.3f} "
            f"tactic:{self.tactic} normal:{self.normal:.2f} easy:{self.easy:.2f}"
        )

    @classmethod
    def parse(cls, line: str) -> Puzzle:
        """The puzzle written by `line`; raises ValueError (NotationError is one) if it is not one."""
        tokens = line.split()
        fields = dict(t.split(":", 1) for t in tokens[-6:])
        if list(fields) != ["throw", "best", "margin", "tactic", "normal", "easy"]:
            raise ValueError(f"not a puzzle line: {line!r}")
        position = Position.parse(" ".join(tokens[:-6]))
        puzzle = cls(
            position,
            int(fields["throw"]),
            Move.parse(fields["best"]),
            float(fields["margin"]),
            fields["tactic"],
            float(fields["normal"]),
            float(fields["easy"]),
        )
        if puzzle.tactic not in TACTICS:
            raise ValueError(f"unknown tactic {puzzle.tactic!r}")
        if puzzle.best not in position.legal_moves(puzzle.throw):
            raise ValueError(f"{puzzle.best} is not a move of {puzzle.throw} in {position}")
        return puzzle

    def moves(self) -> list[Move]:
        """The choices, in the order the board letters them (A, B, ...)."""
        return self.position.legal_moves(self.throw)


def runner_up(analysis: Analysis) -> Choice:
    """The choice after the best with the highest chance to win."""
    return max(analysis.choices[1:], key=lambda choice: choice.win_chance)


def lead(analysis: Analysis) -> float:
    """How far the best choice's chance to win is ahead of every other's (negative: behind one)."""
    best = analysis.best
    assert best is not None and len(analysis.choices) > 1
    return best.win_chance - runner_up(analysis).win_chance


# --- the tactic ------------------------------------------------------------------------------


def _kinds(choice: Choice) -> set[str]:
    """What a choice's reasons say, in the kinds the tactics are told by (`_KINDS`)."""
    found = {_KINDS[reason.kind] for reason in choice.reasons if reason.kind in _KINDS}
    if any(reason.kind == why.CAPTURES and reason.opens_home for reason in choice.reasons):
        found.add("opens_home")
    return found


_KINDS = {
    why.WINS: "wins",
    why.CAPTURES: "capture",
    why.HOME_SAFE: "home",
    why.ENTERS: "enters",
    why.CASTLE_OUT_OF_REACH: "castle",
    why.CASTLE_SAFE: "castle",
    why.LEAVES_RANGE: "out_of_reach",
    why.ENTERS_RANGE: "in_range",
    why.STAYS_IN_RANGE: "in_range",
    why.FORMS_BLOCKADE: "forms_blockade",
    why.KEEPS_BLOCKADE: "keeps_blockade",
    why.BREAKS_BLOCKADE: "breaks_blockade",
    why.LAST_SQUARE: "endgame_square",
    why.FINISHING_SQUARE: "endgame_square",
    why.DEAD_SQUARE: "endgame_stop",
}
"""The analysis' kinds of reason as the tactics group them: a castle is a castle, safe or out of
reach; a square from which a piece can finish is one, the last square or another."""


def _partner_play(position: Position, move: Move) -> bool:
    """The move plays the partner's piece, or makes a blockade with one."""
    if position.rules.players != 4:
        return False
    if move.seat != position.turn:
        return True
    if move.dst >= HOME or IS_CASTLE[ROUTES[move.seat][move.dst]]:
        return False
    partner = (move.seat + 2) % 4
    return any(seat == partner for seat, _ in position.pieces_on(ROUTES[move.seat][move.dst]))


def tactic_of(analysis: Analysis) -> str | None:
    """The tactic the best choice shows against the runner-up, from their reasons (None: none of
    TACTICS, which makes no puzzle)."""
    best, other = analysis.best, runner_up(analysis)
    assert best is not None
    mine, theirs = _kinds(best), _kinds(other)
    position, throw = analysis.position, analysis.throw

    def gained(*kinds: str) -> bool:
        return any(k in mine and k not in theirs for k in kinds)

    def avoided(*kinds: str) -> bool:
        return any(k in theirs and k not in mine for k in kinds)

    tests: dict[str, Callable[[], bool]] = {
        "capture_condition": lambda: "opens_home" in mine,
        "partner": lambda: _partner_play(position, best.move),
        "endgame": lambda: gained("wins", "home", "endgame_square") or avoided("endgame_stop"),
        "grace": lambda: throw in GRACES and best.move.enters != other.move.enters,
        "blockade": lambda: gained("forms_blockade", "keeps_blockade") or avoided("breaks_blockade"),
        "nine_gap": lambda: (
            (avoided("in_range") and other.move.dst in NINE_GAPS)
            or ("out_of_reach" in mine and best.move.src in NINE_GAPS)
        ),
        "capture": lambda: gained("capture"),
        "castle": lambda: gained("castle", "out_of_reach") or avoided("in_range"),
    }
    return next((name for name in TACTICS if tests[name]()), None)


# --- judging a position ----------------------------------------------------------------------


def normal_share(position: Position, throw: int, move: Move) -> float:
    """How often `normal` plays `move`: 1/k when it is one of k moves its evaluation scores best."""
    side = position.side_of(position.turn)
    scores = {m: evaluate(position.after(throw, m), side) for m in position.legal_moves(throw)}
    top = max(scores.values())
    ties = [m for m, score in scores.items() if score == top]
    return 1 / len(ties) if move in ties else 0.0


def easy_share(position: Position, throw: int, move: Move) -> float:
    """How often `easy` plays `move`: it picks at random among the captures, else the moves home,
    else all moves (engine/players.py, EasyPlayer)."""
    moves = position.legal_moves(throw)
    pool = [m for m in moves if position.captures(m)] or [m for m in moves if m.comes_home] or moves
    return 1 / len(pool) if move in pool else 0.0


def quick_lead(position: Position, throw: int, moves: Sequence[Move]) -> float:
    """The lead of the likeliest move over the next by the chances alone: a cheap first look
    before the analysis, whose lead can only be smaller (its best move is the search's)."""
    side = position.side_of(position.turn)
    chances = sorted((win_chance(position.after(throw, m))[side] for m in moves), reverse=True)
    return chances[0] - chances[1]


def judge(
    position: Position, throw: int, *, margin: float = MARGIN, nodes: int = HARD_NODES
) -> Puzzle | None:
    """The puzzle `throw` makes in `position`, or None: fewer than two moves, no move ahead of the
    others by `margin` (the analysis' chances, its own best move first), a best move that wins the
    game at once, or no tactic to name."""
    moves = position.legal_moves(throw)
    if position.result is not None or len(moves) < 2 or quick_lead(position, throw, moves) < margin:
        return None
    analysis = analyse(position, throw, nodes=nodes)
    gap = lead(analysis)
    if gap < margin or any(reason.kind == why.WINS for reason in analysis.choices[0].reasons):
        return None  # a move that wins at once teaches nothing
    tactic = tactic_of(analysis)
    if tactic is None:
        return None
    best = analysis.choices[0].move
    return Puzzle(
        position,
        throw,
        best,
        int(gap * 1000) / 1000,  # rounded down: the stated margin is never more than the real one
        tactic,
        round(normal_share(position, throw, best), 2),  # as the line writes them
        round(easy_share(position, throw, best), 2),
    )


def harvest(
    rules: Rules, player: Player, seed: int, *, margin: float = MARGIN, nodes: int = HARD_NODES
) -> list[Puzzle]:
    """The puzzles of one self-play game: `player` at every seat, the cowries and its ties from
    `Random(seed)`; every position the game reaches is judged with every throw."""
    rng = Random(seed)
    reached: list[Position] = []

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        reached.append(position)
        return moves[0] if len(moves) == 1 else player.choose(position, throw, moves, rng)

    play_out(Game.new(rules, record=False), choose, rng)
    found = []
    for position in dict.fromkeys(reached):
        for throw in THROW_VALUES:
            puzzle = judge(position, throw, margin=margin, nodes=nodes)
            if puzzle is not None:
                found.append(puzzle)
    return found


# --- a set of puzzles ------------------------------------------------------------------------


def choose_set(puzzles: Iterable[Puzzle], size: int, seed: int = 0) -> list[Puzzle]:
    """At most `size` distinct puzzles with a spread of tactics and difficulties, ordered for the
    days: each tactic's share spread evenly along the list, so neighbours seldom repeat one.

    Each tactic gets an equal quota (a rarer one gives what it cannot fill to the others); within
    a tactic the difficulties take turns, so each tactic keeps its hard ones too."""
    rng = Random(seed)
    unique = {(p.position, p.throw): p for p in puzzles}
    by_tactic: dict[str, list[Puzzle]] = {t: [] for t in TACTICS}
    for puzzle in unique.values():
        by_tactic[puzzle.tactic].append(puzzle)
    pools = {t: _alternating(found, rng) for t, found in by_tactic.items() if found}
    quotas = _quotas({t: len(pool) for t, pool in pools.items()}, size)
    chosen = {t: pools[t][: quotas[t]] for t in pools}
    spread = [
        ((index + 0.5) / len(found), TACTICS.index(t), puzzle)
        for t, found in chosen.items()
        for index, puzzle in enumerate(found)
    ]
    return [puzzle for _, _, puzzle in sorted(spread, key=lambda item: item[:2])]


def _alternating(puzzles: list[Puzzle], rng: Random) -> list[Puzzle]:
    """The puzzles shuffled, then dealt hard, medium, easy, hard... while each difficulty lasts."""
    by_level: dict[int, list[Puzzle]] = {HARD: [], MEDIUM: [], EASY: []}
    for puzzle in sorted(puzzles, key=lambda p: p.line()):
        by_level[puzzle.difficulty].append(puzzle)
    for found in by_level.values():
        rng.shuffle(found)
    dealt: list[Puzzle] = []
    while any(by_level.values()):
        for level in (HARD, MEDIUM, EASY):
            if by_level[level]:
                dealt.append(by_level[level].pop())
    return dealt


def _quotas(available: dict[str, int], size: int) -> dict[str, int]:
    """An equal share of `size` for each tactic, a share it cannot fill passed on to the others."""
    quotas = dict.fromkeys(available, 0)
    left = min(size, sum(available.values()))
    while left:
        open_ = [t for t in available if quotas[t] < available[t]]
        share = max(1, left // len(open_))
        for tactic in open_:
            take = min(share, available[tactic] - quotas[tactic], left)
            quotas[tactic] += take
            left -= take
    return quotas


def read_set(lines: Sequence[str]) -> tuple[Puzzle, ...]:
    """The puzzles of a set's lines."""
    return tuple(Puzzle.parse(line) for line in lines)
