"""The Discord writes of the game flow: a planned message (`bot.core.present.Message`) sent as the
answer to a click, or posted or edited in the game's channel.

An interaction's own answers (its first response, edits of it, and followups: the next turn after
a click) are outside the channel's rate limits; a channel's posts and its edits each have a bucket
of about 5 per 5 s, so channel writes wait here for their turn (`Pacer`) and never meet a 429.
A message over an hour old takes only a few more edits, so a turn message is replaced by a new one
well before that (`REPLACE_AFTER`).
"""

from __future__ import annotations

import asyncio
import functools
import io
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

import render
import render.words
from bot.cogs.pachisi.buttons import buttons_view
from bot.core.present import Board, Message
from bot.core.snapshot import GameSnapshot

if TYPE_CHECKING:
    from bot.client import PachisiBot

REPLACE_AFTER = timedelta(minutes=45)
"""A turn message this old is closed and the turn goes on in a new one (Discord limits the edits
of a message older than an hour)."""
BUCKET = (5, 5.0)
"""Discord's per-channel limit on posts, and on edits: this many per this many seconds."""
NO_MENTIONS = discord.AllowedMentions.none()
GameChannel = discord.TextChannel | discord.Thread | discord.PartialMessageable
ResultFile = Callable[[GameSnapshot], Awaitable[discord.File | None]]


def mentioning(users: tuple[int, ...]) -> discord.AllowedMentions:
    """Only these members are pinged (never roles or everyone)."""
    if not users:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False, everyone=False)


def too_old(message_id: int, now: datetime) -> bool:
    return now - discord.utils.snowflake_time(message_id) > REPLACE_AFTER


class Pacer:
    """Waits, per channel and kind of write (post, edit), until Discord's bucket has room."""

    def __init__(self, count: int = BUCKET[0], seconds: float = BUCKET[1]) -> None:
        self.count, self.seconds = count, seconds
        self.sent: defaultdict[tuple[int, str], deque[float]] = defaultdict(deque)
        self.locks: defaultdict[tuple[int, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def wait(self, channel_id: int, kind: str) -> None:
        key = (channel_id, kind)
        async with self.locks[key]:
            sent = self.sent[key]
            while True:
                now = time.monotonic()
                while sent and now - sent[0] >= self.seconds:
                    sent.popleft()
                if len(sent) < self.count:
                    sent.append(now)
                    return
                await asyncio.sleep(sent[0] + self.seconds - now)


class Writer:
    """Sends planned messages: renders their board off the event loop, attaches the result's files,
    and paces what goes through the channel routes."""

    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.pacer = Pacer()
        self.result_files: list[ResultFile] = []
        """Pictures other modules add to a finished game's result (the Hint's story chart)."""

    async def board_png(self, board: Board) -> bytes:
        draw = functools.partial(
            render.board_png,
            board.position,
            names=dict(board.names),
            moves=[render.DrawnMove(move, before) for move, before in board.story] or None,
            last_move=board.last_move,
            last_position=board.last_position,
            throw=board.throw,
            cowries=board.cowries,
            choices=list(board.choices) or None,
            termination=board.termination,
            words=board.words or render.words.ENGLISH,
        )
        return await self.bot.workers.run(draw)

    async def files(self, message: Message, game: GameSnapshot) -> list[discord.File]:
        found = []
        if message.board is not None:
            found.append(discord.File(io.BytesIO(await self.board_png(message.board)), "board.png"))
        if message.result:
            found += [file for make in self.result_files if (file := await make(game)) is not None]
        return found

    async def answer(
        self, interaction: discord.Interaction[Any], message: Message, files: list[discord.File]
    ) -> None:
        """The clicked message becomes `message` (with `files`): the click's own response, or an edit
        of it once answered or deferred."""
        view = buttons_view(message.buttons)
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=message.content, attachments=files, view=view, allowed_mentions=NO_MENTIONS
            )
        else:
            await interaction.response.edit_message(
                content=message.content, attachments=files, view=view, allowed_mentions=NO_MENTIONS
            )

    async def post(self, channel: GameChannel, message: Message, game: GameSnapshot) -> discord.Message:
        """A new message in the game's channel; it pings whoever `message` names."""
        files = await self.files(message, game)
        await self.pacer.wait(channel.id, "post")
        return await channel.send(
            message.content,
            files=files,
            view=buttons_view(message.buttons) or discord.utils.MISSING,
            allowed_mentions=mentioning(message.pings),
        )

    async def follow(
        self, interaction: discord.Interaction[Any], message: Message, game: GameSnapshot
    ) -> discord.Message:
        """A new message in the game's channel sent as a followup of a click: an interaction's
        answer, so it waits for no channel bucket; it pings whoever `message` names."""
        files = await self.files(message, game)
        return await interaction.followup.send(
            message.content,
            files=files,
            view=buttons_view(message.buttons) or discord.utils.MISSING,
            allowed_mentions=mentioning(message.pings),
            wait=True,
        )

    async def edit(self, channel: GameChannel, message_id: int, message: Message, game: GameSnapshot) -> None:
        """An earlier message of the game becomes `message` (its picture stays unless it has one)."""
        files = await self.files(message, game)
        await self.pacer.wait(channel.id, "edit")
        extra: dict[str, Any] = {"attachments": files} if files else {}
        await channel.get_partial_message(message_id).edit(
            content=message.content, view=buttons_view(message.buttons), allowed_mentions=NO_MENTIONS, **extra
        )
