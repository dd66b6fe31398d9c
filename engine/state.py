"""Positions, legal moves and their application (RULES.md 4-6).

A `Position` is the state at the moment a seat is about to throw. It is immutable: `play` returns
the next position. Occupancy (pieces per square per side) is computed once per position, lazily,
and shared by move generation, capture detection and the frozen-game test, so a random playout
allocates only a few small tuples per throw.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.board import CHARKONI, HOME, IS_CASTLE, LAST_STEP, ROUTES, SEAT_NAMES, STEP_OF
from engine.errors import GameOverError, IllegalMoveError
from engine.rules import Rules
from engine.throws import GRACES, THROW_VALUES, check_throw

DRAW = -1
"""`Position.result` of a drawn game (frozen, or the throw cap reached)."""

_SIDE_OF = {4: (0, 1, 0, 1), 2: (0, 0, 1, 1)}
_SIDE_SEATS = {4: ((0, 2), (1, 3)), 2: ((0,), (2,))}
_NEXT_SEAT = {4: (1, 2, 3, 0), 2: (2, 2, 0, 0)}
_R0, _R1, _R2, _R3 = (route.__getitem__ for route in ROUTES)


class Move(NamedTuple):
    """One piece moved by one throw: the seat that owns the piece, its step before and after.

    `src` 0 is entering from the Charkoni; `dst` 84 is coming home.
    """

    seat: int
    src: int
    dst: int

    def __str__(self) -> str:
        return f"{SEAT_NAMES[self.seat]}:{self.src}-{self.dst}"

    @property
    def enters(self) -> bool:
        return self.src == 0

    @property
    def comes_home(self) -> bool:
        return self.dst == HOME


_MOVES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(tuple(Move(seat, src, dst) for dst in range(HOME + 1)) for src in range(HOME + 1))
    for seat in range(4)
)
"""Every move object made once, so generating moves allocates none: _MOVES[seat][src][dst]."""


def side_of(seat: int, players: int) -> int:
    """Side 0 is Black (+ Yellow in four-player games); side 1 is Red + Green, or Yellow alone."""
    return _SIDE_OF[players][seat]


def side_seats(side: int, players: int) -> tuple[int, ...]:
    return _SIDE_SEATS[players][side]


def side_name(side: int, players: int) -> str:
    """`black+yellow`, `red+green`; in two-player games `black` or `yellow`."""
    return "+".join(SEAT_NAMES[s] for s in side_seats(side, players))


class Position:
    """A seat about to throw: every piece's step, whose turn, which sides have captured, the result.

    A won game is known when the winning move is applied; a frozen one (RULES.md 6) is found the
    first time `result` is read, so a playout that only asks when a throw is lost never pays for
    the test: a frozen position offers no move for any throw.
    """

    __slots__ = ("_blocks0", "_blocks1", "_decided", "_escape", "_occ", "captured", "rules", "steps", "turn")

    def __init__(
        self,
        rules: Rules,
        steps: tuple[tuple[int, ...], ...],
        turn: int,
        captured: int = 0,
        result: int | None = None,
    ) -> None:
        self.rules = rules
        self.steps = steps
        """steps[seat]: that seat's pieces, ascending (0 Charkoni, 1-83 board, 84 home); () if not in play."""
        self.turn = turn
        self.captured = captured
        """Bit `1 << side` set once that side has captured."""
        self._decided = result
        """A result known without the frozen test: the winning side, or DRAW by the throw cap."""
        self._occ: tuple[list[int], list[int]] | None = None
        self._blocks0: list[int] | None = None
        self._blocks1: list[int] | None = None
        """Each side's blockades, once asked for (two attributes: no list made per position)."""
        self._escape: dict[int, bool] | None = None

    @property
    def result(self) -> int | None:
        """None while the game goes on; the winning side; or DRAW."""
        if self._decided is None and self.is_frozen():
            self._decided = DRAW
        return self._decided

    # --- construction and comparison -------------------------------------------------------

    @classmethod
    def initial(cls, rules: Rules | None = None) -> Position:
        """The start of a game: `start_on_board` pieces per seat on step 1, the rest in the Charkoni."""
        rules = rules or Rules()
        start = tuple(sorted([0] * (rules.pieces - rules.start_on_board) + [1] * rules.start_on_board))
        steps = tuple(start if seat in rules.seats else () for seat in range(4))
        return cls(rules, steps, turn=rules.seats[0])

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the one-line notation of RULES.md section 9."""
        from engine.notation import parse_position

        return parse_position(text)

    def notation(self) -> str:
        from engine.notation import format_position

        return format_position(self)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Position.parse({self.notation()!r})"

    def _key(self) -> tuple[object, ...]:
        return (self.rules, self.steps, self.turn, self.captured, self.result)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # --- seats and sides ------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return _SIDE_OF[self.rules.players][seat]

    def has_captured(self, side: int) -> bool:
        return bool(self.captured >> side & 1)

    def owner(self, seat: int) -> int:
        """The seat whose pieces `seat` plays: its own, or its partner's once its own are all home."""
        if self.rules.players == 4 and self.steps[seat][0] == HOME:
            return (seat + 2) % 4
        return seat

    @property
    def is_over(self) -> bool:
        return self.result is not None

    # --- occupancy ------------------------------------------------------------------------

    def _occupancy(self) -> tuple[list[int], list[int]]:
        """The square of each side's every piece (CHARKONI off the board; twice for two pieces)."""
        occ = self._occ
        if occ is None:
            steps = self.steps
            # map() keeps the loop in C; pieces off the board come out as CHARKONI (-1).
            if self.rules.players == 4:
                first = list(map(_R0, steps[0]))
                first += map(_R2, steps[2])
                second = list(map(_R1, steps[1]))
                second += map(_R3, steps[3])
            else:
                first = list(map(_R0, steps[0]))
                second = list(map(_R2, steps[2]))
            occ = self._occ = (first, second)
        return occ

    def _blockades(self, side: int) -> list[int]:
        """Squares where `side` has a blockade: two or more of its pieces, not on a castle."""
        blocks = self._blocks1 if side else self._blocks0
        if blocks is None:
            squares = self._occupancy()[side]
            found: list[int] = []
            off_board = squares.count(CHARKONI)
            # Any two pieces sharing a board square? (All CHARKONI entries count as one.)
            if len(set(squares)) != len(squares) - off_board + (off_board > 0):
                seen: set[int] = set()
                for square in squares:
                    if square not in seen:
                        seen.add(square)
                    elif square != CHARKONI and not IS_CASTLE[square] and square not in found:
                        found.append(square)
            blocks = found
            if side:
                self._blocks1 = found
            else:
                self._blocks0 = found
        return blocks

    def pieces_on(self, square: int) -> list[tuple[int, int]]:
        """(seat, step) of every piece on a board square, for renderers and descriptions."""
        found = []
        for seat in self.rules.seats:
            route = ROUTES[seat]
            found += [(seat, s) for s in self.steps[seat] if 0 < s < HOME and route[s] == square]
        return found

    def blockades(self) -> list[int]:
        """Every square that holds a blockade, either side's."""
        return sorted(self._blockades(0) + self._blockades(1))

    # --- legal moves ----------------------------------------------------------------------

    def _raw_moves(self, owner: int, throw: int) -> list[Move]:
        """Moves of `owner`'s pieces for `throw`, the capture condition set aside."""
        rules = self.rules
        steps = self.steps[owner]
        enemy_blocks = self._blockades(1 - _SIDE_OF[rules.players][owner])
        if enemy_blocks:
            first = STEP_OF[owner]
            barriers = [first[sq] for sq in enemy_blocks]
        else:
            barriers = []
        moves: list[Move] = []
        table = _MOVES[owner]
        waiting = steps.count(0)  # sorted: the Charkoni's pieces come first, home's last
        if waiting and (throw in GRACES or waiting == len(steps) or steps[waiting] == HOME):
            if not rules.enter_moves:
                moves.append(table[0][1])
            elif not (barriers and any(1 < b <= 1 + throw for b in barriers)):
                moves.append(table[0][1 + throw])
        last_square = rules.last_square
        previous = 0  # also skips the pieces in the Charkoni
        for src in steps:
            if src == previous:
                continue
            if src == HOME:
                break
            previous = src
            dst = src + throw
            if dst > HOME:
                if src != LAST_STEP or not last_square:
                    continue  # no overshoot
                dst = HOME  # the last-square rule: home on any throw
            end = dst if dst < HOME else LAST_STEP
            if barriers and any(src < b <= end for b in barriers):
                continue
            moves.append(table[src][dst])
        return moves

    def _escape_open(self, owner: int) -> bool:
        """RULES.md 4, escape hatch: for every throw, every move `owner`'s pieces offer comes home."""
        cache = self._escape
        if cache is None:
            cache = self._escape = {}
        if owner not in cache:
            cache[owner] = self.steps[owner][0] != 0 and all(
                m.dst == HOME for t in THROW_VALUES for m in self._raw_moves(owner, t)
            )
        return cache[owner]

    def _home_allowed(self, owner: int) -> bool:
        if not self.needs_capture(owner):
            return True
        return self.rules.escape_hatch and self._escape_open(owner)

    def _moves_for(self, owner: int, throw: int) -> list[Move]:
        moves = self._raw_moves(owner, throw)
        # Sorted by origin, home moves come last: a piece behind can't reach home when one ahead can.
        if moves and moves[-1].dst == HOME and not self._home_allowed(owner):
            moves = [m for m in moves if m.dst != HOME]
        return moves

    def legal_moves(self, throw: int) -> list[Move]:
        """The moves the seat to throw may play with `throw`, sorted; empty means the throw is lost.

        A frozen position offers none, so this needs no frozen test of its own.
        """
        if self._decided is not None:
            return []
        turn = self.turn
        if self.rules.players == 4 and self.steps[turn][0] == HOME:
            turn = (turn + 2) % 4  # a finished seat plays its partner's pieces
        moves = self._raw_moves(turn, throw)  # _moves_for, inlined: this is the hottest call
        if moves and moves[-1].dst == HOME and not self._home_allowed(turn):
            moves = [m for m in moves if m.dst != HOME]
        return moves

    def needs_capture(self, seat: int) -> bool:
        """True while the capture condition keeps `seat`'s side from coming home (hatch aside)."""
        rules = self.rules
        return rules.must_capture and not self.captured >> _SIDE_OF[rules.players][seat] & 1

    def uses_escape_hatch(self, move: Move) -> bool:
        """True when `move` comes home only because the escape hatch is open."""
        return move.dst == HOME and self.needs_capture(move.seat)

    def can_move(self, seat: int) -> bool:
        """Whether `seat`, about to throw, has a legal move for at least one throw value."""
        owner = self.owner(seat)
        if not self._blockades(1 - _SIDE_OF[self.rules.players][owner]):
            # Fast path: a piece at 1-81 can always advance by 2 when nothing blocks it.
            for s in self.steps[owner]:
                if 0 < s <= LAST_STEP - 2:
                    return True
        return any(self._moves_for(owner, t) for t in THROW_VALUES)

    # --- applying a throw -----------------------------------------------------------------

    def captures(self, move: Move) -> list[tuple[int, int]]:
        """(seat, step) of the enemy pieces `move` would send back to the Charkoni."""
        if move.dst == HOME:
            return []
        square = ROUTES[move.seat][move.dst]
        if IS_CASTLE[square]:
            return []
        enemy = 1 - _SIDE_OF[self.rules.players][move.seat]
        if square not in self._occupancy()[enemy]:
            return []
        return [(seat, s) for seat, s in self.pieces_on(square) if self.side_of(seat) == enemy]

    def play(self, throw: int, move: Move | None) -> Position:
        """The position after `throw` and `move` (None when the throw offers no move); checked."""
        check_throw(throw)
        if self.result is not None:
            raise GameOverError("the game is over")
        legal = self.legal_moves(throw)
        if move is None:
            if legal:
                raise IllegalMoveError(f"a throw of {throw} must be played: {' '.join(map(str, legal))}")
        elif move not in legal:
            options = " ".join(map(str, legal)) or "pass"
            raise IllegalMoveError(f"{move} is not legal with a throw of {throw} (legal: {options})")
        return self.after(throw, move)

    def after(self, throw: int, move: Move | None) -> Position:
        """`play` without the legality check, for callers that took `move` from `legal_moves`."""
        rules = self.rules
        players = rules.players
        steps = list(self.steps)
        captured = self.captured
        capture = False
        won: int | None = None
        if move is not None:
            seat, src, dst = move
            pieces = list(steps[seat])
            pieces.remove(src)
            pieces.append(dst)
            pieces.sort()
            steps[seat] = tuple(pieces)
            side = _SIDE_OF[players][seat]
            if dst == HOME:
                if all(steps[s][0] == HOME for s in _SIDE_SEATS[players][side]):
                    won = side
            else:
                square = ROUTES[seat][dst]
                occ = self._occ or self._occupancy()  # usually cached by the move generation
                if not IS_CASTLE[square] and square in occ[1 - side]:
                    for enemy in _SIDE_SEATS[players][1 - side]:
                        route = ROUTES[enemy]
                        old = steps[enemy]
                        new = [0 if 0 < s < HOME and route[s] == square else s for s in old]
                        if new != list(old):
                            steps[enemy] = tuple(sorted(new))
                    capture = True
                    captured |= 1 << side
        turn = self.turn if capture or throw in GRACES else _NEXT_SEAT[players][self.turn]
        return Position(rules, tuple(steps), turn, captured, won)

    def is_frozen(self) -> bool:
        """RULES.md 6: no seat, each judged as if about to throw, has a move for any throw."""
        seats = self.rules.seats
        start = seats.index(self.turn)
        return not any(self.can_move(seats[(start + i) % len(seats)]) for i in range(len(seats)))

    def with_result(self, result: int) -> Position:
        """The same position with the game ended (the throw cap)."""
        return Position(self.rules, self.steps, self.turn, self.captured, result)

    # --- convenience ----------------------------------------------------------------------

    def home_count(self, seat: int) -> int:
        return sum(1 for s in self.steps[seat] if s == HOME)

    def charkoni_count(self, seat: int) -> int:
        return sum(1 for s in self.steps[seat] if s == 0)

    def captured_sides(self) -> list[int]:
        return [side for side in (0, 1) if self.has_captured(side)]


def moves_text(moves: Iterable[Move]) -> str:
    """Moves joined by single spaces, or `pass` when there are none (the CLI's line format)."""
    text = " ".join(map(str, moves))
    return text or "pass"
