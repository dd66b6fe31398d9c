from __future__ import annotations

from tests.e2e.conftest import Table


async def test_start_posts_a_board_with_a_throw_button(table: Table) -> None:
    reply = await table.alice.slash(table.channel, "pachisi start", players=4)
    assert reply.ephemeral and "you play Black" in reply.content
    message = await table.fake.wait_for_message(lambda m: any(b.label == "Throw" for b in m.buttons))
    assert message.attachments and message.attachments[0].data.startswith(b"\x89PNG")
    assert f"<@{table.alice.id}>" in message.content
