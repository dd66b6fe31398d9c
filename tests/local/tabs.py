"""A member's browser tab on the local table, driven as a person would: typing and clicking.

The turn is found by its buttons' custom ids and the end of the game by the stored game
(tests/support/play.py), so the tabs play in any language.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

from bot.core.texts import answers
from bot.core.texts.language import choose
from tests.support import play
from tests.support.browser import DESKTOP

LOOK_AGAIN_MS = 1_000
"""How long a tab waits for a turn before it asks the stored game whether the game is over."""
NEWEST_TURN = """([prefix, plays]) => {
    const playing = (b) => {
        const id = b.dataset.customId || '';
        return !b.disabled && id.startsWith(prefix) && plays.includes(id.slice(prefix.length).split(':')[0]);
    };
    const items = [...document.querySelectorAll('#messages > li.message')].reverse();
    for (const item of items) {
        const live = [...item.querySelectorAll('button.button')].filter(playing);
        if (live.length) return {message: item.dataset.id, id: live[0].dataset.customId,
                                 label: live[0].textContent.trim()};
    }
    return null;
}"""
PLAYING = [play.PREFIX, list(play.PLAYS)]

WON = re.compile(r"wins?!")
"""The result's headline in English: "Black wins!", "Black + Yellow win!"."""


class Tab:
    """One member's page (a browser context of its own, so its own local storage)."""

    def __init__(self, page: Any, name: str) -> None:
        self.page, self.name = page, name
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @classmethod
    async def join(
        cls,
        browser: Any,
        url: str,
        name: str,
        viewport: dict[str, int] = DESKTOP,
        *,
        secret: str | None = None,
        **options: Any,
    ) -> Tab:
        """A new browser (`options`: Playwright's for its context) joining as `name`; `secret`: the
        browser's secret (whoever runs a shared table hands theirs over this way), else its own."""
        context = await browser.new_context(viewport=viewport, **options)
        if secret is not None:
            await context.add_init_script(f"localStorage.setItem('pachisi.secret', {json.dumps(secret)})")
        page = await context.new_page()
        await page.goto(url)
        await page.fill("#join-name", name)
        await page.click("#join-button")
        await page.wait_for_selector("#bot-status.online")
        return cls(page, name)

    async def command(self, text: str) -> None:
        """Type a line into the command box and press Enter."""
        await self.page.fill("#box", text)
        await self.page.press("#box", "Enter")

    async def manual(self) -> None:
        """`/pachisi auto mode:off` (a Throw button on each of the member's turns), and its answer
        awaited: the bot takes a member's commands side by side, so a game started before the
        setting is stored starts with the bot throwing for them (and a game of one piece then
        plays itself out)."""
        await self.command("/pachisi auto mode:off")
        language = choose(str(await self.page.get_attribute("html", "lang")))
        await self.message_with(answers.auto_throw(language, False)).last.wait_for()

    async def refusal(self) -> str:
        await self.page.wait_for_selector("#refused:not([hidden])")
        return str(await self.page.inner_text("#refused"))

    async def open_channel(self, label: str) -> None:
        await self.page.click(f"#channels button:has-text({label!r})")

    async def open_thread(self, name: str | None = None) -> None:
        """The thread called `name` (waiting for it to be listed), else the newest in the list."""
        threads = self.page.locator("#channels button.thread")
        await (threads.last if name is None else threads.filter(has_text=f"↳ {name}").first).click()
        await self.page.wait_for_selector("#channel-name:has-text('›')")

    async def thread_name(self) -> str:
        """The name of the thread the tab shows."""
        return str(await self.page.inner_text("#channel-name")).split("› ", 1)[1]

    def message_with(self, text: str | re.Pattern[str]) -> Any:
        """A message holding `text` as the page shows it (a sentence's bold marks are drawn, not
        shown)."""
        if isinstance(text, str):
            text = text.replace("**", "")
        return self.page.locator("#messages > li.message", has_text=text)

    async def texts(self) -> list[str]:
        return [t.strip() for t in await self.page.locator("#messages > li.message .body").all_inner_texts()]

    async def newest_turn(self) -> dict[str, str] | None:
        """The newest message's first enabled button that plays (Throw, or a move)."""
        found: dict[str, str] | None = await self.page.evaluate(NEWEST_TURN, PLAYING)
        return found

    async def no_turn(self) -> bool:
        """Waits until no message offers a button that plays (the bot closes the turn message after
        it answers whoever ended the game), or the default timeout; whether none does."""
        with contextlib.suppress(Exception):
            await self.page.wait_for_function(f"(a) => ({NEWEST_TURN})(a) === null", arg=PLAYING)
        return await self.newest_turn() is None

    async def click(self, custom_id: str) -> None:
        await self.page.click(f'#messages button[data-custom-id="{custom_id}"]:not([disabled])')

    async def wait_gone(self, custom_id: str) -> None:
        """Until the clicked button is gone or disabled (the bot answered the click)."""
        await self.page.wait_for_function(
            """(id) => !document.querySelector(`#messages button[data-custom-id="${id}"]:not([disabled])`)""",
            arg=custom_id,
        )

    async def next_turn_or_end(self) -> dict[str, str] | None:
        """Waits for a button that plays or the result (in English); the button, or None at the end."""
        handle = await self.page.wait_for_function(
            f"""(a) => ({NEWEST_TURN})(a) || [...document.querySelectorAll('#messages strong')]
                .some((s) => /{WON.pattern}/.test(s.textContent)) && 'end'""",
            arg=PLAYING,
        )
        found = await handle.json_value()
        return None if found == "end" else dict(found)

    async def finished(self) -> bool:
        return await self.page.locator("#messages strong", has_text=WON).count() > 0

    async def turn(self) -> dict[str, str]:
        """Waits for the newest message's first button that plays, and returns it."""
        handle = await self.page.wait_for_function(NEWEST_TURN, arg=PLAYING)
        found: dict[str, str] = await handle.json_value()
        return found

    async def focus_by_keyboard(self, wanted: str, key: str = "Shift+Tab", limit: int = 300) -> None:
        """Press `key` until the element `wanted` (a JavaScript test of `document.activeElement`,
        `el`) has the focus."""
        test = f"() => {{ const el = document.activeElement; return Boolean(el && ({wanted})); }}"
        for _ in range(limit):
            if await self.page.evaluate(test):
                return
            await self.page.keyboard.press(key)
        raise AssertionError(f"{wanted} not reached in {limit} presses of {key}")

    async def play_to_the_end(
        self, database: Path, limit: int = 400, *, keyboard: bool = False, shared: bool = False
    ) -> int:
        """Click Throw or the first move offered until the stored game of the thread the tab shows
        (in `database`) is over; returns the clicks made. `keyboard`: with the keyboard alone
        (Shift+Tab to the turn's button, Enter). `shared`: other members play in the thread too, so
        only a turn message that names this member ("@Asha (Black), ...") is clicked."""
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        thread = re.search(r"/t/(\d+)$", self.page.url)
        assert thread is not None, f"not in a table's thread: {self.page.url}"
        games = play.StoredGames(f"sqlite+aiosqlite:///{database}")
        clicks = 0
        while clicks < limit:
            try:
                handle = await self.page.wait_for_function(NEWEST_TURN, arg=PLAYING, timeout=LOOK_AGAIN_MS)
            except PlaywrightTimeout:
                if await games.over_in(int(thread[1])):
                    return clicks
                continue
            turn = await handle.json_value()
            if shared and not await self.names_me(turn["message"]):
                await self.page.wait_for_timeout(100)
                if await games.over_in(int(thread[1])):
                    return clicks
                continue
            if keyboard:
                await self.focus_by_keyboard(f"el.dataset.customId === {turn['id']!r}")
                await self.page.keyboard.press("Enter")
            else:
                await self.click(turn["id"])
            await self.wait_gone(turn["id"])
            clicks += 1
            if await games.over_in(int(thread[1])):  # stored before the bot answers the click
                return clicks
        raise AssertionError(f"no end after {limit} clicks")

    async def names_me(self, message: str) -> bool:
        """The turn message is this member's: its turn line names them with their colour ("@Asha
        (Black), your throw."; the story's lines above it say "@Asha, Black: ...")."""
        text = await self.page.locator(f'#messages > li.message[data-id="{message}"] .body').inner_text()
        return f"@{self.name} (" in text
