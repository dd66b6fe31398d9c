"""A game on the stand-in as its players read it, in any language: the end-to-end tests, the
benchmarks and the local page's tests find their way here.

Which message is the turn, and what it offers, comes from the buttons' custom ids
(`pachisi:<action>:<game>:<turn>[:<argument>]`), never from their labels; who is to act, and
whether the game is over, from the stored game (the bot's database, read as another process
would, without its write lock). A game's result is the one message the bot posts for it that
offers nothing to click, with the board attached; the stored game says when to expect it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.pool import NullPool

from bot.core.snapshot import GameSnapshot, game_snapshot
from bot.core.store import GameRow, MoveRow, SeatRow, Status
from engine import Position, parse_move
from engine.game import Game, Termination
from localdiscord.objects import Button, Message

PREFIX = "pachisi:"
THROW, MOVE, JOIN, REMATCH, HINT = "throw", "move", "join", "rematch", "hint"
"""The game buttons' actions (the first part of their custom ids after the prefix)."""
PLAYS = (THROW, MOVE)
"""The actions that play a turn (Take a seat and the Hint do not)."""
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class ButtonId(NamedTuple):
    """A game button's custom id, read: its action and, after it, the game and the turn."""

    action: str
    game_id: int | None
    rest: tuple[str, ...]


def button_id(custom_id: str | None) -> ButtonId | None:
    """The parts of a `pachisi:` custom id (None for any other button)."""
    if not custom_id or not custom_id.startswith(PREFIX):
        return None
    action, *rest = custom_id.removeprefix(PREFIX).split(":")
    game = int(rest[0]) if rest and rest[0].isdigit() else None
    return ButtonId(action, game, tuple(rest[1:]))


def action_of(button: Button) -> str | None:
    found = button_id(button.custom_id)
    return None if found is None else found.action


def buttons_for(message: Message, *actions: str) -> list[Button]:
    """The enabled buttons of `message` with one of `actions`."""
    return [b for b in message.buttons if not b.disabled and action_of(b) in actions]


def play_buttons(message: Message) -> list[Button]:
    """The enabled buttons that play the turn: Throw, or the moves."""
    return buttons_for(message, *PLAYS)


def offers_moves(message: Message) -> bool:
    """The turn is thrown and asks for a move (rather than a throw)."""
    return bool(buttons_for(message, MOVE))


def turn_message(messages: Sequence[Message]) -> Message | None:
    """The newest of `messages` with a button that plays the turn."""
    return next((m for m in reversed(messages) if play_buttons(m)), None)


def turn_state(messages: Sequence[Message]) -> tuple[int, int, tuple[str | None, ...]] | None:
    """The turn message, how often it was edited (a member's next throw updates it in place), and
    what it offers: a change in any of them is a new turn."""
    message = turn_message(messages)
    if message is None:
        return None
    return (message.id, len(message.edits), tuple(b.custom_id for b in play_buttons(message)))


def game_of(message: Message) -> int | None:
    """The game a message's game buttons belong to."""
    ids = [button_id(b.custom_id) for b in message.buttons]
    return next((found.game_id for found in ids if found is not None and found.game_id), None)


def shows_board(message: Message) -> bool:
    return any(a.data.startswith(PNG_MAGIC) for a in message.attachments)


def is_result(message: Message) -> bool:
    """The shape of a game's result: posted as it is (never edited), nothing to click, the board
    attached. (A turn message done with is edited and has no board; one that asks has buttons.)"""
    return not message.edits and not message.buttons and shows_board(message)


def result_after(messages: Sequence[Message], turn: Message | None = None) -> Message | None:
    """The newest message shaped as a result, posted after `turn` (the game's last turn message)."""
    newest = next((m for m in reversed(messages) if is_result(m)), None)
    return newest if newest is not None and (turn is None or newest.id > turn.id) else None


class StoredGames:
    """The bot's database, read as another process would: each read on a connection of its own,
    without a transaction that would take SQLite's write lock from the bot."""

    def __init__(self, database_url: str) -> None:
        self.engine = create_async_engine(database_url, poolclass=NullPool)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def game(self, game_id: int) -> GameSnapshot | None:
        async with self.sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                return None
            seats = await session.scalars(select(SeatRow).where(SeatRow.game_id == game_id))
            return game_snapshot(row, list(seats))

    async def to_move(self, message: Message) -> int | None:
        """The member whose turn `message` shows (None: a computer's, or the game is over)."""
        game_id = game_of(message)
        game = None if game_id is None else await self.game(game_id)
        return None if game is None or game.status != Status.ACTIVE else game.user_to_move()

    async def in_channel(self, channel_id: int) -> GameSnapshot | None:
        """The newest game played in a channel (or thread)."""
        async with self.sessions() as session:
            query = select(GameRow.id).where(GameRow.channel_id == channel_id).order_by(GameRow.id.desc())
            game_id = (await session.scalars(query.limit(1))).first()
        return None if game_id is None else await self.game(game_id)

    async def over_in(self, channel_id: int) -> bool:
        """The newest game of the channel is over (won, drawn or ended): no turn will come."""
        game = await self.in_channel(channel_id)
        return game is not None and game.status != Status.ACTIVE

    async def all_over(self) -> bool:
        """There are games, and every one of them is over."""
        async with self.sessions() as session:
            statuses = list(await session.scalars(select(GameRow.status)))
        return bool(statuses) and Status.ACTIVE not in statuses

    async def all(self) -> list[StoredGame]:
        """Every game, oldest first, with its seats and its move log."""
        async with self.sessions() as session:
            rows = list(await session.scalars(select(GameRow).order_by(GameRow.id)))
            seats = list(await session.scalars(select(SeatRow).order_by(SeatRow.game_id, SeatRow.seat)))
            moves = list(
                await session.scalars(select(MoveRow).order_by(MoveRow.game_id, MoveRow.turn_number))
            )
        return [
            StoredGame(
                game_snapshot(row, [s for s in seats if s.game_id == row.id]),
                [m for m in moves if m.game_id == row.id],
            )
            for row in rows
        ]


class StoredGame(NamedTuple):
    """One game as the database holds it, with its move log."""

    snapshot: GameSnapshot
    moves: list[MoveRow]


def replays(game: StoredGame) -> bool:
    """The log has one row per throw, numbered 0..n-1, and replaying it gives the stored position:
    nothing the players did was lost."""
    if [row.turn_number for row in game.moves] != list(range(game.snapshot.turn_number)):
        return False
    start = Position.initial(game.snapshot.rules)
    log = [(row.throw, None if row.move is None else parse_move(row.move)) for row in game.moves]
    replayed = Game.replay(start, log)
    seats_match = [t.seat for t in replayed.record or []] == [row.seat for row in game.moves]
    stored, outcome = game.snapshot.position, game.snapshot.outcome
    if outcome is not None and outcome.termination is Termination.RESIGNATION:
        stored = stored.with_result(None)  # a resignation's result is no throw of the log
    return seats_match and replayed.position == stored
