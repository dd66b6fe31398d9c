"""Whole games played through the fake Discord by members, as people would."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.support.table import (
    Table,
    is_final,
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
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy")
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


async def test_a_game_played_by_slash_commands_only(table: Table) -> None:
    # One piece a side: each typed command edits and posts in the channel (about one a second, as
    # Discord's buckets allow), so a short game.
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
    final = await play_out(table, [table.alice], by="commands")
    assert is_final(final)


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
