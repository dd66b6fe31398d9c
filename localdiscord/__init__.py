"""A local stand-in for Discord, shaped as a small aiohttp application (server.py: the state in
state.py and records.py, the gateway in gateway.py, the REST resources in rest/), driven by the
end-to-end tests (driver.py; tests install faults, holds and a spec check as middlewares in
tests/e2e/fakediscord.py), the benchmarks (play.py reads a game as its players would) and the local
table, `python -m bot play` (table.py, the page in page.py; docs/LOCAL.md). child.py starts the bot
as a child process for all of them."""

from localdiscord.driver import BotProcess, Channel, FakeDiscord, Guild, Member, Reply
from localdiscord.records import Attachment, Button, Message
from localdiscord.server import FakeDiscordServer

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
