"""The command line (bot/__main__.py's `main`) called in this process, as `python -m bot` would run
it, so that a case costs milliseconds instead of a child process's imports: the `cli` fixture
(imported by the conftest.py of the tests that use it). The real `python -m bot` and `pachisi-bot`
run as processes in tests/bot/test_main.py."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from bot.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
MODULE = str(ROOT / "bot" / "__main__.py")  # sys.argv[0] under `python -m bot`


@dataclass(frozen=True)
class Done:
    """What a command did: its exit status and what it printed."""

    status: int
    out: str
    err: str


class CommandLine:
    """`main(args)` with `settings` added to the environment, its output captured."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str, argv0: str = MODULE, **settings: str) -> Done:
        for name, value in settings.items():
            self.monkeypatch.setenv(name, value)
        self.monkeypatch.setattr(sys, "argv", [argv0, *args])  # `play` replaces it; this restores it
        self.capsys.readouterr()
        try:
            main(list(args))
            status = 0
        except SystemExit as exc:  # what the interpreter would make of it
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = self.capsys.readouterr()
        return Done(status, out, err)


@pytest.fixture
def cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[CommandLine]:
    """The command line in `tmp_path` (no `.env`), with no setting from the environment. What a
    command sets for the whole process is put back afterwards: the root logger (`run` and `sync`
    configure logging) and where discord.py sends its calls (DISCORD_API_BASE)."""
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.lower() in Settings.model_fields:
            monkeypatch.delenv(name)
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield CommandLine(capsys, monkeypatch)
    root.handlers[:] = handlers
    root.setLevel(level)
