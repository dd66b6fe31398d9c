"""The Pachisi game cogs, loaded as one extension (`bot.cogs.pachisi`).

The path of a click: a button (`buttons`, one dynamic item per action) or a command (`commands`)
hands what the member did, as data (`acts.Act`), to the game flow (`flow`), which the bot sets up
as `bot.flow`: under the game's lock the service plays it, the presenter
(`bot.core.present`) plans the answer, and `writes` sends it (the click's own interaction first,
the channel only for a new audience). Beside it: `seats` (`bot.seats`: opening a table, taking
and giving up seats, ending), `timers` (turn timers), `resume` (after a restart, and games whose
channel is gone), `hints` (the Hint and the result's chart), `views` (the other discord.ui views).

A new command module is a `bot.cogs.group.PachisiCommands` cog added in `setup` below (or an
extension of its own listed in `bot.client.EXTENSIONS`); a new button is an item of `buttons`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.answers import on_tree_error
from bot.cogs.pachisi.commands import PlayCommands
from bot.cogs.pachisi.hints import add_story
from bot.cogs.pachisi.resume import Resume

if TYPE_CHECKING:
    from bot.client import PachisiBot


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(PlayCommands(bot))
    await bot.add_cog(Resume(bot))
    add_story(bot)
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]  # one handler for every command


async def teardown(bot: PachisiBot) -> None:
    bot.flow.timers.cancel_all()
