"""What the page's server answers a member's line while no bot is there, without a browser: the
line comes back refused, in the member's language, and nothing reaches Discord's side. (On the page
in a real browser, and the notice going once the bot is there: test_play_command.py's second run.)"""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from localdiscord import words
from localdiscord.page import Page
from localdiscord.server import FakeDiscordServer


async def answer_to(ws: aiohttp.ClientWebSocketResponse, op: str) -> dict[str, Any]:
    """The page's next answer of kind `op` (the changes it sends on its own come between)."""
    while (answer := await ws.receive_json())["op"] != op:
        pass
    return answer


@pytest.mark.parametrize("locale", ["en-US", "hi"])
async def test_a_command_before_the_bot_is_ready_is_refused_as_still_starting(locale: str) -> None:
    """A member who joins before the bot's first start is welcomed, and a command of theirs is
    refused as the bot still starting (not as a command that does not exist), in their words."""
    server = FakeDiscordServer()
    guild = server.add_guild("Pachisi at home")
    channel = server.add_channel(guild, "pachisi")
    page = Page(server, guild)
    await page.start("127.0.0.1", 0)
    try:
        assert not server.ready()
        async with aiohttp.ClientSession() as http, http.ws_connect(page.url + "/live") as ws:
            secret = "b" * 32
            await ws.send_json({"op": "hello", "name": "Bala", "secret": secret, "locale": locale})
            me = (await answer_to(ws, "welcome"))["me"]
            assert me["name"] == "Bala"
            line = "/pachisi help"
            sent = {
                "op": "send",
                "channel": str(channel.id),
                "text": line,
                "member": me["id"],
                "secret": secret,
            }
            await ws.send_json(sent)
            refused = await answer_to(ws, "refused")
        assert refused["error"] == words.bot_starting(words.language_of(locale))
        assert refused["text"] == line  # back in the box, to be sent again
        assert server.interactions == {}
    finally:
        await page.stop()
