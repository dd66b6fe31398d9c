"""The message catalogs as the catalog tests read them: the template and each translation."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.core.texts.language import DOMAIN, LOCALE_DIR
from engine.rules import OVERRIDE_ORDER

POT = LOCALE_DIR / f"{DOMAIN}.pot"
ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"`[^`]*`")
OPTION_VALUE = re.compile(rf"\b(?:{'|'.join(OVERRIDE_ORDER)})=\w+")


def template() -> Catalog:
    with POT.open("rb") as source:
        return read_po(source)


def translations(code: str) -> Catalog:
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as source:
        return read_po(source, locale=code)


def forms(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple) else [message.id]


def strings(message: Message) -> list[str]:
    value = message.string
    return list(value) if isinstance(value, tuple | list) else [value]


def kept_names() -> list[str]:
    """The names docs/HINDI.md keeps in Latin letters (its table "Kept in Latin letters")."""
    glossary = (ROOT / "docs" / "HINDI.md").read_text(encoding="utf-8")
    section = glossary.split("## Kept in Latin letters", 1)[1].split("\n## ", 1)[0]
    names = []
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) > 2:
            names += re.findall(r"`([^`]+)`", cells[1])
    return sorted(names, key=len, reverse=True)


def latin_left(text: str, kept: list[str]) -> str:
    """What is left of `text` in Latin letters once code, placeholders, mentions, paths (checked
    above), rule options and the kept names are taken out."""
    plain = CODE.sub("", text)
    plain = re.sub(r"<[@#]?\{\w+\}>|\{\w+\}", "", plain)
    plain = re.sub(r"\S+\.md\b", "", plain)
    plain = OPTION_VALUE.sub("", plain)
    for name in kept:
        plain = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", "", plain)
    return " ".join(re.findall(r"[A-Za-z]+", plain))
