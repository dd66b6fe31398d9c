"""Typed turns (`/pachisi throw`, `/pachisi move`) through the table layer: the command hands the
flow an act with no click (`GameFlow.play`), and a game goes to its end by them alone. The
commands' own wiring (the replies, the choice's autocomplete) is shown end to end in
tests/e2e/test_games.py."""

from __future__ import annotations

import random

from bot.core.present import MOVE, THROW
from bot.core.store import Status
from bot.table.acts import Act
from engine import Rules
from tests.support.world import ALICE, BOB, World

TWO_PIECES = Rules.parse("classic,players=2,pieces=2")
"""Two pieces each: some throws offer a choice (with one piece, the only move goes with the throw)."""


async def test_a_game_goes_to_its_end_by_typed_throws_and_moves_alone(world: World) -> None:
    await world.start(rules=TWO_PIECES, members={TWO_PIECES.seats[1]: BOB})
    rng = random.Random(4)
    typed = {THROW: 0, MOVE: 0}
    for _ in range(400):
        game = await world.game()
        if game.status != Status.ACTIVE:
            break
        user = await world.to_move()
        if game.pending_throw is None:
            await world.table.flow.play(Act(game.id, user, game.turn_number))
            typed[THROW] += 1
        else:
            move = rng.choice(game.legal_moves())
            await world.table.flow.play(Act(game.id, user, game.turn_number, move))
            typed[MOVE] += 1
        assert len(world.turn_messages()) == (1 if (await world.game()).status == Status.ACTIVE else 0)
    game = await world.game()
    assert game.status == Status.FINISHED and game.outcome is not None
    assert typed[THROW] and typed[MOVE], typed
    rows = await world.move_rows()
    assert len(rows) == game.turn_number == typed[THROW], "each throw stored once, with its move"
    assert {row.actor_id for row in rows} == {ALICE, BOB}
    assert world.turn_messages() == []
    [result] = [m for m in world.room.messages if "board.png" in m.files and not m.live()][-1:]
    assert {ALICE, BOB} <= set(result.pings), result.content
