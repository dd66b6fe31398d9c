"""`cli`: the bot's command line called in this process (tests/support/command_line.py)."""

from tests.support.command_line import cli  # noqa: F401  (a fixture of the command-line tests)
