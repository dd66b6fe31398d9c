"""The Hint button and the win chances: the member to move asks what `hard` would play with their
throw, and why; a finished game's result carries the chart of each side's chance over the game.

The analysis runs in the render pool, off the event loop: it is a `hard` search (tens of ms).
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.answers import language_of, tell
from bot.cogs.pachisi.router import Router
from bot.cogs.pachisi.table import Table
from bot.cogs.pachisi.views import GameButton
from bot.core.present import HINT
from bot.core.snapshot import GameSnapshot
from bot.core.texts import Language, answers, board, hints
from engine import Position, parse_move
from engine.analysis import analyse
from engine.winchance import win_chance
from render.chart import game_png

if TYPE_CHECKING:
    from bot.client import PachisiBot


def chances_line(lang: Language, view: GameSnapshot) -> str:
    """Each side's chance to win as the game stands (with the pending throw, if any)."""
    chances = win_chance(view.position, view.pending_throw)
    return answers.chances(lang, [(board.side(lang, s, view.rules.players), chances[s]) for s in (0, 1)])


class Hints:
    """Registers the Hint button and the story chart with the table flow, and answers the clicks."""

    def __init__(self, bot: PachisiBot, tables: Table, router: Router) -> None:
        self.bot = bot
        self.table = tables
        router.add_button(HINT, self.on_hint)
        tables.writer.result_files.append(self.story_file)

    async def story_file(self, view: GameSnapshot) -> discord.File | None:
        """The finished game's story: each side's chance to win over the throws."""
        store = self.bot.store
        async with store.transaction() as session:
            rows = await store.moves(session, view.id)
        record = [(row.throw, parse_move(row.move or "pass")) for row in rows]
        start = Position.initial(view.rules)
        words = self.table.language(view).picture
        png = await asyncio.get_running_loop().run_in_executor(
            self.bot.render_pool, game_png, start, record, words
        )
        return discord.File(io.BytesIO(png), "story.png")

    async def on_hint(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        view = await self.bot.service.use_hint(button.game_id, interaction.user.id, button.turn)
        assert view.pending_throw is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        loop = asyncio.get_running_loop()
        analysis = await loop.run_in_executor(
            self.bot.render_pool, analyse, view.position, view.pending_throw
        )
        await tell(interaction, hints.hint(language_of(interaction), view, analysis))
