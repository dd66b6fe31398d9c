"""Browser tests of the local table: Chromium (Debian's, driven by Playwright) on the real page,
the real bot (`python -m bot`) behind it.

Each member is a browser context of its own (its own local storage), as a friend's browser would
be. Chromium comes from Debian's packages (scripts/test installs it); without it these tests are
skipped, except on CI, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from localdiscord.table import LocalTable
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, missing


def need_chromium() -> None:
    message = missing()
    if message is None:
        return
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LocalTable]:
    """The local table in this process (the bot is its child process), on a free port, with the
    computers playing without pauses and one worker process."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0")
    monkeypatch.setenv("WORKERS", "1")  # one worker process, as the end-to-end tests' bot has
    monkeypatch.chdir(tmp_path)  # no .env of the developer's reaches the bot
    running = LocalTable(tmp_path / "table.sqlite3", port=0, say=lambda text: None)
    try:
        await running.start()
        await running.wait_ready()
        yield running
    finally:
        await running.stop()
