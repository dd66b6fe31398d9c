"""A new member's first hour at the shared table, in English and in Hindi: who moderates, what the
page says when it is not ready, the seat offer, hints, errors, the phone's width, and what an
empty channel says."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.texts.language import Language, choose
from localdiscord.records import MANAGE_CHANNELS
from localdiscord.table import LocalTable
from tests.local.conftest import DESKTOP
from tests.local.tabs import Tab

LANGUAGES = ["en-US", "hi"]
START = "/pachisi start players:2 pieces:1 level:easy"


def lang(locale: str) -> Language:
    return choose(locale)


async def member(browser: Any, url: str, name: str, locale: str, viewport: dict[str, int] = DESKTOP) -> Tab:
    """A member who picked `locale` in the page's language menu (English is the page's first)."""
    tab = await Tab.join(browser, url, name, viewport)
    if locale != "en-US":
        await tab.page.select_option("#locale", locale)
        await tab.page.wait_for_selector(f"html[lang='{lang(locale).code}']")
    return tab


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_the_tables_runner_moderates_and_nobody_ticks_it_for_themselves(
    browser: Any, table: LocalTable, locale: str
) -> None:
    asha = await member(browser, table.url, "Asha", locale)  # the first browser: she runs the table
    bala = await member(browser, table.url, "Bala", locale)
    assert await asha.page.is_checked("#moderator")  # granted, not ticked
    assert await bala.page.is_disabled("#moderator")
    assert not await bala.page.is_checked("#moderator")
    words = lang(locale)
    assert await bala.page.inner_text("#moderator-who") == words.gettext("Whoever runs this table moderates it.")
    await bala.command("/pachisi auto mode:off")
    await bala.command(START)
    await bala.page.wait_for_selector("#messages img.picture")
    await bala.turn()
    await asha.open_thread()
    await asha.command("/pachisi end")  # Bala's game, ended by the table's runner
    await asha.page.locator(f"button:has-text({words.gettext('End the game')!r})").click()
    assert await bala.no_turn()
    sent = [i.payload for i in table.server.interactions.values() if i.user.name == "Bala"]
    assert all(int(p["member"]["permissions"]) & MANAGE_CHANNELS == 0 for p in sent)  # never Manage Channels
    assert asha.errors == bala.errors == []
