"""A local fake Discord for end-to-end tests of the bot (see driver.py for the API)."""

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
