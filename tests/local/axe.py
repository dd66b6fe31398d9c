"""axe-core (the npm package, `npm ci` at the checkout's root) run on a page through Playwright.

The page's strict Content-Security-Policy does not stop it: Playwright injects the script through
the driver. Only WCAG 2 A and AA rules run; the serious and critical findings are what a test
fails on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG2_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN = """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
    .then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.slice(0, 3).map((n) => n.target.join(' '))})))"""


def need_axe() -> None:
    if not AXE.is_file():
        message = f"no axe-core at {AXE} (`npm ci` at the checkout's root installs it; scripts/test runs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


async def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2 A/AA violations on the page as it is now."""
    need_axe()
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = await page.evaluate(RUN, WCAG2_AA)
    return found


async def serious(page: Any) -> list[dict[str, Any]]:
    """The serious and critical ones."""
    return [v for v in await violations(page) if v["impact"] in ("serious", "critical")]
