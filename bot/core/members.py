"""A member's own choices, the same in every game and server (today: whether the bot throws for them)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.store import Store


class MemberSettings:
    def __init__(self, store: Store, *, default_auto_throw: bool = True) -> None:
        self.store = store
        self.default_auto_throw = default_auto_throw

    async def auto_throwers(
        self, session: AsyncSession, user_ids: Iterable[int], read: Mapping[int, bool | None] | None = None
    ) -> frozenset[int]:
        """Those of `user_ids` the bot throws for: their own choice, else the bot's default.
        `read`: choices already read (None: never chose, the default); only the others are asked for."""
        members, read = set(user_ids), read or {}
        chosen = {user: choice for user, choice in read.items() if choice is not None}
        if unread := members - read.keys():
            chosen.update(await self.store.auto_throws(session, unread))
        return frozenset(u for u in members if chosen.get(u, self.default_auto_throw))

    async def auto_throw(self, user_id: int) -> bool:
        async with self.store.transaction() as session:
            return user_id in await self.auto_throwers(session, [user_id])

    async def set_auto_throw(self, user_id: int, on: bool) -> None:
        async with self.store.transaction() as session:
            await self.store.set_auto_throw(session, user_id, on)
