"""Chromium as the page's tests and the page's benchmark launch it: Debian's, driven by Playwright
(its own browser download is not used), headless and quiet."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = (
    os.environ.get("PACHISI_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
"""Debian's headless shell when installed (package chromium-headless-shell): the same Blink and V8
as its chromium, without a browser window's own parts (tabs, toolbar, address bar), which full
Chromium builds for each browser context even when headless, in its browser process, and draws
again each time the page is. Else Debian's chromium."""
PLAYWRIGHT_DISABLES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""Playwright's own --disable-features (1.65): Chromium reads only the last --disable-features
switch, so ours repeats them (tests/local/test_chromium.py reads Playwright's)."""
OMNIBOX_POPUP = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
"""Full headless Chromium still builds each window's address bar, and each browser context's window
loads its omnibox popup, a web page of its own in a renderer of its own: more CPU per context than
the page under test costs. Nothing here types into an address bar."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLES + OMNIBOX_POPUP),
]
"""No sandbox (the tests may run as root in a container), no GPU, nothing fetched on its own, no
address bar's popup."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 860}


def missing() -> str | None:
    """Why Chromium cannot be launched here, or None when it can."""
    if Path(CHROMIUM).is_file():
        return None
    return f"no Chromium at {CHROMIUM} (scripts/test installs Debian's as root)"
