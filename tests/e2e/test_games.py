"""Whole games played through the fake Discord by members, as people would."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.support import play
from tests.support.processes import stored_games
from tests.support.table import (
    Table,
    live_buttons,
    play_out,
    turn_state,
    wait_for_turn_or_end,
)

PNG = b"\x89PNG\r\n\x1a\n"


def boards(table: Table) -> list[bytes]:
    return [a.data for m in table.channel.messages for a in m.attachments if a.filename == "board.png"]


@pytest.mark.smoke
async def test_one_member_plays_a_four_player_game_to_the_end_by_buttons(table: Table) -> None:
    # Two pieces a side: a whole game (captures, home runs, the result) in half the throws of four.
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=2, level="easy")
    final = await play_out(table, [table.alice], by="buttons")
    assert f"<@{table.alice.id}>" in final.content
    assert "Throws:" in final.content and "Captures: Black " in final.content
    pictures = boards(table)
    shown = sum(
        "board.png" in v["attachments"] for m in table.channel.messages for v in [*m.edits, m.snapshot()]
    )
    assert shown > 10  # every update of a turn message carried a new board
    for data in pictures:
        assert data.startswith(PNG)
        assert Image.open(io.BytesIO(data)).size[0] >= 900
    # Every turn message but the final one ends with its buttons gone; the table card ahead of
    # them (the seat offer, now the rematch) is the channel's first message.
    card, *turns, _ = table.channel.messages
    await table.fake.wait_until(  # the card is edited after the result is posted
        lambda: [b.custom_id.split(":")[1] for b in card.buttons] == ["rematch"], what="the card's rematch"
    )
    for message in turns:
        assert all(b.disabled for b in message.buttons) or not message.buttons


async def test_a_turn_played_by_slash_commands_offers_and_plays_the_buttons_moves(table: Table) -> None:
    """`/pachisi throw` and `/pachisi move` (picked from its autocomplete) play Alice's turn; a
    whole game by typed turns alone: tests/table/test_typed_commands.py."""
    # Four pieces on the board from the start: a throw offers a choice.
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy", rules="start_on_board=4")
    message = await wait_for_turn_or_end(table)
    for _ in range(20):  # the dice are not seeded: a throw may still offer no move
        before = turn_state(table.channel)
        thrown = await table.alice.slash(table.channel, "pachisi throw")
        assert thrown.ephemeral
        message = await wait_for_turn_or_end(table, after=before)
        if play.offers_moves(message):
            break
    assert play.offers_moves(message) and thrown.content.startswith("You threw **"), thrown.content
    labels = [b.label or "" for b in live_buttons(message)]
    choices = await table.alice.autocomplete(table.channel, "pachisi move", "choice", "")
    assert [name.split(" · ")[0] for name, _ in choices] == labels  # the same moves, same letters
    game = await table.bot.service.get_active(table.channel.id)
    assert game is not None
    before = turn_state(table.channel)
    _, value = choices[-1]
    moved = await table.alice.slash(table.channel, "pachisi move", choice=value)
    assert moved.ephemeral
    await wait_for_turn_or_end(table, after=before)
    [stored] = await stored_games(table.database_url)
    [row] = [row for row in stored.moves if row.turn_number == game.turn_number]
    assert (row.actor_id, row.move) == (table.alice.id, value)


async def test_the_computers_throws_stay_listed_when_the_member_throws(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=2, level="easy")
    for by in ("buttons", "commands"):
        message = await wait_for_turn_or_end(table)
        # Alice plays until her turn message lists the computers' throws since her move.
        while message.content.count("Computer (easy)") < 3 or [b.label for b in live_buttons(message)] != [
            "Throw"
        ]:
            before = turn_state(table.channel)
            labels = [b.label or "" for b in live_buttons(message)]
            await table.alice.click(message, "Throw" if labels == ["Throw"] else labels[0])
            message = await wait_for_turn_or_end(table, after=before)
        log = [line for line in message.content.splitlines() if line.startswith("`")]
        before = turn_state(table.channel)
        if by == "buttons":
            await table.alice.click(message, "Throw")
        else:
            await table.alice.slash(table.channel, "pachisi throw")
        await wait_for_turn_or_end(table, after=before)
        shown = table.fake.server.messages[message.id].content  # edited in place, or kept as it was
        assert shown.splitlines()[: len(log)] == log, shown
