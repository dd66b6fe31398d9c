"""Golden transcripts of a table: what each member reads of a game, in English and in Hindi,
committed for review.

Two members, Asha and Ravi, play a scripted four-player game through the table layer over the
in-memory chat: the table opens in a thread with its card in the channel, Ravi takes a seat with
the card's button, Asha throws and moves by the buttons (asking for a Hint once) and by typed
commands, the layer restarts in the middle, Ravi leaves, takes another seat and resigns, Asha leaves
and the computers play the game to its result, Asha asks for a rematch, Ravi may not end it and
Asha does. Everything the layer writes is written down step by step: each message posted or changed
in the channel and the thread (text, files, buttons with their action), and each answer only one
member sees, under their name. The result must equal `tests/table/transcripts/<language>.txt`; a
changed sentence shows in review as a diff of what members read. After an intended change:

    PACHISI_UPDATE_GOLDEN=1 python -m pytest tests/table/test_transcripts.py

The answers the Discord side composes itself (help, rules, the board, the puzzle, stats, records,
the confirmations) are the golden transcript of tests/e2e/test_transcripts.py.

The script finds turns by the buttons' actions and whose turn it is in the database, never by
words, so it plays the same whatever the sentences say. Throws come from seeded generators, the
clock stands still on a given day, and ids and timestamps are written as names or left out, so the
transcript is the same on every run.
"""

from __future__ import annotations

import datetime
import os
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.core.errors import GameError
from bot.core.present import HINT, JOIN, MOVE, REMATCH, THROW
from bot.core.snapshot import GameSnapshot
from bot.core.texts import ENGLISH, Language, hints
from bot.core.texts.language import choose
from bot.core.texts.refusals import refusal
from bot.table import Table
from bot.table.acts import Act
from bot.table.seats import Opening, Place
from engine import SEAT_NAMES, Move, Rules
from tests.support.chat import Click, Posted, Room
from tests.support.world import CHANNEL, GUILD, World

GOLDEN = Path(__file__).with_name("transcripts")
UPDATE = os.environ.get("PACHISI_UPDATE_GOLDEN") == "1"
DAY = datetime.datetime(2026, 5, 14, 9, 30, tzinfo=datetime.UTC)
"""The clock's day: the season and the records' dates are this day's on every run."""
SEEDS = (41, 42)
"""The throws' seeds before and after the restart."""
ASHA, RAVI = 21, 22
NAMES = {ASHA: "Asha", RAVI: "Ravi"}
FOUR = Rules.parse("classic").with_options(players=4, pieces=2)


# --- writing down what members read --------------------------------------------------------------


@dataclass
class Transcript:
    """The script's steps and what each member read at each, as lines of text."""

    world: World
    lines: list[str] = field(default_factory=list)
    shown: dict[int, object] = field(default_factory=dict)
    """Each message as last written down, by id."""
    numbers: dict[int, int] = field(default_factory=dict)
    """Each message's number in the transcript, by id: ids differ from run to run."""
    language: Language = ENGLISH
    """The members' own language, for what only they read."""
    clicks: list[Click] = field(default_factory=list)
    """Every member's interaction, in order."""
    steps: int = 0
    told: int = 0
    """Answers only one member sees, numbered apart from the chat's messages' ids."""

    def room_name(self, room_id: int) -> str:
        if room_id == CHANNEL:
            return "games"
        thread = self.world.chat.threads.get(room_id)
        return thread[1] if thread is not None else "a channel"

    def plain(self, text: str) -> str:
        """`text` with ids as names and the chat's timestamps left out."""
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + NAMES.get(int(m.group(1)), "someone"), text)
        text = re.sub(r"<#(\d+)>", lambda m: "#" + self.room_name(int(m.group(1))), text)
        return re.sub(r"<t:\d+(?::[a-zA-Z])?>", "<time>", text)

    def number(self, key: int) -> int:
        return self.numbers.setdefault(key, len(self.numbers) + 1)

    def message_lines(self, message: Posted) -> list[str]:
        lines = [f"  | {line}" for line in self.plain(message.content).splitlines()]
        lines += [f"  [file] {name}" for name in message.files]
        buttons = [
            f"[{self.plain(b.label)} -> {b.action}{', disabled' if message.disabled else ''}]"
            for b in message.buttons
        ]
        if buttons:
            lines.append("  " + " ".join(buttons))
        return lines

    def write(self, message: Posted, room: Room) -> None:
        """A message, if it is new or changed since it was last written down."""
        state = (message.content, message.buttons, message.disabled, message.files)
        if self.shown.get(message.id) == state:
            return
        how = "changes to" if message.id in self.shown else f"new in #{self.room_name(room.id)}"
        self.shown[message.id] = state
        self.lines.append(f"everyone: message {self.number(message.id)}, {how}:")
        self.lines += self.message_lines(message)

    def read(self, clicks: list[Click]) -> None:
        """Write down what changed in the rooms, then what only the acting member was told."""
        rooms = self.world.chat.rooms.values()
        for room, message in sorted(((r, m) for r in rooms for m in r.messages), key=lambda p: p[1].id):
            self.write(message, room)
        for click in clicks:
            for text, ephemeral in click.told:
                if ephemeral:
                    self.told -= 1
                    self.lines.append(
                        f"only {click.user_name}: message {self.number(self.told)}, "
                        f"new in #{self.room_name(click.room.id)}:"
                    )
                    self.lines += [f"  | {line}" for line in self.plain(text).splitlines()]

    async def step(self, who: str | None, what: str, action: Callable[[], Awaitable[object]]) -> None:
        """Run `action` (the layer's work is done when it returns) and write down what changed."""
        self.steps += 1
        self.lines += ["", f"== {self.steps}. {who + ': ' if who else ''}{what}"]
        before = len(self.clicks)
        await action()
        self.read(self.clicks[before:])

    def act(self, user_id: int, room: Room, clicked: Posted | None = None) -> Click:
        """A member's interaction in `room` (a click on `clicked`, or a command), kept for `read`."""
        click = Click(self.world.chat, room, user_id, NAMES[user_id], clicked, language=self.language)
        self.clicks.append(click)
        return click

    def text(self) -> str:
        return "\n".join(self.lines).strip() + "\n"


# --- the script ----------------------------------------------------------------------------------


@dataclass
class Game:
    """The script's table: the transcript, the layer, the game being played."""

    transcript: Transcript
    game_id: int = 0
    thread_id: int = 0

    @property
    def world(self) -> World:
        return self.transcript.world

    @property
    def table(self) -> Table:
        return self.world.table

    @property
    def thread(self) -> Room:
        """Where the game plays now."""
        return self.world.chat.rooms[self.thread_id]

    async def game(self) -> GameSnapshot:
        return await self.table.flow.service.get(self.game_id)

    def newest(self, room: Room, *actions: str) -> Posted:
        return next(m for m in reversed(room.messages) if set(m.actions()) & set(actions))

    async def to_move(self) -> int:
        user = (await self.game()).user_to_move()
        assert user is not None, "no member's turn"
        return user

    async def click(self, user_id: int, message: Posted, action: str, room: Room | None = None) -> None:
        """`user_id` clicks the first button of `action` on `message` (in `room`, else the thread)."""
        button = next(b for b in message.live() if b.action == action)
        where = room or self.thread
        what = (
            f"clicks [{self.transcript.plain(button.label)}] on message {self.transcript.number(message.id)}"
        )

        async def clicked() -> None:
            click = self.transcript.act(user_id, where, message)
            if action == JOIN:
                await self.table.seats.take(click, await self.game(), None)
            elif action == HINT:
                asked = await self.table.hints.ask(button.game_id, user_id, button.turn)
                analysis = await self.table.hints.analysis(asked)
                await click.tell(hints.hint(click.language, asked, analysis))  # as the Hint's answer
            elif action == REMATCH:
                await self.open(click, await self.table.seats.rematch(user_id, button.game_id))
            else:
                await self.table.flow.click(click, Act(button.game_id, user_id, button.turn, button.move))

        await self.transcript.step(NAMES[user_id], what, clicked)

    async def typed(self, user_id: int, command: str, action: Callable[[Click], Awaitable[object]]) -> None:
        """`user_id` types `command` in the thread: `action` is what the command hands the layer."""
        room = self.thread
        what = f"types {command} in #{self.transcript.room_name(room.id)}"
        await self.transcript.step(NAMES[user_id], what, lambda: action(self.transcript.act(user_id, room)))

    async def open(self, click: Click, opening: Opening) -> None:
        """A new table in a new thread of the channel, its card in the channel (as on Discord)."""
        lang = choose(opening.language)
        seats = self.table.seats
        name = await seats.thread_name(lang, click.user_id, click.user_name, CHANNEL)
        thread = await self.world.chat.open_thread(CHANNEL, GUILD, name)
        await seats.open(click, Place(GUILD, thread, card_channel_id=CHANNEL), opening, note=[])
        game = await self.table.flow.service.get_active(thread)
        assert game is not None
        self.game_id, self.thread_id = game.id, thread

    async def turn(self, *, typed: bool = False, hint: bool = False) -> bool:
        """The member to move plays their turn: a throw, then the first choice, by buttons or typed
        (and asks for a Hint first, with `hint`). Whether they had a choice to make."""
        member = await self.to_move()
        message = self.newest(self.thread, THROW, MOVE)
        if THROW in message.actions():
            if typed:
                game = await self.game()
                await self.typed(member, "/pachisi throw", lambda _: self.play(member, game.turn_number))
            else:
                await self.click(member, message, THROW)
            message = self.newest(self.thread, THROW, MOVE)
            if await self.to_move() != member or MOVE not in message.actions():
                return False
        if hint and HINT in message.actions():
            await self.click(member, message, HINT)
        if typed:
            game = await self.game()
            [move, *_] = game.legal_moves()
            await self.typed(
                member, f"/pachisi move choice:{move}", lambda _: self.play(member, game.turn_number, move)
            )
        else:
            await self.click(member, message, MOVE)
        return True

    async def play(self, user_id: int, turn: int, move: Move | None = None) -> None:
        """A typed throw or move, handed to the layer as the command hands it: played and shown in
        the thread (the member's own answer is the command's, tests/e2e/test_transcripts.py)."""
        self.table.flow.names[user_id] = NAMES[user_id]
        await self.table.flow.play(Act(self.game_id, user_id, turn, move))

    async def until_a_choice(self, **how: bool) -> None:
        """Turns until one offers a member a choice (made as `turn` makes it)."""
        for _ in range(12):
            if await self.turn(**how):
                return
        raise AssertionError("no choice in 12 turns")

    async def give_up(self, click: Click, *, resign: bool) -> None:
        """`/pachisi leave`, or `/pachisi resign` confirmed: the seat goes back to the computer."""
        await self.table.seats.give_up(click, await self.game(), resign=resign)

    async def take(self, click: Click, seat: int) -> None:
        await self.table.seats.take(click, await self.game(), seat)

    async def end(self, click: Click) -> None:
        """`/pachisi end`: refused (in the member's words) to whoever may not end the game, else
        confirmed and ended."""
        seats, user = self.table.seats, click.user_id
        try:
            seats.check_may_end(user, await self.game(), can_manage=user == ASHA)
        except GameError as refused:
            await click.tell(refusal(click.language, refused.key, refused.params))
            return
        await seats.end(user, self.game_id, can_manage=user == ASHA)

    async def restart(self) -> None:
        table = self.world.restart()
        ready(table, SEEDS[1])
        await table.resumer.resume([GUILD])


def ready(table: Table, seed: int) -> None:
    """The layer as the bot's extension leaves it (every result carries its story), with seeded throws."""
    table.flow.service.rng = random.Random(seed)
    table.add_result_file(table.hints.story)


async def play_the_script(game: Game) -> None:
    world, transcript = game.world, game.transcript
    members, channel = world.table.flow.service.members, world.room
    await members.set_auto_throw(ASHA, False)  # Asha clicks Throw (/pachisi auto off)
    await members.set_auto_throw(RAVI, True)  # Ravi keeps the bot's default
    opening = Opening(FOUR, "easy", None, thread=True, language=transcript.language.code)
    await transcript.step(
        "Asha",
        "types /pachisi start players:4 pieces:2 in #games",
        lambda: game.open(transcript.act(ASHA, channel), opening),
    )
    await game.click(RAVI, game.newest(channel, JOIN), JOIN, room=channel)
    await game.until_a_choice(hint=True)
    await game.until_a_choice(typed=True)
    await game.turn()
    await transcript.step(None, "the bot restarts", game.restart)
    await game.turn()
    await game.until_a_choice()
    await game.typed(RAVI, "/pachisi leave", lambda c: game.give_up(c, resign=False))
    await game.typed(RAVI, "/pachisi join seat:yellow", lambda c: game.take(c, SEAT_NAMES.index("yellow")))
    await game.typed(RAVI, "/pachisi resign, then [Resign]", lambda c: game.give_up(c, resign=True))
    # the computers play the game to its end: the card offers a rematch
    await game.typed(ASHA, "/pachisi leave", lambda c: game.give_up(c, resign=False))
    await game.click(ASHA, game.newest(channel, REMATCH), REMATCH, room=channel)
    await game.typed(RAVI, "/pachisi end", game.end)  # refused: Asha started it
    await game.typed(ASHA, "/pachisi end, then [End the game]", game.end)


@pytest.mark.parametrize("locale", ["en-US", "hi"])
async def test_members_read_the_golden_transcript(world: World, locale: str) -> None:
    world.clock.moment = DAY
    ready(world.table, SEEDS[0])
    transcript = Transcript(world, language=choose(locale))
    try:
        await play_the_script(Game(transcript))
    except BaseException:
        print(transcript.text())  # what the members read up to the failure, in pytest's report
        raise
    text = transcript.text()
    path = GOLDEN / f"{locale.split('-')[0]}.txt"
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"wrote {path.name}: read it before committing")
    assert text == path.read_text(encoding="utf-8"), (
        f"members now read otherwise than {path.name}: if intended, PACHISI_UPDATE_GOLDEN=1 and review the diff"
    )
