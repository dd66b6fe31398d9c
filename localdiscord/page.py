"""The local table's web page: the guild as Discord's client shows it, one member per tab.

`GET /` is the page (static/), `GET /attachments/...` the pictures the bot uploaded, and
`/live` a WebSocket that speaks JSON both ways. The page says `hello` (its member's id, kept in
the browser, or a name to join as) and gets a `welcome` snapshot, then every change as it
happens (`message`, `channel`, `member`, `status`). It sends what the member does: `type`
(a partly typed line: suggestions come back), `send` (a command or a chat line), `click`,
`settings` (Moderators role, language) and `dismiss` (an ephemeral answer). A command is read
by commandline.py, in the member's language; a refused one, like a click on a button that is not
there, never reaches the bot. Every request names its member and carries its browser's secret
(members.py): a page acts only for members its browser holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from localdiscord import commandline, pagefiles, views, words
from localdiscord.members import LOCALES, Members, Refused
from localdiscord.objects import ChannelRecord, GuildRecord, Interaction, InteractionType, MemberRecord
from localdiscord.server import FakeDiscordServer

Json = dict[str, Any]
log = logging.getLogger(__name__)
COMMAND, CLICK, AUTOCOMPLETE = (
    InteractionType.APPLICATION_COMMAND,
    InteractionType.MESSAGE_COMPONENT,
    InteractionType.AUTOCOMPLETE,
)

ANSWER_WITHIN = 3.0  # Discord's client gives up on an interaction after 3 seconds
AUTOCOMPLETE_WAIT = 3.0
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(eq=False)
class Client:
    """One open page: its socket, its member, and what changed since it was last told."""

    ws: web.WebSocketResponse
    member: MemberRecord | None = None
    changes: dict[tuple[str, int], None] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    typing: asyncio.Task[None] | None = None


class Page:
    def __init__(
        self, server: FakeDiscordServer, guild: GuildRecord, owners: dict[int, str] | None = None
    ) -> None:
        self.server, self.guild = server, guild
        self.members = Members(server, guild, owners)
        self.clients: set[Client] = set()
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.url = ""
        self.bot_was_online = False  # since the page started: else the bot is still starting
        server.observers.append(self._observe)

    async def start(self, host: str, port: int) -> None:
        app = web.Application(middlewares=[_secure])
        app.router.add_get("/", pagefiles.static)
        app.router.add_get("/t/{channel:[0-9]+}", pagefiles.static)
        app.router.add_get("/static/{name}", pagefiles.static)
        app.router.add_get("/static/fonts/{name}", pagefiles.font)
        app.router.add_get("/words", pagefiles.page_words)
        app.router.add_get("/attachments/{attachment:[0-9]+}/{filename}", self._attachment)
        app.router.add_get("/live", self._live)
        app.router.add_get("/favicon.ico", _no_icon)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        bound = self._runner.addresses[0][1]
        self.url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{bound}"
        self._spawn(self._watch_bot())

    async def stop(self) -> None:
        """Close every page's socket as "going away" (they reconnect by themselves), then stop."""
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.ws.close(code=1001, message=b"restarting")
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _observe(self, kind: str, ident: int) -> None:
        for client in self.clients:
            client.changes[(kind, ident)] = None
            client.wake.set()

    # --- HTTP --------------------------------------------------------------------------------

    async def _attachment(self, request: web.Request) -> web.Response:
        return pagefiles.attachment(self.server, int(request.match_info["attachment"]))

    def link(self, channel_id: int) -> str:
        """The address that opens a channel (a table's thread) for whoever opens it."""
        return f"{self.url}/t/{channel_id}"

    # --- the live socket ---------------------------------------------------------------------

    async def _live(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=64 * 1024)
        await ws.prepare(request)
        client = Client(ws)
        self.clients.add(client)
        sender = asyncio.get_running_loop().create_task(self._send_changes(client))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._receive(client, msg.data)
        finally:
            self.clients.discard(client)
            sender.cancel()
            if client.typing is not None:
                client.typing.cancel()
        return ws

    async def _receive(self, client: Client, text: str) -> None:
        """Carry out one request; a refused one is answered with the reason (and a refused line
        comes back, to be corrected)."""
        data: Json = {}
        try:
            data = json.loads(text)
            await self._handle(client, data)
        except Refused as refused:
            line = data.get("text") if data.get("op") == "send" else None
            await self._send(client, {"op": "refused", "error": str(refused), "text": line})
        except (ValueError, KeyError, TypeError, AttributeError) as bad:
            await self._send(client, {"op": "refused", "error": f"Not understood: {bad!r}"})

    async def _send(self, client: Client, data: Json) -> None:
        if not client.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await client.ws.send_str(json.dumps(data))

    async def _send_changes(self, client: Client) -> None:
        """Tell the page what changed (each record once, as it is now), whenever it changes."""
        while True:
            await client.wake.wait()
            client.wake.clear()
            changes, client.changes = list(client.changes), {}
            if client.member is None:
                continue
            for kind, ident in changes:
                data = self._change(client.member, kind, ident)
                if data is not None:
                    await self._send(client, data)

    def _change(self, member: MemberRecord, kind: str, ident: int) -> Json | None:
        if kind == "message" and (message := self.server.messages.get(ident)):
            if message.guild_id == self.guild.id:
                return {"op": "message", "message": views.message_view(self.server, message, member.user.id)}
        elif kind == "channel" and (channel := self.server.channels.get(ident)):
            if channel.guild_id == self.guild.id:
                return {"op": "channel", "channel": views.channel_view(channel)}
        elif kind == "commands":
            shown = self._commands(member)
            return {"op": "commands", "commands": [_command_names(c) for c in shown]}
        elif kind == "member":
            found = self.guild.members.get(ident)
            user = self.server.users.get(ident)
            if found is not None and found is member:
                return {"op": "member", "member": views.member_view(self.guild, found), **_words(found)}
            if found is not None:
                return {"op": "member", "member": views.member_view(self.guild, found)}
            if user is not None:
                return {"op": "member", "member": {"id": str(user.id), "name": user.name, "gone": True}}
        return None

    async def _watch_bot(self) -> None:
        """Tell the pages when the bot comes and goes (it restarts, or is not up yet)."""
        online = None
        while True:
            if self.server.ready() != online:
                online = self.server.ready()
                self.bot_was_online = self.bot_was_online or online
                for client in list(self.clients):
                    await self._send(client, {"op": "status", "bot_online": online})
            await asyncio.sleep(0.25)

    async def _handle(self, client: Client, data: Json) -> None:
        op = data.get("op")
        if op == "hello":
            await self._hello(client, data)
            return
        member = client.member
        if member is None:
            raise Refused("Say hello first.")
        self.members.check(member, data)
        if op == "type":
            if client.typing is not None:
                client.typing.cancel()  # a newer line replaces the one still waiting for the bot
            client.typing = asyncio.get_running_loop().create_task(self._suggest(client, member, data))
        elif op == "send":
            await self._send_line(client, member, self._channel(data["channel"], member), str(data["text"]))
        elif op == "click":
            await self._click(client, member, data)
        elif op == "settings":
            self._settings(member, data)
            client.changes[("commands", 0)] = None  # in the member's language now
            client.wake.set()
        elif op == "dismiss":
            message = self.server.messages.get(int(data["message"]))
            if (
                message is not None
                and message.ephemeral
                and views.recipient(self.server, message) == member.user.id
            ):
                message.deleted = True
                self.server.touched("message", message.id)
        else:
            raise Refused(f"Unknown request {op!r}.")

    async def _hello(self, client: Client, data: Json) -> None:
        """The tab's member: the one it names if still here and its browser's, else the one its
        browser holds by that name, else a new member with its name."""
        member = self.members.greet(data)
        client.member = member
        snapshot = views.snapshot(self.server, self.guild, member)
        runs = self.members.runs_table(str(data.get("secret") or ""))
        await self._send(client, {"op": "welcome", **snapshot, **_words(member), "runs_table": runs})
        client.changes[("commands", 0)] = None
        client.wake.set()

    def _commands(self, member: MemberRecord) -> list[Json]:
        """The commands members of the guild can use (the guild's, then the global ones), as the
        member's language names them."""
        found = {**self.server.commands.get(None, {}), **self.server.commands.get(self.guild.id, {})}
        return commandline.localized(list(found.values()), member.locale)

    def _channel(self, ident: Any, member: MemberRecord) -> ChannelRecord:
        channel = self.server.channels.get(int(ident))
        if channel is None or channel.deleted or channel.guild_id != self.guild.id:
            raise Refused(words.channel_gone(words.language_of(member.locale)))
        return channel

    def _member_payloads(self) -> dict[str, Json]:
        return {m.user.name.casefold(): m.payload() for m in self.guild.members.values()}

    async def _suggest(self, client: Client, member: MemberRecord, data: Json) -> None:
        """What may come next on the typed line (the bot's choices where it completes an option)."""
        text, seq = str(data.get("text", "")), data.get("seq")
        names = [m.user.name for m in self.guild.members.values() if not m.user.bot]
        commands = self._commands(member)
        found = commandline.suggest(text, commands, names)
        items = [{"label": s.label, "detail": s.detail, "text": s.text} for s in found.items]
        request = commandline.autocomplete_data(text, commands) if found.autocomplete else None
        where = str(data.get("channel") or "")
        channel = self.server.channels.get(int(where)) if where.isdigit() else None
        if request is not None and channel is not None and not channel.deleted and self.server.ready():
            items = await self._autocomplete(member, channel, text, request)
        await self._send(client, {"op": "suggest", "seq": seq, "items": items})

    async def _autocomplete(
        self, member: MemberRecord, channel: ChannelRecord, text: str, request: Json
    ) -> list[Json]:
        """The bot's choices for the option being typed (none if it does not answer in time)."""
        focused = _focused(request)
        interaction = await self.server.send_interaction(AUTOCOMPLETE, member, channel, request)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(AUTOCOMPLETE_WAIT):
                await interaction.done.wait()
        return [
            {
                "label": str(c["name"]),
                "detail": "",
                "text": commandline.with_value(text, str(focused["value"]), str(c["value"])),
            }
            for c in interaction.choices or []
        ]

    async def _send_line(
        self, client: Client, member: MemberRecord, channel: ChannelRecord, text: str
    ) -> None:
        text = text.strip()
        if not text:
            return
        if not text.startswith("/"):
            try:
                await self.server.member_says(member, channel, text)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            return
        language = words.language_of(member.locale)
        commands = self._commands(member)
        if not self.server.ready():  # a command the bot has not told us of yet is not unknown
            raise Refused(words.bot_away(language) if self.bot_was_online else words.bot_starting(language))
        if not commands:
            raise Refused(words.bot_starting(language))
        try:
            data = commandline.read(text, commands, self._member_payloads(), language)
        except commandline.Refused as refused:
            raise Refused(str(refused)) from None
        interaction = await self.server.send_interaction(COMMAND, member, channel, data)
        typed = text.split()[: len(commandline.leaf(data)[0])]  # the command in the member's words
        self._spawn(self._expect_answer(client, interaction, " ".join(typed)))

    async def _click(self, client: Client, member: MemberRecord, data: Json) -> None:
        message = self.server.messages.get(int(data["message"]))
        if message is None or not views.visible(self.server, message, member.user.id):
            raise Refused(words.message_gone(words.language_of(member.locale)))
        custom_id = str(data["custom_id"])
        button = next((b for b in message.buttons if b.custom_id == custom_id), None)
        if button is None or button.disabled:
            raise Refused(words.button_gone(words.language_of(member.locale)))
        if not self.server.ready():
            raise Refused(words.bot_away(words.language_of(member.locale)))
        channel = self._channel(message.channel_id, member)
        payload = {"custom_id": custom_id, "component_type": 2}
        interaction = await self.server.send_interaction(CLICK, member, channel, payload, message)
        what = words.button(words.language_of(member.locale), button.label or "")
        self._spawn(self._expect_answer(client, interaction, what))

    async def _expect_answer(self, client: Client, interaction: Interaction, what: str) -> None:
        """As Discord's client: an interaction the bot has not acknowledged within 3 s failed, and
        the member is told."""
        try:
            await self.server.wait_until(lambda: interaction.callback_type is not None, ANSWER_WITHIN, what)
        except TimeoutError:
            language = words.language_of(client.member.locale if client.member else None)
            await self._send(client, {"op": "notice", "text": words.no_answer(language, what)})

    def _settings(self, member: MemberRecord, data: Json) -> None:
        if "moderator" in data:
            self.members.set_moderator(member, str(data.get("secret") or ""), bool(data["moderator"]))
        if "locale" in data:
            if data["locale"] not in LOCALES:
                raise Refused(f"Pick one of {', '.join(LOCALES)}.")
            member.locale = str(data["locale"])
            self.server.touched("member", member.user.id)


def _command_names(command: Json) -> Json:
    """A command as the page names it: its name and its sub-commands', in the member's language,
    by their English names (the empty channel's welcome names `/pachisi start` in Hindi too)."""
    subs = {o["default"]: o["name"] for o in command.get("options", []) if o.get("type") == 1}
    return {
        "name": command["name"],
        "description": command.get("description", ""),
        "default": command["default"],
        "subs": subs,
        "paths": commandline.paths(command),
    }


def _words(member: MemberRecord) -> Json:
    """The page's words in the member's language, and the language's code (the page's `lang`)."""
    language = words.language_of(member.locale)
    return {"lang": language.code, "words": words.page_words(language)}


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


def _focused(data: Json) -> Json:
    return next(o for o in commandline.leaf(data)[1] if o.get("focused"))


@web.middleware
async def _secure(request: web.Request, handler: Any) -> web.StreamResponse:
    """Every answer forbids scripts, styles and pictures from anywhere but the page itself."""
    response: web.StreamResponse = await handler(request)
    if not response.prepared:  # a WebSocket has sent its headers already
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
    return response
