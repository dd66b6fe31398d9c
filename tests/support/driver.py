"""The driving API of the stand-in Discord (localdiscord): guilds, channels and members that act
like people, for the tests and the benchmarks.

    async with FakeDiscord.start() as discord_:
        guild = discord_.add_guild("Test")
        channel = guild.add_text_channel("games")
        alice = guild.add_member("Alice")
        async with discord_.running(MyBot()):           # in-process, until the block ends
            reply = await alice.slash(channel, "pachisi start", players=4)
            reply = await alice.click(reply.message, label="Throw")
        async with discord_.process([sys.executable, "-m", "bot"], ready_line="ready") as bot:
            await bot.kill()                            # SIGKILL
            await bot.start()                           # a new process, connected and ready

Every wait is for a condition, with a deadline (TIMEOUT unless told), and raises TimeoutError
saying what it waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeVar

import discord
import discord.gateway
import discord.http

from bot.client import point_discord_at
from localdiscord.child import Child, stand_in_env
from localdiscord.commandline import USER
from localdiscord.objects import (
    Attachment,
    Button,
    CallbackType,
    ChannelRecord,
    GuildRecord,
    Interaction,
    InteractionType,
    Json,
    MemberRecord,
    Message,
)
from localdiscord.server import FakeDiscordServer

TIMEOUT = 60.0
"""The deadline of every wait unless its caller gives one. A wait ends as soon as its condition
holds, so only a failing wait takes this long: generous enough for a bot process to start on a
machine whose two cores other jobs keep busy (a few seconds when it is quiet)."""
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ClientT = TypeVar("ClientT", bound=discord.Client)


@dataclass
class Reply:
    """What the bot answered to one interaction (a live view: later followups show up too)."""

    interaction: Interaction

    async def wait(self, timeout: float = TIMEOUT) -> Reply:
        """Wait for the answer (needed only after `wait=False`)."""
        return await _answered(self.interaction, "the interaction", timeout)

    @property
    def done(self) -> bool:
        return self.interaction.done.is_set()

    @property
    def message(self) -> Message | None:
        """The message that answered: the reply, the edited original, or the first followup."""
        return self.interaction.answered_by

    @property
    def callback_type(self) -> CallbackType | None:
        return self.interaction.callback_type

    @property
    def deferred(self) -> bool:
        deferred = (CallbackType.DEFERRED_CHANNEL_MESSAGE, CallbackType.DEFERRED_UPDATE_MESSAGE)
        return self.interaction.callback_type in deferred

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[Json]:
        return self.message.embeds if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def components(self) -> list[Button]:
        return self.message.buttons if self.message else []

    @property
    def attachments(self) -> list[Attachment]:
        return self.message.attachments if self.message else []

    @property
    def followups(self) -> list[Message]:
        return self.interaction.followups

    @property
    def choices(self) -> list[tuple[str, Any]]:
        return [(c["name"], c["value"]) for c in self.interaction.choices or []]

    @property
    def latency(self) -> float | None:
        """Seconds from sending the interaction to the bot's callback (Discord allows 3)."""
        return self.interaction.callback_latency

    @property
    def elapsed(self) -> float | None:
        """Seconds from sending the interaction to the complete answer (followup or edit included)."""
        answered = self.interaction.answered_at
        return None if answered is None else answered - self.interaction.created


class Channel:
    def __init__(self, server: FakeDiscordServer, record: ChannelRecord) -> None:
        self._server, self.record = server, record
        self.id, self.name, self.guild_id = record.id, record.name, record.guild_id

    @property
    def messages(self) -> list[Message]:
        """The channel's visible messages, oldest first (ephemeral and deleted ones excluded)."""
        return [
            m for m in self._server.channel_messages.get(self.id, []) if not m.deleted and not m.ephemeral
        ]

    @property
    def threads(self) -> list[Channel]:
        """The live threads started from this channel, oldest first."""
        return [
            Channel(self._server, c)
            for c in self._server.channels.values()
            if c.parent is not None and c.parent.id == self.id and not c.deleted
        ]

    @property
    def parent(self) -> Channel | None:
        """A thread's channel."""
        return None if self.record.parent is None else Channel(self._server, self.record.parent)

    def last_message(self) -> Message | None:
        messages = self.messages
        return messages[-1] if messages else None

    def with_button(self, label: str | None = None, custom_id: str | None = None) -> Message:
        """The newest visible message with such a button."""
        for message in reversed(self.messages):
            with contextlib.suppress(LookupError):
                message.button(label, custom_id)
                return message
        raise LookupError(f"no message in #{self.name} has a button label={label!r} custom_id={custom_id!r}")

    def last_png(self) -> bytes | None:
        """The newest PNG attached to a visible message (the board, usually)."""
        for message in reversed(self.messages):
            for a in reversed(message.attachments):
                if a.data.startswith(PNG_MAGIC):
                    return a.data
        return None


class Guild:
    def __init__(self, server: FakeDiscordServer, record: GuildRecord) -> None:
        self._server, self.record = server, record
        self.id, self.name = record.id, record.name

    def add_text_channel(self, name: str) -> Channel:
        return Channel(self._server, self._server.add_channel(self.record, name))

    def add_member(self, name: str) -> Member:
        return Member(self._server, self._server.add_member(self.record, name))

    def remove_member(self, member: Member) -> None:
        self._server.remove_member(self.record, member.record)


class Member:
    """A guild member who uses commands and clicks buttons."""

    def __init__(self, server: FakeDiscordServer, record: MemberRecord) -> None:
        self._server, self.record = server, record
        self.id, self.name = record.user.id, record.user.name

    async def slash(
        self, channel: Channel, command: str, *, wait: bool = True, timeout: float = TIMEOUT, **options: Any
    ) -> Reply:
        """Run `/command sub option=value ...` and wait for the bot's answer (unless `wait=False`)."""
        data = await self._command_data(channel, command, options, timeout=timeout)
        interaction = await self._server.send_interaction(
            InteractionType.APPLICATION_COMMAND, self.record, channel.record, data
        )
        return await _answered(interaction, f"/{command}", timeout) if wait else Reply(interaction)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        option: str,
        typed: str,
        *,
        timeout: float = TIMEOUT,
        **options: Any,
    ) -> list[tuple[str, Any]]:
        """Type `typed` into `option` of `/command` and return the (name, value) choices offered."""
        data = await self._command_data(
            channel, command, {**options, option: typed}, focused=option, timeout=timeout
        )
        interaction = await self._server.send_interaction(
            InteractionType.AUTOCOMPLETE, self.record, channel.record, data
        )
        return (await _answered(interaction, f"autocomplete /{command} {option}", timeout)).choices

    async def click(
        self,
        target: Message | Channel,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        force: bool = False,
        wait: bool = True,
        timeout: float = TIMEOUT,
    ) -> Reply:
        """Click a button on a message as it is now (a disabled one only with `force=True`).

        Given a channel, the button is the one on the newest visible message that has it.
        """
        message = target if isinstance(target, Message) else target.with_button(label, custom_id)
        button = message.button(label, custom_id)
        if button.disabled and not force:
            raise ValueError(f"button {button.label!r} is disabled")
        channel = self._server.channels[message.channel_id]
        data = {"custom_id": button.custom_id, "component_type": 2}
        interaction = await self._server.send_interaction(
            InteractionType.MESSAGE_COMPONENT, self.record, channel, data, message
        )
        what = f"click {button.label!r}"
        return await _answered(interaction, what, timeout) if wait else Reply(interaction)

    async def press(self, message: Message, custom_id: str, *, timeout: float = TIMEOUT) -> Reply:
        """Click a button with any custom id on `message` (forged: the message need not have it)
        and wait for the answer."""
        channel = self._server.channels[message.channel_id]
        data = {"custom_id": custom_id, "component_type": 2}
        interaction = await self._server.send_interaction(
            InteractionType.MESSAGE_COMPONENT, self.record, channel, data, message, forged=True
        )
        return await _answered(interaction, f"press {custom_id[:60]!r}", timeout)

    async def _command_data(
        self,
        channel: Channel,
        command: str,
        values: dict[str, Any],
        *,
        focused: str | None = None,
        timeout: float,
    ) -> Json:
        """The `data` of a command interaction: registered id, nested sub-command options."""
        name, *path = command.split()
        registered: Json = await self._server.wait_until(
            lambda: self._server.find_command(channel.guild_id, name),
            timeout,
            f"command /{name} to be synced",
        )
        data: Json = {"id": registered["id"], "name": name, "type": 1}
        if "guild_id" in registered:
            data["guild_id"] = registered["guild_id"]
        schema, holder = registered.get("options", []), data
        for part in path:
            sub = next((o for o in schema if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: no sub-command {part!r}")
            node: Json = {"name": part, "type": sub["type"], "options": []}
            holder.setdefault("options", []).append(node)
            schema, holder = sub.get("options", []), node
        known = {o["name"]: o for o in schema}
        for key, value in values.items():
            if key not in known:
                raise ValueError(f"/{command}: no option {key!r} (has {sorted(known)})")
            option: Json = {"name": key, "type": known[key]["type"], "value": _option_value(value)}
            if key == focused:
                option["focused"] = True
                option["value"] = str(value)
            elif isinstance(value, Member) and option["type"] == USER:
                _resolve(data, value.record)
            holder.setdefault("options", []).append(option)
        return data


def _resolve(data: Json, member: MemberRecord) -> None:
    """Discord sends the user and member an option names in `data.resolved`, keyed by id: what
    discord.py turns into the command's `discord.Member` argument."""
    resolved = data.setdefault("resolved", {})
    user_id = str(member.user.id)
    resolved.setdefault("users", {})[user_id] = member.user.payload()
    resolved.setdefault("members", {})[user_id] = {k: v for k, v in member.payload().items() if k != "user"}


def _option_value(value: Any) -> Any:
    return str(value.id) if isinstance(value, Member | Channel) else value


async def _answered(interaction: Interaction, what: str, timeout: float) -> Reply:
    try:
        async with asyncio.timeout(timeout):
            await interaction.done.wait()
    except TimeoutError:
        state = f"callback type {interaction.callback_type}" if interaction.callback_type else "no callback"
        raise TimeoutError(f"the bot did not answer {what} within {timeout} s ({state})") from None
    return Reply(interaction)


class FakeDiscord:
    """The running fake Discord and its test controls."""

    def __init__(self, server: FakeDiscordServer) -> None:
        self.server = server

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *, interaction_timeout: float | None = 3.0) -> AsyncIterator[Self]:
        """Serve on 127.0.0.1 with an ephemeral port until the block ends (even on failure)."""
        async with cls.serving(FakeDiscordServer(interaction_timeout=interaction_timeout)) as fake:
            yield fake

    @classmethod
    @contextlib.asynccontextmanager
    async def serving(cls, server: FakeDiscordServer) -> AsyncIterator[Self]:
        """Start `server` (a subclass, for tests), drive it until the block ends, then stop it."""
        await server.start()
        try:
            yield cls(server)
        finally:
            await server.stop()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def gateway_url(self) -> str:
        return self.server.gateway_url

    @property
    def token(self) -> str:
        return self.server.token

    @property
    def application_id(self) -> int:
        return self.server.application_id

    @property
    def bot_user_id(self) -> int:
        return self.server.bot_user.id

    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess: where Discord is, and the token to use."""
        return stand_in_env(self.server)

    def add_guild(self, name: str = "Test guild", *, shard: tuple[int, int] | None = None) -> Guild:
        """A new guild; with `shard=(shard_id, shard_count)`, one whose id puts it on that shard."""
        return Guild(self.server, self.server.add_guild(name, shard=shard))

    async def wait_ready(self, *, identifies: int = 1, timeout: float = TIMEOUT) -> None:
        """Wait until a bot is connected, and at least `identifies` IDENTIFYs happened so far."""
        await self.server.wait_until(
            lambda: self.server.ready() and self.server.identifies >= identifies,
            timeout,
            f"a bot connected after {identifies} IDENTIFY",
        )

    def expired(self, reply: Reply) -> bool:
        """Discord gave up on the interaction: the bot sent no callback within Discord's deadline
        (the member sees "This interaction failed" and may click again)."""
        limit = self.server.interaction_timeout
        if reply.callback_type is not None or limit is None:
            return False
        return asyncio.get_running_loop().time() - reply.interaction.created > limit

    async def wait_until(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = TIMEOUT,
        what: str = "a condition",
        channel: Channel | None = None,
    ) -> Any:
        """Wait until `predicate()` is truthy and return its value; checked on every change the
        fake sees (messages, edits, answers, connections), or with `channel` on every change in that
        channel alone, and every 50 ms."""
        return await self.server.wait_until(predicate, timeout, what, None if channel is None else channel.id)

    async def wait_for_message(
        self, predicate: Callable[[Message], bool], *, timeout: float = TIMEOUT
    ) -> Message:
        """The first stored message (visible or not, edited or not) that satisfies `predicate`."""

        def find() -> Message | None:
            return next((m for m in self.server.messages.values() if predicate(m)), None)

        found: Message = await self.server.wait_until(find, timeout, "a matching message")
        return found

    def advance_clock(self, seconds: float) -> None:
        """Make every message `seconds` older, as Discord sees them (the old-message edit limit)."""
        self.server.advance_clock(seconds)

    def enforce_message_limit(self, count: int = 5, seconds: float = 5.0) -> None:
        """Answer a channel's new messages beyond `count` per `seconds` with Discord's 429."""
        self.server.enforce_message_limit(count, seconds)

    def deny_bot(self, channel: Channel, *permissions: str) -> None:
        """Take permissions (discord.py names: "send_messages", "attach_files", ...) from the bot."""
        self.server.deny_bot(channel.record, *permissions)

    def delete_channel(self, channel: Channel) -> None:
        self.server.delete_channel(channel.record)

    async def drop_gateway(self) -> None:
        await self.server.drop_gateway()

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.server.interactions.values())

    @contextlib.asynccontextmanager
    async def running(self, client: ClientT, *, timeout: float = TIMEOUT) -> AsyncIterator[ClientT]:
        """Run a discord.py client in this process against the fake until the block ends.

        Yields once the client is ready (READY and GUILD_CREATEs processed); a client that
        crashes while starting raises here instead of timing out.
        """
        with self.pointed():
            async with self._run(client, timeout) as running:
                yield running

    @contextlib.contextmanager
    def pointed(self) -> Iterator[None]:
        """discord.py in this process talks to the fake inside the block (patched, then restored)."""
        saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        point_discord_at(self.url, self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved

    @contextlib.asynccontextmanager
    async def _run(self, client: ClientT, timeout: float) -> AsyncIterator[ClientT]:
        task = asyncio.create_task(client.start(self.token))
        try:
            ready = asyncio.create_task(self._client_ready(client, self.server.identifies + 1))
            done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            ready.cancel()
            if task in done:
                task.result()
                raise RuntimeError("the client stopped while starting")
            if ready not in done:
                raise TimeoutError(f"the client was not ready within {timeout} s")
            yield client
        finally:
            await client.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _client_ready(self, client: discord.Client, identifies: int) -> None:
        await self.wait_ready(identifies=identifies, timeout=1e9)
        await client.wait_until_ready()

    @contextlib.asynccontextmanager
    async def process(
        self,
        argv: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        ready_line: str | None = None,
    ) -> AsyncIterator[BotProcess]:
        """Run a bot as a subprocess (started and ready on entry), killed at the end of the block."""
        bot = BotProcess(self, argv, env=env, cwd=cwd, ready_line=ready_line)
        try:
            await bot.start()
            yield bot
        finally:
            await bot.kill()
            bot.log.close()


class BotProcess:
    """A bot subprocess (child.py) that can be SIGKILLed and started again; its output goes to
    `output()`.

    With `ready_line`, the process is ready once its output (since this start) has a line holding
    that text: what the bot says when it has finished starting, read then and not at a guess.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        ready_line: str | None = None,
    ) -> None:
        self.fake, self.ready_line = fake, ready_line
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by FakeDiscord.process)
        self.child = Child(argv, {**os.environ, **stand_in_env(fake.server), **(env or {})}, self.log, cwd)
        self.started_at = 0  # where this start's output begins in the log
        self.ready_report: str | None = None
        """The process's `ready_line` from its latest start."""

    @property
    def pid(self) -> int | None:
        return self.child.pid

    @property
    def starts(self) -> int:
        return self.child.starts

    async def start(self, *, ready: bool = True, timeout: float = TIMEOUT) -> None:
        """Start a new process and wait until it has IDENTIFYed and received READY, and (unless
        `ready=False`) until it wrote its `ready_line`."""
        identifies = self.fake.server.identifies + 1
        self.started_at = os.fstat(self.log.fileno()).st_size
        self.ready_report = None
        self.child.spawn()
        server = self.fake.server
        await self.fake.wait_until(
            lambda: self._running() and server.ready() and server.identifies >= identifies,
            timeout=timeout,
            what=f"the bot connected after {identifies} IDENTIFY",
        )
        if ready and self.ready_line is not None:
            self.ready_report = await self.wait_for_output(self.ready_line, timeout=timeout)

    async def wait_for_output(self, text: str, *, timeout: float = TIMEOUT) -> str:
        """The first line holding `text` that the process wrote since its latest start, once it
        has written one (the log is read again on every change the fake sees, and every 50 ms)."""

        def line() -> str | None:
            self._running()
            return next((x for x in self.output(since_start=True).splitlines() if text in x), None)

        found: str = await self.fake.wait_until(line, timeout=timeout, what=f"the bot to log {text!r}")
        return found

    def _running(self) -> bool:
        """True while the process runs; a process that exited raises, with what it printed."""
        assert self.child.popen is not None, "the bot was never started"
        if not self.child.running:
            raise RuntimeError(f"the bot exited with {self.child.popen.returncode}:\n{self.output()}")
        return True

    async def kill(self) -> int | None:
        """SIGKILL the process (no clean shutdown) and reap it; returns its exit status."""
        return await self.child.kill()

    async def terminate(self, timeout: float = TIMEOUT) -> int:
        """SIGTERM the process (a clean shutdown, as a service manager asks) and reap it."""
        return await self.child.terminate(timeout)

    def output(self, *, since_start: bool = False) -> str:
        """Everything the process(es) printed so far (with `since_start`, the latest one only)."""
        fd = self.log.fileno()  # pread: the children share the file offset, leave it alone
        offset = self.started_at if since_start else 0
        return os.pread(fd, os.fstat(fd).st_size - offset, offset).decode(errors="replace")
