"""`/pachisi rules` shows docs/RULES.md's sections, and the doc agrees with the engine.

The chat text of each section is the doc's "In short" paragraph word for word, so a rule changed in
one place and not the other fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.texts import records
from bot.core.texts import rules as texts
from bot.core.texts.answers import rules_title
from bot.core.texts.language import SHIPPED, language
from engine.board import CASTLE_STEPS
from engine.game import MAX_THROWS
from engine.record import read_record
from engine.rules import PRESETS, Rules
from engine.throws import THROW_VALUES

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "RULES.md"
NOT_IN_CHAT = ("Sources, and the choices made where they disagree", "Game records")
"""Sections of the doc that `/pachisi rules` does not show (the sources are the embed's footer)."""
SUMMARY = "**In short:** "
RECORD = """[Rules "classic"]
[Players "2"]
[Pieces "1"]
[Result "*"]
[Termination "unfinished"]

1. black 25 black:0-1
"""


def sections() -> dict[str, str]:
    """The doc's `## ` sections: title -> body."""
    parts = re.split(r"^## ", RULES_MD.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]
    return {title: body for title, _, body in (part.partition("\n") for part in parts)}


def summary(body: str) -> str:
    """A section's opening quote, the lines joined, without its "In short" label."""
    lines = []
    for line in body.strip().splitlines():
        if not line.startswith(">"):
            break
        lines.append(line.removeprefix(">").strip())
    text = " ".join(lines)
    assert text.startswith(SUMMARY), f"the section must open with '> {SUMMARY}'"
    return text.removeprefix(SUMMARY)


def test_chat_shows_the_docs_sections_in_order() -> None:
    in_chat = [title for title in sections() if title not in NOT_IN_CHAT]
    assert [title for title, _ in texts.RULES.values()] == in_chat
    assert list(sections())[-1] == "Game records"


@pytest.mark.parametrize("key", list(texts.RULES))
def test_chat_text_is_the_sections_summary(key: str) -> None:
    title, text = texts.RULES[key]
    assert text == summary(sections()[title]), (
        f"bot/core/texts/rules.py RULES[{key!r}] differs from docs/RULES.md"
    )


@pytest.mark.parametrize(
    ("key", "facts"),
    [
        ("route", [", ".join(map(str, CASTLE_STEPS[:-1])) + f" and {CASTLE_STEPS[-1]}", "84 steps"]),
        (
            "throws",
            [f"{value}" for value in THROW_VALUES] + ["6, 10 and 25", "1, 6, 15, 20, 15, 6 and 1 in 64"],
        ),
        ("fight", ["two or more pieces of one side"]),
        ("turns", ["Black, Red, Yellow, Green", "Black and Yellow"]),
        ("end", [f"{MAX_THROWS:,} throws", "8 in a four-player game, 4 in a two-player game", "draw"]),
        ("options", [f"`{name}`" for name in (*PRESETS, *Rules.__dataclass_fields__) if name != "preset"]),
    ],
)
def test_chat_states_the_engines_facts(key: str, facts: list[str]) -> None:
    """What the in-chat rules once left out (turn order, two-player seats, blockades of two or more,
    the options) and the engine's own numbers are there."""
    text = texts.RULES[key][1]
    missing = [fact for fact in facts if fact not in text]
    assert not missing


def test_the_options_table_gives_the_engines_presets() -> None:
    rows = re.findall(
        r"^\| `(\w+)` \| [^|]+ \| (\w+) \| (\w+) \|$", sections()["Rule options and presets"], re.M
    )
    shown = {name: (classic, standard) for name, classic, standard in rows}
    options = [name for name in Rules.__dataclass_fields__ if name != "preset"]
    assert sorted(shown) == sorted(options)
    for name, values in shown.items():
        for preset, value in zip(("classic", "standard"), values, strict=True):
            expected = getattr(Rules.preset_rules(preset), name)
            assert value == (("on" if expected else "off") if isinstance(expected, bool) else str(expected))


@pytest.mark.parametrize("code", SHIPPED)
def test_rules_embed_fits_discords_limits(code: str) -> None:
    """One embed holds every section, in every language: at most 25 fields (and choices), a name of
    256 characters, a value of 1024, a footer of 2048, and 6000 in all (the title included)."""
    lang = language(code)
    sections, sources = texts.sections(lang), texts.sources(lang)
    assert len(sections) <= 25
    for key, (title, text) in sections.items():
        assert len(title) <= 100 and len(key) <= 100  # also a slash-command choice
        assert len(text) <= 1024
    assert len(sources) <= 2048
    total = len(rules_title(lang)) + len(sources) + sum(len(t) + len(x) for t, x in sections.values())
    assert total <= 6000


def test_the_rules_in_hindi_are_the_same_rules() -> None:
    """The Hindi sections state the engine's numbers and name the same options as the English ones
    (an option may be named again where Hindi says which of a list a remark is about)."""
    english, hindi = texts.sections(language("en")), texts.sections(language("hi"))
    for key, (_, text) in english.items():
        numbers = sorted(re.findall(r"\d+(?:,\d{3})*", text))
        assert sorted(re.findall(r"\d+(?:,\d{3})*", hindi[key][1])) == numbers, key
        assert set(re.findall("`[^`]+`", hindi[key][1])) == set(re.findall("`[^`]+`", text)), key


def test_docs_link_only_to_files_in_the_repository() -> None:
    """README and docs/ once linked the rules outside the repository (../shared/RULES.md)."""
    broken = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            link = (target[0] or target[1]).split("#")[0]
            if not link or re.match(r"[a-z]+:", link):
                continue
            path = (page.parent / link).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{page.name}: {link}")
    assert not broken


PATH_LIKE = re.compile(r"\b[\w-]+/[\w/-]*\.(?:md|py|txt)\b|\bdocs/")
"""A repository path (`docs/RULES.md`): a member reading Discord cannot open it."""


@pytest.mark.parametrize("code", SHIPPED)
def test_the_rules_footer_and_the_export_point_at_what_a_member_can_open(code: str) -> None:
    """`/pachisi rules` and, when PROJECT_URL is set, the project's page; never a file of the checkout."""
    lang = language(code)
    record = read_record(RECORD)
    url = "https://example.org/pachisi"
    for text in (texts.sources(lang), records.export(lang, 7, record)):
        assert not PATH_LIKE.search(text), text
        assert url not in text
    if code == "en":
        assert "`/pachisi rules`" in records.export(lang, 7, record)
    for text in (texts.sources(lang, url), records.export(lang, 7, record, url)):
        assert not PATH_LIKE.search(text.replace(url, "")), text
        assert url in text
