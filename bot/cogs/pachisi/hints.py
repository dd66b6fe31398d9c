"""The Hint button and the win chances: the member to move asks what `hard` would play with their
throw, and why; a finished game's result carries the chart of each side's chance over the game.

The analysis runs in the render pool, off the event loop: it is a `hard` search (tens of ms).
"""

from __future__ import annotations

import asyncio
import functools
import io
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.answers import language_of, tell
from bot.core.snapshot import GameSnapshot
from bot.core.texts import Language, answers, board, hints
from engine import Position, parse_move
from engine.analysis import analyse
from engine.winchance import win_chance
from render.chart import game_png

if TYPE_CHECKING:
    from bot.client import PachisiBot


def chances_line(lang: Language, game: GameSnapshot) -> str:
    """Each side's chance to win as the game stands (with the pending throw, if any)."""
    chances = win_chance(game.position, game.pending_throw)
    return answers.chances(lang, [(board.side(lang, s, game.rules.players), chances[s]) for s in (0, 1)])


def add_story(bot: PachisiBot) -> None:
    """Every result the game flow posts carries its story chart."""
    bot.flow.writer.result_files.append(functools.partial(story_file, bot))


async def story_file(bot: PachisiBot, game: GameSnapshot) -> discord.File | None:
    """The finished game's story: each side's chance to win over the throws."""
    store = bot.store
    async with store.transaction() as session:
        rows = await store.moves(session, game.id)
    record = [(row.throw, parse_move(row.move or "pass")) for row in rows]
    start = Position.initial(game.rules)
    words = bot.flow.language(game).picture
    png = await asyncio.get_running_loop().run_in_executor(bot.render_pool, game_png, start, record, words)
    return discord.File(io.BytesIO(png), "story.png")


async def hint(interaction: discord.Interaction[Any], bot: PachisiBot, game_id: int, turn: int) -> None:
    """The Hint clicked on turn `turn`: what `hard` would play, only to the member to move."""
    game = await bot.service.use_hint(game_id, interaction.user.id, turn)
    assert game.pending_throw is not None
    await interaction.response.defer(ephemeral=True, thinking=True)
    loop = asyncio.get_running_loop()
    analysis = await loop.run_in_executor(bot.render_pool, analyse, game.position, game.pending_throw)
    await tell(interaction, hints.hint(language_of(interaction), game, analysis))
