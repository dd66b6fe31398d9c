from __future__ import annotations

import pytest

from tests.support.table import Table


@pytest.mark.smoke
async def test_start_posts_a_board_with_a_throw_button(table: Table) -> None:
    reply = await table.alice.slash(table.channel, "pachisi start", players=4)
    assert reply.ephemeral and "you play Black" in reply.content
    message = await table.fake.wait_for_message(lambda m: any(b.label == "Throw" for b in m.buttons))
    assert message.attachments and message.attachments[0].data.startswith(b"\x89PNG")
    assert f"<@{table.alice.id}>" in message.content


async def test_help_shows_the_boards_key_only_to_the_asker(table: Table) -> None:
    reply = await table.alice.slash(table.channel, "pachisi help")
    assert reply.ephemeral and "/pachisi start" in reply.content
    [legend] = reply.attachments
    assert legend.filename == "legend.png" and legend.data.startswith(b"\x89PNG")
