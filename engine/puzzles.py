"""Puzzles: a position and a throw where one move is clearly the best, and the tactic it shows.

A puzzle is found, not composed: strong computers play each other (`harvest`), and every position
they reach is tried with every throw. A (position, throw) becomes a puzzle when the analysis behind
the Hint (engine/analysis.py) ranks a move first whose chance to win beats every other move's by
MARGIN or more (`judge`), and its reasons, set against the runner-up's, name a tactic of the
player's guide (`tactic_of`). Its grade is the strongest computer that misses it (`Puzzle.difficulty`);
a best move that `normal` misses needs a lead of only MISSED_MARGIN, since `normal`'s own one-move
look rarely disagrees with the chances by more.

`choose_set` keeps a spread of tactics, gives each weekday its grade (WEEK: harder towards the
weekend) and orders them so that the days vary; scripts/build_puzzles.py writes the result to
engine/puzzle_set.py (docs/PUZZLES.md).
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
from engine.players import HARD_NODES, HardPlayer, Player
from engine.rules import Rules
from engine.state import Move, Position
from engine.throws import GRACES, THROW_VALUES
from engine.winchance import win_chance

MARGIN = 0.10
"""The least lead, in chance to win, of the best move over every other one when `normal` finds it."""
MISSED_MARGIN = 0.04
"""The least lead of a best move that `normal` misses: `normal` plays the move its evaluation likes,
and the chances disagree with that evaluation by 4 points at most a few times a game, by 10 almost
never (docs/PUZZLES.md)."""
HARD_TRIES = 4
"""`hard` breaks ties between equal moves by its RNG: its share is counted over seeds 0-3."""

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
"""Grades, by the strongest computer that misses the move: `easy` at most; `normal`; even `hard`."""

FIRST_WEEKDAY = 3
"""The weekday (Monday 0) of the day that shows the set's first puzzle, 2026-01-01 (the bot's
`EPOCH`); entry `n` shows `n` days later, modulo the set's size. A number, not a date: the engine
reads no calendar."""


def weekday_of(n: int) -> int:
    """The weekday (Monday 0) on which entry `n` of the set shows."""
    return (FIRST_WEEKDAY + n) % 7


WEEK: tuple[int, ...] = (EASY, EASY, EASY, EASY, MEDIUM, MEDIUM, HARD)
"""The grade each weekday asks for, Monday first: harder towards the weekend. A set whose size is a
multiple of 7 keeps each entry on its weekday year after year; a grade the set lacks falls to the
next easier one."""


@dataclass(frozen=True)
class Puzzle:
    """A position with a throw to play, the move that is best by `margin`, and the tactic it shows.

    `normal`, `easy` and `hard`: the chance that those computers play `best` (they break ties at
    random). A computer misses the move when it plays it less than half the time."""

    position: Position
    throw: int
    best: Move
    margin: float
    tactic: str
    normal: float
    easy: float
    hard: float

    @property
    def difficulty(self) -> int:
        """HARD: even `hard` misses it; MEDIUM: `normal` does; EASY: `normal` finds it."""
        if self.hard < 0.5:
            return HARD
        return MEDIUM if self.normal < 0.5 else EASY

    def line(self) -> str:
        """One line: the position's notation, then `throw:`, `best:`, `margin:`, `tactic:`,
        `normal:`, `easy:` and `hard:`."""
        return (
            f"{self.position.notation()} throw:{self.throw} best:{self.best} margin:{self.margin:.3f} "
            f"tactic:{self.tactic} normal:{self.normal:.2f} easy:{self.easy:.2f} hard:{self.hard:.2f}"
        )

    @classmethod
    def parse(cls, line: str) -> Puzzle:
        """The puzzle written by `line`; raises ValueError (NotationError is one) if it is not one."""
        tokens = line.split()
        fields = dict(t.split(":", 1) for t in tokens[-len(_FIELDS) :])
        if tuple(fields) != _FIELDS:
            raise ValueError(f"not a puzzle line: {line!r}")
        position = Position.parse(" ".join(tokens[: -len(_FIELDS)]))
        puzzle = cls(
            position,
            int(fields["throw"]),
            Move.parse(fields["best"]),
            float(fields["margin"]),
            fields["tactic"],
            float(fields["normal"]),
            float(fields["easy"]),
            float(fields["hard"]),
        )
        if puzzle.tactic not in TACTICS:
            raise ValueError(f"unknown tactic {puzzle.tactic!r}")
        if puzzle.best not in position.legal_moves(puzzle.throw):
            raise ValueError(f"{puzzle.best} is not a move of {puzzle.throw} in {position}")
        return puzzle

    def moves(self) -> list[Move]:
        """The choices, in the order the board letters them (A, B, ...)."""
        return self.position.legal_moves(self.throw)


_FIELDS = ("throw", "best", "margin", "tactic", "normal", "easy", "hard")


def least_margin(normal: float) -> float:
    """The lead a puzzle's best move needs: MARGIN, or MISSED_MARGIN when `normal` misses it."""
    return MISSED_MARGIN if normal < 0.5 else MARGIN


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


def hard_share(position: Position, throw: int, move: Move, nodes: int = HARD_NODES) -> float:
    """How often `hard` plays `move`, over HARD_TRIES seeds of its tie-breaking RNG."""
    player, moves = HardPlayer(nodes=nodes), position.legal_moves(throw)
    return sum(player.choose(position, throw, moves, Random(seed)) == move for seed in range(HARD_TRIES)) / (
        HARD_TRIES
    )


def quick_look(position: Position, throw: int, moves: Sequence[Move]) -> tuple[float, Move]:
    """The likeliest move's lead over the next by the chances alone, and that move: a cheap first
    look before the analysis, whose lead can only be smaller (its best move is the search's)."""
    side = position.side_of(position.turn)
    chances = sorted(((win_chance(position.after(throw, m))[side], m) for m in moves), key=lambda c: -c[0])
    return chances[0][0] - chances[1][0], chances[0][1]


def judge(
    position: Position,
    throw: int,
    *,
    margin: float = MARGIN,
    missed: float = MISSED_MARGIN,
    nodes: int = HARD_NODES,
) -> Puzzle | None:
    """The puzzle `throw` makes in `position`, or None: fewer than two moves, no move ahead of the
    others by `margin` (by `missed` when `normal` misses it; the analysis' chances, its own best
    move first), a best move that wins the game at once, or no tactic to name."""
    moves = position.legal_moves(throw)
    if position.result is not None or len(moves) < 2:
        return None
    quick, likeliest = quick_look(position, throw, moves)
    if quick < min(margin, missed) or (quick < margin and normal_share(position, throw, likeliest) >= 0.5):
        return None
    analysis = analyse(position, throw, nodes=nodes)
    gap = lead(analysis)
    best = analysis.choices[0].move
    normal = round(normal_share(position, throw, best), 2)  # as the line writes it
    if gap < (missed if normal < 0.5 else margin):
        return None
    if any(reason.kind == why.WINS for reason in analysis.choices[0].reasons):
        return None  # a move that wins at once teaches nothing
    tactic = tactic_of(analysis)
    if tactic is None:
        return None
    return Puzzle(
        position,
        throw,
        best,
        int(gap * 1000) / 1000,  # rounded down: the stated margin is never more than the real one
        tactic,
        normal,
        round(easy_share(position, throw, best), 2),
        round(hard_share(position, throw, best, nodes), 2),
    )


def harvest(
    rules: Rules,
    player: Player,
    seed: int,
    *,
    margin: float = MARGIN,
    missed: float = MISSED_MARGIN,
    nodes: int = HARD_NODES,
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
            puzzle = judge(position, throw, margin=margin, missed=missed, nodes=nodes)
            if puzzle is not None:
                found.append(puzzle)
    return found


# --- a set of puzzles ------------------------------------------------------------------------


def choose_set(puzzles: Iterable[Puzzle], size: int, seed: int = 0) -> list[Puzzle]:
    """At most `size` distinct puzzles, entry `n` of the grade WEEK asks for on weekday_of(n)'s
    weekday, with a spread of tactics, ordered so that neighbours seldom repeat one.

    The hardest grades are chosen first; each grade's share goes to the tactics with the fewest
    puzzles so far (a tactic that has no more passes its turn on), so every tactic gets as many as
    the grades allow. Among a tactic's puzzles of a grade, those `easy` misses come first."""
    rng = Random(seed)
    unique = {(p.position, p.throw): p for p in puzzles}
    pools: dict[int, dict[str, list[Puzzle]]] = {grade: {t: [] for t in TACTICS} for grade in WEEK}
    for puzzle in sorted(unique.values(), key=lambda p: p.line()):
        pools[puzzle.difficulty][puzzle.tactic].append(puzzle)
    for by_tactic in pools.values():
        for found in by_tactic.values():
            rng.shuffle(found)
            found.sort(key=lambda p: p.easy >= 0.5)  # stable: the shuffle within each half stays
    slots = _slot_grades(size, {g: sum(map(len, by_tactic.values())) for g, by_tactic in pools.items()})
    counts = dict.fromkeys(TACTICS, 0)
    chosen: dict[int, list[Puzzle]] = {}
    for grade in (HARD, MEDIUM, EASY):
        picked: dict[str, list[Puzzle]] = {t: [] for t in TACTICS}
        for _ in range(slots.count(grade)):
            tactic = min((t for t in TACTICS if pools[grade][t]), key=lambda t: (counts[t], TACTICS.index(t)))
            picked[tactic].append(pools[grade][tactic].pop(0))
            counts[tactic] += 1
        chosen[grade] = _spread(picked)
    return [chosen[grade].pop(0) for grade in slots]


def _slot_grades(size: int, available: dict[int, int]) -> list[int]:
    """The grade of each of `size` entries: WEEK's for its weekday, moved to the next easier grade
    (or, for the easiest, the next harder) where the set's puzzles of that grade run out."""
    count = min(size, sum(available.values()))
    slots = [WEEK[weekday_of(n)] for n in range(count)]
    left = dict(available)
    for n, grade in enumerate(slots):
        order = [g for g in (HARD, MEDIUM, EASY) if g <= grade] + [g for g in (MEDIUM, HARD) if g > grade]
        slots[n] = next(g for g in order if left[g])
        left[slots[n]] -= 1
    return slots


def _spread(picked: dict[str, list[Puzzle]]) -> list[Puzzle]:
    """The puzzles with each tactic's share spread evenly along the list."""
    spread = [
        ((index + 0.5) / len(found), TACTICS.index(t), puzzle)
        for t, found in picked.items()
        for index, puzzle in enumerate(found)
    ]
    return [puzzle for _, _, puzzle in sorted(spread, key=lambda item: item[:2])]


def read_set(lines: Sequence[str]) -> tuple[Puzzle, ...]:
    """The puzzles of a set's lines."""
    return tuple(Puzzle.parse(line) for line in lines)
