"""Browser tests of the local table: Chromium (Debian's, driven by Playwright) on the real page,
the real bot (`python -m bot`) behind it.

Each member is a browser context of its own (its own local storage), as a friend's browser would
be. Chromium comes from Debian's packages (scripts/test installs it); without it these tests are
skipped, except on CI, where they fail.

What is slow to start is started once per pytest(-xdist) worker, when a test first needs it:
Chromium (`chromium`; each test's contexts are closed when it ends) and one table
(`shared_table`), where each test meets under names of its own (`named`) in a thread (or a
channel) of its own. Every async test here runs in the session's event loop (where Chromium and
the shared table live), and a module's tests run on one worker (`--dist loadgroup`, its
`pytestmark`). A test that needs a table of its own (a bot not ready yet, `python -m bot play`
itself) starts it.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from localdiscord.table import LocalTable
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, missing
from tests.support.processes import TEST_SETTINGS

HERE = Path(__file__).resolve().parent
QUICK_BOT = {
    "COMPUTER_PACE_SECONDS": "0",
    "WORKERS": "0",
    "DISCORD_BUCKET_SECONDS": TEST_SETTINGS["DISCORD_BUCKET_SECONDS"],
    "GUILD_READY_SECONDS": TEST_SETTINGS["GUILD_READY_SECONDS"],
}
"""The bot's settings on the page's tables: the computers play without pauses; the pictures and
decisions are made in the bot's own process, so a start or restart spawns and warms no pool of
worker processes (a second or more of CPU each on a loaded machine); a channel's writes are not
spaced to Discord's 5 in 5 s (the stand-in does not enforce it); the bot is ready as soon as its
one guild is known. The pool and the pacing are the end-to-end tests', tests/bot/test_workers.py's
and tests/table/test_writes.py's to test; the page sees the same messages."""
RUNNER = "runner-" + "r" * 40
"""The browser secret of whoever runs a shared table (tabs.Tab.join's `secret` hands it to a tab)."""


@pytest.hookimpl(trylast=True)  # after pytest-xdist's, which names each item's group
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The async tests here share the session's event loop (the worker's Chromium and table live
    there), and each browser module says `pytestmark = pytest.mark.xdist_group(...)`, so that one
    worker runs it."""
    for item in items:
        path = Path(str(item.path))
        if path.parent != HERE or path.name == "test_heartbeat.py":
            continue
        if inspect.iscoroutinefunction(getattr(item, "function", None)):
            item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)  # before auto mode's


def need_chromium() -> None:
    message = missing()
    if message is None:
        return
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Any]:
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


TIMEOUT_MS = 60_000
"""What one step of a page may take: CI runs every test with -n 4 on 2 cores, beside another run."""


class Contexts:
    """The worker's Chromium as one test sees it: the browser contexts it opens (its members'
    browsers) are its own, and closed when it ends."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.opened: list[Any] = []

    async def new_context(self, **options: Any) -> Any:
        context = await self.chromium.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        self.opened.append(context)
        return context

    async def close(self) -> None:
        for context in self.opened:
            await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Any) -> AsyncIterator[Contexts]:
    contexts = Contexts(chromium)
    try:
        yield contexts
    finally:
        await contexts.close()


@asynccontextmanager
async def running(folder: Path) -> AsyncIterator[LocalTable]:
    """The local table in this process (the bot is its child process, run in `folder`, so no .env
    of the developer's reaches it), on a free port, with the computers playing without pauses and
    no worker processes (QUICK_BOT). The settings reach the bot alone: the worker's other tests
    keep theirs."""
    table = LocalTable(folder / "table.sqlite3", port=0, say=lambda text: None, bot_cwd=folder)
    try:
        with pytest.MonkeyPatch.context() as patch:  # read once, by start: restarts keep them
            for name, value in QUICK_BOT.items():
                patch.setenv(name, value)
            await table.start()
        await table.wait_ready()
        yield table
    finally:
        await table.stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def shared_table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[LocalTable]:
    """One table for the worker's tests. Its runner is a browser of no test's (secret RUNNER),
    greeted here first, so no test's first member moderates by being first."""
    async with running(tmp_path_factory.mktemp("shared")) as shared:
        assert shared.page is not None
        shared.page.members.greet({"name": "Host", "secret": RUNNER})
        yield shared


@pytest.fixture
def named(request: pytest.FixtureRequest) -> Callable[[str], str]:
    """Names of the test's own on a shared table ("Asha" -> "Asha 7"): a name is held by the
    browser that made it, and each test's members are new browsers."""
    index = [i.nodeid for i in request.session.items].index(request.node.nodeid)
    return lambda name: f"{name} {index}"
