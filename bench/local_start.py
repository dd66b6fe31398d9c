"""How soon a game is playable in the browser after `python -m bot play`.

Each run starts `python -m bot play` with a fresh database in a new temporary folder (as on a
fresh clone: the bot creates and migrates its database, syncs its commands) and measures, from
the moment the command is started:
  page_s        the page answers (a browser gets `/`)
  online_s      the page shows the bot online, its commands ready in the command box
  board_s       a member who joined the page, typed `/pachisi start` and pressed Enter sees the
                board of the new game in its thread: the game is playable
  link_s        then a friend opens that table's link (`/t/<thread>`) in a browser of their own:
                from opening it, through picking a name, to the board drawn on their page
                (measured from the link's opening, not from the command)
The browser is Debian's Chromium driven by Playwright (started before the command, not counted).

    .venv/bin/python bench/local_start.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import figures

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the test support package, tests/support, as the tests import it

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.processes import free_port  # noqa: E402

BOARD_DRAWN = "() => [...document.querySelectorAll('#messages img.picture')].some((i) => i.naturalWidth > 0)"


async def page_answers(url: str) -> None:
    while True:
        try:
            await asyncio.to_thread(urllib.request.urlopen, url, timeout=1)
            return
        except OSError:
            await asyncio.sleep(0.02)


async def one_run(browser: Any) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="pachisi-local-bench-") as folder:
        return await timed(browser, Path(folder))


async def timed(browser: Any, folder: Path) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    began = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--port", str(port)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        await page_answers(url)
        page_s = time.monotonic() - began
        context = await browser.new_context()
        page = await context.new_page()
        page.set_default_timeout(60_000)
        await page.goto(url)
        await page.fill("#join-name", "Bench")
        await page.click("#join-button")
        await page.wait_for_selector("#bot-status.online")
        online_s = time.monotonic() - began
        await page.fill("#box", "/pachisi start players:2 level:easy")
        await page.press("#box", "Enter")
        await page.wait_for_selector("#channel-name:has-text('›')")
        await page.wait_for_selector("#messages img.picture")
        board_s = time.monotonic() - began
        link_s = await open_link(browser, page.url)
        await context.close()
        return {"page_s": page_s, "online_s": online_s, "board_s": board_s, "link_s": link_s}
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(60)


async def open_link(browser: Any, link: str) -> float:
    """Seconds from opening a table's link in a new browser to its board drawn there."""
    context = await browser.new_context()
    page = await context.new_page()
    page.set_default_timeout(60_000)
    began = time.monotonic()
    await page.goto(link)
    await page.fill("#join-name", "Friend")
    await page.click("#join-button")
    await page.wait_for_function(BOARD_DRAWN)
    seconds = time.monotonic() - began
    await context.close()
    return seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    figures.add_arguments(parser)
    options = parser.parse_args()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        runs = [await one_run(browser) for _ in range(options.runs)]
        await browser.close()
    found: dict[str, float] = {"runs": len(runs)}
    for key in ("page_s", "online_s", "board_s", "link_s"):
        values = [run[key] for run in runs]
        found[key + "_median"] = round(statistics.median(values), 2)
        found[key + "_max"] = round(max(values), 2)
    figures.save("local_start", found, options)
    figures.show(found, options)


if __name__ == "__main__":
    os.chdir(ROOT)
    asyncio.run(main())
