"""The Hint and the story chart: the member to move asks what `hard` would play with their throw,
and why; a finished game's result carries the chart of each side's chance over the game.

The analysis and the chart are made in a thread pool, off the event loop: the analysis is a `hard`
search (tens of ms).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor

from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot
from bot.core.store import Store
from bot.table.channel import Attachment
from bot.table.flow import GameFlow
from engine import Position, parse_move
from engine.analysis import Analysis, analyse
from render.chart import game_png


class Hints:
    """The Hint's analysis and the result's story chart, for the games of the table."""

    def __init__(self, flow: GameFlow, service: GameService, store: Store, pool: Executor) -> None:
        self.flow = flow
        self.service = service
        self.store = store
        self.pool = pool

    async def ask(self, game_id: int, user_id: int, turn: int) -> GameSnapshot:
        """The member to move on turn `turn` asks for a hint: refused for anyone else, on another
        turn, or without a throw; the game as it stands."""
        game = await self.service.use_hint(game_id, user_id, turn)
        assert game.pending_throw is not None
        return game

    async def analysis(self, game: GameSnapshot) -> Analysis:
        """What `hard` would play with the game's pending throw, and why."""
        assert game.pending_throw is not None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, analyse, game.position, game.pending_throw)

    async def story(self, game: GameSnapshot) -> Attachment | None:
        """The finished game's story: each side's chance to win over the throws (a result file)."""
        async with self.store.transaction() as session:
            rows = await self.store.moves(session, game.id)
        record = [(row.throw, parse_move(row.move or "pass")) for row in rows]
        start = Position.initial(game.rules)
        words = self.flow.language(game).picture
        png = await asyncio.get_running_loop().run_in_executor(self.pool, game_png, start, record, words)
        return Attachment("story.png", png)
