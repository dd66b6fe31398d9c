"""The message catalogs as the catalog tests read them: the template and each translation."""

from __future__ import annotations

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.core.texts.language import DOMAIN, LOCALE_DIR

POT = LOCALE_DIR / f"{DOMAIN}.pot"


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
