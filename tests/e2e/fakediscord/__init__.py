"""A local fake Discord for end-to-end tests of the bot (see driver.py for the API)."""

from tests.e2e.fakediscord.driver import BotProcess, Channel, FakeDiscord, Guild, Member, Reply
from tests.e2e.fakediscord.server import Attachment, Button, FakeDiscordServer, Message

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
