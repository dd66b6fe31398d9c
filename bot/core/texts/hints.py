"""The Hint's answer: the computer's pick with its letter, the chances before and after each
choice, and why, in words (engine/analysis.py finds the reasons)."""

from __future__ import annotations

from bot.core.snapshot import GameSnapshot
from bot.core.texts.answers import percent
from bot.core.texts.board import choice_letter, move_steps
from bot.core.texts.language import Language
from engine.analysis import Analysis

REASONS_LENGTH = 280
"""At most this many characters of reasons per choice: five choices and the head stay under 2,000."""


def hint(lang: Language, view: GameSnapshot, analysis: Analysis) -> str:
    """The ephemeral answer: the pick and its letter, the chances before and after, the reasons."""
    best = analysis.best
    if best is None:
        return lang.gettext("This throw has no move to play.")
    letters = {move: choice_letter(i) for i, move in enumerate(view.legal_moves())}
    position = view.position
    before = percent(lang, analysis.win_chance[analysis.side])
    lines = [
        lang.gettext(
            "**Hint**: play **{letter}**, {move}.",
            letter=letters[best.move],
            move=move_steps(lang, position, best.move),
        ),
        lang.gettext(
            "Your side's chance to win: {chance} before the choice (if every seat played like the normal "
            "computer from here). After each choice:",
            chance=before,
        )
        if view.rules.players == 4
        else lang.gettext(
            "Your chance to win: {chance} before the choice (if every seat played like the normal computer "
            "from here). After each choice:",
            chance=before,
        ),
    ]
    for choice in analysis.choices:
        why = "; ".join(choice.reasons) or lang.gettext("no capture, castle, danger or blockade changes")
        if len(why) > REASONS_LENGTH:  # Discord refuses a message over 2,000 characters
            why = why[: REASONS_LENGTH - 1].rstrip() + "…"
        lines.append(
            lang.gettext(
                "**{letter}** {move}: {chance}. {why}.",
                letter=letters[choice.move],
                move=move_steps(lang, position, choice.move),
                chance=percent(lang, choice.win_chance),
                why=why,
            )
        )
    return "\n".join(lines)
