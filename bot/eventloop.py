"""The event loop every command of the bot runs on: uvloop where it is installed (a dependency
everywhere but Windows), asyncio's own elsewhere. On uvloop the event loop serves a click for about
a fifth less CPU (docs/PERFORMANCE.md has the figures and the command)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

new_loop: Callable[[], asyncio.AbstractEventLoop]
try:
    from uvloop import new_event_loop as new_loop

    NAME = "uvloop"
except ImportError:  # Windows
    new_loop = asyncio.new_event_loop
    NAME = "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the loop above."""
    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)
