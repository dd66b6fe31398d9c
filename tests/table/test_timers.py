"""Turn timers on the moved clock: a reminder at half the member's time, the computer's move at
the deadline, and a timer that follows the turn."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.core.present import THROW
from bot.core.store import Status
from bot.core.turns import MAX_MISSED
from tests.support.world import ALICE, BOB, TWO, World, until


async def test_half_the_time_moves_the_turn_to_a_new_message_that_pings_the_member(world: World) -> None:
    game = await world.start()
    message = world.turn_message()
    assert game.id in world.table.flow.timers.tasks
    world.clock.advance(30)  # half of the 60 s the member has

    await until(lambda: _moved_on(world, message), "the reminder")
    assert not message.live() and ALICE in world.turn_message().pings
    assert world.turn_message().actions()[0] == THROW
    assert (await world.game()).turn_number == game.turn_number, "a reminder plays nothing"


async def test_at_the_deadline_the_computer_plays_the_members_turn(world: World) -> None:
    game = await world.start()
    world.clock.advance(30)
    first = world.turn_message()
    await until(lambda: _moved_on(world, first), "the reminder")
    world.clock.advance(30)

    async def played() -> bool:
        return (await world.game()).turn_number > game.turn_number

    await until(played, "the computer's move for the member")
    await until(lambda: _settled(world), "the timer's work shown")


async def test_a_turn_played_in_time_takes_its_timer_along_to_the_next_one(world: World) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    first = world.table.flow.timers.tasks[game.id]
    await world.play_turn(ALICE)
    after = await world.game()
    assert after.user_to_move() == BOB
    second = world.table.flow.timers.tasks[game.id]
    assert second is not first and (first.cancelling() or first.done())
    assert after.deadline == world.clock.now() + timedelta(seconds=60), "Bob's time runs from his turn"


def _moved_on_from(world: World, message: object) -> Callable[[], Awaitable[bool]]:
    async def moved() -> bool:
        return await _moved_on(world, message)

    return moved


async def _moved_on(world: World, message: object) -> bool:
    """The turn shows in one message, another than `message`."""
    shown = world.turn_messages()
    return len(shown) == 1 and shown[0] is not message


async def _settled(world: World) -> bool:
    game = await world.game()
    shown = world.turn_messages()
    return len(shown) == 1 and game.message_id == shown[0].id


async def test_after_three_missed_turns_the_seat_goes_back_to_the_computer_and_the_card_says_so(
    world: World,
) -> None:
    game = await world.start(members={TWO.seats[1]: BOB})
    card = world.room.find(game.card_message_id or 0)
    assert f"<@{ALICE}>" in card.content
    for missed in range(1, MAX_MISSED + 1):
        while await world.to_move() == BOB:
            await world.play_turn(BOB)
        before = await world.game()
        world.clock.advance(30)
        await until(_moved_on_from(world, world.turn_message()), f"reminder {missed}")
        world.clock.advance(30)

        async def played(turn: int = before.turn_number) -> bool:
            return (await world.game()).turn_number > turn and len(world.turn_messages()) == 1

        await until(played, f"missed turn {missed}")
    after = await world.game()
    assert after.status == Status.ACTIVE and after.seat_of(ALICE) is None, "the computer has her seat"

    async def carded() -> bool:
        return f"<@{ALICE}>" not in card.content and f"<@{BOB}>" in card.content

    await until(carded, "the card showing the seat handed back")
    handed = "Black missed too many turns: the computer plays it from now on."
    assert any(handed in m.content for m in world.room.messages), "the hand-back is announced"
    hers = [r for r in await world.move_rows() if r.seat == TWO.seats[0]]
    assert [r.by_timer for r in hers[:MAX_MISSED]] == [True] * MAX_MISSED
    assert all(r.actor_id is None for r in hers) and not any(r.by_timer for r in hers[MAX_MISSED:])
