"""Positions, legal moves and their application (RULES.md 4-6), and their text forms (RULES.md 9).

A `Position` is the state at the moment a seat is about to throw. It is immutable: `play` returns
the next position. Occupancy (pieces per square per side) is computed once per position, lazily,
and shared by move generation, capture detection and the frozen-game test, so a random playout
allocates only a few small tuples per throw.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.board import CHARKONI, HOME, IS_CASTLE, LAST_STEP, ROUTES, SEAT_NAMES, STEP_OF
from engine.errors import GameOverError, IllegalMoveError, NotationError, number
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

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read `seat:from-to` (like black:12-16), what str() writes; NotationError if it is not one.

        >>> Move.parse("black:12-16") == Move(0, 12, 16) and str(Move.parse("red:0-1")) == "red:0-1"
        True
        """
        name, sep, span = text.partition(":")
        src_text, dash, dst_text = span.partition("-")
        seat = _SEAT_INDEX.get(name)
        src, dst = number(src_text, HOME), number(dst_text, HOME)
        if not sep or seat is None or not dash or src is None or dst is None:
            raise NotationError(
                f"a move is written seat:from-to with steps 0 to {HOME} (like black:12-16) or pass", text
            )
        return cls(seat, src, dst)

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
        """Read the one-line notation of RULES.md section 9; NotationError names the bad token."""
        return parse_position(text)

    def notation(self) -> str:
        """The one-line notation of RULES.md section 9."""
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

    def with_result(self, result: int | None) -> Position:
        """The same position ended (the throw cap, a resignation), or with None live again."""
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


# --- text forms (RULES.md 9): read and written here, next to the types ----------------------

_SEAT_INDEX = {name: i for i, name in enumerate(SEAT_NAMES)}


def format_position(position: Position) -> str:
    """The one-line notation of RULES.md section 9 (what `Position.notation()` returns)."""
    rules = position.rules
    tokens = [f"{SEAT_NAMES[seat]}:{','.join(map(str, position.steps[seat]))}" for seat in rules.seats]
    tokens.append(f"turn:{SEAT_NAMES[position.turn]}")
    sides = [side_name(side, rules.players) for side in position.captured_sides()]
    tokens.append(f"captured:{','.join(sides) or '-'}")
    tokens.append(f"rules:{rules.token()}")
    if position.result is not None:
        tokens.append(f"result:{result_text(position.result, rules.players)}")
    return " ".join(tokens)


def result_text(result: int, players: int) -> str:
    return "draw" if result == DRAW else side_name(result, players)


def parse_position(text: str) -> Position:
    """Read a position; raise NotationError naming the first bad token."""
    tokens = text.split(" ")
    if not text or any(not t for t in tokens):
        raise NotationError("tokens must be separated by single spaces", text)
    seat_tokens: list[tuple[int, tuple[int, ...]]] = []
    index = 0
    while index < len(tokens) and tokens[index].partition(":")[0] in _SEAT_INDEX:
        seat_tokens.append(_parse_seat(tokens[index]))
        index += 1
    seats = tuple(seat for seat, _ in seat_tokens)
    if seats not in ((0, 1, 2, 3), (0, 2)):
        raise NotationError(
            "seat tokens must be black red yellow green, or black yellow, in turn order", text
        )
    counts = {len(steps) for _, steps in seat_tokens}
    if len(counts) != 1:
        raise NotationError("every seat must have the same number of pieces", text)
    pieces = counts.pop()
    players = len(seats)
    rest = tokens[index:]
    keys = ["turn", "captured", "rules"]
    if len(rest) == 4:
        keys.append("result")
    if len(rest) not in (3, 4):
        raise NotationError(
            "expected turn:, captured:, rules: and an optional result:", " ".join(rest) or text
        )
    values: dict[str, str] = {}
    for key, token in zip(keys, rest, strict=True):
        name, sep, value = token.partition(":")
        if name != key or not sep or not value:
            raise NotationError(f"expected a {key}: token", token)
        values[key] = value
    turn = _SEAT_INDEX.get(values["turn"], -1)
    if turn not in seats:
        raise NotationError("turn must name a seat in play", rest[0])
    captured = _parse_captured(values["captured"], players, rest[1])
    if "players=" in values["rules"] or "pieces=" in values["rules"]:
        raise NotationError("players and pieces are given by the seat tokens", rest[2])
    rules = Rules.parse(values["rules"], allow_shape=False)
    try:
        rules = rules.with_options(players=players, pieces=pieces)
    except ValueError as exc:
        raise NotationError(str(exc), rest[2]) from exc
    result = _parse_result(values["result"], players, rest[3]) if "result" in values else None
    steps = tuple(dict(seat_tokens)[seat] if seat in seats else () for seat in range(4))
    _check_result(steps, players, result, rest[3] if result is not None else text)
    return Position(rules, steps, turn, captured, result)


def _check_result(steps: tuple[tuple[int, ...], ...], players: int, result: int | None, token: str) -> None:
    """A side with every piece home has won, and only then may `result:` name it.

    `result:draw` is taken on any position where nobody has won: the throw limit ends a game the
    position alone cannot see (RULES.md 6).
    """
    won = [side for side in (0, 1) if all(steps[seat][0] == HOME for seat in side_seats(side, players))]
    if len(won) == 2:
        raise NotationError("both sides cannot have brought every piece home", token)
    if won and result != won[0]:
        name = side_name(won[0], players)
        raise NotationError(f"{name} has every piece home: the position must end result:{name}", token)
    if result is not None and result != DRAW and not won:
        name = side_name(result, players)
        raise NotationError(f"result:{name}, but {name} has not brought every piece home", token)


def _parse_seat(token: str) -> tuple[int, tuple[int, ...]]:
    name, _, value = token.partition(":")
    parts = value.split(",")
    if not value or not all(p.isascii() and p.isdigit() and (p == "0" or p[0] != "0") for p in parts):
        raise NotationError("seat steps must be comma-separated numbers", token)
    found = [number(p, HOME) for p in parts]
    if None in found:
        raise NotationError(f"steps run from 0 to {HOME}", token)
    steps = tuple(sorted(s for s in found if s is not None))  # canonical order is ascending; any is read
    if not 1 <= len(steps) <= 4:
        raise NotationError("a seat has 1 to 4 pieces", token)
    return _SEAT_INDEX[name], steps


def _side_names(players: int) -> dict[str, int]:
    return {side_name(side, players): side for side in (0, 1)}


def _parse_captured(value: str, players: int, token: str) -> int:
    if value == "-":
        return 0
    names = _side_names(players)
    sides = [names.get(part, -1) for part in value.split(",")]
    if -1 in sides or sides != sorted(set(sides)):
        raise NotationError(f"captured: takes -, or sides among {', '.join(names)} in turn order", token)
    return sum(1 << side for side in sides)


def _parse_result(value: str, players: int, token: str) -> int:
    if value == "draw":
        return DRAW
    names = _side_names(players)
    if value not in names:
        raise NotationError(f"result: takes draw or one of {', '.join(names)}", token)
    return names[value]


def parse_move(text: str) -> Move | None:
    """Read a move as `Move.parse` does, or `pass` (returned as None)."""
    return None if text == "pass" else Move.parse(text)


def format_move(move: Move | None) -> str:
    """`str(move)`, or `pass` for None."""
    return "pass" if move is None else str(move)
