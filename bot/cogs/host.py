"""What a button, a view or an answer needs of the bot, as a protocol: they reach the bot through
the interaction (`host_of`) and never import the bot class, which imports them."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Protocol, cast

import discord

from bot.core.clock import Clock
from bot.core.service import GameService
from bot.core.store import Store
from bot.table import Table


class Host(Protocol):
    @property
    def table(self) -> Table: ...

    @property
    def service(self) -> GameService: ...

    @property
    def store(self) -> Store: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def render_pool(self) -> Executor: ...


def host_of(interaction: discord.Interaction[Any]) -> Host:
    """The bot that received the interaction."""
    return cast(Host, interaction.client)
