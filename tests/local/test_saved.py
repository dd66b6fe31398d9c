"""The stand-in's state survives a restart: a new server loaded from the file is the old one as a
bot sees it, less what Discord forgets too (ephemeral answers, interactions)."""

from __future__ import annotations

from pathlib import Path

from localdiscord.messages import edit, new_message
from localdiscord.objects import EPHEMERAL, PUBLIC_THREAD, Attachment, ChannelRecord
from localdiscord.saved import Saved, forget_unused
from localdiscord.server import FakeDiscordServer

PNG = b"\x89PNG\r\n\x1a\n" + b"board"


async def test_a_saved_server_loads_as_it_was(tmp_path: Path) -> None:
    server = FakeDiscordServer()
    guild = server.add_guild("Home")
    channel = server.add_channel(guild, "pachisi")
    asha = server.add_member(guild, "Asha")
    asha.locale = "hi"
    server.set_moderator(guild, asha, True)
    thread = ChannelRecord(2, guild.id, "Asha's table", 0, type=PUBLIC_THREAD, parent=channel, owner_id=1)
    guild.channels[thread.id] = server.channels[thread.id] = thread
    posted = new_message(server, channel, {"content": "**card**", "components": []}, {})
    posted.thread_id = thread.id
    board = new_message(server, thread, {"content": "turn"}, {9: png(9)})
    board.invoked = (asha.user.id, "pachisi start")
    secret = new_message(server, thread, {"content": "only Asha", "flags": EPHEMERAL}, {})
    server.commands[guild.id] = {"pachisi": {"id": "3", "name": "pachisi", "options": []}}

    saved = Saved(tmp_path / "state.sqlite3")
    saved.save(server)
    saved.close()
    again = FakeDiscordServer()
    reopened = Saved(tmp_path / "state.sqlite3")
    assert reopened.load(again)
    reopened.close()

    assert (again.token, again.application_id, again.bot_user.id) == (
        server.token,
        server.application_id,
        server.bot_user.id,
    )
    assert again.guilds[guild.id].payload()["roles"] == guild.payload()["roles"]
    member = again.guilds[guild.id].members[asha.user.id]
    assert member.locale == "hi" and member.payload() == asha.payload()
    assert again.channels[thread.id].payload() | {"thread_metadata": None} == thread.payload() | {
        "thread_metadata": None
    }
    assert [m.id for m in again.channel_messages[thread.id]] == [board.id]  # not the ephemeral one
    loaded = again.messages[board.id]
    assert loaded.payload("x") == board.payload("x") and loaded.invoked == board.invoked
    assert loaded.attachments[0].data == PNG
    assert again.messages[posted.id].thread_id == thread.id
    assert secret.id not in again.messages
    assert again.commands[guild.id] == server.commands[guild.id]


def png(ident: int) -> Attachment:
    return Attachment(ident, "board.png", PNG, "image/png")


async def test_attachments_no_message_uses_are_deleted_from_the_file(tmp_path: Path) -> None:
    server = FakeDiscordServer()
    channel = server.add_channel(server.add_guild("Home"), "pachisi")
    message = new_message(server, channel, {"content": "turn"}, {})
    saved = Saved(tmp_path / "state.sqlite3")
    for ident in (1, 2):
        message.attachments = [png(ident)]
        saved.save(server)
    assert [row[0] for row in saved.db.execute("SELECT id FROM attachments")] == [2]
    saved.close()


async def test_pictures_of_earlier_versions_are_forgotten_in_memory() -> None:
    server = FakeDiscordServer()
    channel = server.add_channel(server.add_guild("Home"), "pachisi")
    server.attachments.update({1: png(1), 2: png(2)})  # as the REST body's files are kept
    message = new_message(server, channel, {"content": "turn"}, {0: png(1)})
    await edit(server, message, {"attachments": [{"id": "0"}]}, {0: png(2)})
    forget_unused(server)
    assert set(server.attachments) == {2} and message.attachments == [png(2)]
