"""Self-tests of the fake Discord: an unmodified discord.py client, run against it, works.

The bot here is a small stand-in for ours with the same moving parts: an app-command group
`pachisi` with options and autocomplete, a persistent view with a DynamicItem button, PNG
attachments, ephemeral, deferred and followup answers, and channel posts.
"""

from __future__ import annotations

import asyncio
import io
import re
import signal
import socket
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from localdiscord.state import State
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import Channel, Member

REPO = Path(__file__).resolve().parents[2]
MOVES = ["black:0-1", "black:12-16", "red:3-7"]


def png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 8), colour).save(out, format="PNG")
    return out.getvalue()


class ThrowButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"pachisi:throw:(?P<n>\d+)"
):
    """A button that survives restarts: its state (the throw count) lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Throw", custom_id=f"pachisi:throw:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[discord.ui.View], match: re.Match[str], /
    ) -> ThrowButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ThrowButton(self.n + 1))
        board = png(("green", "yellow")[self.n % 2])
        interaction.client.sent_png = board  # type: ignore[attr-defined]
        await interaction.response.edit_message(
            content=f"thrown {self.n + 1}",
            view=view,
            attachments=[discord.File(io.BytesIO(board), "board.png")],
        )


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"pachisi:resign:(?P<how>rest|webhook)",
):
    """Acknowledges the click first, then edits the message: by channel REST or by the webhook."""

    def __init__(self, how: str) -> None:
        super().__init__(discord.ui.Button(label=f"Resign ({how})", custom_id=f"pachisi:resign:{how}"))
        self.how = how

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[discord.ui.View], match: re.Match[str], /
    ) -> ResignButton:
        return cls(match["how"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        if self.how == "rest":
            await interaction.message.edit(content="resigned", view=None)  # type: ignore[union-attr]
        else:
            await interaction.edit_original_response(content="resigned", view=None)


class StandInBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.sent_png = b""
        self.errors: list[int] = []  # codes of HTTP errors the commands met
        self.events: list[str] = []  # gateway event names, in the order received
        self.tree.add_command(self.pachisi_group())

    async def on_socket_event_type(self, event: str) -> None:
        self.events.append(event)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ThrowButton, ResignButton)
        await self.tree.sync()

    def pachisi_group(self) -> app_commands.Group:
        group = app_commands.Group(name="pachisi", description="Play Pachisi")

        @group.command(description="Start a game")
        @app_commands.choices(level=[app_commands.Choice(name=x, value=x) for x in ("easy", "hard")])
        async def start(interaction: discord.Interaction, players: int, level: str = "easy") -> None:
            self.sent_png = png("red" if players == 4 else "blue")
            view = discord.ui.View(timeout=None)
            view.add_item(ThrowButton(0))
            view.add_item(ResignButton("rest"))
            view.add_item(ResignButton("webhook"))
            await interaction.response.send_message(
                f"game: {players} players, {level}",
                file=discord.File(io.BytesIO(self.sent_png), "board.png"),
                view=view,
            )

        @group.command(description="Move a piece")
        async def move(interaction: discord.Interaction, choice: str) -> None:
            await interaction.response.send_message(f"you chose {choice}", ephemeral=True)

        @move.autocomplete("choice")
        async def move_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

        @group.command(description="Post to the channel, then report")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                posted = await interaction.channel.send(text)  # type: ignore[union-attr]
                await posted.edit(content=f"{text} (edited)")
            except discord.HTTPException as e:
                await interaction.followup.send(f"{type(e).__name__} {e.code}", ephemeral=True)
            else:
                await interaction.followup.send("posted", ephemeral=True)

        @group.command(description="Answer late")
        async def slow(interaction: discord.Interaction, seconds: float) -> None:
            await asyncio.sleep(seconds)  # time itself: this test bot answers late on purpose
            try:
                await interaction.response.send_message("too late?")
            except discord.NotFound as e:
                self.errors.append(e.code)

        return group


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.start() as fake_:
        yield fake_
    assert not fake_.server.unhandled, f"REST routes the fake does not serve: {fake_.server.unhandled}"


class World:
    def __init__(self, fake: FakeDiscord, bot: StandInBot) -> None:
        self.fake, self.bot = fake, bot
        self.guild = guild = fake.add_guild("Pachisi club")
        self.channel: Channel = guild.add_text_channel("games")
        self.alice: Member = guild.add_member("Alice")
        self.bob: Member = guild.add_member("Bob")


@pytest.fixture
async def world(fake: FakeDiscord) -> AsyncIterator[World]:
    world = World(fake, StandInBot())
    async with fake.running(world.bot):
        yield world


async def test_startup_syncs_commands_and_the_bot_sees_guild_channel_and_permissions(world: World) -> None:
    command = world.fake.server.find_command(world.channel.guild_id, "pachisi")
    assert command is not None
    assert {o["name"] for o in command["options"]} == {"start", "move", "announce", "slow"}
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    me = channel.guild.me
    perms = channel.permissions_for(me)
    assert perms.send_messages and perms.attach_files and perms.embed_links and perms.view_channel
    assert world.bot.application_id == world.fake.application_id


async def test_slash_command_with_options_replies_with_png_and_button(world: World) -> None:
    reply = await world.alice.slash(world.channel, "pachisi start", players=4, level="hard")
    assert reply.content == "game: 4 players, hard"
    assert not reply.ephemeral
    assert [(b.label, b.custom_id, b.disabled) for b in reply.components] == [
        ("Throw", "pachisi:throw:0", False),
        ("Resign (rest)", "pachisi:resign:rest", False),
        ("Resign (webhook)", "pachisi:resign:webhook", False),
    ]
    [attachment] = reply.attachments
    assert attachment.filename == "board.png"
    assert attachment.data == world.bot.sent_png  # byte for byte
    assert Image.open(io.BytesIO(attachment.data)).getpixel((0, 0)) == (255, 0, 0)
    assert world.channel.last_message() is reply.message
    assert world.channel.last_png() == world.bot.sent_png
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel) and reply.message is not None
    fetched = await channel.fetch_message(reply.message.id)
    assert await fetched.attachments[0].read() == world.bot.sent_png  # served at its URL too


async def test_ephemeral_reply_stays_out_of_the_channel(world: World) -> None:
    reply = await world.alice.slash(world.channel, "pachisi move", choice="black:12-16")
    assert reply.content == "you chose black:12-16"
    assert reply.ephemeral
    assert world.channel.messages == []


async def test_autocomplete_offers_the_bots_choices(world: World) -> None:
    assert await world.alice.autocomplete(world.channel, "pachisi move", "choice", "black") == [
        ("black:0-1", "black:0-1"),
        ("black:12-16", "black:12-16"),
    ]
    assert await world.alice.autocomplete(world.channel, "pachisi move", "choice", "") == [
        (m, m) for m in MOVES
    ]


async def test_deferred_reply_completed_by_followup_and_channel_post_edited(world: World) -> None:
    reply = await world.bob.slash(world.channel, "pachisi announce", text="hello", wait=False)
    post = await world.fake.wait_for_message(lambda m: m.content.startswith("hello"))
    await reply.wait()
    assert reply.deferred
    assert reply.content == "posted"
    assert reply.ephemeral
    assert world.channel.messages == [post]
    assert post.content == "hello (edited)"
    assert [e["content"] for e in post.edits] == ["hello"]
    assert post.author.id == world.fake.bot_user_id


async def test_button_click_edits_the_message_and_can_be_clicked_again(world: World) -> None:
    start = await world.alice.slash(world.channel, "pachisi start", players=2)
    assert start.message is not None
    first = await world.bob.click(start.message, label="Throw")
    assert first.message is start.message
    assert first.content == "thrown 1"
    assert start.message.button("Throw").custom_id == "pachisi:throw:1"
    second = await world.alice.click(world.channel, label="Throw")  # the newest message with it
    assert second.content == "thrown 2"
    assert second.callback_type == 7 and second.elapsed is not None and second.elapsed >= 0
    assert [e["content"] for e in start.message.edits] == ["game: 2 players, easy", "thrown 1"]
    [board] = start.message.attachments  # each click replaced the board
    assert board.data == world.bot.sent_png
    assert Image.open(io.BytesIO(board.data)).getpixel((0, 0)) == (255, 255, 0)


async def test_rate_limited_post_is_retried_and_nothing_is_lost(world: World) -> None:
    world.fake.fail_next("POST", "/channels/{id}/messages", status=429, retry_after=0.2, times=2)
    reply = await world.alice.slash(world.channel, "pachisi announce", text="after the limit")
    assert reply.content == "posted"
    assert [m.content for m in world.channel.messages] == ["after the limit (edited)"]
    posts = [
        r.status for r in world.fake.server.requests if r.method == "POST" and r.path.endswith("/messages")
    ]
    assert posts == [429, 429, 200]


async def test_missing_permissions_surfaces_as_forbidden(world: World) -> None:
    world.fake.fail_next("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013)
    reply = await world.alice.slash(world.channel, "pachisi announce", text="nope")
    assert reply.content == "Forbidden 50013"
    assert world.channel.messages == []


async def test_deleted_channel_surfaces_as_not_found(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    world.fake.delete_channel(world.channel)
    with pytest.raises(discord.NotFound) as raised:
        await channel.send("anyone there?")
    assert raised.value.code == 10003
    await world.fake.wait_until(
        lambda: world.bot.get_channel(world.channel.id) is None, what="CHANNEL_DELETE"
    )


async def test_dropped_gateway_is_resumed_and_missed_events_replayed(world: World) -> None:
    await world.fake.drop_gateway()
    # Sent while the bot is disconnected: delivered when it resumes.
    reply = await world.alice.slash(world.channel, "pachisi move", choice="red:3-7")
    assert reply.content == "you chose red:3-7"
    assert world.fake.server.resumes == 1
    assert world.fake.server.identifies == 1
    start = await world.alice.slash(world.channel, "pachisi start", players=4)
    assert (await world.bob.click(start.message, label="Throw")).content == "thrown 1"  # type: ignore[arg-type]


async def test_unknown_command_option_is_a_test_error(world: World) -> None:
    with pytest.raises(ValueError, match="no option 'colour'"):
        await world.alice.slash(world.channel, "pachisi start", colour="red")


SUBPROCESS_BOT = textwrap.dedent(
    """
    import os

    import discord
    from discord import app_commands

    from bot.client import point_discord_at

    point_discord_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])


    class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>[0-9]+)"):
        def __init__(self, n):
            super().__init__(discord.ui.Button(label="Count", custom_id=f"count:{n}"))
            self.n = n

        @classmethod
        async def from_custom_id(cls, interaction, item, match):
            return cls(int(match["n"]))

        async def callback(self, interaction):
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(self.n + 1))
            await interaction.response.edit_message(content=f"{self.n + 1} by {os.getpid()}", view=view)


    class Bot(discord.Client):
        def __init__(self):
            super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
            self.tree = app_commands.CommandTree(self)

        async def setup_hook(self):
            self.add_dynamic_items(Counter)
            await self.tree.sync()


    bot = Bot()


    @bot.tree.command(description="Which process answers")
    async def ping(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message(f"pong {os.getpid()}", view=view)


    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    """
)


async def test_bot_subprocess_killed_and_restarted_keeps_working(fake: FakeDiscord, tmp_path: Path) -> None:
    script = tmp_path / "standin_bot.py"  # not bot.py: that name would hide our bot package
    script.write_text(SUBPROCESS_BOT)
    guild = fake.add_guild()
    channel = guild.add_text_channel("games")
    alice = guild.add_member("Alice")
    async with fake.process([sys.executable, str(script)], env={"PYTHONPATH": str(REPO)}) as bot:
        first = bot.pid
        reply = await alice.slash(channel, "ping")
        assert reply.content == f"pong {first}"
        assert await bot.kill() == -signal.SIGKILL

        await bot.start()
        assert bot.pid != first
        assert reply.message is not None
        clicked = await alice.click(reply.message, label="Count")  # a button the dead process posted
        assert clicked.content == f"1 by {bot.pid}"
        assert (await alice.slash(channel, "ping")).content == f"pong {bot.pid}"
        assert [m.content for m in channel.messages] == [f"1 by {bot.pid}", f"pong {bot.pid}"]
        assert fake.server.identifies == 2


async def test_an_answer_after_discords_deadline_is_refused(world: World) -> None:
    world.fake.server.interaction_timeout = 0.1
    reply = await world.alice.slash(world.channel, "pachisi slow", seconds=0.3, wait=False)
    await world.fake.wait_until(lambda: world.bot.errors, what="the late answer to fail")
    assert world.bot.errors == [10062]
    with pytest.raises(TimeoutError, match="no callback"):
        await reply.wait(timeout=0.05)
    assert world.channel.messages == []


async def test_sharded_client_finds_the_gateway_through_gateway_bot(fake: FakeDiscord) -> None:
    guild = fake.add_guild()
    channel = guild.add_text_channel("games")
    alice = guild.add_member("Alice")
    intents = discord.Intents.default()
    intents.members = True
    client = discord.AutoShardedClient(intents=intents, guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)

    @tree.command(description="Which shard answers")
    async def shard(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {interaction.guild.shard_id}")  # type: ignore[union-attr]

    async def sync() -> None:
        await tree.sync()

    client.setup_hook = sync  # type: ignore[method-assign]
    async with fake.running(client):
        assert (await alice.slash(channel, "shard")).content == "shard 0"
        assert ("GET", "/gateway/bot") in [(r.method, r.path) for r in fake.server.requests]
        # With the members intent the client chunks the guild at startup: it knows everyone.
        assert {m.name for m in client.get_guild(guild.id).members} == {"Pachisi", "Alice"}  # type: ignore[union-attr]


@pytest.mark.parametrize("how", ["rest", "webhook"])
async def test_deferred_click_is_answered_by_editing_its_message(world: World, how: str) -> None:
    start = await world.alice.slash(world.channel, "pachisi start", players=4)
    assert start.message is not None
    reply = await world.alice.click(start.message, label=f"Resign ({how})")
    assert reply.callback_type == 6
    assert reply.message is start.message
    assert (start.message.content, start.message.buttons) == ("resigned", [])


async def test_history_and_fetch_go_through_rest(world: World) -> None:
    await world.alice.slash(world.channel, "pachisi announce", text="one")
    await world.alice.slash(world.channel, "pachisi start", players=2)
    await world.alice.slash(world.channel, "pachisi move", choice="black:0-1")  # ephemeral: not in history
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["game: 2 players, easy", "one (edited)"]
    first = world.channel.messages[0]
    fetched = await channel.fetch_message(first.id)
    assert (fetched.content, fetched.author.id) == ("one (edited)", world.fake.bot_user_id)
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(first.id + 1)


async def test_many_channels_at_once_lose_nothing(world: World) -> None:
    guild = world.fake.add_guild("Busy")
    channels = [guild.add_text_channel(f"game-{i}") for i in range(20)]
    players = [guild.add_member(f"P{i}") for i in range(20)]

    async def play(channel: Channel, player: Member) -> list[str]:
        start = await player.slash(channel, "pachisi start", players=4)
        assert start.message is not None
        return [(await player.click(start.message, label="Throw")).content for _ in range(5)]

    results = await asyncio.gather(*(play(c, p) for c, p in zip(channels, players, strict=True)))
    assert results == [[f"thrown {n}" for n in range(1, 6)]] * 20
    assert all(len(c.messages) == 1 and len(c.messages[0].edits) == 5 for c in channels)


async def test_a_new_identify_takes_the_events_from_the_old_connection(world: World) -> None:
    second = StandInBot()
    async with world.fake.running(second):
        await world.alice.slash(world.channel, "pachisi start", players=2)
        assert second.sent_png and not world.bot.sent_png  # the newest connection answered
    assert world.fake.server.identifies == 2


async def test_a_wrong_token_is_refused(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with fake.pointed(), pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_a_channel_added_while_the_bot_runs_reaches_it_before_its_first_command(world: World) -> None:
    late = world.guild.add_text_channel("late")
    reply = await world.alice.slash(late, "pachisi start", players=2)
    assert reply.message is not None and reply.message.channel_id == late.id
    events = world.bot.events
    assert events.index("CHANNEL_CREATE") < events.index("INTERACTION_CREATE")


async def test_a_permission_taken_from_the_bot_shows_and_is_enforced(world: World) -> None:
    world.fake.deny_bot(world.channel, "attach_files")
    reply = await world.alice.slash(world.channel, "pachisi announce", text="text still works")
    assert reply.content == "posted"
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    perms = channel.permissions_for(channel.guild.me)
    assert perms.send_messages and not perms.attach_files
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send(file=discord.File(io.BytesIO(png("red")), "board.png"))
    assert raised.value.code == 50013
    assert [m.content for m in world.channel.messages] == ["text still works (edited)"]


async def test_discords_message_limits_are_enforced(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
    six_rows = [{"type": 1, "components": [button]} for _ in range(6)]
    for body, code in [({"content": "x" * 2001}, 50035), ({"components": six_rows}, 50035), ({}, 50006)]:
        with pytest.raises(discord.HTTPException) as raised:
            await world.bot.http.request(route, json=body)
        assert (raised.value.status, raised.value.code) == (400, code)
    await channel.send("x" * 2000)
    assert [len(m.content) for m in world.channel.messages] == [2000]


async def test_a_wait_scoped_to_a_channel_wakes_on_its_channels_changes_alone() -> None:
    """A change in one channel wakes the waits on it and the unscoped ones, not another channel's
    (the bench's 800 members each wait on their own table); a change anywhere wakes them all."""
    state = State()
    done = {1: False, 2: False}
    waits = {
        n: asyncio.create_task(state.wait_until(lambda n=n: done[n], 5, "a change", channel_id=n))
        for n in done
    }
    anywhere = asyncio.create_task(state.wait_until(lambda: all(done.values()), 5, "every change"))
    await asyncio.sleep(0)  # each wait has looked once and waits
    first, second = state.channel_changed[1], state.channel_changed[2]
    unscoped = state.changed
    await state.notify(1)
    assert first.is_set() and unscoped.is_set() and not second.is_set()
    done.update({1: True, 2: True})
    await state.notify(1)
    await waits[1]
    await state.notify()
    await asyncio.wait_for(asyncio.gather(waits[2], anywhere), 1)


async def test_a_burst_of_new_connections_is_accepted_at_once(fake: FakeDiscord) -> None:
    """Hundreds of connections at once, as a busy bot opens to defer hundreds of clicks: each is
    taken without the fake's loop accepting any in between (here it cannot: the connects below never
    yield to it). A short accept queue drops the rest, whose retries come a second later."""
    cap = int(Path("/proc/sys/net/core/somaxconn").read_text()) if sys.platform == "linux" else 0
    if cap < 600:
        pytest.skip(f"this kernel queues at most {cap or 'an unknown number of'} connections")
    host, port = fake.server.url.removeprefix("http://").split(":")
    opened: list[socket.socket] = []
    try:
        for _ in range(600):
            opened.append(socket.create_connection((host, int(port)), timeout=0.5))
    finally:
        for connection in opened:
            connection.close()
    assert len(opened) == 600
