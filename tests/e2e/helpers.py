"""What the end-to-end tests share (their fixtures are in conftest.py): a table of members, driving a
game as its players would, the bot as a subprocess, and reading what it stored."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select

from bot.client import PachisiBot
from bot.core.config import Settings, load_settings
from bot.core.records import game_record
from bot.core.service import GameSnapshot, game_snapshot
from bot.core.store import GameRow, MoveRow, Store
from engine import Position, parse_move
from engine.game import Game
from engine.record import read_record
from localdiscord.driver import Channel, Guild, Member
from localdiscord.server import Button, Message
from tests.e2e.fakediscord import FakeDiscord


@dataclass
class Table:
    """A guild with a games channel and two members, the bot connected."""

    fake: FakeDiscord
    bot: PachisiBot
    guild: Guild
    channel: Channel
    alice: Member
    bob: Member
    database_url: str


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
        "_env_file": None,
    }
    values.update(overrides)
    return load_settings(**values)


# --- driving a game as its players would ------------------------------------------------------

SEAT_BUTTON = "Take a seat"
HINT_BUTTON = "Hint"
"""Asks about the turn without playing it: not a move, so the playing helpers leave it alone."""


def is_final(message: Message) -> bool:
    return " win!**" in message.content or "The game is a draw" in message.content


def final_message(channel: Channel) -> Message | None:
    return next((m for m in reversed(channel.messages) if is_final(m)), None)


def live_buttons(message: Message) -> list[Button]:
    return [b for b in message.buttons if not b.disabled and b.label not in (SEAT_BUTTON, HINT_BUTTON)]


def turn_message(channel: Channel) -> Message | None:
    """The newest message with buttons a player can use for the turn (throw or moves)."""
    return next((m for m in reversed(channel.messages) if live_buttons(m)), None)


def choices_shown(channel: Channel) -> Message | None:
    """The turn message once it offers moves (a throw is pending), else None."""
    message = turn_message(channel)
    return message if message is not None and live_buttons(message)[0].label != "Throw" else None


def turn_state(channel: Channel) -> tuple[int, int, tuple[str | None, ...]] | None:
    """The turn message, how often it was edited (a member's next throw updates it in place), and
    what it offers."""
    message = turn_message(channel)
    if message is None:
        return None
    return (message.id, len(message.edits), tuple(b.label for b in live_buttons(message)))


def player_to_move(message: Message, members: list[Member]) -> Member:
    last_lines = message.content.splitlines()[-2:]
    for member in members:
        if any(line.startswith(f"<@{member.id}>") for line in last_lines):
            return member
    raise AssertionError(f"no player is named to move in {message.content!r}")


async def wait_for_turn_or_end(table: Table, after: object = None, *, timeout: float = 30) -> Message:
    """The next actionable turn message (a different one from `after`), or the final message."""

    def ready() -> Message | None:
        final = final_message(table.channel)
        if final is not None:
            return final
        state = turn_state(table.channel)
        return turn_message(table.channel) if state is not None and state != after else None

    return await table.fake.wait_until(ready, timeout=timeout, what="the next turn or the end")


async def play_out(
    table: Table,
    members: list[Member],
    *,
    by: str = "buttons",
    rng: random.Random | None = None,
    limit: int = 5000,
) -> Message:
    """Play every human turn until the game ends, choosing moves at random; returns the final message."""
    rng = rng or random.Random(1)
    message = await wait_for_turn_or_end(table)
    for _ in range(limit):
        if is_final(message):
            return message
        member = player_to_move(message, members)
        before = turn_state(table.channel)
        labels = [b.label or "" for b in live_buttons(message)]
        if by == "buttons":
            label = "Throw" if labels == ["Throw"] else rng.choice(labels)
            message = await click_until_acknowledged(table, member, message, label, before)
            continue
        if labels == ["Throw"]:
            reply = await member.slash(table.channel, "pachisi throw")
            assert reply.ephemeral
        else:
            choices = await member.autocomplete(table.channel, "pachisi move", "choice", "")
            assert [name[:80] for name, _ in choices] == labels  # the same moves, same letters
            _, value = rng.choice(choices)
            reply = await member.slash(table.channel, "pachisi move", choice=value)
            assert reply.ephemeral
        message = await wait_for_turn_or_end(table, after=before)
    raise AssertionError("the game did not end")


async def click_until_acknowledged(
    table: Table, member: Member, message: Message, label: str, before: object
) -> Message:
    """Click and wait for the next turn; click again when the bot never acknowledged the click.

    A click answered after Discord's 3 s is refused (the user sees "interaction failed" and
    clicks again), which a bot that has just restarted on a loaded machine can cause.
    """
    for _ in range(3):
        reply = await member.click(message, label=label, wait=False)
        try:
            return await wait_for_turn_or_end(table, after=before, timeout=15)
        except TimeoutError:
            if reply.callback_type is not None:
                raise
    raise AssertionError(f"the bot never acknowledged {label!r}")


# --- the bot as a subprocess, and what it stored ------------------------------------------------

REPO_ROOT = Path(__file__).resolve().parents[2]


def subprocess_table(fake: FakeDiscord, database_url: str) -> Table:
    """A Table whose bot runs in another process (so `bot` is not available here)."""
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
    return Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]


def bot_argv() -> list[str]:
    return [sys.executable, "-m", "bot"]


def bot_env(fake: FakeDiscord, database_url: str, **extra: str) -> dict[str, str]:
    """Environment for `python -m bot` on the fake: fast computers, easy level, our database."""
    return {
        **fake.env(),
        "DATABASE_URL": database_url,
        "COMPUTER_PACE_SECONDS": "0",
        "DEFAULT_LEVEL": "easy",
        "DEFAULT_THREAD": "false",
        "DEFAULT_AUTO_THROW": "false",
        "LOG_LEVEL": "INFO",
        **extra,
    }


@dataclass
class StoredGame:
    """One game as the database holds it, with its move log."""

    view: GameSnapshot
    moves: list[MoveRow]


async def stored_games(database_url: str) -> list[StoredGame]:
    """Every game in the database (read with our own store, as another process would)."""
    store = Store(database_url)
    try:
        async with store.transaction() as session:
            rows = (await session.execute(select(GameRow).order_by(GameRow.id))).scalars().all()
            seats = await store.seats_of(session, [row.id for row in rows])
            games = [
                StoredGame(
                    game_snapshot(row, seats.get(row.id, [])), list(await store.moves(session, row.id))
                )
                for row in rows
            ]
    finally:
        await store.close()
    return games


async def check_records(database_url: str) -> None:
    """Each stored game's record (docs/RULES.md, Game records), written and read back, replays to
    the stored position: run after every end-to-end test, so every game the suite plays is checked."""
    store = Store(database_url)
    try:
        async with store.transaction() as session:
            if not await session.run_sync(lambda s: inspect(s.connection()).has_table("games")):
                return
            for row in (await session.execute(select(GameRow).order_by(GameRow.id))).scalars().all():
                seats, moves = await store.seats(session, row.id), await store.moves(session, row.id)
                text = game_record(row, seats, moves).text()
                again = read_record(text)
                assert again.final == Position.parse(row.position), (
                    f"game {row.id}: the record replays elsewhere"
                )
                assert len(again.throws) == row.turn_number
    finally:
        await store.close()


def check_move_log(game: StoredGame) -> None:
    """The log has one row per throw, numbered 0..n-1, and replaying it gives the stored position."""
    numbers = [row.turn_number for row in game.moves]
    assert numbers == list(range(game.view.turn_number)), f"game {game.view.id}: turns {numbers}"
    start = Position.initial(game.view.rules)
    replayed = Game.replay(
        start, [(row.throw, None if row.move is None else parse_move(row.move)) for row in game.moves]
    )
    assert [t.seat for t in replayed.record] == [row.seat for row in game.moves]
    assert replayed.position == game.view.position, f"game {game.view.id}: replay differs"
