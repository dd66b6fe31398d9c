"""The Pachisi game cogs, loaded as one extension (`bot.cogs.pachisi`).

- `table`: the table flow (locks, posting, timers, resume) and the game buttons' handlers;
- `commands`: the `/pachisi` commands that play;
- `messages`: every text about a game, pure functions;
- `views`: the buttons;
- `hints`: the Hint button (the member to move asks what `hard` would play, and why).

A new command module is a `bot.cogs.group.PachisiCommands` cog added in `setup` below (or an
extension of its own listed in `bot.client.EXTENSIONS`); a new game button registers its handler
with `Tables.add_button`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.answers import on_tree_error
from bot.cogs.pachisi.commands import PlayCommands
from bot.cogs.pachisi.hints import Hints
from bot.cogs.pachisi.table import Tables
from bot.cogs.pachisi.views import GameButton

if TYPE_CHECKING:
    from bot.client import PachisiBot


async def setup(bot: PachisiBot) -> None:
    tables = Tables(bot)
    await bot.add_cog(tables)
    await bot.add_cog(PlayCommands(bot, tables))
    Hints(bot, tables)
    bot.add_dynamic_items(GameButton)
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]  # one handler for every command


async def teardown(bot: PachisiBot) -> None:
    bot.remove_dynamic_items(GameButton)
