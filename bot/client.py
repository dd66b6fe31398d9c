"""The bot subclass: owns the store and the service, builds them in setup_hook, loads the cogs."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import yarl
from discord.ext import commands
from sqlalchemy import make_url

from bot.cogs.answers import PachisiTree
from bot.cogs.pachisi.buttons import BUTTONS, COMPONENTS
from bot.cogs.pachisi.channels import DiscordChannels
from bot.cogs.pachisi.opening import DiscordRoster, DiscordThreads
from bot.core.clock import Clock
from bot.core.config import Settings
from bot.core.members import MemberSettings
from bot.core.service import GameService
from bot.core.store import Store, upgrade
from bot.core.workers import Workers
from bot.health import http_trace
from bot.heartbeat import time_heartbeats
from bot.sync import sync_commands
from bot.table import Table
from bot.translator import CatalogTranslator

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 10.0
EVENT_TASKS = ("discord.py: ", "CommandTree-invoker", "discord-ui-")
"""Names discord.py gives the tasks it starts for events, commands and component clicks."""
EXTENSIONS = ("bot.cogs.pachisi", "bot.cogs.stats", "bot.cogs.records", "bot.cogs.puzzle")
"""The cogs the bot loads; each registers its own commands and start-up work. The buttons, and the
table layer they play through, are the bot's own (`setup_hook`), whatever cogs are loaded."""


def point_discord_at(base_url: str | None, gateway_url: str | None = None) -> None:
    """Send REST calls to `{base_url}/api/v10` and the gateway to `gateway_url` (the tests' fake
    Discord); with no base_url, traffic goes to Discord itself."""
    if not base_url:
        return
    base_url = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base_url}/api/v10"
    ws_url = (gateway_url or base_url.replace("http", "ws", 1) + "/gateway").rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)


def pool_options(database_url: str) -> dict[str, Any]:
    """SQLite lets one writer in at a time and every transaction of ours takes the write lock
    (BEGIN IMMEDIATE); with several pooled connections the losers nap until the lock is free
    (`inline_sqlite.begin_immediate`), so busy channels waited seconds. One connection makes them
    queue instead, in order."""
    if make_url(database_url).get_backend_name() == "sqlite":
        return {"pool_size": 1, "max_overflow": 0, "pool_timeout": 60}
    return {}


class PachisiBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, clock: Clock | None = None, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: slash commands and buttons need none
        time_heartbeats()  # a heartbeat's latency is its round trip, however busy the process
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None: every shard
            help_command=None,
            tree_cls=PachisiTree,  # one error handler for every command
            http_trace=http_trace(),  # counts Discord's 429s by bucket (bot/core/metrics.py)
            **{"guild_ready_timeout": settings.guild_ready_seconds, **options},
        )
        self.settings = settings
        self.clock = clock or Clock()
        """What time it is for the service, the turn timers and the age of messages."""
        self.store: Store
        self.service: GameService
        self.table: Table
        """The games in their channels (`bot/table/`): a click's and a command's way to a game."""
        self._stopping: asyncio.Task[None] | None = None
        self.force_sync = False
        """Sync the slash commands even when the database says they are unchanged (`python -m bot sync`)."""
        self.render_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        """Boards are drawn off the event loop; two threads overlap Pillow's GIL-free encoding
        (bench/bot_bench.py: 100 busy games, p99 2.5 s with one thread, 1.9 s with two); the turns'
        boards go to `workers`."""
        self.workers = Workers(settings.workers)
        """Worker processes for the boards and the computers' decisions (`WORKERS`)."""

    async def setup_hook(self) -> None:
        await upgrade(self.settings.database_url)
        # The renderer's caches are built now, not on the first turn (about half a second), where
        # the turns' boards are drawn: in each worker, or in this process with WORKERS=0. Beside
        # workers, this process draws only the rare pictures (legend, puzzle, hint chart): it builds
        # them on the first, not at every start and restart.
        await self.workers.warm()
        self.store = Store(self.settings.database_url, **pool_options(self.settings.database_url))
        self.service = GameService(
            self.store,
            turn_timeout=self.settings.turn_timeout_seconds,
            clock=self.clock.now,
            members=MemberSettings(self.store, default_auto_throw=self.settings.default_auto_throw),
            workers=self.workers,
        )
        self.table = Table(
            service=self.service,
            store=self.store,
            clock=self.clock,
            settings=self.settings,
            workers=self.workers,
            channels=DiscordChannels(self, COMPONENTS),
            pool=self.render_pool,
            threads=DiscordThreads(self),
            roster=DiscordRoster(self),
        )
        self.add_dynamic_items(*BUTTONS)  # a button posted before this start answers too
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogTranslator())
        await sync_commands(self.tree, self.store, self.settings.dev_guild_id, force=self.force_sync)

    async def on_ready(self) -> None:
        log.info("ready user=%s guilds=%d shards=%s", self.user, len(self.guilds), self.shard_ids)

    async def close(self) -> None:
        """Shut down in order, once however often called: let the work that Discord events started
        finish (bounded), disconnect, then close the store and the render threads."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        await self._drain(SHUTDOWN_GRACE_SECONDS)
        await super().close()
        table = getattr(self, "table", None)
        if table is not None:
            await table.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
            log.info("store transactions=%d", store.transactions)
        self.render_pool.shutdown(wait=True)
        self.workers.shutdown()
        log.info("stopped")

    async def _drain(self, timeout: float) -> None:
        """Wait for the tasks discord.py started for events (commands, clicks, on_ready's resume)."""
        deadline = asyncio.get_running_loop().time() + timeout
        caller = asyncio.current_task()
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            busy = [
                task
                for task in asyncio.all_tasks()
                if task is not caller and not task.done() and task.get_name().startswith(EVENT_TASKS)
            ]
            if not busy:
                return
            await asyncio.wait(busy, timeout=left)
        log.warning("shutdown: event handlers still running after %.0f s", timeout)
