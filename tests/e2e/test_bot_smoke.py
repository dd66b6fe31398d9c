from __future__ import annotations

import asyncio
import threading

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


DEADLINE = 1.0
"""Seconds the stand-in gives the help command's answer (Discord: 3): room for the deferral on a
loaded machine, which the stand-in refuses after it (tests/e2e/test_fakediscord.py)."""


async def test_help_is_answered_when_its_picture_takes_longer_than_discords_3_s(table: Table) -> None:
    """The key's first drawing on a busy host: every render thread is taken for longer than
    Discord waits for an answer, and the answer still comes (deferred, then sent). The stand-in
    waits DEADLINE seconds for the answer, not Discord's 3: the bot defers at once, whatever the
    deadline, and the picture comes after it either way."""
    table.fake.server.interaction_timeout = DEADLINE
    free = threading.Event()
    pool = table.bot.render_pool
    for _ in range(pool._max_workers):
        pool.submit(free.wait, 10)
    reply = await table.alice.slash(table.channel, "pachisi help", wait=False)
    await asyncio.sleep(DEADLINE + 0.2)  # past the deadline for an answer, the key still not drawn
    free.set()
    await reply.wait()
    assert reply.deferred and reply.ephemeral and "/pachisi start" in reply.content
    assert [a.filename for a in reply.attachments] == ["legend.png"]
