"""Opening a table and its seats: start and rematch, take a seat, leave or resign, end the game.

Each is one service call; what it shows goes through the game flow (`GameFlow.show`) and, for the
table card in the channel, `GameFlow.update_card`. News for the table is the member's interaction answer
when they are in the game's channel, else a post there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

import discord

from bot.cogs.answers import language_of, tell
from bot.cogs.pachisi.flow import GameFlow
from bot.cogs.pachisi.views import ConfirmEnd
from bot.core import present, records
from bot.core.errors import NotAllowed
from bot.core.present import Message
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import Language, answers, table
from bot.core.texts.language import choose
from engine import Rules
from engine.game import Termination

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 1440
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


class Seats:
    """Who sits where: the bot sets up one (`bot.seats`) beside the game flow it shows through."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.bot = flow.bot
        self.service = flow.service

    async def open(
        self,
        interaction: discord.Interaction[Any],
        rules: Rules,
        level: str,
        seat: int | None,
        *,
        thread: bool,
        members: dict[int, int] | None = None,
        names: dict[int, str] | None = None,
        hints: bool = True,
        language: str = "en",
    ) -> None:
        """Start a game where the member asked: in a new thread with a table card in the channel,
        in the thread they are in, or in the channel itself. The interaction is deferred.
        `members` (seat -> member) sit down too, under `names` (member -> display name)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        self.flow.remember(interaction.user)
        here = interaction.channel
        missing = [p for p in THREAD_PERMISSIONS if not getattr(interaction.app_permissions, p)]
        channel_id, card_channel = interaction.channel_id, None
        wants_thread = (
            thread and not isinstance(here, discord.Thread) and isinstance(here, discord.TextChannel)
        )
        if wants_thread and not missing:
            assert isinstance(here, discord.TextChannel)
            name = table.table_name(choose(language), interaction.user.display_name)
            created = await here.create_thread(
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread,
            )
            channel_id, card_channel = created.id, interaction.channel_id
        played = await self.service.start(
            interaction.guild_id,
            channel_id,
            interaction.user.id,
            rules,
            level,
            seat,
            card_channel_id=card_channel,
            members=members,
            hints=hints,
            language=language,
            names={**(names or {}), interaction.user.id: interaction.user.display_name},
        )
        game = played.game
        await self.post_card(game)
        note = missing if wants_thread else []
        await tell(interaction, table.your_game(language_of(interaction), game, interaction.user.id, note))
        await self.flow.changed(played)

    async def post_card(self, game: GameSnapshot) -> None:
        """The table card, where onlookers look: the channel of a game's thread, or the game's own
        channel when it plays there (ahead of its turns)."""
        channel = self.flow.card_channel(game)
        if channel is None:
            return
        card = present.card(self.flow.language(game), game, self.flow.starter(game))
        posted = await self.flow.writer.post(channel, card, game)
        await self.service.set_card(game.id, posted.id)

    async def rematch(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The same seats and options at a new table (a new thread of the card's channel)."""
        old = await self.service.get(game_id)
        players = {info.user_id: seat for seat, info in old.seats.items() if info.user_id}
        everyone = await records.game_players(self.bot.store, game_id)
        if interaction.user.id not in players and interaction.user.id not in everyone:
            raise NotAllowed("rematch_not_yours")
        if old.status == Status.ACTIVE:
            raise NotAllowed("rematch_too_soon")
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = players.pop(interaction.user.id, None)
        levels = {info.level for info in old.seats.values()}
        level = levels.pop() if len(levels) == 1 else self.bot.settings.default_level
        members = {s: u for u, s in players.items()}
        names = {u: self.flow.names.get(u) or old.seats[s].name for u, s in players.items()}
        thread = old.card_channel_id is not None
        await self.open(
            interaction,
            old.rules,
            level,
            seat,
            thread=thread,
            members=members,
            names={u: name for u, name in names.items() if name},
            hints=old.hints,
            language=old.language,
        )

    async def take(self, interaction: discord.Interaction[Any], game: GameSnapshot, seat: int | None) -> None:
        """A member takes a computer's seat; if it is their turn now, the turn is shown to them."""
        self.flow.remember(interaction.user)
        async with self.flow.locked(game.id):
            member = interaction.user
            played = await self.service.join(game.id, member.id, seat, member.display_name)
            joined = played.game
            taken = joined.seat_of(interaction.user.id)
            assert taken is not None
            user = interaction.user.id
            await self.announce(interaction, joined, lambda lang: table.seat_taken(lang, user, joined, taken))
            await self.flow.update_card(joined)
            if played.events or joined.user_to_move() == interaction.user.id:
                note = table.seat_taken(self.flow.language(joined), user, joined, taken)
                await self.flow.show(played, note=note)

    async def give_up(
        self, interaction: discord.Interaction[Any], game: GameSnapshot, *, resign: bool
    ) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(
                ephemeral=interaction.channel_id != game.channel_id, thinking=True
            )
        async with self.flow.locked(game.id):
            seat = game.seat_of(interaction.user.id)
            played = await (self.service.resign if resign else self.service.leave)(
                game.id, interaction.user.id
            )
            after, user = played.game, interaction.user.id
            outcome = after.outcome
            last = all(info.user_id is None for info in after.seats.values())

            def news(lang: Language) -> str:
                if outcome is not None and outcome.termination is Termination.RESIGNATION:
                    return table.conceded(lang, user, after)
                return table.seat_given_up(lang, user, seat, resign=resign, last=last)

            await self.announce(interaction, after, news)
            text = news(self.flow.language(after))
            await self.flow.update_card(after)
            if played.events or after.status != Status.ACTIVE or not after.is_human_turn():
                await self.flow.show(played, note=text)

    async def announce(
        self, interaction: discord.Interaction[Any], game: GameSnapshot, news: Callable[[Language], str]
    ) -> None:
        """News for the table, in the table's language: in the game's channel, and as the answer
        when the member is there; from elsewhere the member is told it in their own language."""
        text = news(self.flow.language(game))
        if interaction.channel_id == game.channel_id:
            await tell(interaction, text, ephemeral=False)
            return
        channel = self.flow.channel(game)
        if channel is not None:
            await self.flow.writer.post(channel, Message(text), game)
        lang = language_of(interaction)
        await tell(interaction, table.plays_in(lang, news(lang), game))

    async def confirm_end(self, interaction: discord.Interaction[Any], game: GameSnapshot) -> None:
        """Ask before ending a game for everyone, once the member may end it at all."""
        if not may_end(interaction, game):
            raise NotAllowed("only_starter_ends")
        lang = language_of(interaction)
        question, yes, no, kept = answers.confirm_end(lang)
        confirm = ConfirmEnd(game.id, yes=yes, no=no, kept=kept, working=answers.working(lang))
        await interaction.response.send_message(question, view=confirm, ephemeral=True)

    async def end(self, interaction: discord.Interaction[Any], game_id: int) -> GameSnapshot:
        """End the game for everyone; the game as it ended."""
        async with self.flow.locked(game_id):
            game = await self.service.end(game_id, interaction.user.id, can_manage=may_end(interaction, None))
            self.flow.timers.cancel(game_id)
            text = table.ended(self.flow.language(game), interaction.user.id, game)
            await self.flow.show(Played(game), note=text)
            channel = self.flow.channel(game)
            if channel is not None:
                await self.flow.writer.post(channel, Message(text), game)
            return game


def may_end(interaction: discord.Interaction[Any], game: GameSnapshot | None) -> bool:
    """The member manages channels, or started the game."""
    member = interaction.user
    can_manage = isinstance(member, discord.Member) and member.guild_permissions.manage_channels
    return can_manage or (game is not None and member.id == game.started_by)
