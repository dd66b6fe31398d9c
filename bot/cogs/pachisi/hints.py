"""The Hint button: the member to move asks what `hard` would play with their throw, and why.

The answer is ephemeral: the move `hard` ranks first and its letter on the board, the side's chance
to win before the choice and after each one, and the reasons in words (engine/analysis.py). The
analysis runs in the render pool, off the event loop: it is a `hard` search (tens of ms).
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.answers import tell
from bot.cogs.pachisi.views import GameButton
from bot.core.service import GameSnapshot
from engine import Position, parse_move
from engine.analysis import Analysis, analyse, move_words
from engine.winchance import win_chance
from render import choice_label
from render.chart import game_png
from render.moves import side_words

if TYPE_CHECKING:
    from bot.client import PachisiBot
    from bot.cogs.pachisi.table import Tables

HINT = "hint"
REASONS_LENGTH = 280
"""At most this many characters of reasons per choice: five choices and the head stay under 2,000."""


def percent(chance: float) -> str:
    """A chance as a whole percent, never a false certainty: 0.996 is "more than 99 %"."""
    if chance >= 0.995 and chance < 1.0:
        return "more than 99 %"
    if 0.0 < chance <= 0.005:
        return "less than 1 %"
    return f"{round(100 * chance)} %"


def hint_text(view: GameSnapshot, analysis: Analysis) -> str:
    """The ephemeral answer: hard's move and letter, the chances before and after, the reasons."""
    moves = view.legal_moves()
    best = analysis.best
    if best is None:
        return "This throw has no move to play."
    side = analysis.side
    whose = "Your side's" if view.rules.players == 4 else "Your"
    letters = {move: choice_label(i) for i, move in enumerate(moves)}
    lines = [
        f"**Hint**: play **{letters[best.move]}**, {move_words(best.move)}.",
        f"{whose} chance to win: {percent(analysis.win_chance[side])} before the choice "
        "(if every seat played like the normal computer from here). After each choice:",
    ]
    for choice in analysis.choices:
        why = "; ".join(choice.reasons) or "no capture, castle, danger or blockade changes"
        if len(why) > REASONS_LENGTH:  # Discord refuses a message over 2,000 characters
            why = why[: REASONS_LENGTH - 1].rstrip() + "…"
        lines.append(
            f"**{letters[choice.move]}** {move_words(choice.move)}: {percent(choice.win_chance)}. {why}."
        )
    return "\n".join(lines)


def hint_button(view: GameSnapshot) -> GameButton | None:
    """The Hint button of a member's turn once they have thrown, with a choice to make."""
    if not view.hints or view.pending_throw is None or not view.is_human_turn():
        return None
    return GameButton(
        HINT, view.id, view.turn_number, label="Hint", style=discord.ButtonStyle.secondary, row=4
    )


def chances_line(view: GameSnapshot) -> str:
    """Each side's chance to win as the game stands (with the pending throw, if any)."""
    chances = win_chance(view.position, view.pending_throw)
    sides = ", ".join(f"{side_words(side, view.rules.players)} {percent(chances[side])}" for side in (0, 1))
    return f"Chance to win: {sides} (if every seat played like the normal computer from here)."


class Hints:
    """Registers the Hint button and the story chart with the table flow, and answers the clicks."""

    def __init__(self, bot: PachisiBot, tables: Tables) -> None:
        self.bot = bot
        self.tables = tables
        tables.add_button(HINT, self.on_hint)
        tables.add_turn_button(hint_button)
        tables.add_result_file(self.story_file)

    async def story_file(self, view: GameSnapshot) -> discord.File | None:
        """The finished game's story: each side's chance to win over the throws."""
        store = self.tables.service.store
        async with store.transaction() as session:
            rows = await store.moves(session, view.id)
        record = [(row.throw, parse_move(row.move or "pass")) for row in rows]
        start = Position.initial(view.rules)
        png = await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, game_png, start, record)
        return discord.File(io.BytesIO(png), "story.png")

    async def on_hint(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        view = await self.tables.service.use_hint(button.game_id, interaction.user.id, button.turn)
        assert view.pending_throw is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        loop = asyncio.get_running_loop()
        analysis = await loop.run_in_executor(
            self.bot.render_pool, analyse, view.position, view.pending_throw
        )
        await tell(interaction, hint_text(view, analysis))
