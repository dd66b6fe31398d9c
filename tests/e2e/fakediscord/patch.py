"""Point an unmodified discord.py 2.x client at another Discord (the fake one, in tests).

`Route.BASE` is a class-level str that every REST route (webhooks and interaction callbacks
included) is built from; `DiscordWebSocket.DEFAULT_GATEWAY` is a `yarl.URL` the client connects to
when it has no resume URL yet. Both are process-wide, so call this before the client logs in.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_at(base_url: str, gateway_url: str | None = None) -> None:
    """Send REST calls to `{base_url}/api/v10` and open the gateway at `{ws_url}/gateway`."""
    base_url = base_url.rstrip("/")
    ws_url = (gateway_url or base_url.replace("http", "ws", 1)).rstrip("/")
    if not ws_url.endswith("/gateway"):
        ws_url += "/gateway"
    discord.http.Route.BASE = f"{base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)
