"""The bot's clock: what time it is, and waiting for a moment (turn timers, the age of a message).

One object, handed to the service and the Discord side, so a test can move time for all of them
instead of sleeping through it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime


class Clock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, moment: datetime) -> None:
        await asyncio.sleep(max(0.0, (moment - self.now()).total_seconds()))
