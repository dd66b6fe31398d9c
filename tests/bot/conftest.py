"""`cli`: the bot's command line called in this process (tests/support/command_line.py)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.config import Settings
from tests.support.command_line import CommandLine


@pytest.fixture
def cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[CommandLine]:
    """The command line in `tmp_path` (no `.env`), with no setting from the environment; the root
    logger is put back afterwards (`run` configures logging)."""
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.lower() in Settings.model_fields:
            monkeypatch.delenv(name)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield CommandLine(capsys, monkeypatch)
    root.handlers[:] = handlers
    root.setLevel(level)
