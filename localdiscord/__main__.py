"""`python -m localdiscord` (and `python -m bot play`, which hands over here): the bot at a local
table in the browser, with its own SQLite database (no Discord needed; table.py, docs/LOCAL.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from engine import build
from localdiscord import table

new_event_loop: Callable[[], asyncio.AbstractEventLoop]
try:
    from uvloop import new_event_loop
except ImportError:  # Windows
    new_event_loop = asyncio.new_event_loop


def parse(args: list[str]) -> argparse.Namespace:
    prog = "python -m localdiscord" if sys.argv[0].endswith(".py") else sys.argv[0]
    parser = argparse.ArgumentParser(
        prog=prog, description="Play Pachisi in the browser, the real bot behind it."
    )
    parser.add_argument("--port", type=int, default=table.DEFAULT_PORT, help="the page's port (default 8150)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="where the page listens (default 127.0.0.1: this computer only; 0.0.0.0: your network)",
    )
    parser.add_argument(
        "--database",
        type=Path,
        default=Path(table.DEFAULT_DATABASE),
        help=f"the table's own SQLite file (default {table.DEFAULT_DATABASE}; never DATABASE_URL)",
    )
    return parser.parse_args(args)


def main() -> None:
    options = parse(sys.argv[1:])
    build.exit_if_stale()
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        runner.run(table.play(options.database, options.host, options.port))


if __name__ == "__main__":
    main()
