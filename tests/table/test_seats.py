"""Seats changing hands at a table, through the table layer: taking a computer's seat, leaving
and resigning, ending a game and its rematch, and where the news goes."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest

from bot.backup import replay_all, sqlite_path
from bot.core import present
from bot.core.errors import NotAllowed, NotPlaying
from bot.core.present import REMATCH, THROW
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import ENGLISH, table
from bot.table.seats import Opening, Place
from engine import Rules
from engine.game import Outcome, Termination
from tests.support.chat import Click
from tests.support.processes import check_records
from tests.support.world import ALICE, BOB, CAROL, CHANNEL, GUILD, NAMES, TWO, World


async def test_a_member_takes_a_computers_seat_and_the_table_is_told(world: World) -> None:
    game = await world.start()
    card = world.room.find(game.card_message_id or 0)
    click = world.member(BOB)
    await world.table.seats.take(click, game, None)
    after = await world.game()
    assert after.seat_of(BOB) == TWO.seats[1]
    [(news, ephemeral)] = click.told
    assert not ephemeral and f"<@{BOB}>" in news, "news for the table, in the channel"
    assert card.edits == 1 and f"<@{BOB}>" in card.content


async def test_news_of_a_seat_taken_from_another_channel_goes_to_the_games_channel(world: World) -> None:
    game = await world.start()
    elsewhere = Click(world.chat, world.chat.room(200), BOB, NAMES[BOB])
    await world.table.seats.take(elsewhere, game, None)
    [(told, ephemeral)] = elsewhere.told
    assert ephemeral and f"<#{game.channel_id}>" in told, "the member is told where the game plays"
    assert any(f"<@{BOB}>" in m.content for m in world.room.messages[2:]), "the table reads the news"


async def test_a_member_who_leaves_on_their_turn_hands_it_to_the_computer(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    message = world.turn_message()
    click = world.member(ALICE)
    await world.table.seats.give_up(click, game, resign=False)
    after = await world.game()
    assert after.seat_of(ALICE) is None and after.seats[TWO.seats[0]].user_id is None
    assert after.user_to_move() == BOB, "the computer played Alice's turn"
    assert not message.live() and BOB in world.turn_message().pings
    await world.play_turn(BOB)
    rows = await world.move_rows()
    assert {r.actor_id for r in rows if r.seat == TWO.seats[1]} == {BOB}, "Bob's moves are his"
    assert {r.actor_id for r in rows if r.seat == TWO.seats[0]} == {None}, "the computer's after she left"


async def test_a_two_player_resignation_concedes_and_the_result_carries_the_tables_files(
    world: World, tmp_path: Path
) -> None:
    world.table.add_result_file(world.table.hints.story)
    game = await world.start()
    await world.table.seats.give_up(world.member(ALICE), game, resign=True)
    after = await world.game()
    assert after.status == Status.FINISHED
    assert after.outcome == Outcome(Termination.RESIGNATION, after.position.side_of(TWO.seats[1]))
    [result] = [m for m in world.room.messages if "story.png" in m.files]
    assert "board.png" in result.files and ALICE in result.pings
    assert world.room.find(game.card_message_id or 0).actions() == [REMATCH], "the card offers a rematch"
    world.table.remove_result_file(world.table.hints.story)
    assert not world.table.flow.writer.result_files
    # The record written from the rows replays to the game as stored, and a backup takes it.
    url = f"sqlite+aiosqlite:///{tmp_path / 'pachisi.sqlite3'}"
    await check_records(url)
    assert replay_all(sqlite_path(url)) == (1, await world.moves())


def said(world: World, text: str) -> int:
    """How many of the channel's messages say `text`."""
    return sum(text in message.content for message in world.room.messages)


@pytest.mark.parametrize("on_turn", [True, False], ids=["on-turn", "off-turn"])
async def test_a_leave_is_news_once_for_the_table_and_a_word_for_the_member(
    world: World, on_turn: bool
) -> None:
    """Issue 58, slip 14: the member who leaves is told so, only them; the table reads the news
    once, on the turn message the leave closes (their turn) or on its own (another's turn)."""
    game = await world.start(members={TWO.seats[1]: BOB})
    leaver = ALICE if on_turn else BOB
    click = world.member(leaver)
    await world.table.seats.give_up(click, game, resign=False)
    seat = game.seat_of(leaver)
    assert seat is not None
    after = await world.game()
    news = table.seat_given_up(ENGLISH, leaver, seat, resign=False)
    assert said(world, news) == 1, "the table reads the news once"
    assert click.told == [(table.gave_up(ENGLISH, seat, after, resign=False), True)], "their own word"
    assert said(world, "You left") == 0


async def test_a_resignation_is_news_once_for_the_table_and_a_word_for_the_member(world: World) -> None:
    """A four-player game plays on after a resignation; a two-player one ends with it. Either way
    the table reads the news once and the member, only them, their own word."""
    four = Rules.preset_rules("classic")
    game = await world.start(rules=four, members={1: BOB})
    click = world.member(BOB)
    await world.table.seats.give_up(click, game, resign=True)
    after = await world.game()
    assert after.status == Status.ACTIVE
    assert said(world, table.seat_given_up(ENGLISH, BOB, 1, resign=True)) == 1
    assert click.told == [(table.gave_up(ENGLISH, 1, after, resign=True), True)]
    assert click.told[0][0].startswith("You resigned: the computer plays Red")


async def test_a_resignation_that_ends_the_game_is_news_once(world: World) -> None:
    game = await world.start()
    click = world.member(ALICE)
    await world.table.seats.give_up(click, game, resign=True)
    after = await world.game()
    assert after.status == Status.FINISHED
    news = table.conceded(ENGLISH, ALICE, after)
    assert said(world, news) == 1, "the result's news once"
    [(yours, ephemeral)] = click.told
    assert ephemeral and yours == table.gave_up(ENGLISH, TWO.seats[0], after, resign=True)
    assert yours.startswith("You resigned: ") and said(world, yours) == 0


async def test_a_seat_given_up_from_another_channel_is_news_in_the_games_channel(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    elsewhere = Click(world.chat, world.chat.room(200), BOB, NAMES[BOB])
    await world.table.seats.give_up(elsewhere, game, resign=False)
    [(told, ephemeral)] = elsewhere.told
    assert ephemeral and told.startswith("You left") and f"<#{game.channel_id}>" in told
    assert said(world, table.seat_given_up(ENGLISH, BOB, TWO.seats[1], resign=False)) == 1
    assert not world.chat.room(200).messages


async def test_only_the_starter_or_a_manager_may_end_a_game_for_everyone(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    seats = world.table.seats
    with pytest.raises(NotAllowed) as seated:
        seats.check_may_end(BOB, game, can_manage=False)
    assert seated.value.key == "only_starter_ends_seated" and "/pachisi leave" in str(seated.value)
    with pytest.raises(NotAllowed) as unseated:
        seats.check_may_end(CAROL, game, can_manage=False)
    assert unseated.value.key == "only_starter_ends_unseated" and "leave" not in str(unseated.value)
    seats.check_may_end(BOB, game, can_manage=True)
    seats.check_may_end(ALICE, game, can_manage=False)
    with pytest.raises(NotAllowed):
        await seats.end(BOB, game.id, can_manage=False)
    assert (await world.game()).status == Status.ACTIVE


async def test_an_ended_game_closes_its_turn_and_says_who_ended_it(world: World) -> None:
    game = await world.start()
    message = world.turn_message()
    assert game.id in world.table.flow.timers.tasks
    ended = await world.table.seats.end(ALICE, game.id, can_manage=False)
    assert ended.status == Status.ABANDONED
    assert not message.live() and game.id not in world.table.flow.timers.tasks
    said = table.ended(ENGLISH, ALICE, ended)
    assert message.content.endswith(said), "the turn message says who ended it"
    assert [m for m in world.room.messages if said in m.content] == [message], "said once"


async def test_an_ended_game_no_message_shows_says_who_ended_it_on_its_own(world: World) -> None:
    game = await world.start()
    world.room.messages.remove(world.turn_message())  # the message that showed the turn is gone
    ended = await world.table.seats.end(ALICE, game.id, can_manage=False)
    said = table.ended(ENGLISH, ALICE, ended)
    assert [m.content for m in world.room.messages if said in m.content] == [said]


async def test_a_rematch_seats_the_same_members_once_the_game_is_over(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    seats = world.table.seats
    with pytest.raises(NotAllowed) as early:
        await seats.rematch(BOB, game.id)
    assert early.value.key == "rematch_too_soon"
    await seats.end(ALICE, game.id, can_manage=False)
    opening = await seats.rematch(BOB, game.id)
    assert (opening.rules, opening.seat, opening.members) == (TWO, TWO.seats[1], {TWO.seats[0]: ALICE})
    with pytest.raises(NotAllowed) as stranger:
        await seats.rematch(CAROL, game.id)
    assert stranger.value.key == "rematch_not_yours"


async def test_a_seat_taken_off_turn_shows_its_new_holder_on_the_turn_messages_board(world: World) -> None:
    """Bob takes the computer's seat while Alice is to move: the turn message's board names him at
    once, not "Computer" until the next turn."""
    game = await world.start()
    message = world.turn_message()
    other = TWO.seats[1]
    assert message.board is not None and "Bob" not in message.board.names[other]
    content = message.content
    await world.table.seats.take(world.member(BOB), game, None)
    assert message.content and content.startswith(message.content), "the same turn, the same words"
    assert world.turn_message() is message, "Alice's turn stays on its message"
    assert message.board is not None and message.board.names[other] == "Bob"
    assert message.actions() == [THROW] and message.board.names[TWO.seats[0]] == "Alice"


async def test_a_seat_left_off_turn_shows_the_computer_on_the_turn_messages_board(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    message = world.turn_message()
    await world.table.seats.give_up(world.member(BOB), game, resign=False)
    assert message.board is not None and message.board.names[TWO.seats[1]] != "Bob"
    assert world.turn_message() is message and (await world.game()).user_to_move() == ALICE


async def test_only_a_seated_member_is_asked_to_confirm_resigning(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    world.table.seats.check_seated(BOB, game)
    with pytest.raises(NotPlaying):
        world.table.seats.check_seated(CAROL, game)


async def test_a_members_second_table_off_a_channel_gets_a_numbered_thread_name(world: World) -> None:
    """Two threads both "Pachisi: Alice's table" read alike: the second one is numbered."""
    seats = world.table.seats
    assert await seats.thread_name(ENGLISH, ALICE, "Alice", CHANNEL) == "Pachisi: Alice's table"
    opening = Opening(TWO, "easy", 0, thread=True, names=NAMES)
    await seats.open(world.member(ALICE), Place(GUILD, 301, card_channel_id=CHANNEL), opening, note=[])
    assert await seats.thread_name(ENGLISH, ALICE, "Alice", CHANNEL) == "Pachisi: Alice's table 2"
    await seats.open(world.member(ALICE), Place(GUILD, 302, card_channel_id=CHANNEL), opening, note=[])
    cards = [m.content.splitlines()[0] for m in world.room.messages if "·" in m.content.splitlines()[0]]
    assert [card.split(" (")[0] for card in cards] == [
        "**Pachisi: Alice's table**",
        "**Pachisi: Alice's table 2**",
    ]
    assert await seats.thread_name(ENGLISH, BOB, "Bob", CHANNEL) == "Pachisi: Bob's table"
    assert await seats.thread_name(ENGLISH, ALICE, "Alice", 999) == "Pachisi: Alice's table"


async def _finished_in_a_thread(world: World) -> GameSnapshot:
    """Alice's game in a thread of the channel, with Bob seated, finished by her resignation."""
    thread = await world.chat.open_thread(CHANNEL, GUILD, "Pachisi: Alice's table")
    opening = Opening(TWO, "easy", 0, thread=True, members={TWO.seats[1]: BOB}, names=NAMES)
    await world.table.seats.open(
        world.member(ALICE), Place(GUILD, thread, card_channel_id=CHANNEL), opening, note=[]
    )
    game = await world.table.flow.service.get_active(thread)
    assert game is not None
    await world.table.seats.give_up(
        Click(world.chat, world.chat.room(thread), ALICE, NAMES[ALICE]), game, resign=True
    )
    return await world.table.flow.service.get(game.id)


async def _rematch_click(world: World, user_id: int, game_id: int) -> Click:
    """What the Rematch button does (bot/cogs/pachisi/buttons.py): the table opens in a new thread."""
    click = world.member(user_id)
    async with world.table.seats.rematching(click, game_id) as opening:
        thread = await world.chat.open_thread(CHANNEL, GUILD, "Pachisi: Alice's table 2")
        await world.table.seats.open(click, Place(GUILD, thread, card_channel_id=CHANNEL), opening, note=[])
    return click


async def test_a_double_click_on_rematch_opens_one_table_and_sends_the_second_click_there(
    world: World,
) -> None:
    old = await _finished_in_a_thread(world)
    card = world.room.find(old.card_message_id or 0)
    assert card.actions() == [REMATCH]
    first, second = await asyncio.gather(
        _rematch_click(world, ALICE, old.id),
        _rematch_click(world, ALICE, old.id),
        return_exceptions=True,
    )
    assert isinstance(first, Click), first
    assert isinstance(second, NotAllowed) and second.key == "rematch_started", second
    rematch = (await world.table.flow.service.get(old.id)).rematch_id
    assert rematch is not None
    new = await world.table.flow.service.get(rematch)
    assert f"<#{new.channel_id}>" in str(second), "the second click is sent to the table"
    assert len(world.chat.threads) == 2, "one thread for the rematch"
    assert new.seat_of(BOB) == TWO.seats[1] and new.status == Status.ACTIVE
    assert card.disabled and card.actions() == [], "the used Rematch goes grey"
    with pytest.raises(NotAllowed) as later:
        await _rematch_click(world, BOB, old.id)
    assert later.value.key == "rematch_started", "Bob's click later finds it too"
    assert len(world.chat.threads) == 2
    redrawn = present.card(ENGLISH, await world.table.flow.service.get(old.id), "Alice")
    assert redrawn.buttons == (), "a card drawn again offers no used Rematch"


async def test_two_processes_opening_the_same_rematch_keep_one(world: World) -> None:
    """The rematch is recorded in the new game's own transaction: a second start for the same
    finished game (another process, past the first's check) is refused and keeps nothing."""
    old = await _finished_in_a_thread(world)
    service = world.table.flow.service
    start = functools.partial(service.start, GUILD, rules=TWO, level="easy", seat=0, rematch_of=old.id)
    first = await start(301, ALICE, card_channel_id=CHANNEL)
    with pytest.raises(NotAllowed) as second:
        await start(302, BOB, card_channel_id=CHANNEL)
    assert second.value.key == "rematch_started" and f"<#{301}>" in str(second.value)
    assert await service.get_active(302) is None, "nothing of the second start is kept"
    assert (await service.get(old.id)).rematch_id == first.snapshot.id


async def test_a_game_over_gets_no_word_on_what_the_bot_plays_for_its_members(world: World) -> None:
    finished = await _finished_in_a_thread(world)
    assert finished.status == Status.FINISHED
    assert world.table.seats.intro(Played(finished)) is None
