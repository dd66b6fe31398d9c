"""A daily puzzle's choice clicked (`bot.cogs.pachisi.buttons.PuzzleButton`): the answer is
counted once, then the question becomes the verdict: every choice's chance and reasons, the tactic.

The analysis is a `hard` search, made off the event loop in the render pool, once per puzzle for
every member who asks or answers (`/pachisi puzzle` shows it too).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import discord

from bot.cogs.answers import NO_MENTIONS, language_of
from bot.cogs.host import Host
from bot.core.puzzles import Daily, Puzzles, the_set
from bot.core.texts import puzzles
from engine.analysis import Analysis, analyse
from engine.state import Move


@functools.lru_cache(maxsize=2)  # today's, and yesterday's for a moment after midnight
def analysed(number: int) -> Analysis:
    """Puzzle `number`'s analysis: the same for everyone, so made once."""
    puzzle = the_set()[number - 1]
    return analyse(puzzle.position, puzzle.throw)


async def analysis(bot: Host, daily: Daily) -> Analysis:
    return await asyncio.get_running_loop().run_in_executor(bot.render_pool, analysed, daily.number)


async def answer(
    interaction: discord.Interaction[Any], bot: Host, number: int, day: int, member: int, move: Move
) -> None:
    """`member`'s puzzle `number` of the day `day` (a date's ordinal) answered with `move`: refused
    when it is not the clicker's, not today's or answered already (`Puzzles.answer`)."""
    daily = await Puzzles(bot.store, bot.clock.now).answer(interaction.user.id, member, number, day, move)
    await interaction.response.defer()
    content = puzzles.verdict(language_of(interaction), daily, await analysis(bot, daily))
    await interaction.edit_original_response(content=content, view=None, allowed_mentions=NO_MENTIONS)
