"""How the browser tests launch Chromium (tests/support/browser.py): with Playwright's own
settings kept, and without the address bar's popup page a headless window loads for nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_DISABLES

pytestmark = pytest.mark.xdist_group("local-chromium")


def playwright_disables() -> set[str]:
    """The features the installed Playwright disables when it launches Chromium, read from its
    driver (Chromium obeys only the last --disable-features, which is ours)."""
    from playwright._impl._driver import compute_driver_executable

    lib = Path(compute_driver_executable()[1]).parent / "lib"
    where = [lib / "coreBundle.js", lib / "server" / "chromium" / "chromiumSwitches.js"]  # 1.65, older
    source = "".join(path.read_text(encoding="utf-8") for path in where if path.is_file())
    found = re.search(r"disabledFeatures = \[(.*?)\]", source, re.DOTALL)
    assert found is not None, "Playwright's disabled features are no longer where they were"
    return set(re.findall(r'^\s*"(\w+)",?\s*$', found[1], re.MULTILINE))


def test_our_disabled_features_keep_playwrights() -> None:
    ours = [a for a in CHROMIUM_ARGS if a.startswith("--disable-features=")]
    assert len(ours) == 1
    assert playwright_disables() <= set(PLAYWRIGHT_DISABLES) <= set(ours[0].split("=", 1)[1].split(","))


async def test_a_members_browser_opens_no_page_but_the_tables(chromium: Any) -> None:
    """In the Chromium the tests run in, and in full Chromium (the fallback without the headless
    shell), whose window would load the address bar's popup but for CHROMIUM_ARGS."""
    browsers = [chromium]
    full = shutil.which("chromium")
    if full is not None and Path(full).resolve() != Path(CHROMIUM).resolve():
        browsers.append(await chromium.browser_type.launch(executable_path=full, args=CHROMIUM_ARGS))
    try:
        for browser in browsers:
            context = await browser.new_context()
            page = await context.new_page()
            await page.set_content("<p>Pachisi</p>")
            session = await browser.new_browser_cdp_session()
            targets = (await session.send("Target.getTargets"))["targetInfos"]
            assert [(t["type"], t["url"]) for t in targets if t["type"] != "page"] == [], browser
            await context.close()
    finally:
        for browser in browsers[1:]:
            await browser.close()
