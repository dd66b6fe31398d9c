"""The local table in a real browser: members type commands and click buttons on the page, and
the real bot, connected to the stand-in, answers."""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from localdiscord.objects import API
from localdiscord.table import LocalTable
from tests.local.languages import LANGUAGES, lang, member
from tests.local.tabs import WON, Tab
from tests.support.browser import PHONE

START = "/pachisi start players:2 pieces:1 level:easy"


async def test_a_game_started_in_the_command_box_and_played_to_the_end_by_clicking(
    browser: Any, table: LocalTable
) -> None:
    asha = await Tab.join(browser, table.url, "Asha")
    await asha.page.fill("#box", "/pachisi st")
    await asha.page.wait_for_selector("#suggestions li:has-text('/pachisi start')")
    await asha.page.press("#box", "Tab")  # takes the first suggestion
    assert await asha.page.input_value("#box") == "/pachisi start "
    await asha.page.type("#box", "players:")
    await asha.page.wait_for_selector("#suggestions li:has-text('2')")
    await asha.command("/pachisi auto mode:off")  # a Throw button on each of her turns
    await asha.message_with("Only you can see this").first.wait_for()
    await asha.command(START)
    await asha.page.wait_for_selector("#channel-name:has-text('›')")  # her new table's thread opens
    await asha.page.wait_for_selector("#messages img.picture")  # the board
    clicks = await asha.play_to_the_end(table.database)
    assert clicks > 0
    await asha.message_with(WON).first.wait_for()  # the result, in English
    await asha.open_channel("# pachisi")
    card = asha.message_with("Rematch")
    await card.first.wait_for()
    assert await card.locator("button:has-text('Rematch')").is_enabled()
    await asha.page.locator("#messages a.mention").first.click()  # "started in #<thread>"
    await asha.page.wait_for_selector("#channel-name:has-text('›')")
    assert asha.errors == []


async def test_a_second_member_takes_a_seat_and_sees_the_same_thread(browser: Any, table: LocalTable) -> None:
    asha = await Tab.join(browser, table.url, "Asha")
    await asha.command("/pachisi auto mode:off")
    await asha.command("/pachisi start players:4 pieces:1 level:easy")
    await asha.page.wait_for_selector("#messages img.picture")
    bala = await Tab.join(browser, table.url, "Bala")
    await bala.page.locator("#messages button:has-text('Take a seat'):not([disabled])").first.click()
    await bala.page.wait_for_selector("#messages li.message:has-text('Bala')")
    await bala.open_thread()
    await asha.page.wait_for_selector("#messages li.message:has-text('Bala')")
    bala_boards = await bala.page.locator("#messages img.picture").evaluate_all("(i) => i.map((x) => x.src)")
    asha_boards = await asha.page.locator("#messages img.picture").evaluate_all("(i) => i.map((x) => x.src)")
    assert bala_boards and bala_boards[-1] == asha_boards[-1]
    assert await asha.page.inner_text("#channel-name") == await bala.page.inner_text("#channel-name")
    assert asha.errors == bala.errors == []


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_an_ephemeral_answer_shows_only_on_its_members_page(
    browser: Any, table: LocalTable, locale: str
) -> None:
    words = lang(locale)
    only_you = words.gettext("Only you can see this")
    asha = await member(browser, table.url, "Asha", locale)
    bala = await member(browser, table.url, "Bala", locale)
    await asha.command("/pachisi help")
    answer = asha.message_with(only_you)
    await answer.wait_for()
    assert await answer.locator("img.picture").count() == 1  # the board's key
    await bala.command("/pachisi auto mode:on")  # a later answer of Bala's own, to wait for
    await bala.message_with(only_you).wait_for()
    assert await bala.message_with(only_you).count() == 1
    assert await bala.page.locator("#messages img.picture").count() == 0  # her help, with its key, is not his
    assert await asha.message_with(only_you).locator("img.picture").count() == 1
    await answer.locator(f"button:has-text({words.gettext('Dismiss message')!r})").click()
    await answer.wait_for(state="detached")
    await asha.command("good luck, *Bala*")  # a line without / is a chat message, for everyone
    said = bala.message_with("good luck")
    await said.wait_for()
    assert await said.locator(".author").inner_text() == "Asha"
    assert await said.locator("em").inner_text() == "Bala"
    await asha.command("/pachisi help")  # the bot is still there after hearing it
    await asha.message_with(only_you).locator("img.picture").wait_for()


async def test_commands_the_bot_does_not_have_are_refused_on_the_page(
    browser: Any, table: LocalTable
) -> None:
    asha = await Tab.join(browser, table.url, "Asha")
    sent = len(table.server.interactions)
    for line, reason in [
        ("/pachisi start players:3", "players must be 2 or 4."),
        ("/pachisi start pieces:9", "pieces must be from 1 to 4"),
        ("/pachisi start pieces:two", "pieces must be a whole number"),
        ("/pachisi start thread:maybe", "thread must be True or False"),
        ("/pachisi begin", "no sub-command begin"),
        ("/chess start", "no command /chess"),
        ("/pachisi start colour:red", "has no option colour"),
        ("/pachisi move", "needs the option choice"),
    ]:
        await asha.command(line)
        assert reason in await asha.refusal(), line
        assert await asha.page.input_value("#box") == line  # kept, to be corrected
    assert len(table.server.interactions) == sent  # nothing reached the bot
    await asha.command("/pachisi help")
    await asha.message_with("Only you can see this").wait_for()
    assert len(table.server.interactions) == sent + 1


async def test_markdown_mentions_and_times_are_shown_and_names_are_only_text(
    browser: Any, table: LocalTable
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    asha = await Tab.join(browser, table.url, evil)
    member_id = next(m.user.id for m in table.guild.members.values() if m.user.name == evil)  # type: ignore[union-attr]
    channel = next(iter(table.guild.channels))  # type: ignore[union-attr]
    soon = int(time.time()) + 300
    content = (
        f"**bold** *italics* `code` <t:{soon}:R> <@{member_id}>\n> quoted <b>not bold</b>\n```\nblock\n```"
    )
    headers = {"Authorization": f"Bot {table.server.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{table.server.url}{API}/channels/{channel}/messages"
        async with http.post(url, json={"content": content}, headers=headers) as response:
            assert response.status == 200
    message = asha.message_with("quoted")
    await message.wait_for()
    assert await message.locator("strong").inner_text() == "bold"
    assert await message.locator("em").inner_text() == "italics"
    assert await message.locator("p code").inner_text() == "code"
    assert await message.locator("pre code").inner_text() == "block"
    assert "quoted <b>not bold</b>" in await message.locator("blockquote").inner_text()
    assert await message.locator("time.timestamp").inner_text() in ("in 5 minutes", "in 4 minutes")
    assert await message.locator(".mention").inner_text() == "@" + evil
    assert await asha.page.locator("img:not(.picture)").count() == 0  # no element from any text
    assert evil in await asha.page.inner_text("#me-name")


async def test_phone_width_board_fits_and_buttons_work_by_keyboard(browser: Any, table: LocalTable) -> None:
    asha = await Tab.join(browser, table.url, "Asha", viewport=PHONE)
    await asha.command("/pachisi auto mode:off")
    await asha.command(START)
    board = asha.page.locator("#messages img.picture").last
    await board.wait_for()
    await asha.page.wait_for_function(
        "() => [...document.querySelectorAll('#messages img.picture')].every((i) => i.complete)"
    )
    box = await board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    width = await asha.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing wider than the phone
    turn = await asha.turn()
    await asha.page.focus("#box")
    await asha.page.keyboard.press("Shift+Tab")  # back from the box: the newest message's buttons
    while await asha.page.evaluate("document.activeElement.dataset.customId || ''") != turn["id"]:
        await asha.page.keyboard.press("Shift+Tab")
    await asha.page.keyboard.press("Enter")
    await asha.wait_gone(turn["id"])
    await asha.page.screenshot(path=str(table.database.parent / "phone.png"))


async def test_a_bot_that_dies_is_started_again_and_the_game_goes_on(browser: Any, table: LocalTable) -> None:
    asha = await Tab.join(browser, table.url, "Asha")
    await asha.command("/pachisi auto mode:off")
    await asha.command(START)
    await asha.turn()
    assert table.bot is not None and table.bot.child.running
    await table.bot.child.kill()  # SIGKILL: no clean shutdown
    await asha.page.wait_for_selector("#bot-status.offline")
    await asha.page.wait_for_selector("#bot-status.online", timeout=30_000)
    assert table.bot.runs == 2
    turn = await asha.turn()
    await asha.click(turn["id"])
    await asha.wait_gone(turn["id"])
    assert await asha.play_to_the_end(table.database) >= 0
