"""A new member's first hour at the shared table, in English and in Hindi: who moderates, what the
page says when it is not ready, the seat offer, hints, errors, the phone's width, and what an
empty channel says."""

from __future__ import annotations

import os
import signal
from pathlib import Path
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
    assert await bala.page.inner_text("#moderator-who") == words.gettext(
        "Whoever runs this table moderates it."
    )
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


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_command_before_the_bot_is_ready_says_it_is_starting_and_the_notice_goes(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    monkeypatch.chdir(tmp_path)
    table = LocalTable(tmp_path / "table.sqlite3", port=0, say=lambda text: None)
    await table.start()
    try:
        assert table.bot is not None
        await table.server.wait_until(lambda: table.bot.child.pid is not None, 10, "the bot's process")  # type: ignore[union-attr]
        pid = table.bot.child.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)  # the bot is slow to start
        try:
            page = await (await browser.new_context(viewport=DESKTOP, locale=locale)).new_page()
            await page.goto(table.url)
            await page.fill("#join-name", "Asha")
            await page.click("#join-button")
            await page.wait_for_selector("#me-name:not(:empty)")
            asha = Tab(page, "Asha")
            if locale != "en-US":
                await page.select_option("#locale", locale)
                await page.wait_for_selector(f"html[lang='{lang(locale).code}']")
            await asha.command("/pachisi help")
            starting = lang(locale).gettext("Pachisi is still starting; try again in a few seconds.")
            assert await asha.refusal() == starting  # not "there is no command /pachisi"
        finally:
            os.kill(pid, signal.SIGCONT)
        await page.wait_for_selector("#bot-status.online", timeout=60_000)
        await page.wait_for_selector("#refused", state="hidden")  # stale once the bot is there
        await asha.command("/pachisi help")
        await asha.message_with(lang(locale).gettext("Only you can see this")).first.wait_for()
        assert asha.errors == []
    finally:
        await table.stop()


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_joining_with_an_empty_name_says_so_and_old_errors_go(
    browser: Any, table: LocalTable, locale: str
) -> None:
    words = lang(locale)
    page = await (await browser.new_context(viewport=DESKTOP, locale=locale)).new_page()
    await page.goto(table.url)
    await page.wait_for_selector(f"html[lang='{words.code}']")
    await page.fill("#join-name", "Pachisi")  # reads as the bot's name: refused
    await page.click("#join-button")
    refused = words.gettext(
        "That name looks like {name}, who is already here; pick a name that looks different.", name="Pachisi"
    )
    await page.wait_for_selector(f"#join-error:text-is({refused!r})")
    await page.fill("#join-name", "   ")
    await page.click("#join-button")  # no name: said, not ignored, and the old error is gone
    needed = words.gettext("Type a name first: 1 to 32 characters.")
    await page.wait_for_selector(f"#join-error:text-is({needed!r})")
    assert await page.locator("#join[open]").count() == 1
    await page.fill("#join-name", "Bala")  # typing makes the error stale
    await page.wait_for_selector("#join-error", state="hidden")
    await page.click("#join-button")
    await page.wait_for_selector("#bot-status.online")
