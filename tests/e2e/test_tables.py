"""Tables as members meet them with the bot's defaults: a thread per table with one table card in
the channel, the bot throwing for members, turns told in board words, pings only where due."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

import pytest

from bot.core.texts.turns import log_lines
from localdiscord.objects import Message
from tests.support import play
from tests.support.driver import Channel
from tests.support.processes import stored_games
from tests.support.table import (
    Table,
    final_message,
    is_final,
    live_buttons,
    waits_for_the_starter,
)

QUICK = {"players": 2, "pieces": 2, "level": "easy"}
ONE_PIECE = {**QUICK, "pieces": 1}
"""With auto-throw every throw of a one-piece game has one move at most: it plays itself."""


@pytest.fixture
async def tables(start_table: Callable[..., AbstractAsyncContextManager[Table]]) -> AsyncIterator[Table]:
    async with start_table(default_thread=True, default_auto_throw=True) as table_:
        yield table_


async def the_thread(table: Table, count: int = 1) -> Channel:
    threads = await table.fake.wait_until(
        lambda: table.channel.threads if len(table.channel.threads) >= count else None,
        what="a thread",
    )
    return threads[count - 1]


def asking(thread: Channel) -> Message | None:
    """The message that waits for a member's choice (or a Throw), if any."""
    return next((m for m in reversed(thread.messages) if live_buttons(m)), None)


def ended(thread: Channel) -> Message | None:
    return next((m for m in reversed(thread.messages) if is_final(m)), None)


async def play_to_the_end(table: Table, thread: Channel, rng: random.Random, limit: int = 2000) -> Message:
    """Click a random choice whenever one is offered, until the result is posted."""
    seen: tuple[int, int] | None = None  # a board already clicked: its message and edit count
    for _ in range(limit):

        def ready(seen: object = seen) -> Message | None:
            if (final := ended(thread)) is not None:
                return final
            message = asking(thread)
            if message is None or (message.id, len(message.edits)) == seen:
                return None
            return message

        message = await table.fake.wait_until(ready, what="a choice or the end")
        if is_final(message):
            return message
        labels = [b.label or "" for b in live_buttons(message)]
        seen = (message.id, len(message.edits))
        prompt = message.content.splitlines()[len(log_lines(message.content))]  # the line after the log
        member = next(m for m in (table.alice, table.bob) if f"<@{m.id}> (" in prompt)
        await member.click(message, rng.choice(labels), wait=False)
    raise AssertionError("the game did not end")


async def test_a_table_plays_in_its_thread_with_one_card_in_the_channel(tables: Table) -> None:
    await waits_for_the_starter(tables)
    reply = await tables.alice.slash(tables.channel, "pachisi start", **QUICK)
    thread = await the_thread(tables)
    assert thread.name == "Pachisi: Alice's table"
    assert reply.ephemeral and f"<#{thread.id}>" in reply.content
    [card] = tables.channel.messages
    assert f"<#{thread.id}>" in card.content and "Take a seat" in [b.label for b in card.buttons]
    assert f"Black: <@{tables.alice.id}>" in card.content and "Yellow: Computer (easy)" in card.content

    await tables.bob.click(card, "Take a seat")
    await tables.fake.wait_until(
        lambda: f"Yellow: <@{tables.bob.id}>" in card.content, what="the card's seats"
    )
    assert "Take a seat" not in [b.label for b in card.buttons]  # no computer seat left

    final = await play_to_the_end(tables, thread, random.Random(3))
    await tables.fake.wait_until(lambda: play.buttons_for(card, play.REMATCH), what="the result on the card")
    assert tables.channel.messages == [card]  # one message in the channel for the whole game
    assert [b.label for b in card.buttons] == ["Rematch"]
    assert "Throws:" in card.content and "Captures:" in card.content and "Duration:" in card.content
    assert f"<@{tables.alice.id}>" in final.content
    # Moves are told in board words, with who made them; no route step numbers.
    lines = [line for m in thread.messages for line in m.content.splitlines() if line.startswith("`")]
    assert lines and all(
        re.search(r"(<@\d+>|Computer \(\w+( \w+)*\)), (Black|Yellow):", line) for line in lines
    )
    assert not any(re.search(r"\bon \d+ to \d+\b", line) for line in lines)


async def test_without_thread_permissions_the_game_plays_in_the_channel_and_says_why(tables: Table) -> None:
    tables.fake.deny_bot(tables.channel, "create_public_threads")
    reply = await tables.alice.slash(tables.channel, "pachisi start", **QUICK)
    assert "Create Public Threads" in reply.content and reply.ephemeral
    assert tables.channel.threads == []
    await tables.fake.wait_until(lambda: asking(tables.channel) or ended(tables.channel), what="the game")
    (game,) = await stored_games(tables.database_url)
    assert game.snapshot.channel_id == tables.channel.id and game.snapshot.card_channel_id is None


async def test_start_inside_a_thread_plays_there(tables: Table) -> None:
    await waits_for_the_starter(tables)
    await tables.alice.slash(tables.channel, "pachisi start", **QUICK)
    thread = await the_thread(tables)
    (first,) = await stored_games(tables.database_url)
    await tables.alice.slash(thread, "pachisi end")  # the first table ends...

    def confirmation() -> Message | None:  # ephemeral; it may follow a deferred answer
        messages = tables.fake.server.channel_messages[thread.id]
        return next((m for m in messages if "End the game" in [b.label for b in m.buttons]), None)

    confirm = await tables.fake.wait_until(confirmation, what="the confirmation")
    await tables.alice.click(confirm, "End the game")
    await tables.fake.wait_until(  # closing the turn and the card may wait on a cold renderer
        lambda: any("ended the game" in m.content for m in thread.messages), what="the end"
    )
    reply = await tables.bob.slash(thread, "pachisi start", **QUICK)  # ...and a new one starts in its thread
    assert reply.ephemeral and "Your game has started" in reply.content
    stored = await stored_games(tables.database_url)
    assert [g.snapshot.channel_id for g in stored] == [thread.id, thread.id]
    assert stored[0].snapshot.status == "abandoned" and first.snapshot.id == stored[0].snapshot.id
    assert len(tables.channel.threads) == 1 and stored[1].snapshot.card_channel_id is None


async def test_the_bot_throws_for_members_and_asks_only_for_real_choices(tables: Table) -> None:
    await tables.alice.slash(tables.channel, "pachisi start", players=4, pieces=2, level="easy")
    thread = await the_thread(tables)
    rng = random.Random(5)
    forced = re.compile(rf"<@{tables.alice.id}>, Black: (the only move: piece|threw \d+, no move)")

    def told() -> str:
        return "\n".join(
            text for m in thread.messages for text in [*(v["content"] for v in m.edits), m.content]
        )

    for _ in range(60):
        message = await tables.fake.wait_until(lambda: asking(thread) or ended(thread), what="a choice")
        if is_final(message) or forced.search(told()):
            break
        labels = [b.label or "" for b in live_buttons(message)]
        assert "Throw" not in labels and len(labels) >= 2, labels  # a member is asked only to choose
        state = (message.id, len(message.edits))

        def moved_on(state: tuple[int, int] = state) -> bool:
            shown = asking(thread)
            return ended(thread) is not None or (shown is not None and (shown.id, len(shown.edits)) != state)

        await tables.alice.click(message, rng.choice(labels))
        await tables.fake.wait_until(moved_on, what="the next board")
    assert forced.search(told()), told()


async def test_auto_off_gives_a_throw_button_and_on_takes_it_away(tables: Table) -> None:
    off = await tables.alice.slash(tables.channel, "pachisi auto", mode="off")
    assert off.ephemeral and "Auto-throw is off" in off.content
    await tables.alice.slash(tables.channel, "pachisi start", **QUICK)
    thread = await the_thread(tables)
    message = await tables.fake.wait_until(lambda: asking(thread), what="the Throw button")
    assert [b.label for b in live_buttons(message)] == ["Throw"]
    on = await tables.alice.slash(thread, "pachisi auto", mode="on")
    assert "Auto-throw is on" in on.content
    assert await tables.bot.service.members.auto_throw(tables.alice.id)
    assert await tables.bot.service.members.auto_throw(tables.bob.id)  # Bob never chose: the default


async def test_pings_go_only_to_players_with_a_choice_waiting_or_a_piece_captured(tables: Table) -> None:
    await tables.alice.slash(tables.channel, "pachisi start", players=4, pieces=2, level="easy")
    thread = await the_thread(tables)
    await play_to_the_end(tables, thread, random.Random(11))
    players = {tables.alice.id}
    for message in [*thread.messages, *tables.channel.messages]:
        assert set(message.pinged) <= players, message.content
        posted = message.edits[0]["content"] if message.edits else message.content  # as it pinged
        if message.pinged and not is_final(message):
            prompt = posted.splitlines()[len(log_lines(posted)) :]  # the lines after the log
            waits = any(line.startswith(f"<@{tables.alice.id}> (") for line in prompt)
            captured = f"**<@{tables.alice.id}>**'s" in posted
            assert waits or captured, message.content
    assert tables.channel.messages[0].pinged == []  # the card pings nobody


async def test_rematch_opens_a_new_thread_with_the_same_seats(tables: Table) -> None:
    await tables.alice.slash(tables.channel, "pachisi start", seat="yellow", **{**ONE_PIECE, "level": "hard"})
    thread = await the_thread(tables)
    await play_to_the_end(tables, thread, random.Random(2))
    card = tables.channel.messages[0]
    await tables.fake.wait_until(lambda: "Rematch" in [b.label for b in card.buttons], what="Rematch")
    refused = await tables.bob.click(card, "Rematch")
    assert "Only the players of this game" in refused.content and refused.ephemeral
    first = await tables.alice.click(card, "Rematch", wait=False)  # a double click
    again = await tables.alice.click(card, "Rematch", wait=False)
    await first.wait()
    await again.wait()
    second = await the_thread(tables, 2)
    games = await stored_games(tables.database_url)
    new = games[-1].snapshot
    assert new.channel_id == second.id and new.rules == games[0].snapshot.rules
    assert new.seats[2].user_id == tables.alice.id and new.seats[0].level == "hard"
    told = await tables.fake.wait_until(lambda: again.message, what="the second click's answer")
    assert told.ephemeral and told.content == f"The rematch has already started: <#{second.id}>."
    assert len(games) == 2 and len(tables.channel.threads) == 2, "one rematch"
    assert len(tables.channel.messages) == 2  # one card per table
    assert all(b.disabled for b in card.buttons), "the used Rematch is greyed"


async def test_refusals_say_what_to_do_and_never_echo_input_whole(tables: Table) -> None:
    long = "escape_hatch=maybe," + "x" * 150
    reply = await tables.alice.slash(tables.channel, "pachisi start", rules=long)
    assert reply.ephemeral and reply.content == "`escape_hatch` takes `on` or `off`, not `maybe`."
    reply = await tables.alice.slash(tables.channel, "pachisi start", rules="x" * 150)
    assert reply.ephemeral and reply.content.startswith("I know no rule option `xxx")
    assert "x" * 60 not in reply.content and "pick the options from the list" in reply.content
    choices = await tables.alice.autocomplete(tables.channel, "pachisi start", "rules", "last")
    assert (
        "last_square=off: last_square=off freezes about 96 % of games: no piece can come home",
        "last_square=off",
    ) in choices
    for games in range(1, 6):  # a game can end before Alice is ever asked to choose
        await tables.alice.slash(tables.channel, "pachisi start", **QUICK)
        thread = await the_thread(tables, games)
        message = await tables.fake.wait_until(
            lambda: asking(thread) or final_message(thread),  # noqa: B023
            what="a choice or the end",
        )
        if not is_final(message):
            break
    carol = tables.guild.add_member("Carol")
    refused = await carol.click(message, live_buttons(message)[0].label or "")
    assert refused.content == "You are not playing in this game: take a computer's seat with /pachisi join."
    ended = await carol.slash(thread, "pachisi end")
    assert ended.ephemeral and ended.content.startswith("You have no seat in this game, and only the member")
    assert ended.components == []  # refused before any confirmation is shown
    early = await tables.alice.slash(thread, "pachisi move", choice="Z")
    assert early.content.startswith("`Z` is not a move of this throw: choose ")
