"""The message that shows a game's turn, written in batches: after a click, the next member's
turn goes out as a new message whose id the bot stores so that a timer, a reminder or a restart
finds it. Written one by one, that is a second transaction per click; under load the ids noted
while one batch is written go together in the next, each only if its game is still at the version
it was noted at (a later call stored its own message then). A click takes its game's note out of
the batch (`take`): its own transaction stores the clicked message. Any other change writes the
game's note first (`write_now`, under the game's lock), so the store alone says which message
shows the game.

An id not yet written when the process dies is lost: the game then shows itself again from the
message stored before (what a restart does for any game), so nothing of the game is lost.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.core.snapshot import Played
from bot.core.store import Store, StoreUnavailable

log = logging.getLogger(__name__)

FLUSH_SECONDS = 5.0
"""How long a stopping bot waits for the last batch."""


class ShownBatch:
    """Turn messages to store: noted at once, written together by one task."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: dict[int, tuple[int, int | None]] = {}
        """game -> (version, message id)."""
        self.writing: asyncio.Task[None] | None = None
        self.flying: dict[int, tuple[int, int | None]] = {}
        """The batch being written now; `landed` is set once it is written (or failed)."""
        self.landed = asyncio.Event()
        self.batches = 0

    def note(self, game_id: int, version: int, message_id: int | None) -> None:
        self.pending[game_id] = (version, message_id)
        if self.writing is None or self.writing.done():
            self.writing = asyncio.create_task(self._write())

    def take(self, game_id: int) -> tuple[int, int | None] | None:
        """The game's note not written yet, out of the batch (a click's transaction stores its own)."""
        return self.pending.pop(game_id, None)

    def put_back(self, game_id: int, noted: tuple[int, int | None] | None) -> None:
        """A note taken for a click that stored nothing: it is still to be written."""
        if noted is not None and game_id not in self.pending:
            self.note(game_id, *noted)

    def settled(self, played: Played, noted: tuple[int, int | None] | None, shown_on: int) -> Played:
        """A click's call stored `shown_on` over the game's older message: the one it replaces is the
        noted one (the stored one was replaced already), none when they are the same."""
        if noted is None:
            return played
        if played.snapshot.message_id != shown_on:  # nothing was stored (a throw shown again)
            self.put_back(played.snapshot.id, noted)
            return played
        return replace(played, replaced=None if noted[1] in (None, shown_on) else noted[1])

    async def write_now(self, game_id: int) -> None:
        """Store the game's note at once, after a batch in flight that holds it: a change nobody
        clicked for then reads from the store which message shows the game (call it locked)."""
        if game_id in self.flying:
            await self.landed.wait()
        noted = self.pending.pop(game_id, None)
        if noted is None:
            return
        try:
            async with self.store.transaction() as session:
                await self.store.set_shown_at(session, {game_id: noted})
        except BaseException:
            self.put_back(game_id, noted)
            raise

    async def _write(self) -> None:
        while self.pending:
            batch = self.flying = self.pending
            self.pending = {}
            landed = self.landed = asyncio.Event()
            written = False
            try:
                async with self.store.transaction() as session:
                    await self.store.set_shown_at(session, batch)
                self.batches += 1
                written = True
            except StoreUnavailable:
                log.warning("turn messages of %d games not stored: database unavailable", len(batch))
                self.pending = {**batch, **self.pending}
            finally:
                self.flying = {}
                landed.set()
            if not written:
                await asyncio.sleep(1.0)

    async def flush(self) -> None:
        """Write what is noted (the bot stopping)."""
        if self.writing is not None:
            await asyncio.wait({self.writing}, timeout=FLUSH_SECONDS)
