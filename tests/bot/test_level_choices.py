"""`/pachisi start`'s level option says which level is the strongest at each table size, and says
it in every shipped language; a level that is not the strongest anywhere is listed by its name."""

from __future__ import annotations

import re
from pathlib import Path

from bot.cogs.pachisi.commands import LEVEL_CHOICES, STRONGEST, PlayCommands
from bot.core.texts.language import language
from bot.translator import CHOICE
from engine.players import LEVELS

AI_MD = Path(__file__).resolve().parents[2] / "docs" / "AI.md"


def test_each_table_size_names_one_strongest_level_and_only_there() -> None:
    assert sorted(STRONGEST) == [2, 4] and set(STRONGEST.values()) <= set(LEVELS)
    names = {choice.value: choice.name for choice in LEVEL_CHOICES}
    assert list(names) == list(LEVELS)
    for level, name in names.items():
        sizes = sorted(int(n) for n in re.findall(r"\d", name))
        assert sizes == [players for players, best in sorted(STRONGEST.items()) if best == level]
        assert name.startswith(level) and len(name) <= 100  # Discord's limit for a choice's name
    assert names["hard"] == "hard"
    assert names["expert"] == "expert (strongest with 2 or 4 players)"


def test_the_start_command_offers_these_choices_translated() -> None:
    level = next(p for p in PlayCommands.start.parameters if p.name == "level")
    assert [(c.name, c.value) for c in level.choices] == [(c.name, c.value) for c in LEVEL_CHOICES]
    hindi = language("hi")
    for choice in LEVEL_CHOICES:
        assert hindi.pgettext(CHOICE, choice.name) != choice.name


def test_docs_name_the_same_strongest_levels() -> None:
    text = " ".join(AI_MD.read_text(encoding="utf-8").split())  # lines joined
    for players, level in STRONGEST.items():
        assert f"strongest with {players} players: `{level}`" in text
