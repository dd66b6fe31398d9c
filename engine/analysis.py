"""A throw's choices explained: the moves in the order `hard` ranks them, each side's win chance
before and after each, and the reasons in words, read off what the evaluation sees change.

The reasons follow the evaluation's terms (engine/evaluate.py): captures and the capture
condition, pieces coming home or entering, castles, danger (which enemy throws can reach a piece),
blockades, the endgame squares from which a piece can finish, and what the search saw that a
one-move look does not. Each is found by comparing the position before and after the move, so
the words fit the position, not a script.
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


@dataclass(frozen=True)
class Choice:
    """One legal move: the mover's side's chance to win after it, and why it is good or bad."""

    move: Move
    win_chance: float
    best: bool
    reasons: tuple[str, ...]


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


def _name(seat: int) -> str:
    return SEAT_NAMES[seat].capitalize()


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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


def _threat_words(found: list[tuple[int, int]]) -> str:
    """ "Red's 4 and 25 and Green's 10"."""
    by_seat: dict[int, list[int]] = {}
    for enemy, throw in found:
        by_seat.setdefault(enemy, []).append(throw)
    return _join([f"{_name(e)}'s {_join([str(t) for t in sorted(ts)])}" for e, ts in sorted(by_seat.items())])


def _chance_words(found: list[tuple[int, int]]) -> str:
    """The chance that one throw of each enemy seat in `found` hits, in 64ths when one seat."""
    seats = {e for e, _ in found}
    if len(seats) == 1:
        weight = sum(round(PROBABILITY[t] * 64) for t in {t for _, t in found})
        return f" ({weight} in 64)"
    return ""


def move_words(move: Move | None) -> str:
    """A move in words: "the piece on 12 to 16", "a new piece out", "the piece on 80 home"."""
    if move is None:
        return "no move"
    whose = "the piece" if move.src else "a new piece"
    start = f" on {move.src}" if move.src else ""
    end = "home" if move.comes_home else ("out" if move.dst == 1 else f"to {move.dst}")
    return f"{whose}{start} {end}"


def _step_on(position: Position, seats: tuple[int, ...], square: int) -> int:
    """The step of the first of `seats` (the mover's, then its partner's) with a piece on `square`:
    how the mover counts a blockade's place (its own steps 1 and 83 share a square, for one)."""
    for seat in seats:
        for step in position.steps[seat]:
            if 0 < step < HOME and ROUTES[seat][step] == square:
                return step
    return STEP_OF[seats[0]][square]


def reasons(position: Position, throw: int, move: Move, alternatives: list[Move]) -> list[str]:
    """Why `move` is good or bad, in words for the seat to throw (`alternatives`: the other legal
    moves, against which a kept blockade is worth mentioning)."""
    players = position.rules.players
    side = position.side_of(position.turn)
    seat = move.seat
    partner = (seat + 2) % 4 if players == 4 else None
    after = position.after(throw, move)
    said: list[str] = []
    if after.result == side:
        return ["wins the game"]
    victims = position.captures(move)
    if victims:
        names = _join(sorted({_name(s) for s, _ in victims}))
        text = f"captures {names}'s piece{'s' if len(victims) > 1 else ''} and throws again"
        if position.needs_capture(seat):
            text += ", and opens home for your side"
        said.append(text)
    if move.comes_home:
        hatch = " through the escape hatch" if position.uses_escape_hatch(move) else ""
        said.append(f"brings a piece home{hatch}, where it is safe for good")
    elif move.enters:
        said.append("brings a new piece onto the board")
    if not move.comes_home:
        square = ROUTES[seat][move.dst]
        if IS_CASTLE[square]:
            owner = _name(SQUARES[square].arm)
            reach = _reach(after, seat, square)
            if reach:
                seats = _join(sorted({_name(e) for e, _ in reach}))
                said.append(f"lands on {owner}'s castle, out of reach of {seats}'s next throw")
            else:
                said.append(f"lands on {owner}'s castle, safe for as long as it stays")
        before = threats(position, seat, move.src) if not move.enters else []
        now = threats(after, seat, move.dst)
        if before and not now:
            said.append(f"moves out of reach of {_threat_words(before)}")
        if now:
            verb = "stays in range of" if before else "steps into range of"
            said.append(f"{verb} {_threat_words(now)}{_chance_words(now)}")
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
) -> list[str]:
    """Blockades formed, broken, or kept where another move would break them; only those an enemy
    route passes through (two pieces on the seat's own middle column hold nobody up)."""
    seats = (move.seat,) if partner is None else (move.seat, partner)
    enemies = side_seats(1 - side, position.rules.players)

    def contested(squares: set[int]) -> set[int]:
        return {sq for sq in squares if any(STEP_OF[e][sq] for e in enemies)}

    old = contested(_blockades(position, side))
    new = contested(_blockades(after, side))
    said = [f"forms a blockade on {_step_on(after, seats, sq)}" for sq in sorted(new - old)]
    said += [f"breaks your blockade on {_step_on(position, seats, sq)}" for sq in sorted(old - new)]
    kept = old & new
    if kept:
        broken_elsewhere: set[int] = set()
        for other in alternatives:
            if other != move:
                broken_elsewhere |= kept - _blockades(position.after(throw, other), side)
        said += [f"keeps your blockade on {_step_on(after, seats, sq)}" for sq in sorted(broken_elsewhere)]
    return said


def _endgame_reasons(after: Position, seat: int, step: int) -> list[str]:
    if after.needs_capture(seat) or step < LAST_STEP - 25:
        return []
    if step == LAST_STEP and after.rules.last_square:
        return ["reaches the last square, from where any throw brings it home"]
    need = HOME - step
    if need in PROBABILITY:
        return [f"reaches {step}, from where a {need} brings it home ({round(PROBABILITY[need] * 64)} in 64)"]
    if step > 74:
        return [f"stops on {step}, from where no single throw brings it home (aim for 78 to 83)"]
    return []


def _hunt_reasons(position: Position, after: Position, seat: int, move: Move) -> list[str]:
    """Enemy pieces the moved piece newly threatens with one throw (the evaluation's hunting term)."""
    reached = _targets(after, seat, move.dst)
    if reached and not move.enters:
        reached -= _targets(position, seat, move.src)
    if not reached:
        return []
    names = _join(
        [f"{_name(e)}'s piece {d} steps ahead" for e, d in sorted(reached, key=lambda t: (t[1], t[0]))]
    )
    text = f"threatens {names}"
    if after.needs_capture(seat):
        text += ": its capture would open home for your side"
    return [text]


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
    plain = normal_move(position, throw)
    choices = []
    for index, move in enumerate(ranked):
        said = reasons(position, throw, move, moves)
        if len(moves) > 1 and plain != ranked[0]:
            if index == 0:
                said.append(
                    f"looking {HARD_DEPTH} throws ahead, the search prefers it to {move_words(plain)}, "
                    "which looks better for now"
                )
            elif move == plain:
                said.append(f"looks best for now, but the search finds it worse {HARD_DEPTH} throws ahead")
        chance = win_chance(position.after(throw, move))[side]
        choices.append(Choice(move, chance, index == 0, tuple(said)))
    return Analysis(position, throw, before, tuple(choices))


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
                "reasons": list(choice.reasons),
            }
            for choice in analysis.choices
        ],
    }
