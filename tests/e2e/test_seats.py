"""Members come and go: a second member takes a computer's seat mid-game, and gives it back."""

from __future__ import annotations

import random

from bot.backup import replay_all, sqlite_path
from bot.cogs.pachisi.views import CONFIRM_YES
from bot.core.texts import ENGLISH, answers
from engine.game import Outcome, Termination
from tests.support.processes import check_move_log, check_records, stored_games, wait_for
from tests.support.table import (
    SEAT_OFFER,
    Table,
    final_message,
    is_final,
    live_buttons,
    play_out,
    player_to_move,
    seat_button_id,
    seat_offer,
    to_move,
    turn_or_end,
    turn_state,
    wait_for_turn_or_end,
)


async def play_turns(table: Table, count: int) -> None:
    """Alice plays `count` of her turns by buttons (the computers play in between)."""
    rng = random.Random(7)
    for _ in range(count):
        message = await wait_for_turn_or_end(table)
        assert not is_final(message)
        before = turn_state(table.channel)
        labels = [b.label or "" for b in live_buttons(message)]
        await table.alice.click(message, "Throw" if labels == ["Throw"] else rng.choice(labels))
        await wait_for_turn_or_end(table, after=before)


async def test_a_second_member_takes_a_computer_seat_then_leaves(table: Table) -> None:
    # Four pieces: with two, Red is offered fewer than three choices in 1 game in 8, and the game
    # could end before Bob played.
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=4, level="easy")
    await play_turns(table, 4)
    message = await wait_for_turn_or_end(table)
    assert not any(b.custom_id.startswith(SEAT_OFFER) for b in message.buttons)  # the player's buttons only
    card = seat_offer(table.channel)
    assert card is not None and card.id < message.id  # the table card, ahead of the turns
    reply = await table.bob.click(card, custom_id=seat_button_id(card))
    assert not reply.ephemeral
    assert reply.content == f"<@{table.bob.id}> takes **Red** (Red + Green)."
    [game] = await stored_games(table.database_url)
    assert game.snapshot.seat_of(table.bob.id) == 1
    taken_at = game.snapshot.turn_number

    # Bob is asked to play Red's turns now, and does, by buttons, until he has played a few.
    members = [table.alice, table.bob]
    rng = random.Random(3)
    bob_played = 0
    while bob_played < 3:
        message = await wait_for_turn_or_end(table)
        assert not is_final(message), "the game ended before Bob played"
        member = await player_to_move(table, message, members)
        before = turn_state(table.channel)
        labels = [b.label or "" for b in live_buttons(message)]
        await member.click(message, "Throw" if labels == ["Throw"] else rng.choice(labels))
        bob_played += member is table.bob and labels != ["Throw"]
        await wait_for_turn_or_end(table, after=before)
    [game] = await stored_games(table.database_url)
    red_rows = [m for m in game.moves if m.seat == 1 and m.turn_number >= taken_at]
    assert red_rows and all(m.actor_id == table.bob.id for m in red_rows)

    # Bob leaves: the computer plays Red again, and Alice finishes the game alone.
    reply = await table.bob.slash(table.channel, "pachisi leave")
    assert not reply.ephemeral
    assert reply.content == f"<@{table.bob.id}> leaves; the computer plays Red."
    left_at = (await stored_games(table.database_url))[0].snapshot.turn_number
    # The leave is answered before the turn message is updated: wait until it asks Bob no more.

    async def bob_asked_no_more() -> bool:
        m = turn_or_end(table.channel)
        return m is not None and (is_final(m) or await to_move(table, m, [table.bob]) is None)

    await wait_for(bob_asked_no_more, what="the turn message no longer Bob's")
    final = await play_out(table, [table.alice], by="buttons")  # a turn naming Bob would fail here
    assert is_final(final)
    [game] = await stored_games(table.database_url)
    assert game.snapshot.seats[1].user_id is None
    assert all(m.actor_id is None for m in game.moves if m.seat == 1 and m.turn_number >= left_at)


async def test_join_by_command_names_the_seat_and_refuses_a_taken_one(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=1, level="easy")
    await wait_for_turn_or_end(table)
    reply = await table.bob.slash(table.channel, "pachisi join", seat="yellow")
    assert reply.content == f"<@{table.bob.id}> takes **Yellow** (Black + Yellow)."
    reply = await table.bob.slash(table.channel, "pachisi join", seat="green")
    assert reply.ephemeral
    assert reply.content == "You already play Yellow: /pachisi leave first to change seats."
    carol = table.guild.add_member("Carol")
    reply = await carol.slash(table.channel, "pachisi join", seat="black")
    assert reply.ephemeral
    assert reply.content == "Black is taken: free seats are Red and Green."
    [game] = await stored_games(table.database_url)
    assert game.snapshot.seats[0].user_id == table.alice.id and game.snapshot.seats[2].user_id == table.bob.id


async def test_ending_a_game_says_what_happened_where_it_was_confirmed(table: Table) -> None:
    """The confirmation's answer was left at "Working on it...": it becomes what happened."""
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=4, level="easy")
    await wait_for_turn_or_end(table)
    question = await table.alice.slash(table.channel, "pachisi end")
    confirm = question.message
    assert question.ephemeral and confirm is not None
    asked = confirm.content
    await table.alice.click(confirm, custom_id=CONFIRM_YES)
    working = answers.working(ENGLISH)
    await table.fake.wait_until(
        lambda: confirm.content not in (asked, working), what="the confirmation's answer"
    )
    [game] = await stored_games(table.database_url)
    assert game.snapshot.status == "abandoned"
    assert confirm.content == f"<@{table.alice.id}> ended the game after {game.snapshot.turn_number} throws."
    assert confirm.buttons == [] and confirm.ephemeral


async def test_resigning_a_two_player_game_concedes_it_and_its_record_replays(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
    await wait_for_turn_or_end(table)
    question = await table.alice.slash(table.channel, "pachisi resign")
    confirm = question.message
    assert question.ephemeral and confirm is not None, "asked first"
    assert (await stored_games(table.database_url))[0].snapshot.status == "active"
    await table.alice.click(confirm, custom_id=CONFIRM_YES)
    news = f"<@{table.alice.id}> resigns: **Yellow wins** by resignation"
    said = await table.fake.wait_until(
        lambda: next((m for m in table.channel.messages if m.content.startswith(news)), None),
        what="the resignation's news",
    )
    assert not said.ephemeral
    [game] = await stored_games(table.database_url)
    assert game.snapshot.outcome == Outcome(Termination.RESIGNATION, game.snapshot.position.side_of(2))
    # The record written from the rows replays to the game as stored, and a backup takes it.
    await check_records(table.database_url)
    check_move_log(game)
    assert replay_all(sqlite_path(table.database_url)) == (1, len(game.moves))


async def test_the_last_member_who_leaves_is_said_to_leave_and_the_computers_finish(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=1, level="easy")
    turn = await wait_for_turn_or_end(table)
    reply = await table.alice.slash(table.channel, "pachisi leave")
    assert not reply.ephemeral
    news = (
        f"<@{table.alice.id}> leaves; the computer plays Black. "
        "No member is left at the table: the computers play the game to its end."
    )
    assert reply.content == news
    await table.fake.wait_until(lambda: final_message(table.channel), what="the game's result")
    # The message that offered Alice her turn is closed, and says why.
    assert not turn.buttons and turn.content.splitlines()[-1] == news
    [game] = await stored_games(table.database_url)
    assert (
        game.snapshot.outcome is not None and game.snapshot.outcome.termination is not Termination.RESIGNATION
    )
    assert all(info.user_id is None for info in game.snapshot.seats.values())


async def test_join_offers_only_the_seats_a_member_may_take(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=1, level="easy")
    await wait_for_turn_or_end(table)
    offered = await table.bob.autocomplete(table.channel, "pachisi join", "seat", "")
    assert [value for _, value in offered] == ["red", "yellow", "green"], "Black is Alice's"
    typed = await table.bob.slash(table.channel, "pachisi join", seat="purple")
    assert typed.ephemeral and typed.content.startswith("That seat is not in play")


async def test_a_member_without_a_seat_hears_why_before_any_confirmation_to_end(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
    await wait_for_turn_or_end(table)
    reply = await table.bob.slash(table.channel, "pachisi end")
    assert reply.ephemeral and not reply.components
    assert reply.content.startswith("You have no seat in this game")
