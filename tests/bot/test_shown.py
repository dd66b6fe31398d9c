"""The next turn's message ids stored in batches (bot/core/shown.py): many games' ids in one
transaction, and never over a game that a later call moved on."""

from __future__ import annotations

import asyncio

from bot.core.shown import ShownBatch
from bot.core.store import Store
from engine.rules import Rules
from tests.support.services import ALICE, CHANNEL, GUILD, count_transactions, service

TWO = Rules.parse("classic,players=2,pieces=1")


async def test_ids_noted_together_are_written_in_one_transaction(sqlite_store: Store) -> None:
    games = service(sqlite_store)
    started = [(await games.start(GUILD, CHANNEL + n, ALICE, TWO, "easy", 0)).snapshot for n in range(5)]
    counted = count_transactions(sqlite_store)
    batch = ShownBatch(sqlite_store)
    for n, game in enumerate(started):
        batch.note(game.id, game.version, 900 + n)
    await batch.flush()
    assert counted[0] == 1 and batch.batches == 1
    assert [(await games.get(game.id)).message_id for game in started] == [900, 901, 902, 903, 904]


async def test_an_id_noted_before_the_game_moved_on_is_not_written(sqlite_store: Store) -> None:
    games = service(sqlite_store)
    game = (await games.start(GUILD, CHANNEL, ALICE, TWO, "easy", 0)).snapshot
    batch = ShownBatch(sqlite_store)
    stale = game.version
    moved = await games.act(game.id, ALICE, game.turn_number, shown_on=777)  # stores its own message
    batch.note(game.id, stale, 555)
    await batch.flush()
    assert (await games.get(game.id)).message_id == 777
    batch.note(game.id, moved.snapshot.version, 888)
    await asyncio.wait_for(batch.flush(), 5)
    assert (await games.get(game.id)).message_id == 888


async def test_a_click_takes_its_games_id_out_of_the_batch(sqlite_store: Store) -> None:
    batch = ShownBatch(sqlite_store)
    batch.pending[1] = (3, 42)  # as noted, before the writing task ran
    assert batch.take(1) == (3, 42) and batch.take(1) is None
    batch.put_back(1, (3, 42))
    assert batch.take(1) == (3, 42)
    await batch.flush()


async def test_a_change_nobody_clicked_for_writes_its_games_note_first(sqlite_store: Store) -> None:
    """`write_now` (a timer, a typed command, a seat's change, under the game's lock) stores the
    game's note still pending, and waits for a batch in flight that holds it."""
    games = service(sqlite_store)
    waiting, flying = [
        (await games.start(GUILD, CHANNEL + n, ALICE, TWO, "easy", 0)).snapshot for n in range(2)
    ]
    batch = ShownBatch(sqlite_store)
    batch.note(waiting.id, waiting.version, 901)  # the writing task is made, not yet run
    await batch.write_now(waiting.id)
    assert (await games.get(waiting.id)).message_id == 901 and batch.take(waiting.id) is None
    await batch.flush()
    assert batch.batches == 0  # written by `write_now` itself

    batch.note(flying.id, flying.version, 902)
    await asyncio.sleep(0)  # the writing task takes the batch and waits on the database
    assert flying.id in batch.flying
    await batch.write_now(flying.id)
    assert batch.batches == 1  # it returned once the batch holding the note was written
    assert (await games.get(flying.id)).message_id == 902
