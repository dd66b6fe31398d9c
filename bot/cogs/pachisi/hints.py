"""The Hint button's answer and the win chances under `/pachisi board`: the member to move asks
what `hard` would play with their throw, and why (`bot.table.hints` makes the analysis)."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.answers import language_of, tell
from bot.core.snapshot import GameSnapshot
from bot.core.texts import Language, answers, board, hints
from bot.table.hints import Hints
from engine.winchance import win_chance


def chances_line(lang: Language, game: GameSnapshot) -> str:
    """Each side's chance to win as the game stands (with the pending throw, if any)."""
    chances = win_chance(game.position, game.pending_throw)
    return answers.chances(lang, [(board.side(lang, s, game.rules.players), chances[s]) for s in (0, 1)])


async def hint(interaction: discord.Interaction[Any], table: Hints, game_id: int, turn: int) -> None:
    """The Hint clicked on turn `turn`: what `hard` would play, only to the member to move."""
    game = await table.ask(game_id, interaction.user.id, turn)
    await interaction.response.defer(ephemeral=True, thinking=True)
    analysis = await table.analysis(game)
    await tell(interaction, hints.hint(language_of(interaction), game, analysis))
