"""A seat changing hands redraws the turn's board with the same story (issue 58's look, Medium 7):
the moves numbered on it before "@Bob takes Red" are numbered on it after."""

from __future__ import annotations

from engine import Rules
from tests.support.world import ALICE, BOB, World

FOUR = Rules.parse("classic,start_on_board=4")
"""Four seats, every piece on the board: each throw moves a piece, so every turn has a story."""


async def _story(world: World) -> tuple[object, ...]:
    await world.stored()
    board = world.turn_message().board
    assert board is not None
    return tuple((str(move), before.notation()) for move, before in board.story)


async def test_a_seat_taken_redraws_the_turns_board_with_its_story(world: World) -> None:
    await world.start(rules=FOUR)
    for _ in range(3):
        await world.play_turn(ALICE)
    game = await world.game()
    assert game.user_to_move() == ALICE and game.pending_throw is None
    before = await _story(world)
    assert len(before) >= 4, "her throw and the three computers' are numbered"
    message = world.turn_message()
    await world.table.seats.take(world.member(BOB), game, 1)  # Red: not the seat to move
    assert (await world.game()).seat_of(BOB) == 1
    assert world.turn_message() is message, "the same turn message, drawn again"
    assert await _story(world) == before


async def test_a_seat_given_back_redraws_the_turns_board_with_its_story(world: World) -> None:
    await world.start(rules=FOUR, members={1: BOB})
    bob_played = False
    for _ in range(20):
        user = await world.to_move()
        if user == ALICE and bob_played:
            break
        await world.play_turn(user)
        bob_played = bob_played or user == BOB
    game = await world.game()
    assert game.user_to_move() == ALICE
    before = await _story(world)
    assert before, "Bob's move and the computers' after it"
    await world.table.seats.give_up(world.member(BOB), game, resign=False)
    assert (await world.game()).seat_of(BOB) is None
    assert await _story(world) == before


async def test_an_ended_games_last_board_keeps_the_turns_story(world: World) -> None:
    """`/pachisi end` redraws the turn's board as over (nobody to move, no choices), with the
    moves it numbered."""
    await world.start(rules=FOUR)
    for _ in range(2):
        await world.play_turn(ALICE)
    game = await world.game()
    before = await _story(world)
    assert before
    message = world.turn_message()
    await world.table.seats.end(ALICE, game.id, can_manage=False)
    assert message.board is not None and message.board.termination == "abandoned"
    assert not message.board.choices and message.board.throw is None
    assert tuple((str(m), b.notation()) for m, b in message.board.story) == before
