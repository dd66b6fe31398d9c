"""The table's writes: a planned message (`bot.core.present.Message`) sent as the answer to a
click, or posted or edited in the game's channel.

An interaction's own answers (its first response, edits of it, and followups: the next turn after
a click) are outside the channel's rate limits; a channel's posts and its edits each have a bucket
of about 5 per 5 s, so channel writes wait here for their turn (`Pacer`) and never meet a 429.
A message over an hour old takes only a few more edits, so a turn message is replaced by a new one
well before that (`REPLACE_AFTER`).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

import render
import render.words
from bot.core.present import Board, Message
from bot.core.snapshot import GameSnapshot
from bot.core.workers import Workers
from bot.table.channel import Attachment, Channel, Reply, Shown

REPLACE_AFTER = timedelta(minutes=45)
"""A turn message this old is closed and the turn goes on in a new one (Discord limits the edits
of a message older than an hour)."""
BUCKET_WRITES = 5
"""Discord's per-channel limit on posts, and on edits: this many per bucket, which renews every
`Settings.discord_bucket_seconds`."""
DISCORD_EPOCH_MS = 1_420_070_400_000
"""A message id (a snowflake) counts milliseconds from here in its upper bits."""
ResultFile = Callable[[GameSnapshot], Awaitable[Attachment | None]]
"""Makes a file that a finished game's result carries (None: none for this game)."""


def posted_at(message_id: int) -> datetime:
    """When a message was posted: its id says so."""
    return datetime.fromtimestamp(((message_id >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def too_old(message_id: int, now: datetime) -> bool:
    return now - posted_at(message_id) > REPLACE_AFTER


class Pacer:
    """Waits, per channel and kind of write (post, edit), until Discord's bucket has room."""

    def __init__(self, seconds: float, count: int = BUCKET_WRITES) -> None:
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
                await asyncio.sleep(sent[0] + self.seconds - now)  # the bucket's room comes then


class Writer:
    """Sends planned messages: renders their board off the event loop, attaches the result's files,
    and paces what goes through the channel routes."""

    def __init__(self, workers: Workers, result_files: Sequence[ResultFile], pacer: Pacer) -> None:
        self.workers = workers
        self.pacer = pacer
        self.result_files = result_files
        """What a finished game's result carries: the table's hooks (`Table.add_result_file`)."""

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
        return await self.workers.run(draw)

    async def files(self, message: Message, game: GameSnapshot) -> list[Attachment]:
        found = []
        if message.board is not None:
            found.append(Attachment("board.png", await self.board_png(message.board)))
        if message.result:
            found += [file for make in list(self.result_files) if (file := await make(game)) is not None]
        return found

    async def post(self, channel: Channel, message: Message, game: GameSnapshot) -> Shown:
        """A new message in the game's channel; it pings whoever `message` names."""
        files = await self.files(message, game)
        await self.pacer.wait(channel.id, "post")
        return await channel.send(message, files)

    async def follow(self, reply: Reply, message: Message, game: GameSnapshot) -> Shown:
        """A new message in the game's channel sent as a followup of a click: an interaction's
        answer, so it waits for no channel bucket; it pings whoever `message` names."""
        return await reply.follow(message, await self.files(message, game))

    async def edit(self, channel: Channel, message_id: int, message: Message, game: GameSnapshot) -> None:
        """An earlier message of the game becomes `message` (its picture stays unless it has one)."""
        files = await self.files(message, game)
        await self.pacer.wait(channel.id, "edit")
        await channel.edit(message_id, message, files)
