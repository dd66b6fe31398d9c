"""The page's tests run in each language the bot speaks: a member who picked one, and the words
the page and the bot say in it (from the catalogs, so the tests follow their wording)."""

from __future__ import annotations

import re
from typing import Any

from bot.core.texts.language import Language, choose
from tests.local.tabs import Tab
from tests.support.browser import DESKTOP

LANGUAGES = ["en-US", "hi"]
"""Discord's locale codes of the languages the bot speaks."""


def lang(locale: str) -> Language:
    return choose(locale)


def resigned(locale: str) -> re.Pattern[str]:
    """A resigned game's result in `locale`, whoever won: "Black wins by resignation: ..."."""
    words = lang(locale)
    said = [
        words.gettext(m, side="\0", players="\0")
        for m in ("**{side} wins** by resignation: {players}", "**{side} win** by resignation: {players}")
    ]
    return re.compile("|".join(re.escape(s.split("\0")[1].replace("*", "").strip()) for s in said))


async def member(
    browser: Any,
    url: str,
    name: str,
    locale: str,
    viewport: dict[str, int] = DESKTOP,
    *,
    secret: str | None = None,
    **options: Any,
) -> Tab:
    """A member who picked `locale` in the page's language menu (English is the page's first);
    `options`: Playwright's for the browser's context."""
    tab = await Tab.join(browser, url, name, viewport, secret=secret, **options)
    if locale != "en-US":
        await tab.page.select_option("#locale", locale)
        await tab.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
    return tab
