"""Whole games played through the fake Discord by members, as people would."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import Table, play_out

PNG = b"\x89PNG\r\n\x1a\n"


def boards(table: Table) -> list[bytes]:
    return [a.data for m in table.channel.messages for a in m.attachments if a.filename.endswith(".png")]


async def test_one_member_plays_a_four_player_game_to_the_end_by_buttons(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy")
    final = await play_out(table, [table.alice], by="buttons")
    assert f"<@{table.alice.id}>" in final.content
    assert "Throws:" in final.content
    pictures = boards(table)
    assert len(pictures) > 10
    for data in pictures:
        assert data.startswith(PNG)
        assert Image.open(io.BytesIO(data)).size[0] >= 900
    # Every turn message but the final one ends with its buttons disabled.
    for message in table.channel.messages[:-1]:
        assert all(b.disabled for b in message.buttons if b.label != "Take a seat") or not message.buttons


async def test_a_game_played_by_slash_commands_only(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
    final = await play_out(table, [table.alice], by="commands")
    assert "win!" in final.content or "draw" in final.content
