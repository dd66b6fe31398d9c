"""A whole game as one state machine: throw, legal moves, play, and how the game ended.

Everything that plays a game goes through a `Game`: the bot (one throw and one move per request,
resumed from what its store keeps), replays, and the playouts of simulations, the arena and the
benchmarks (`play_out`). The position alone cannot know the throw count, so the 10,000-throw
limit (RULES.md 6) lives here.

>>> from random import Random
>>> game = Game.new()
>>> game.set_throw(10)
Throw(value=10, cowries=(True, False, False, False, False, False))
>>> game.legal_moves()
[Move(seat=0, src=0, dst=1)]
>>> game.play(game.legal_moves()[0]).notation()
'black:0,0,0,1 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic'
>>> game.throws, game.turn, game.record
(1, 0, [Turn(seat=0, throw=10, move=Move(seat=0, src=0, dst=1))])
>>> outcome = play_out(game, lambda position, throw, moves: moves[0], Random(1))
>>> outcome.termination, outcome.winner in (0, 1), game.outcome() == outcome
(<Termination.WIN: 'win'>, True, True)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from random import Random
from typing import NamedTuple

from engine.board import HOME
from engine.errors import AlreadyThrownError, GameOverError, NotThrownError, PachisiError
from engine.rules import Rules
from engine.state import DRAW, Move, Position, side_seats
from engine.throws import _VALUE_OF_BITS, VALUE_TO_MOUTHS, check_throw, throw_cowries

MAX_THROWS = 10_000
"""RULES.md 6: a game that reaches this many throws ends as a draw."""


class Termination(enum.Enum):
    """Why a game ended."""

    WIN = "win"
    """A side brought all its pieces home."""
    FROZEN = "frozen"
    """No seat can move for any throw (RULES.md 6): a draw."""
    THROW_LIMIT = "throw_limit"
    """MAX_THROWS throws were played: a draw."""
    RESIGNATION = "resignation"
    """A side conceded (`Game.resign`): the other side wins with its pieces where they stand."""


class Outcome(NamedTuple):
    """How a game ended: the termination, and the winning side (None for a draw)."""

    termination: Termination
    winner: int | None


class Throw(NamedTuple):
    """A throw of the six cowries: its move value and each shell's face (True = mouth up)."""

    value: int
    cowries: tuple[bool, ...]

    @classmethod
    def of(cls, value: int, cowries: Iterable[bool] | None = None) -> Throw:
        """A known throw, checked; without `cowries`, the first shells lie mouth up as the value needs."""
        check_throw(value)
        mouths = VALUE_TO_MOUTHS[value]
        faces = tuple(i < mouths for i in range(6)) if cowries is None else tuple(map(bool, cowries))
        if len(faces) != 6 or sum(faces) != mouths:
            raise PachisiError(f"those cowries do not make a {value} ({mouths} of six must lie mouth up)")
        return cls(value, faces)


class Turn(NamedTuple):
    """One throw of the record: who threw, the value, and the move played (None: the throw is lost)."""

    seat: int
    throw: int
    move: Move | None


Chooser = Callable[[Position, int, list[Move]], Move]
"""Picks one of `moves` (never empty) for `throw` in `position`; `play_out` trusts it to."""


class Game:
    """The current position, the throws played, the pending throw, and optionally the record.

    Resumable from what a store keeps: `Game(Position.parse(text), throws=n, pending=Throw.of(...))`.
    A game resumed that way has no record (`record` is None) unless one is given.
    """

    __slots__ = ("_outcome", "_pending", "_position", "_throws", "max_throws", "record", "start")

    def __init__(
        self,
        position: Position,
        *,
        throws: int = 0,
        pending: Throw | None = None,
        record: list[Turn] | None = None,
        max_throws: int = MAX_THROWS,
    ) -> None:
        if throws < 0:
            raise PachisiError(f"the throw count cannot be negative ({throws})")
        self.start = position
        """The position the game was created (or resumed) at: where `record` begins."""
        self._position = position
        self._throws = throws
        self._pending: Throw | None = None
        self._outcome: Outcome | None = None
        self.record = record
        """(seat, throw, move) of every throw played since the record began; None when not kept."""
        self.max_throws = max_throws
        if position.result is None and throws >= max_throws:
            raise PachisiError(f"a game still going after {throws} throws: the limit is {max_throws}")
        outcome = self.outcome()
        if outcome is not None and outcome.termination is Termination.THROW_LIMIT and throws < max_throws:
            raise PachisiError(
                f"a drawn position that is not frozen after {throws} throws: only the limit of "
                f"{max_throws} throws ends a game that way"
            )
        if pending is not None:
            self.set_throw(pending.value, pending.cowries)

    @classmethod
    def new(cls, rules: Rules | None = None, *, record: bool = True) -> Game:
        """A game at its start, keeping its record unless `record` is False (long simulations)."""
        return cls(Position.initial(rules), record=[] if record else None)

    @classmethod
    def replay(cls, start: Position, throws: Iterable[tuple[int, Move | None]]) -> Game:
        """Rebuild a game from its start and (throw, move) pairs, checking every move."""
        game = cls(start, record=[])
        for value, move in throws:
            game.set_throw(value)
            game.play(move)
        return game

    # --- what the game is now -----------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._position

    @property
    def throws(self) -> int:
        """Throws played so far: the number of the next one, counting from 0."""
        return self._throws

    @property
    def turn(self) -> int:
        """The seat to throw (or to play the pending throw)."""
        return self._position.turn

    @property
    def pending(self) -> Throw | None:
        """The throw waiting to be played, if the cowries are thrown."""
        return self._pending

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else why it ended and who won."""
        if self._outcome is None:
            result = self._position.result
            if result is None:
                return None
            if result != DRAW:
                # The notation names a winner only once its pieces are all home, so a winner
                # still on the way home can only come from a resignation.
                rules = self._position.rules
                seats = side_seats(result, rules.players)
                home = all(self._position.home_count(seat) == rules.pieces for seat in seats)
                self._outcome = Outcome(Termination.WIN if home else Termination.RESIGNATION, result)
            elif self._position.is_frozen():
                self._outcome = Outcome(Termination.FROZEN, None)
            else:
                self._outcome = Outcome(Termination.THROW_LIMIT, None)
        return self._outcome

    def legal_moves(self) -> list[Move]:
        """The moves of the pending throw, sorted; empty means the throw is lost (play None)."""
        if self._pending is None:
            raise NotThrownError("throw the cowries first")
        return self._position.legal_moves(self._pending.value)

    # --- changing it --------------------------------------------------------------------

    def throw(self, rng: Random) -> Throw:
        """Throw the cowries with `rng`; the throw waits to be played."""
        self._check_throwable()
        value, faces = throw_cowries(rng)
        self._pending = Throw(value, faces)
        return self._pending

    def set_throw(self, value: int, cowries: Iterable[bool] | None = None) -> Throw:
        """A known throw instead of a random one (replays, tests, a throw the store kept)."""
        self._check_throwable()
        self._pending = Throw.of(value, cowries)
        return self._pending

    def _check_throwable(self) -> None:
        if self.outcome() is not None:
            raise GameOverError("the game is over")
        if self._pending is not None:
            raise AlreadyThrownError("the cowries are already thrown: play a move")

    def play(self, move: Move | None) -> Position:
        """Play the pending throw with `move` (None only when it offers none); returns the new position."""
        if self._pending is None:
            raise NotThrownError("throw the cowries first")
        throw = self._pending.value
        before = self._position
        after = before.play(throw, move)  # checked: raises IllegalMoveError, GameOverError
        self._pending = None
        if self.record is not None:
            self.record.append(Turn(before.turn, throw, move))
        self._advance(after, self._throws + 1)
        return self._position

    def resign(self, seat: int) -> Outcome:
        """`seat`'s side concedes and the other side wins (the bot offers it in two-player games)."""
        if self.outcome() is not None:
            raise GameOverError("the game is over")
        if seat not in self._position.rules.seats:
            raise PachisiError(f"seat {seat} does not play in a {self._position.rules.players}-player game")
        self._pending = None
        self._position = self._position.with_result(1 - self._position.side_of(seat))
        self._outcome = None
        outcome = self.outcome()
        assert outcome is not None
        return outcome

    def _advance(self, position: Position, throws: int) -> None:
        if throws >= self.max_throws and position.result is None:
            position = position.with_result(DRAW)
        self._position = position
        self._throws = throws
        self._outcome = None

    def __repr__(self) -> str:
        return f"<Game throws={self._throws} pending={self._pending} {self._position.notation()}>"


def play_out(game: Game, choose: Chooser, dice: Random, *, throws: int | None = None) -> Outcome | None:
    """Throw with `dice` and play `choose`'s moves until the game ends, or `throws` more are played.

    The one loop every simulation uses; it plays what `game.throw`/`game.play` would, without
    checking `choose`'s moves again. `choose` is asked whenever a throw offers a move, even one.
    A frozen game is found at the first throw that offers no move; that throw is not played.
    Returns the outcome (None if the game goes on).
    """
    if game.pending is not None:
        moves = game.legal_moves()
        game.play(choose(game.position, game.pending.value, moves) if moves else None)
    if game.outcome() is not None:
        return game.outcome()
    position = game.position
    played = game.throws
    stop = game.max_throws if throws is None else min(game.max_throws, played + throws)
    record = game.record
    getrandbits, value_of_bits, home = dice.getrandbits, _VALUE_OF_BITS, HOME  # locals: the hot loop
    while played < stop:
        throw = value_of_bits[getrandbits(6)]  # throw_value(dice), inlined
        moves = position.legal_moves(throw)
        if moves:
            move = choose(position, throw, moves)
            if record is not None:
                record.append(Turn(position.turn, throw, move))
            position = position.after(throw, move)
            played += 1
            if move[2] == home and position.result is not None:
                break  # won (or frozen by the last piece home)
        elif position.result is not None:
            break  # frozen
        else:
            if record is not None:
                record.append(Turn(position.turn, throw, None))
            position = position.after(throw, None)
            played += 1
    game._advance(position, played)
    return game.outcome()
