"""A local stand-in for Discord: its REST API and gateway (server.py), driven by the end-to-end
tests (driver.py; tests add fault injection in tests/e2e/fakediscord.py) and by the local table,
`python -m bot play` (table.py, the page in page.py; docs/LOCAL.md)."""

from localdiscord.driver import BotProcess, Channel, FakeDiscord, Guild, Member, Reply
from localdiscord.server import Attachment, Button, FakeDiscordServer, Message

__all__ = [
    "Attachment",
    "BotProcess",
    "Button",
    "Channel",
    "FakeDiscord",
    "FakeDiscordServer",
    "Guild",
    "Member",
    "Message",
    "Reply",
]
