"""One language of the bot's words, and the languages the bot ships.

English is the source: every sentence is written in English in these modules, with named
placeholders, and a gettext catalog translates it whole. The catalogs are in `bot/locale/`
(`<code>/LC_MESSAGES/pachisi.po`, compiled to `.mo`; README "Adding a language"); each is read
once, the first time its language is asked for. One catalog serves the chat words and the board's
(`render/words.py`), so a word reads the same in both.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.dates import format_skeleton
from babel.numbers import format_decimal

from render.words import ENGLISH as PICTURE_ENGLISH
from render.words import Words

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
"""Where the catalogs are: `bot/locale/<code>/LC_MESSAGES/pachisi.mo`."""
DOMAIN = "pachisi"
SOURCE = "en"
SHIPPED: tuple[str, ...] = (SOURCE, "hi")
"""The languages the bot speaks, by Discord's locale code (English is the source, no catalog)."""


@dataclass(frozen=True)
class Language:
    """Turns an English sentence into this language's, placeholders filled.

    Sentences are whole (never assembled from fragments a translator cannot see), with `{name}`
    placeholders and, where a number decides the form, both forms (`ngettext`)."""

    code: str = SOURCE
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations, compare=False)
    picture: Words = field(default=PICTURE_ENGLISH, compare=False)
    """The same language's words on the board and the charts (render/words.py)."""

    def gettext(self, message: str, /, **params: object) -> str:
        text = self.catalog.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The form for `count` (`{count}` in the sentence is the number, as the language writes it)."""
        return self.catalog.ngettext(singular, plural, count).format(count=self.number(count), **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """`message` where `context` tells it apart (the slash commands' names, descriptions,
        choices; a place that a language writes in another case before a postposition)."""
        text = self.catalog.pgettext(context, message)
        return text.format(**params) if params else text

    def join(self, words: Sequence[str]) -> str:
        """`a`, `a and b`, `a, b and c`."""
        if len(words) <= 1:
            return "".join(words)
        return self.gettext("{first} and {last}", first=", ".join(words[:-1]), last=words[-1])

    def either(self, words: Sequence[str]) -> str:
        """`a`, `a or b`, `a, b or c`: one of them, for the member to choose."""
        if len(words) <= 1:
            return "".join(words)
        return self.gettext("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])

    def number(self, value: int) -> str:
        """A whole number as the language writes it (`10,000`; Hindi groups by lakh: `1,00,000`)."""
        return format_decimal(value, locale=_locale(self.code))

    @property
    def name(self) -> str:
        return native_name(self.code)

    def moment(self, value: datetime) -> str:
        """A date and a 24-hour time as the language writes them (`Jan 2, 2026 13:05`), where the
        bot writes a moment itself rather than a Discord timestamp."""
        locale = _locale(self.code)
        day = format_skeleton("yMMMd", value, tzinfo=value.tzinfo, locale=locale)
        return day + " " + format_skeleton("Hm", value, tzinfo=value.tzinfo, locale=locale)


def clip(text: str, room: int) -> str:
    """`text` in at most `room` characters (Discord's limit for a label, a choice, a thread's
    name): cut with "…", so a member sees that more was meant."""
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


@cache
def _locale(code: str) -> Locale:
    """Babel's locale for a Discord code; a code Babel does not know falls back to its language."""
    for candidate in (code, code.split("-")[0], SOURCE):
        try:
            return Locale.parse(candidate, sep="-")
        except UnknownLocaleError:
            continue
    raise AssertionError("English is always known")


def native_name(code: str) -> str:
    """A language's own name for itself: `English`, `हिन्दी`."""
    locale = _locale(code)
    return (locale.get_language_name(locale) or code).capitalize()


ENGLISH = Language()


@cache
def language(code: str) -> Language:
    """The shipped language `code`, its compiled catalog read from `LOCALE_DIR` once."""
    if code == SOURCE:
        return ENGLISH
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)
    return Language(code, catalog, Words(code, catalog))


def speaks(code: str) -> bool:
    """Whether `code` is a language the bot ships (a table's `language`)."""
    return code in SHIPPED


def choose(*locales: str | None) -> Language:
    """The first of `locales` the bot speaks (a game option, the member's, the server's), else English."""
    for locale in locales:
        found = spoken(locale)
        if found is not None:
            return found
    return ENGLISH


def spoken(locale: str | None) -> Language | None:
    """The language the bot speaks for a Discord locale (`hi`, `en-US`), or None if it speaks none."""
    if not locale:
        return None
    for code in (locale, locale.split("-")[0]):
        if code in SHIPPED:
            return language(code)
    return None
