"""Restarts mid-turn: a new table layer over the same SQLite file and the same chat, as a new
process; and games whose place is gone."""

from __future__ import annotations

import pytest

from bot.core.errors import GameError
from bot.core.present import MOVE, THROW, turn_message
from bot.core.store import Status
from bot.core.texts import ENGLISH
from bot.table.acts import Act
from bot.table.channel import Gone, NotPermitted, WriteRefused
from tests.support.world import ALICE, BOB, GUILD, TWO, World, pick, until


async def test_a_restart_with_the_turn_shown_writes_nothing_and_arms_the_timer(world: World) -> None:
    game = await world.start()
    writes = len(world.room.writes)
    table = world.restart()
    await table.resumer.resume([GUILD])
    assert len(world.room.writes) == writes
    assert game.id in table.flow.timers.tasks


async def test_a_click_after_a_restart_plays_on_the_message_posted_before(world: World) -> None:
    await world.start()
    message = world.turn_message()
    world.restart()
    click = await world.click(ALICE, THROW, message=message)
    assert click.answers and (await world.game()).version > 1


async def test_a_throw_stored_but_never_shown_is_shown_once_after_a_restart(world: World) -> None:
    """Killed between storing a throw and showing it: the message still offers Throw. The restart
    closes it and shows the game as it stands, once."""
    game = await world.start()
    message = world.turn_message()
    await world.table.flow.service.act(game.id, ALICE, game.turn_number)  # stored, never shown
    table = world.restart()
    await table.resumer.resume([GUILD])
    assert not message.live()
    now = await world.game()
    assert now.message_id == world.turn_message().id
    assert {(b.action, b.turn) for b in world.turn_message().live()} <= {
        (b.action, b.turn) for b in turn_message(ENGLISH, now, [], {}).buttons
    }


async def test_an_orphan_turn_message_is_retired_after_a_restart(world: World) -> None:
    """Killed after the chat took a turn's post and before its id was stored: a live copy nobody
    knows. The restart disables its buttons."""
    game = await world.start()
    flow = world.table.flow
    copy = await flow.writer.post(world.room, turn_message(ENGLISH, game, [], {}), game)  # never stored
    await flow.service.act(game.id, ALICE, game.turn_number)  # and the turn moved on, unshown
    table = world.restart()
    await table.resumer.resume([GUILD])
    assert not world.room.find(copy.id).live()
    assert (await world.game()).message_id == world.turn_message().id


async def test_a_game_whose_channel_is_deleted_is_abandoned(world: World) -> None:
    game = await world.start()
    await world.table.resumer.place_gone(world.room.id)
    assert (await world.game()).status == Status.ABANDONED
    assert game.id not in world.table.flow.timers.tasks


async def test_a_post_into_a_channel_that_is_gone_abandons_the_game(world: World) -> None:
    await world.start()
    world.room.refusing = Gone(404, 10003)
    world.clock.advance(30)  # the reminder posts the turn anew

    async def abandoned() -> bool:
        return (await world.game()).status == Status.ABANDONED

    await until(abandoned, "the game abandoned")


async def test_a_post_the_bot_may_not_make_is_refused_in_one_sentence(world: World) -> None:
    game = await world.start()
    world.room.refusing = NotPermitted(403, 50013)
    with pytest.raises(GameError) as refused:
        await world.table.flow.play(Act(game.id, ALICE, game.turn_number))
    assert refused.value.key == "cannot_post"


async def test_a_result_stored_but_never_posted_is_posted_once_after_a_restart(world: World) -> None:
    """Killed after the last move was stored and before the result went out: the restart posts
    the result, once; a second restart finds nothing to do."""
    game = await world.start()
    message = world.turn_message()
    ended = (await world.table.flow.service.resign(game.id, ALICE)).snapshot  # stored, never shown
    assert ended.status == Status.FINISHED
    table = world.restart()
    await table.resumer.resume([GUILD])
    results = [m for m in world.room.messages if ALICE in m.pings and m is not message]
    assert len(results) == 1 and not message.live()
    writes = len(world.room.writes)
    again = world.restart()
    await again.resumer.resume([GUILD])
    assert len(world.room.writes) == writes


async def test_a_click_whose_turn_the_bot_may_not_post_keeps_the_move_and_says_why(world: World) -> None:
    """Mid-game, the chat refuses the click's followup and the channel refuses the post too (Send
    Messages taken away): the move stays stored and the member is told why."""
    await world.start(members={TWO.seats[1]: BOB})
    for _ in range(12):  # until a click hands the turn to the other member, in a new message
        game = await world.game()
        user = await world.to_move()
        message = world.turn_message()
        click = world.member(user, message)
        click.refuse_followups = WriteRefused(404, 10015)
        world.room.refusing = NotPermitted(403, 50013)
        button = pick(message.live(), THROW if game.pending_throw is None else MOVE)
        try:
            await world.table.flow.click(click, Act(button.game_id, user, button.turn, button.move))
        except GameError as refused:
            assert refused.key == "cannot_post"
            break
        world.room.refusing = None
    else:
        raise AssertionError("the turn never passed to the other member")
    after = await world.game()
    assert after.status == Status.ACTIVE and after.user_to_move() != user, "the move was kept"
