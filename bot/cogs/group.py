"""The one `/pachisi` command group, shared by every cog that adds a subcommand to it.

A command module is a `PachisiCommands` cog: its `@app_commands.command` methods become
`/pachisi <name>` when the cog is added, and go again when it is removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import PachisiBot

GROUP_NAME = "pachisi"
GROUP_DESCRIPTION = "Play Pachisi, the ancestor of Ludo"


def pachisi_group(tree: app_commands.CommandTree) -> app_commands.Group:
    """The bot's `/pachisi` group, created by the first cog that asks for it."""
    found = tree.get_command(GROUP_NAME)
    if isinstance(found, app_commands.Group):
        return found
    group = app_commands.Group(name=GROUP_NAME, description=GROUP_DESCRIPTION, guild_only=True)
    tree.add_command(group)
    return group


class PachisiCommands(commands.Cog):
    """A cog whose application commands are subcommands of `/pachisi` instead of top-level ones."""

    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        group = pachisi_group(bot.tree)
        self.subcommands = list(self.__cog_app_commands__)
        for command in self.subcommands:
            group.add_command(command)
        # What is left here, `add_cog` puts at the tree's top level: nothing.
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        group = pachisi_group(self.bot.tree)
        for command in self.subcommands:
            group.remove_command(command.name)
