"""The command line as the processes an operator starts: `python -m bot` and the console script
`pachisi-bot` reach `main`, and its refusals come out as one line and the exit status. Each case of
the command line is tested in-process (test_command_line.py, test_settings_errors.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
CONSOLE_SCRIPT = Path(sys.executable).with_name("pachisi-bot")


def run(tmp_path: Path, command: list[str], **settings: str) -> subprocess.CompletedProcess[str]:
    """The command in an empty folder (no `.env`), with no setting from this machine but `settings`."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    env |= {"PYTHONPATH": str(ROOT)} | settings
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


def test_missing_token_gives_a_one_line_explanation(tmp_path: Path) -> None:
    done = run(tmp_path, [sys.executable, "-m", "bot"])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr
    # The way to try it without Discord names this interpreter: bare `python` may lack the bot.
    assert lines[0].endswith(f"{sys.executable} -m bot play")


@pytest.mark.skipif(not CONSOLE_SCRIPT.exists(), reason="the package is not installed in this interpreter")
def test_the_console_script_exits_2_with_one_line_on_a_bad_setting(tmp_path: Path) -> None:
    done = run(tmp_path, [str(CONSOLE_SCRIPT), "sync"], DISCORD_TOKEN="not-a-real-token", LOG_LEVEL="LOUD")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("setting LOG_LEVEL='LOUD': not a logging level"), line
    assert list(tmp_path.iterdir()) == []  # refused before anything started
