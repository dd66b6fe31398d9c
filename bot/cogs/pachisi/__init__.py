"""The Pachisi game cogs, loaded as one extension (`bot.cogs.pachisi`).

The path of a click: `router` (the buttons, matched by action) or `commands` (the slash commands)
hand the service call to `table`, which runs it under the game's lock, lets the presenter
(`bot.core.present`) plan the answer and sends it through `writes` (the click's own interaction
first, the channel only for a new audience). Beside it: `seats` (opening a table, taking and
giving up seats, ending), `timers` (turn timers), `resume` (after a restart, and games whose
channel is gone), `hints` (the Hint button and the result's chart), `views` (the buttons).

A new command module is a `bot.cogs.group.PachisiCommands` cog added in `setup` below (or an
extension of its own listed in `bot.client.EXTENSIONS`); a new game button registers its handler
with `Router.add_button`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.answers import on_tree_error
from bot.cogs.pachisi.commands import PlayCommands
from bot.cogs.pachisi.hints import Hints
from bot.cogs.pachisi.resume import Resume
from bot.cogs.pachisi.router import Router
from bot.cogs.pachisi.seats import Seats
from bot.cogs.pachisi.table import Table
from bot.cogs.pachisi.views import GameButton

if TYPE_CHECKING:
    from bot.client import PachisiBot


async def setup(bot: PachisiBot) -> None:
    tables = Table(bot)
    seats = Seats(tables)
    router = Router(bot, tables, seats)
    await bot.add_cog(router)
    await bot.add_cog(PlayCommands(bot, tables, seats))
    await bot.add_cog(Resume(bot, tables))
    Hints(bot, tables, router)
    bot.add_dynamic_items(GameButton)
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]  # one handler for every command


async def teardown(bot: PachisiBot) -> None:
    bot.remove_dynamic_items(GameButton)
