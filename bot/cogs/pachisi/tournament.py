"""`/pachisi tournament`: open an event in this channel (a member who may manage the server or its
events), and the organizer's start, cancel, pause, resume, next, add and drop; standings for
anyone. A member who leaves the server is withdrawn from the events they play in.

Each command reads its options and hands the change to the table layer's tournament desk
(`bot.table.tournament`), which answers through the interaction as a `Reply`; a refusal is a
`GameError`, answered to the member alone by the tree's error handler.
"""

from __future__ import annotations

import io
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.answers import refuse
from bot.cogs.group import PachisiCommands
from bot.cogs.pachisi.buttons import reply
from bot.cogs.pachisi.commands import LANGUAGE_CHOICES, LEVEL_CHOICES, table_language
from bot.core.errors import GameError
from bot.core.texts.language import clip
from bot.core.tournaments.service import Options
from bot.core.tournaments.snapshot import ROUND_ROBIN, SWISS
from engine import Rules

if TYPE_CHECKING:
    from bot.client import PachisiBot


def manages_events(interaction: discord.Interaction[Any]) -> bool:
    """The member may manage the server or its events: they may open, and run, any tournament."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    permissions = member.guild_permissions
    return permissions.manage_guild or permissions.manage_events


class TournamentCommands(PachisiCommands):
    tournament = app_commands.Group(name="tournament", description="Tournaments in this channel")

    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.desk = bot.table.tournaments

    @tournament.command(name="open", description="Open a tournament here")
    @app_commands.describe(
        name="its name",
        format="swiss or round-robin",
        rounds="Swiss rounds",
        players="2, or 4 in partnerships",
        variant="classic (default) or standard",
        pieces="pieces per seat, 1-4",
        rules="more options, e.g. escape_hatch=off,enter_moves=on",
        move_seconds="seconds per move, then the computer plays",
        round_minutes="a round's time limit",
        signup_minutes="minutes until it starts",
        level="the computer's level for byes",
        language="the tournament's language",
    )
    @app_commands.choices(  # type: ignore[misc]  # str and int choices mixed
        format=[app_commands.Choice(name=f, value=f) for f in (SWISS, ROUND_ROBIN)],
        players=[app_commands.Choice(name="2", value=2), app_commands.Choice(name="4", value=4)],
        variant=[
            app_commands.Choice(name="classic", value="classic"),
            app_commands.Choice(name="standard", value="standard"),
        ],
        level=LEVEL_CHOICES,
        language=LANGUAGE_CHOICES,
    )
    async def open(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        format: str = SWISS,
        rounds: app_commands.Range[int, 1, 20] = 3,
        players: int = 2,
        variant: str = "classic",
        pieces: app_commands.Range[int, 1, 4] = 4,
        rules: app_commands.Range[str, 0, 200] | None = None,
        move_seconds: app_commands.Range[int, 5, 3600] = 120,
        round_minutes: app_commands.Range[int, 1, 1440] = 60,
        signup_minutes: app_commands.Range[int, 1, 10080] = 30,
        level: str | None = None,
        language: str | None = None,
    ) -> None:
        if not manages_events(interaction):
            raise GameError("tournament_managers")
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            chosen = Rules.parse(f"{variant},{rules or ''}", allow_shape=False).with_options(pieces=pieces)
        except ValueError as exc:
            reason = clip(str(exc).rsplit(" (in ", 1)[0], 80)
            await refuse(interaction, "unknown_rules", typed=rules or variant, reason=reason)
            return
        options = Options(
            name,
            format,
            chosen,
            table_size=players,
            rounds=rounds,
            move_seconds=move_seconds,
            round_seconds=round_minutes * 60,
            level=level or self.bot.settings.default_level,
            language=language or table_language(interaction).code,
        )
        closes = self.bot.clock.now() + timedelta(minutes=signup_minutes)
        await interaction.response.defer(ephemeral=True, thinking=True)
        here = interaction.channel_id
        await self.desk.open(reply(interaction), interaction.guild_id, here, options, closes)

    @tournament.command(name="start", description="Start this channel's tournament now (its organizer)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.desk.start(reply(interaction), manager=manages_events(interaction))

    @tournament.command(name="cancel", description="Cancel this channel's tournament (its organizer)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.desk.cancel(reply(interaction), manager=manages_events(interaction))

    @tournament.command(name="pause", description="Hold the next round until you pair it (its organizer)")
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await self.desk.pause(reply(interaction), paused=True, manager=manages_events(interaction))

    @tournament.command(name="resume", description="Pair each round as the last one ends (its organizer)")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.desk.pause(reply(interaction), paused=False, manager=manages_events(interaction))

    @tournament.command(name="next", description="Pair the next round now (its organizer)")
    async def next(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.desk.next(reply(interaction), manager=manages_events(interaction))

    @tournament.command(name="add", description="Sign a member up (its organizer)")
    @app_commands.describe(member="the member to sign up")
    async def add(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        manager = manages_events(interaction)
        await self.desk.add(reply(interaction), member.id, member.display_name, manager=manager)

    @tournament.command(name="drop", description="Take a member out (its organizer)")
    @app_commands.describe(member="the member to take out")
    async def drop(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.desk.drop(reply(interaction), member.id, manager=manages_events(interaction))

    @tournament.command(name="standings", description="This channel's tournament standings")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, picture = await self.desk.standings(reply(interaction))
        file = discord.File(io.BytesIO(picture), "standings.png")
        await interaction.followup.send(text, file=file, ephemeral=True)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left (or was removed from) the server: withdrawn from its events."""
        await self.desk.member_left(payload.guild_id, payload.user.id)
