"""Playing a game on to the next decision: pure, no store and no clock (the service does the I/O;
a computer's thinking time goes to the metrics, and nothing here reads it back).

A service call resumes a stored game as `Turns` (the engine `Game` plus who holds each seat), lets
the member act (`member_throws`, `member_plays`, or the clock's `time_ran_out`), then `play_on`
plays everything nobody has to decide: the computers' turns, the throws the bot makes for members
with auto-throw on, throws with one move or none. It stops where a member must choose (or throw,
with auto-throw off) or the game ends, and `events` tells what was played, oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from random import Random

from bot.core import metrics
from bot.core.errors import AlreadyThrown, IllegalMove, NotThrown
from engine.errors import IllegalMoveError
from engine.game import Game
from engine.players import get_player
from engine.state import Move, Position

MAX_MISSED = 3
"""Turns in a row the timer may play for a member before the seat goes back to the computer."""
MAX_THROWS_AT_ONCE = 200
"""Throws one call plays at most: a game no member plays any more goes on in steps, each its own
short transaction, instead of holding the database for a whole game."""


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    """None: the computer plays this seat."""
    level: str
    missed: int
    """Consecutive turns the timer played for this member."""
    hints_used: int = 0
    """Hints this seat's members asked for."""
    name: str | None = None
    """The member's display name when they sat down (stored: a restart keeps it); None: unknown."""


@dataclass(frozen=True)
class Event:
    """One throw that was played, for the chat log and the board's story."""

    turn_number: int
    seat: int
    actor_id: int | None
    """The member who played it; None when the computer did (its seat, or a timed-out member's)."""
    throw: int
    cowries: tuple[bool, ...]
    move: Move | None
    before: Position
    """The position the throw was played in."""
    by_timer: bool = False
    forced: bool = False
    """The member's throw offered one move (or none), so it was played for them at once."""
    handed_back: bool = False
    """The timer played for this member too often: the computer has their seat from now on."""

    @property
    def captures(self) -> int:
        return 0 if self.move is None else len(self.before.captures(self.move))


@dataclass
class Turns:
    """A game being played within one service call: the engine's game, the seats, what was played."""

    game: Game
    seats: dict[int, SeatInfo]
    events: list[Event] = field(default_factory=list)
    thought: list[tuple[str, float]] = field(default_factory=list)
    """Each computer decision's level and seconds: a worker process sends them back to the bot's
    metrics (in the bot's process they are recorded as they happen)."""

    @property
    def user_to_move(self) -> int | None:
        return self.seats[self.game.turn].user_id

    @property
    def over(self) -> bool:
        return self.game.outcome() is not None

    def member_throws(self, rng: Random) -> None:
        """The member to move throws; a throw with one move or none is played for them at once."""
        if self.game.pending is not None:
            raise AlreadyThrown()
        self.game.throw(rng)
        moves = self.game.legal_moves()
        if len(moves) <= 1:
            self._play(moves[0] if moves else None, actor=self.user_to_move, forced=True)

    def member_plays(self, move: Move) -> None:
        """The member to move plays `move` with the pending throw (checked by the engine)."""
        if self.game.pending is None:
            raise NotThrown()
        self._play(move, actor=self.user_to_move)

    def time_ran_out(self, rng: Random) -> None:
        """The member to move let their time run out: their seat's computer plays the turn (throw
        included), and after MAX_MISSED such turns in a row the seat is the computer's again."""
        if self.game.pending is None:
            self.game.throw(rng)
        seat = self.game.turn
        info = self.seats[seat]
        missed = info.missed + 1
        handed_back = missed >= MAX_MISSED
        self.seats[seat] = replace(
            info,
            user_id=None if handed_back else info.user_id,
            missed=0 if handed_back else missed,
            name=None if handed_back else info.name,
        )
        self._play(self._computer_move(rng, info.level), actor=None, by_timer=True, handed_back=handed_back)

    def play_on(self, rng: Random, auto_throwers: frozenset[int]) -> None:
        """Play until a member must decide or the game ends (or MAX_THROWS_AT_ONCE more throws).

        `auto_throwers`: the members the bot throws for; a member's throw with two or more moves
        always waits for them, and so does the throw of a member the bot does not throw for."""
        stop = len(self.events) + MAX_THROWS_AT_ONCE
        while len(self.events) < stop and not self.waits(auto_throwers):
            if self.user_to_move is None:
                if self.game.pending is None:
                    self.game.throw(rng)
                level = self.seats[self.game.turn].level
                self._play(self._computer_move(rng, level), actor=None)
            else:
                self.member_throws(rng)  # a real choice left pending: the member decides

    def waits(self, auto_throwers: frozenset[int]) -> bool:
        """Whether `play_on` has nothing to play: the game is over, or its member is to choose a
        move of their throw, or to throw without the bot throwing for them."""
        user = self.user_to_move
        pending = self.game.pending
        return self.over or (user is not None and (pending is not None or user not in auto_throwers))

    def resign(self, seat: int) -> None:
        """`seat`'s side concedes (a two-player game): the other side wins where the pieces stand."""
        self.game.resign(seat)

    def _computer_move(self, rng: Random, level: str) -> Move | None:
        pending = self.game.pending
        assert pending is not None
        moves = self.game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        with metrics.computer_deciding(level, self.thought):
            return get_player(level).choose(self.game.position, pending.value, moves, rng)

    def _play(
        self,
        move: Move | None,
        *,
        actor: int | None,
        by_timer: bool = False,
        forced: bool = False,
        handed_back: bool = False,
    ) -> None:
        pending = self.game.pending
        assert pending is not None
        before, seat, number = self.game.position, self.game.turn, self.game.throws
        try:
            self.game.play(move)
        except IllegalMoveError:
            moves = [str(m) for m in self.game.legal_moves()]
            raise IllegalMove(
                "not_a_choice", typed=str(move), moves=moves, position=before.notation()
            ) from None
        if actor is not None and self.seats[seat].missed:
            self.seats[seat] = replace(self.seats[seat], missed=0)
        self.events.append(
            Event(
                number,
                seat,
                actor,
                pending.value,
                pending.cowries,
                move,
                before,
                by_timer,
                forced,
                handed_back,
            )
        )
