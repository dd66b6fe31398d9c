"""Members come and go through Discord: joining by command, ending a game, the last member leaving."""

from __future__ import annotations

import asyncio

from bot.cogs.pachisi.views import CONFIRM_YES
from bot.core.texts import ENGLISH, answers
from engine.game import Termination
from tests.support.processes import stored_games
from tests.support.table import (
    Table,
    final_message,
    wait_for_turn_or_end,
)


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
    """The confirmation's answer was left at "Working on it...": it becomes what happened, in the
    member's own words; the table reads the news once."""
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
    assert confirm.content == f"You ended the game after {game.snapshot.turn_number} throws."
    news = f"<@{table.alice.id}> ended the game after {game.snapshot.turn_number} throws."
    assert len([m for m in table.channel.messages if news in m.content]) == 1, "the table reads it once"
    assert confirm.buttons == [] and confirm.ephemeral


async def test_the_last_member_who_leaves_is_said_to_leave_and_the_computers_finish(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=1, level="easy")
    turn = await wait_for_turn_or_end(table)
    reply = await table.alice.slash(table.channel, "pachisi leave")
    assert reply.ephemeral, "her own word, only to her: the table reads the news"
    assert reply.content == "You left: the computer plays Black now. Take a seat again with /pachisi join."
    news = (
        f"<@{table.alice.id}> leaves; the computer plays Black. "
        "No member is left at the table: the computers play the game to its end."
    )
    await table.fake.wait_until(lambda: final_message(table.channel), what="the game's result")
    # The message that offered Alice her turn is closed, and says why: the news, said once.
    assert not turn.buttons and turn.content.splitlines()[-1] == news
    assert [m for m in table.channel.messages if news in m.content] == [turn]
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


async def test_a_double_click_on_end_the_game_keeps_the_answer_of_the_first(table: Table) -> None:
    """The second click of a double click on "End the game" arrives before the buttons are gone:
    it is acknowledged and changes nothing, instead of turning the answer into "this game is over"."""
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=4, level="easy")
    await wait_for_turn_or_end(table)
    question = await table.alice.slash(table.channel, "pachisi end")
    confirm = question.message
    assert confirm is not None
    asked = confirm.content
    first = await table.alice.click(confirm, custom_id=CONFIRM_YES, wait=False)
    second = await table.alice.click(confirm, custom_id=CONFIRM_YES, wait=False)
    await first.wait()
    await second.wait()
    [game] = await stored_games(table.database_url)
    ended = f"You ended the game after {game.snapshot.turn_number} throws."  # her own word; the news is the table's
    working = answers.working(ENGLISH)
    await table.fake.wait_until(
        lambda: confirm.content not in (asked, working), what="the confirmation's answer"
    )
    await asyncio.sleep(0.5)  # anything the second click would write comes now
    assert confirm.content == ended and second.deferred
    assert not [m for m in table.channel.messages if m.ephemeral and "over" in m.content]
