"""The Pachisi game cogs, loaded as one extension (`bot.cogs.pachisi`): thin adapters between
Discord and the table layer (`bot.table`, which the bot builds as `bot.table`).

The path of a click: a button (`buttons`, one dynamic item per action) or a command (`commands`)
reads Discord's input and hands what the member did, as data (`bot.table.acts.Act`), with the
interaction as the table's `Reply` (`channels`), to the table's game flow, which plays it, plans
the answer and writes it through the same interaction or the channel (`channels`: Discord's side
of the table's protocols). Beside them: `opening` (where a new table plays: a thread), `resume`
(the start-up listeners), `tournament` (`/pachisi tournament`), `hints` (the Hint's answer),
`views` (the other discord.ui views).

A new command module is a `bot.cogs.group.PachisiCommands` cog added in `setup` below (or an
extension of its own listed in `bot.client.EXTENSIONS`); a new button is an item of `buttons`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.pachisi.commands import PlayCommands
from bot.cogs.pachisi.resume import Resume
from bot.cogs.pachisi.tournament import TournamentCommands

if TYPE_CHECKING:
    from bot.client import PachisiBot


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(PlayCommands(bot))
    await bot.add_cog(Resume(bot))
    await bot.add_cog(TournamentCommands(bot))
    bot.table.add_result_file(bot.table.hints.story)  # every result carries its story chart


async def teardown(bot: PachisiBot) -> None:
    bot.table.remove_result_file(bot.table.hints.story)
    bot.table.flow.timers.cancel_all()
