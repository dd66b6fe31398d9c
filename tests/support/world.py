"""The verbs of the table layer's tests: start a game, read its turn message, click one of its
buttons as a member, restart. The game's state is read from the store and the buttons' actions,
never from their words."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.core.present import MOVE, THROW, Button
from bot.core.snapshot import GameSnapshot
from bot.core.store.models import MoveRow
from bot.table import Table
from bot.table.acts import Act
from bot.table.seats import Opening, Place
from bot.table.writes import Pacer
from engine import Move, Rules
from tests.support.chat import Chat, Click, MovedClock, Posted, Room

GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 100, 11, 12, 13
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
TWO = Rules.parse("classic,players=2,pieces=1")
"""Two seats, one piece each: games end within a few dozen throws."""
CHOICES = Rules.parse("classic,players=2,start_on_board=4")
"""Four pieces each, all on the board from the start: a throw offers a choice."""


class World:
    """The table layer over one SQLite file and one chat; `restart` builds a new layer over both."""

    def __init__(self, clock: MovedClock, chat: Chat, build: Callable[[Pacer | None], Table]) -> None:
        self.clock = clock
        self.chat = chat
        self._build = build
        self.tables: list[Table] = []
        self.table = self.restart()
        self.game_id = 0

    def restart(self, pacer: Pacer | None = None) -> Table:
        """A new layer over the same database and chat (a new process); the old one's timers stop."""
        for old in self.tables:
            old.flow.timers.cancel_all()
        self.table = self._build(pacer)
        self.tables.append(self.table)
        return self.table

    @property
    def room(self) -> Room:
        return self.chat.rooms[CHANNEL]

    def member(self, user_id: int, clicked: Posted | None = None) -> Click:
        """`user_id`'s interaction: a click on `clicked`, or a command in the game's channel."""
        return Click(self.chat, self.room, user_id, NAMES[user_id], clicked)

    async def start(
        self, *, rules: Rules = TWO, seat: int = 0, members: dict[int, int] | None = None
    ) -> GameSnapshot:
        """Alice starts a game in the channel (against the computer, with `members` seated too)."""
        opening = Opening(rules, "easy", seat, thread=False, members=members or {}, names=NAMES)
        await self.table.seats.open(self.member(ALICE), Place(GUILD, CHANNEL), opening, note=[])
        game = await self.table.flow.service.get_active(CHANNEL)
        assert game is not None
        self.game_id = game.id
        return game

    async def game(self) -> GameSnapshot:
        return await self.table.flow.service.get(self.game_id)

    def turn_messages(self) -> list[Posted]:
        """The messages whose buttons play the game now (one, between writes)."""
        return [m for m in self.room.live() if set(m.actions()) & {THROW, MOVE}]

    def turn_message(self) -> Posted:
        """The one message whose buttons play the game now."""
        [message] = self.turn_messages()
        return message

    async def click(
        self, user_id: int, action: str, *, message: Posted | None = None, move: Move | None = None
    ) -> Click:
        """`user_id` clicks the button of `action` (the first choice, or `move`) on the turn message."""
        message = message or self.turn_message()
        button = pick(message.live(), action, move)
        click = self.member(user_id, message)
        await self.table.flow.click(click, Act(button.game_id, user_id, button.turn, button.move))
        return click

    async def play_turn(self, user_id: int) -> None:
        """`user_id` throws, then plays the first choice, until the turn is no longer theirs."""
        start = (await self.game()).turn_number
        while (game := await self.game()).turn_number == start and game.user_to_move() == user_id:
            await self.click(user_id, THROW if game.pending_throw is None else MOVE)

    async def to_a_choice(self, user_id: int) -> GameSnapshot:
        """Click on (the member's throws, their first choices) until `user_id` has a throw with
        more than one move to choose from."""
        for _ in range(40):
            game = await self.game()
            if (
                game.user_to_move() == user_id
                and game.pending_throw is not None
                and len(game.legal_moves()) > 1
            ):
                return game
            await self.click(await self.to_move(), THROW if game.pending_throw is None else MOVE)
        raise AssertionError("no choice came in 40 clicks")

    async def moves(self) -> int:
        """The game's throws in its move log."""
        store = self.table.flow.store
        async with store.transaction() as session:
            return len(await store.moves(session, self.game_id))

    async def move_rows(self) -> list[MoveRow]:
        """The game's move log as stored: who played each throw, and whether the timer did."""
        store = self.table.flow.store
        async with store.transaction() as session:
            return await store.moves(session, self.game_id)

    async def to_move(self) -> int:
        """The member to act now (a test plays members' turns only)."""
        user = (await self.game()).user_to_move()
        assert user is not None
        return user

    async def stored(self) -> None:
        """Wait until the turn messages a click noted are stored (bot/core/shown.py)."""
        writing = self.table.flow.shown.writing
        if writing is not None:
            await writing


WAIT_SECONDS = 20.0
"""A deadline, not a pause: generous, as a machine busy with other tests is slow."""


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait for a condition that a task of the layer brings about (a timer's work on the database)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_SECONDS
    while not await check():
        if loop.time() > deadline:
            raise TimeoutError(f"waited {WAIT_SECONDS} s for {what}")
        await asyncio.sleep(0.01)  # the task works on the database, which announces nothing: look again


def pick(buttons: tuple[Button, ...], action: str, move: Move | None = None) -> Button:
    for button in buttons:
        if button.action == action and (action != MOVE or move is None or button.move == move):
            return button
    raise AssertionError(f"no {action} button among {[b.action for b in buttons]}")
