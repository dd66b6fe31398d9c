"""Chromium as the page's tests and the page's benchmark launch it: Debian's, driven by Playwright
(its own browser download is not used), headless and quiet."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("PACHISI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""No sandbox (the tests may run as root in a container), no GPU, nothing fetched on its own."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 860}


def missing() -> str | None:
    """Why Chromium cannot be launched here, or None when it can."""
    if Path(CHROMIUM).is_file():
        return None
    return f"no Chromium at {CHROMIUM} (scripts/test installs Debian's chromium as root)"
