"""A throw's choices explained: the moves in the order `hard` ranks them, each side's win chance
before and after each, and the reasons, read off what the evaluation sees change.

The reasons follow the evaluation's terms (engine/evaluate.py): captures and the capture
condition, pieces coming home or entering, castles, danger (which enemy throws can reach a piece),
blockades, the endgame squares from which a piece can finish, and what the search saw that a
one-move look does not. Each is found by comparing the position before and after the move, so
they fit the position, not a script. A reason is a kind and its parameters, never words: the bot
says it in the member's language (bot/core/texts/hints.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from engine.board import HOME, IS_CASTLE, LAST_STEP, ROUTES, SEAT_NAMES, SQUARES, STEP_OF
from engine.players import HARD_DEPTH, HARD_NODES, HardPlayer
from engine.state import Move, Position, side_name, side_seats
from engine.throws import PROBABILITY
from engine.winchance import normal_move, win_chance

_PRIVATE_FIRST, _PRIVATE_LAST = 8, 76
"""Steps 1-7 and 77-83 of a seat's route are its own middle column, out of every enemy's reach."""
_SMALL_THROW_MAX = 6
"""The largest of the small throws (2-6): from HOME - 6 on, one of them brings a piece home."""

# The kinds of reason, with the parameters each carries (the rest keep their defaults).
WINS = "wins"
CAPTURES = "captures"
"""`seats`: the seats hit; `pieces`: how many pieces; `opens_home`: the capture the side needed."""
HOME_SAFE = "home"
"""A piece comes home; `escape_hatch`: through the escape hatch."""
ENTERS = "enters"
CASTLE_OUT_OF_REACH = "castle_out_of_reach"
"""Lands on the castle of `arm`'s arm, where `seats` could otherwise hit it with their next throw."""
CASTLE_SAFE = "castle_safe"
"""Lands on the castle of `arm`'s arm, nobody in reach."""
LEAVES_RANGE = "leaves_range"
"""Moves out of reach of `threats` (enemy seat, throw)."""
ENTERS_RANGE = "enters_range"
"""Steps into reach of `threats`; `chance` in 64ths when one enemy seat threatens."""
STAYS_IN_RANGE = "stays_in_range"
"""Stays in reach of `threats`; `chance` as for ENTERS_RANGE."""
FORMS_BLOCKADE = "forms_blockade"
"""`step`: the mover's step of the blockade's square (as are the next two)."""
BREAKS_BLOCKADE = "breaks_blockade"
KEEPS_BLOCKADE = "keeps_blockade"
"""A blockade another legal move would break."""
LAST_SQUARE = "last_square"
"""Reaches the last square, from where any throw brings it home."""
FINISHING_SQUARE = "finishing_square"
"""Reaches `step`, from where `throw` brings it home (`chance` in 64ths)."""
DEAD_SQUARE = "dead_square"
"""Stops on `step`, from where no single throw brings it home (`aim`: the squares that do)."""
THREATENS = "threatens"
"""`targets`: (enemy seat, steps ahead) newly within one throw; `opens_home`: the side needs a capture."""
SEARCH_PREFERS = "search_prefers"
"""The search, `depth` throws ahead, prefers this move to `move`, the one-move look's pick."""
SEARCH_FINDS_WORSE = "search_finds_worse"
"""The one-move look's pick, which the search finds worse `depth` throws ahead."""


@dataclass(frozen=True)
class Reason:
    """Why a move is good or bad: a kind (the constants above) and what it names: seats, steps,
    throws, chances in 64ths, the move compared with. No words: the bot writes them."""

    kind: str
    seats: tuple[int, ...] = ()
    pieces: int = 0
    opens_home: bool = False
    escape_hatch: bool = False
    arm: int | None = None
    threats: tuple[tuple[int, int], ...] = ()
    targets: tuple[tuple[int, int], ...] = ()
    step: int | None = None
    square: int | None = None
    """A blockade's square (engine.board's number): the place, whoever's steps count to it."""
    throw: int | None = None
    chance: int | None = None
    aim: tuple[int, int] | None = None
    move: Move | None = None
    depth: int | None = None

    def as_json(self) -> dict[str, object]:
        """The kind and the parameters it carries, seats by their notation names, moves in notation."""
        data: dict[str, object] = {"kind": self.kind}
        if self.seats:
            data["seats"] = [SEAT_NAMES[s] for s in self.seats]
        if self.pieces:
            data["pieces"] = self.pieces
        if self.opens_home:
            data["opens_home"] = True
        if self.escape_hatch:
            data["escape_hatch"] = True
        if self.arm is not None:
            data["arm"] = SEAT_NAMES[self.arm]
        if self.threats:
            data["threats"] = [{"seat": SEAT_NAMES[s], "throw": t} for s, t in self.threats]
        if self.targets:
            data["targets"] = [{"seat": SEAT_NAMES[s], "steps_ahead": d} for s, d in self.targets]
        for key in ("step", "square", "throw", "chance", "depth"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.aim is not None:
            data["aim"] = list(self.aim)
        if self.move is not None:
            data["move"] = str(self.move)
        return data


@dataclass(frozen=True)
class Choice:
    """One legal move: the mover's side's chance to win after it, and why it is good or bad."""

    move: Move
    win_chance: float
    best: bool
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class Analysis:
    """A throw to play: each side's chance before the choice (if `normal` made it) and the choices
    as `hard` ranks them, its own first."""

    position: Position
    throw: int
    win_chance: tuple[float, float]
    choices: tuple[Choice, ...]

    @property
    def side(self) -> int:
        return self.position.side_of(self.position.turn)

    @property
    def best(self) -> Choice | None:
        return self.choices[0] if self.choices else None


def threats(position: Position, seat: int, step: int) -> list[tuple[int, int]]:
    """(enemy seat, throw) for every enemy throw that could capture `seat`'s piece on `step` in
    `position`, one throw per enemy piece behind it at a throw's distance. A piece on a castle, on
    its own middle column or in its side's blockade is safe; an enemy piece cannot pass or land on
    a blockade of the piece's side."""
    if not 0 < step < HOME or step < _PRIVATE_FIRST or step > _PRIVATE_LAST:
        return []
    square = ROUTES[seat][step]
    if IS_CASTLE[square]:
        return []
    return _reach(position, seat, square)


def _reach(position: Position, seat: int, square: int) -> list[tuple[int, int]]:
    """`threats` for a piece of `seat` on `square`, castles aside (the caller decides about them)."""
    players = position.rules.players
    side = position.side_of(seat)
    blocks = _blockades(position, side)
    if square in blocks:
        return []
    found: list[tuple[int, int]] = []
    for enemy in side_seats(1 - side, players):
        step_of = STEP_OF[enemy]
        target = step_of[square]
        barriers = [step_of[b] for b in blocks]
        for their in sorted(set(position.steps[enemy])):
            distance = target - their
            if (
                0 < their < HOME
                and distance in PROBABILITY
                and not any(their < b <= target for b in barriers)
            ):
                found.append((enemy, distance))
    return sorted(set(found))


def _blockades(position: Position, side: int) -> set[int]:
    """The squares of `side`'s blockades: two or more of its pieces on one square off the castles."""
    squares: list[int] = []
    for seat in side_seats(side, position.rules.players):
        squares += [ROUTES[seat][s] for s in position.steps[seat] if 0 < s < HOME]
    return {sq for sq in squares if not IS_CASTLE[sq] and squares.count(sq) > 1}


def _chance(found: list[tuple[int, int]]) -> int | None:
    """The chance in 64ths that one throw of the enemy seat in `found` hits; None for several seats."""
    seats = {e for e, _ in found}
    if len(seats) == 1:
        return sum(round(PROBABILITY[t] * 64) for t in {t for _, t in found})
    return None


def _step_on(position: Position, seats: tuple[int, ...], square: int) -> int:
    """The step of the first of `seats` (the mover's, then its partner's) with a piece on `square`:
    how the mover counts a blockade's place (its own steps 1 and 83 share a square, for one)."""
    for seat in seats:
        for step in position.steps[seat]:
            if 0 < step < HOME and ROUTES[seat][step] == square:
                return step
    return STEP_OF[seats[0]][square]


def reasons(position: Position, throw: int, move: Move, alternatives: list[Move]) -> list[Reason]:
    """Why `move` is good or bad for the seat to throw (`alternatives`: the other legal moves,
    against which a kept blockade is worth mentioning)."""
    players = position.rules.players
    side = position.side_of(position.turn)
    seat = move.seat
    partner = (seat + 2) % 4 if players == 4 else None
    after = position.after(throw, move)
    said: list[Reason] = []
    if after.result == side:
        return [Reason(WINS)]
    victims = position.captures(move)
    if victims:
        seats = tuple(sorted({s for s, _ in victims}))
        said.append(
            Reason(CAPTURES, seats=seats, pieces=len(victims), opens_home=position.needs_capture(seat))
        )
    if move.comes_home:
        said.append(Reason(HOME_SAFE, escape_hatch=position.uses_escape_hatch(move)))
    elif move.enters:
        said.append(Reason(ENTERS))
    if not move.comes_home:
        square = ROUTES[seat][move.dst]
        if IS_CASTLE[square]:
            owner = SQUARES[square].arm
            reach = _reach(after, seat, square)
            if reach:
                enemies = tuple(sorted({e for e, _ in reach}))
                said.append(Reason(CASTLE_OUT_OF_REACH, arm=owner, seats=enemies))
            else:
                said.append(Reason(CASTLE_SAFE, arm=owner))
        before = threats(position, seat, move.src) if not move.enters else []
        now = threats(after, seat, move.dst)
        if before and not now:
            said.append(Reason(LEAVES_RANGE, threats=tuple(before)))
        if now:
            kind = STAYS_IN_RANGE if before else ENTERS_RANGE
            said.append(Reason(kind, threats=tuple(now), chance=_chance(now)))
        said += _blockade_reasons(position, throw, move, after, alternatives, side, partner)
        said += _endgame_reasons(after, seat, move.dst)
        said += _hunt_reasons(position, after, seat, move)
    return said


def _blockade_reasons(
    position: Position,
    throw: int,
    move: Move,
    after: Position,
    alternatives: list[Move],
    side: int,
    partner: int | None,
) -> list[Reason]:
    """Blockades formed, broken, or kept where another move would break them; only those an enemy
    route passes through (two pieces on the seat's own middle column hold nobody up)."""
    seats = (move.seat,) if partner is None else (move.seat, partner)
    enemies = side_seats(1 - side, position.rules.players)

    def contested(squares: set[int]) -> set[int]:
        return {sq for sq in squares if any(STEP_OF[e][sq] for e in enemies)}

    old = contested(_blockades(position, side))
    new = contested(_blockades(after, side))
    said = [Reason(FORMS_BLOCKADE, step=_step_on(after, seats, sq), square=sq) for sq in sorted(new - old)]
    said += [
        Reason(BREAKS_BLOCKADE, step=_step_on(position, seats, sq), square=sq) for sq in sorted(old - new)
    ]
    kept = old & new
    if kept:
        broken_elsewhere: set[int] = set()
        for other in alternatives:
            if other != move:
                broken_elsewhere |= kept - _blockades(position.after(throw, other), side)
        said += [
            Reason(KEEPS_BLOCKADE, step=_step_on(after, seats, sq), square=sq)
            for sq in sorted(broken_elsewhere)
        ]
    return said


def _endgame_reasons(after: Position, seat: int, step: int) -> list[Reason]:
    if after.needs_capture(seat) or step < LAST_STEP - 25:
        return []
    if step == LAST_STEP and after.rules.last_square:
        return [Reason(LAST_SQUARE)]
    need = HOME - step
    if need in PROBABILITY:
        return [Reason(FINISHING_SQUARE, step=step, throw=need, chance=round(PROBABILITY[need] * 64))]
    if step > 74:
        last = LAST_STEP if after.rules.last_square else HOME - min(PROBABILITY)
        return [Reason(DEAD_SQUARE, step=step, aim=(HOME - _SMALL_THROW_MAX, last))]
    return []


def _hunt_reasons(position: Position, after: Position, seat: int, move: Move) -> list[Reason]:
    """Enemy pieces the moved piece newly threatens with one throw (the evaluation's hunting term)."""
    reached = _targets(after, seat, move.dst)
    if reached and not move.enters:
        reached -= _targets(position, seat, move.src)
    if not reached:
        return []
    targets = tuple(sorted(reached, key=lambda t: (t[1], t[0])))
    return [Reason(THREATENS, targets=targets, opens_home=after.needs_capture(seat))]


def _targets(position: Position, seat: int, step: int) -> set[tuple[int, int]]:
    """(enemy seat, distance) of each enemy piece a piece of `seat` on `step` can capture with one
    throw of that distance."""
    if not 0 < step < HOME:
        return set()
    found = set()
    for enemy in side_seats(1 - position.side_of(seat), position.rules.players):
        for their in set(position.steps[enemy]):
            if 0 < their < HOME:
                distance = STEP_OF[seat][ROUTES[enemy][their]] - step
                if (seat, distance) in threats(position, enemy, their):
                    found.add((enemy, distance))
    return found


def analyse(
    position: Position, throw: int, *, nodes: int = HARD_NODES, rng: Random | None = None
) -> Analysis:
    """The choices of `throw` in `position`, ranked by `hard` (with `nodes`), explained.

    `rng` breaks `hard`'s ties as a game's own RNG would; without one, a fixed seed does.
    """
    moves = position.legal_moves(throw)
    before = win_chance(position, throw)
    if not moves:
        return Analysis(position, throw, before, ())
    side = position.side_of(position.turn)
    ranked = HardPlayer(nodes=nodes).rank(position, throw, moves, rng or Random(0))
    chances = {move: win_chance(position.after(throw, move))[side] for move in ranked}
    rival = _rival(ranked, chances, normal_move(position, throw))
    choices = []
    for index, move in enumerate(ranked):
        said = reasons(position, throw, move, moves)
        if rival is not None:  # first: it is why the advice is not the highest figure
            if index == 0:
                said.insert(0, Reason(SEARCH_PREFERS, move=rival, depth=HARD_DEPTH))
            elif move == rival:
                said.insert(0, Reason(SEARCH_FINDS_WORSE, depth=HARD_DEPTH))
        choices.append(Choice(move, chances[move], index == 0, tuple(said)))
    return Analysis(position, throw, before, tuple(choices))


def _rival(ranked: list[Move], chances: dict[Move, float], plain: Move | None) -> Move | None:
    """The choice the pick is weighed against in words: the one whose chance shows highest, when it
    shows higher than the pick's (a member reads whole percents beside the advice, and "looks best
    for now" must be true of them); of several showing the same, the one-move look's pick."""
    shown = {move: round(100 * chance) for move, chance in chances.items()}
    top = max(shown.values())
    if top <= shown[ranked[0]]:
        return None
    highest = [move for move in ranked[1:] if shown[move] == top]
    return plain if plain in highest else max(highest, key=lambda move: chances[move])


def as_json(analysis: Analysis) -> dict[str, object]:
    """The `python -m engine analyse` line: each side's chance, then the choices in `hard`'s order
    with the mover's side's chance after each (chances rounded to four decimals)."""
    players = analysis.position.rules.players
    return {
        "win_chance": {side_name(side, players): round(analysis.win_chance[side], 4) for side in (0, 1)},
        "moves": [
            {
                "move": str(choice.move),
                "win_chance": round(choice.win_chance, 4),
                "best": choice.best,
                "reasons": [reason.as_json() for reason in choice.reasons],
            }
            for choice in analysis.choices
        ],
    }
