"""A table of members on the stand-in, driving a game as its players would: the end-to-end tests,
the benchmarks and the page's tests play here. Which message is the turn comes from the buttons'
custom ids, who is to act from the stored game (play.py), so the helpers play in any language."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from bot.client import PachisiBot
from bot.core.clock import Clock
from bot.core.config import Settings, load_settings
from localdiscord.objects import Button, Message
from tests.support import play
from tests.support.driver import TIMEOUT, Channel, FakeDiscord, Guild, Member, Reply
from tests.support.play import StoredGame
from tests.support.processes import POLL_SECONDS, QUICK_BUCKET_SECONDS, stored_games, wait_for_game


@dataclass
class Table:
    """A guild with a games channel and two members, the bot connected (`bot`: the bot when it runs
    in this process)."""

    fake: FakeDiscord
    bot: PachisiBot
    guild: Guild
    channel: Channel
    alice: Member
    bob: Member
    database_url: str
    games: play.StoredGames = field(init=False, repr=False)
    """The bot's database, read as another process would."""

    def __post_init__(self) -> None:
        self.games = play.StoredGames(self.database_url)


def bot_settings(fake: FakeDiscord, database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": fake.token,
        "database_url": database_url,
        "computer_pace_seconds": 0,
        "turn_timeout_seconds": 300,
        "default_level": "easy",
        # The older tests play in the channel and click Throw; the thread and auto-throw tests
        # (test_tables.py) run with the bot's own defaults.
        "default_thread": False,
        "default_auto_throw": False,
        # The bot in the test's own process does its pictures and decisions on threads: no pool of
        # worker processes to spawn and warm for each test. The pool itself is tested in
        # tests/bot/test_workers.py, and end to end by every test of the bot as a process.
        "workers": 0,
        # A channel's five writes renewed every QUICK_BUCKET_SECONDS (the stand-in has no limit).
        "discord_bucket_seconds": QUICK_BUCKET_SECONDS,
        "_env_file": None,
    }
    values.update(overrides)
    return load_settings(**values)


SEAT_BUTTON = "Take a seat"
HINT_BUTTON = "Hint"
"""English labels, for the tests that click these buttons by what a member reads."""


CARD_ACTIONS = ("pachisi:join:", "pachisi:rematch:")


def is_card(message: Message) -> bool:
    """The table card (its Take a seat or Rematch): it shows the result too, but is not the result."""
    return any((b.custom_id or "").startswith(CARD_ACTIONS) for b in message.buttons)


def is_final(message: Message) -> bool:
    """The message has the shape of a game's result (posted as is, nothing to click, the board)."""
    return play.is_result(message)


def final_message(channel: Channel) -> Message | None:
    """The newest message shaped as the result, posted after the last turn message."""
    return play.result_after(channel.messages)


TURN_ACTIONS = ("pachisi:throw:", "pachisi:move:")


def live_buttons(message: Message) -> list[Button]:
    """The buttons that play the turn (Throw, or the moves), by their custom ids."""
    return play.play_buttons(message)


SEAT_OFFER = "pachisi:join:"
"""The custom id's start of the table card's Take a seat (found by the action, not its words)."""


def seat_offer(channel: Channel) -> Message | None:
    """The message of `channel` that offers a seat (the table card), while one is offered."""
    return next(
        (
            m
            for m in reversed(channel.messages)
            if any(not b.disabled and (b.custom_id or "").startswith(SEAT_OFFER) for b in m.buttons)
        ),
        None,
    )


def seat_button_id(message: Message) -> str:
    return next(b.custom_id or "" for b in message.buttons if (b.custom_id or "").startswith(SEAT_OFFER))


def turn_message(channel: Channel) -> Message | None:
    """The newest message with buttons a player can use for the turn (throw or moves)."""
    return play.turn_message(channel.messages)


def choices_shown(channel: Channel) -> Message | None:
    """The turn message once it offers moves (a throw is pending), else None."""
    message = turn_message(channel)
    return message if message is not None and play.offers_moves(message) else None


def turn_state(channel: Channel) -> tuple[int, int, tuple[str | None, ...]] | None:
    """The turn message, how often it was edited (a member's next throw updates it in place), and
    what it offers."""
    return play.turn_state(channel.messages)


class MovableClock(Clock):
    """The bot's clock run ahead of real time by `advance`, waking whoever waits for a moment now
    reached (turn timers): the test moves time instead of sleeping through it."""

    def __init__(self) -> None:
        self.offset = datetime.timedelta()
        self._moved = asyncio.Event()

    def now(self) -> datetime.datetime:
        return datetime.datetime.now(datetime.UTC) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += datetime.timedelta(seconds=seconds)
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep_until(self, moment: datetime.datetime) -> None:
        while (left := (moment - self.now()).total_seconds()) > 0:
            moved = self._moved
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), timeout=left)


async def waits_for_the_starter(table: Table) -> None:
    """Alice turns auto-throw off, so a game she starts waits for her Throw: with auto-throw on, a
    two-piece game can end inside the start's own call, before a test reads the open table."""
    await table.alice.slash(table.channel, "pachisi auto", mode="off")


async def to_move(table: Table, message: Message, members: list[Member]) -> Member | None:
    """The member of `members` whose turn `message` shows, by the stored game (None: none of them)."""
    user_id = await table.games.to_move(message)
    return next((m for m in members if m.id == user_id), None)


async def player_to_move(table: Table, message: Message, members: list[Member]) -> Member:
    member = await to_move(table, message, members)
    if member is None:
        raise AssertionError(f"no player of {[m.name for m in members]} is to move in {message.content!r}")
    return member


def turn_or_end(channel: Channel, after: object = None, refused: Collection[int] = ()) -> Message | None:
    """The result, or the actionable turn message if its state differs from `after`. `refused`:
    messages shaped as a result that the stored game says are not."""
    final = final_message(channel)
    if final is not None and final.id not in refused:
        return final
    state = turn_state(channel)
    return turn_message(channel) if state is not None and state != after else None


async def wait_for_turn_or_end(table: Table, after: object = None, *, timeout: float = TIMEOUT) -> Message:
    """The next actionable turn message (a different one from `after`), or the result, once the
    stored game is over."""
    refused: set[int] = set()
    while True:
        found: Message = await table.fake.wait_until(
            lambda: turn_or_end(table.channel, after, refused),
            timeout=timeout,
            what="the next turn or the end",
            channel=table.channel,
        )
        if not play.is_result(found) or await table.games.over_in(table.channel.id):
            return found
        refused.add(found.id)


async def play_out(
    table: Table,
    members: list[Member],
    *,
    by: str = "buttons",
    rng: random.Random | None = None,
    limit: int = 5000,
) -> Message:
    """Play every human turn until the game ends, choosing moves at random; returns the result."""
    rng = rng or random.Random(1)
    message = await wait_for_turn_or_end(table)
    for _ in range(limit):
        if is_final(message):
            return message
        before = turn_state(table.channel)
        member = await to_move(table, message, members)
        if member is None or turn_state(table.channel) != before:
            # The stored game is past this message (the bot will show it), or the turn moved on
            # while it was read: look again shortly.
            await asyncio.sleep(POLL_SECONDS)  # the bot will show the game as it stands: look again shortly
            message = await wait_for_turn_or_end(table)
            continue
        if by == "buttons":
            choice = rng.choice(live_buttons(message))
            message = await click_until_acknowledged(
                table, member, message, None, before, custom_id=choice.custom_id
            )
            continue
        if not play.offers_moves(message):
            reply = await member.slash(table.channel, "pachisi throw")
            assert reply.ephemeral
        else:
            labels = [b.label or "" for b in live_buttons(message)]
            choices = await member.autocomplete(table.channel, "pachisi move", "choice", "")
            assert [name.split(" · ")[0] for name, _ in choices] == labels  # the same moves, same letters
            _, value = rng.choice(choices)
            reply = await member.slash(table.channel, "pachisi move", choice=value)
            assert reply.ephemeral
        message = await wait_for_turn_or_end(table, after=before)
    raise AssertionError("the game did not end")


WHOLE_GAME = 4 * TIMEOUT
"""The deadline of one wait that spans the rest of a game played by clicks (each turn within
TIMEOUT): a few dozen turns, about ten seconds on a quiet machine."""
CLICKS = 3
"""How often a member clicks a button that Discord reports failed before the test gives up."""


async def click_until_acknowledged(
    table: Table,
    member: Member,
    message: Message,
    label: str | None,
    before: object,
    *,
    custom_id: str | None = None,
) -> Message:
    """Click (the button with `label`, or with `custom_id`) and wait for the next turn; click again
    when Discord gave up on the click.

    A click the bot does not acknowledge within Discord's 3 s fails (the member sees "This
    interaction failed" and clicks again), which a bot busy starting on a loaded machine can cause.
    The click is made again only while the turn is still the one clicked (`before`).
    """
    what = label or custom_id
    for _ in range(CLICKS):
        reply = await member.click(message, label, custom_id=custom_id, wait=False)

        def settled(reply: Reply = reply) -> Message | bool | None:
            return turn_or_end(table.channel, before) or table.fake.expired(reply)

        turn = await table.fake.wait_until(settled, what=f"the turn after {what!r}, or the click failed")
        if isinstance(turn, Message):
            if play.is_result(turn) and not await table.games.over_in(table.channel.id):
                return await wait_for_turn_or_end(table, before)
            return turn
    raise AssertionError(f"Discord gave up on {CLICKS} clicks of {what!r}: the bot never acknowledged one")


async def play_turns(table: Table, turns: int, rng: random.Random | None = None) -> None:
    """Alice plays `turns` of her turns by buttons (the computers play their own), or to the end."""
    rng = rng or random.Random(turns)
    for _ in range(turns):
        message = await wait_for_turn_or_end(table)
        if is_final(message):
            return
        labels = [b.label or "" for b in live_buttons(message)]
        label = "Throw" if labels == ["Throw"] else rng.choice(labels)
        await click_until_acknowledged(table, table.alice, message, label, turn_state(table.channel))


def subprocess_table(fake: FakeDiscord, database_url: str) -> Table:
    """A Table whose bot runs in another process (so `bot` is not available here)."""
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
    return Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]


async def time_passes(
    table: Table, clock: MovableClock, seconds: float, *, then: Callable[[StoredGame], bool]
) -> StoredGame:
    """Once the bot's turn timer for the game waits, move its clock on by `seconds`, and wait
    until the game shows it (`then`): a turn timer fired without the test sleeping through it."""
    flow = table.bot.table.flow  # the in-process bot's game flow runs the timers
    [game] = await stored_games(table.database_url)

    def armed() -> bool:
        task = flow.timers.tasks.get(game.snapshot.id)
        return task is not None and not task.done()

    await table.fake.wait_until(armed, what="the turn timer")
    clock.advance(seconds)
    return await wait_for_game(table.database_url, then, what="the game after the time passed")
