"""A member who carries on from test to test of a module, where a test needs a member of no
particular history: a new browser context is the dearest step of a browser test (the renderer,
the page, its fonts and first draw, and joining the table), far dearer than a reload of an open page
or a switch of its language. Each test takes her over with `carry_on`, which puts her page as the
test wants it and opens a channel of the test's own, so nothing an earlier test left (answers only
she sees, cards) is on her page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from localdiscord.table import LocalTable
from tests.local.conftest import Contexts
from tests.local.languages import lang
from tests.local.tabs import Tab
from tests.support.browser import DESKTOP


@asynccontextmanager
async def regular(chromium: Any, url: str, name: str, **options: Any) -> AsyncIterator[Tab]:
    """`name`'s browser on the table at `url`, until the module's tests are done (`options`:
    Playwright's for its context)."""
    contexts = Contexts(chromium)
    try:
        yield await Tab.join(contexts, url, name, **options)
    finally:
        await contexts.close()


async def carry_on(
    tab: Tab, table: LocalTable, channel: str, locale: str = "en-US", viewport: dict[str, int] = DESKTOP
) -> str:
    """Her page for the next test: at `viewport`, in `locale`, in a new channel named after
    `channel` (its name as made, returned), nothing typed in the box. The page's errors of earlier
    tests are forgotten: each test checked its own."""
    page = tab.page
    await page.set_viewport_size(DESKTOP)  # (at a phone's width the channels are in a drawer)
    code = lang(locale).code
    if await page.get_attribute("html", "lang") != code:
        await page.select_option("#locale", locale)
        await page.wait_for_selector(f"html[lang='{code}']")
    assert table.guild is not None
    name = table.server.add_channel(table.guild, channel.replace(" ", "-")).name
    await tab.open_channel(f"# {name}")
    await page.wait_for_selector(f"#channel-name:text-is({'# ' + name!r})")
    await page.set_viewport_size(viewport)
    await page.fill("#box", "")
    tab.errors.clear()
    return name
