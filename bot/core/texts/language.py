"""One language of the bot's words. English is the source: every sentence is written in English in
these modules, with named placeholders, and a catalog (gettext) may translate it whole."""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass, field

from render.words import ENGLISH as PICTURE_ENGLISH
from render.words import Words


@dataclass(frozen=True)
class Language:
    """Turns an English sentence into this language's, placeholders filled.

    Sentences are whole (never assembled from fragments a translator cannot see), with `{name}`
    placeholders and, where a number decides the form, both forms (`ngettext`)."""

    code: str = "en"
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations, compare=False)
    picture: Words = field(default=PICTURE_ENGLISH, compare=False)
    """The same language's words on the board and the charts (render/words.py)."""

    def gettext(self, message: str, /, **params: object) -> str:
        text = self.catalog.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The form for `count` (`{count}` in the sentence is the number)."""
        return self.catalog.ngettext(singular, plural, count).format(count=count, **params)

    def join(self, words: Sequence[str]) -> str:
        """`a`, `a and b`, `a, b and c`."""
        if len(words) <= 1:
            return "".join(words)
        return self.gettext("{first} and {last}", first=", ".join(words[:-1]), last=words[-1])


ENGLISH = Language()
