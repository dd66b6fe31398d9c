"""The Hint through the table layer: only the member to move, after their throw, on their turn;
what it answers is one of their legal moves."""

from __future__ import annotations

import pytest

from bot.core.errors import GameError, NotAllowed
from bot.core.present import HINT
from bot.table.seats import Opening, Place
from tests.support.world import ALICE, BOB, CHANNEL, CHOICES, GUILD, NAMES, TWO, World


async def test_the_hint_answers_the_member_to_move_with_one_of_their_moves(world: World) -> None:
    game = await world.start(rules=CHOICES, members={CHOICES.seats[1]: BOB})
    hints = world.table.hints
    with pytest.raises(NotAllowed) as early:
        await hints.ask(game.id, ALICE, game.turn_number)
    assert early.value.key == "hint_too_late", "no hint before the throw"
    game = await world.to_a_choice(ALICE)
    assert HINT in world.turn_message().actions()
    with pytest.raises(NotAllowed) as other:
        await hints.ask(game.id, BOB, game.turn_number)
    assert other.value.key == "hint_not_yours"
    writes = len(world.room.writes)
    asked = await hints.ask(game.id, ALICE, game.turn_number)
    analysis = await hints.analysis(asked)
    assert analysis.best is not None and analysis.best.move in game.legal_moves()
    assert {c.move for c in analysis.choices} == set(game.legal_moves())
    assert asked.seats[asked.seat_of(ALICE) or 0].hints_used == 1
    assert asked.seats[CHOICES.seats[1]].hints_used == 0, "Bob's refused ask is not counted"
    assert len(world.room.writes) == writes, "nothing posted for the channel to see"
    await world.play_turn(ALICE)
    with pytest.raises(GameError):  # a Hint left on a turn gone by
        await hints.ask(game.id, ALICE, game.turn_number)


async def test_a_game_without_hints_offers_no_hint(world: World) -> None:
    opening = Opening(TWO, "easy", 0, thread=False, hints=False, names=NAMES)
    await world.table.seats.open(world.member(ALICE), Place(GUILD, CHANNEL), opening, note=[])
    game = await world.table.flow.service.get_active(CHANNEL)
    assert game is not None
    world.game_id = game.id
    await world.click(ALICE, "throw")
    assert all(HINT not in m.actions() for m in world.room.messages)
    with pytest.raises(NotAllowed):
        await world.table.hints.ask(game.id, ALICE, (await world.game()).turn_number)
