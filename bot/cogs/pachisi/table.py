"""The table flow: a change to a game, made by the service, shown by the presenter's plan.

A click walks down once: the router hands `click` the service call; under the game's lock it
runs, the presenter plans the answer, and the click's own interaction carries it (the clicked
message updated at once; after the computers' pace, updated again or followed by a new message
that pings the next member). A change nobody clicked for (a timer, a restart, a typed command,
a seat handed over) is shown through the channel by `show`. Rules live in the engine, state in
the service, words in `bot.core.texts`; this module only decides where a message goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.pachisi.timers import TurnTimers
from bot.cogs.pachisi.writes import GameChannel, Writer, too_old
from bot.core import present, records
from bot.core.errors import GameError
from bot.core.present import Message, Plan
from bot.core.records import SeatTally
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import Language, table
from bot.core.texts.language import choose
from bot.core.texts.turns import log_lines

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

OLD_MESSAGE_EDITS = 30046
"""Discord's error code for an edit of a message over an hour old once it took a few already."""
ANSWER_WITHIN = 1.5
"""Seconds a click's work may take before its answer is deferred (Discord allows 3 from the click,
the gateway's delay included)."""


class Table:
    """Every game table of this process: locks, the names it has seen, timers and the writes."""

    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.writer = Writer(bot)
        self.timers = TurnTimers(bot.clock, bot.settings.turn_timeout_seconds, self.timed_out, self.remind)
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.names: dict[int, str] = {}
        """Display names of the members this process has seen, for the board's panels."""

    def language(self, view: GameSnapshot) -> Language:
        """The language of what the table shares (turn messages, the card, the result): the one it
        was started in."""
        return choose(view.language)

    def remember(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    def starter(self, view: GameSnapshot) -> str:
        return table.member_name(self.language(view), view.started_by, self.names, view.starter_name)

    # --- a click on a turn message ----------------------------------------------------------

    async def click(
        self, interaction: discord.Interaction[Any], game_id: int, act: Callable[[], Awaitable[Played]]
    ) -> None:
        """Run `act` (the service call) and answer with the clicked message, updated."""
        self.remember(interaction.user)
        clicked = interaction.message
        assert clicked is not None
        async with self.locks[game_id]:
            work = asyncio.ensure_future(self._planned(interaction.user.id, clicked, act))
            done, _ = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
            if not done:
                try:
                    await interaction.response.defer()  # a deferred update: the answer comes as an edit
                except discord.HTTPException:
                    log.warning("game=%s click not acknowledged in time: shown through the channel", game_id)
            played, plan, files = await work
            view = played.game
            await self._answer(interaction, plan.now or Message(clicked.content), view, files)
            if played.replaced is not None:
                await self.close(view, played.replaced)
            await self._after_pace(
                played,
                plan,
                lambda message: self._answer(interaction, message, view),
                lambda message: self._follow(interaction, view, message),
            )

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        message: Message,
        view: GameSnapshot,
        files: list[discord.File] | None = None,
    ) -> None:
        """The clicked message becomes `message` through the click's interaction; if Discord no
        longer takes that answer (it came too late, or failed), through the channel instead."""
        try:
            await self.writer.answer(interaction, message, files or await self.writer.files(message, view))
        except discord.HTTPException as exc:
            log.warning("game=%s click answer refused (%s %s)", view.id, exc.status, exc.code)
            clicked = interaction.message
            if clicked is not None and exc.code != OLD_MESSAGE_EDITS:
                await self._edit(view, clicked.id, message)
            elif message.buttons:  # the message takes no more edits: the turn goes on in a new one
                await self._post(view, message)

    async def _planned(
        self, user_id: int, clicked: discord.Message, act: Callable[[], Awaitable[Played]]
    ) -> tuple[Played, Plan, list[discord.File]]:
        played = await act()
        view = played.game
        lang = self.language(view)
        seat = view.seat_of(user_id)
        earlier = log_lines(clicked.content)
        tallies = await self._tallies(view)
        if seat is None or too_old(clicked.id, self.bot.clock.now()):
            plan = present.after_change(lang, played, earlier, self.names, tallies)
        else:
            plan = present.after_click(lang, played, seat, earlier, self.names, tallies)
        files = await self.writer.files(plan.now, view) if plan.now is not None else []
        return played, plan, files

    async def _after_pace(
        self,
        played: Played,
        plan: Plan,
        update: Callable[[Message], Awaitable[Any]],
        post: Callable[[Message], Awaitable[Any]],
    ) -> None:
        """What follows the first answer: the computers' turns after their pace, the next message."""
        view = played.game
        if plan.paced:
            await asyncio.sleep(self.bot.settings.computer_pace_seconds)
        if plan.later is not None:
            await update(plan.later)
        over = view.status != Status.ACTIVE
        if over:  # the card first: killed before the result, the game is resumed with both
            await self.update_card(view)
        if plan.post is not None:
            await post(plan.post)
        if not over and any(e.handed_back for e in played.events):
            await self.update_card(view)
        self.timers.schedule(view)
        if played.more:
            await self._play_on(view.id)

    async def _follow(
        self, interaction: discord.Interaction[Any], view: GameSnapshot, message: Message
    ) -> None:
        """The next turn as a new message sent through the click's interaction, outside the
        channel's post bucket; through the channel when Discord no longer takes it."""
        try:
            posted = await self.writer.follow(interaction, message, view)
        except discord.HTTPException as exc:
            log.warning("game=%s followup refused (%s %s): posted instead", view.id, exc.status, exc.code)
            await self._post(view, message)
            return
        await self.service.shown(view.id, posted.id if view.status == Status.ACTIVE else None)

    async def _post(self, view: GameSnapshot, message: Message) -> None:
        channel = self.channel(view)
        if channel is None:
            return
        try:
            posted = await self.writer.post(channel, message, view)
        except discord.NotFound:
            await self.abandon(view.id)
            return
        except discord.Forbidden as exc:
            log.warning("game=%s channel=%s missing permissions to post", view.id, view.channel_id)
            raise GameError("cannot_post") from exc
        await self.service.shown(view.id, posted.id if view.status == Status.ACTIVE else None)

    async def _tallies(self, view: GameSnapshot) -> dict[int, SeatTally] | None:
        return await records.tallies(self.bot.store, view.id) if view.status == Status.FINISHED else None

    # --- a change nobody clicked for --------------------------------------------------------

    async def show(self, played: Played) -> None:
        """Close the message that showed the turn and post the game as it stands (call locked)."""
        view = played.game
        plan = await self._close_shown(played)
        if plan is None:
            return
        await self._after_pace(
            played,
            plan,
            lambda message: self._edit(view, view.message_id or 0, message),
            lambda message: self._post(view, message),
        )

    async def _close_shown(self, played: Played) -> Plan | None:
        """Plan the change's messages and close the one that showed the turn; None: no channel."""
        view = played.game
        channel = self.channel(view)
        if channel is None:
            return None
        stored = await self.stored_message(view, channel)
        earlier = None if stored is None else log_lines(stored.content)
        plan = present.after_change(
            self.language(view), played, earlier, self.names, await self._tallies(view)
        )
        if plan.now is not None and stored is not None:
            await self._edit(view, stored.id, plan.now)
        return plan

    async def _edit(self, view: GameSnapshot, message_id: int, message: Message) -> None:
        """An earlier message of the game becomes `message`, if Discord still lets it be edited."""
        channel = self.channel(view)
        if channel is None:
            return
        try:
            await self.writer.edit(channel, message_id, message, view)
        except discord.HTTPException as exc:
            log.warning("game=%s message=%s not edited (%s %s)", view.id, message_id, exc.status, exc.code)

    async def close(self, view: GameSnapshot, message_id: int) -> None:
        """An earlier turn message of the game is done with: its log stays, its buttons go."""
        channel = self.channel(view)
        if channel is None:
            return
        try:
            message = await channel.fetch_message(message_id)
            lang = self.language(view)
            done = present.closed(lang, view, [], log_lines(message.content))
            await self.writer.edit(channel, message_id, done, view)
        except discord.HTTPException as exc:
            log.warning("game=%s message=%s not closed (%s %s)", view.id, message_id, exc.status, exc.code)

    async def changed(self, played: Played) -> None:
        """Show a change already made outside a click (locked here)."""
        async with self.locks[played.game.id]:
            await self.show(played)

    async def run(self, game_id: int, act: Callable[[], Awaitable[Played]]) -> Played:
        """Make a change nobody clicked for (a typed command) and show it, locked."""
        async with self.locks[game_id]:
            played = await act()
            await self.show(played)
            return played

    async def _play_on(self, game_id: int) -> None:
        """Computers still had throws to play after a call's limit: play and show the next part."""
        await asyncio.sleep(self.bot.settings.computer_pace_seconds)
        await self.show(await self.service.play_on(game_id))

    async def timed_out(self, game_id: int, turn: int) -> None:
        async with self.locks[game_id]:
            await self.show(await self.service.timeout(game_id, turn))

    async def remind(self, game_id: int, turn: int) -> None:
        """Half the member's time is gone: their turn moves to a new message that pings them, and
        the old one is closed. A separate reminder would keep its countdown ("time runs out 12
        minutes ago") once the turn was played; a turn message is closed with the turn."""
        async with self.locks[game_id]:
            view = await self.service.get(game_id)
            if view.turn_number != turn or not view.is_human_turn():
                return
            plan = await self._close_shown(Played(view))
            if plan is not None and plan.post is not None:
                await self._post(view, plan.post)

    async def abandon(self, game_id: int) -> None:
        self.timers.cancel(game_id)
        await self.service.abandon(game_id)

    # --- where a game is shown ----------------------------------------------------------------

    def channel(self, view: GameSnapshot) -> GameChannel | None:
        """Where the game plays. A thread just created may not be cached yet (its gateway event
        comes later): a partial one posts there all the same."""
        channel = self.bot.get_channel(view.channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            return channel
        if channel is None and view.card_channel_id is not None:
            return self.bot.get_partial_messageable(
                view.channel_id, guild_id=view.guild_id, type=discord.ChannelType.public_thread
            )
        return None

    async def stored_message(self, view: GameSnapshot, channel: GameChannel) -> discord.Message | None:
        if view.message_id is None:
            return None
        try:
            return await channel.fetch_message(view.message_id)
        except (discord.NotFound, discord.Forbidden):
            return None

    def card_channel(self, view: GameSnapshot) -> GameChannel | None:
        """Where the table card is: the channel of the game's thread, else the game's own channel."""
        if view.card_channel_id is None:
            return self.channel(view)
        channel = self.bot.get_channel(view.card_channel_id)
        return channel if isinstance(channel, discord.TextChannel) else None

    async def update_card(self, view: GameSnapshot) -> None:
        """Show the seats as they are now, or the result at the end (an edit, never a new message)."""
        channel = self.card_channel(view)
        if view.card_message_id is None or channel is None:
            return
        finished = view.status == Status.FINISHED
        card = present.card(
            self.language(view),
            view,
            self.starter(view),
            tallies=await self._tallies(view),
            players=await records.game_players(self.bot.store, view.id) if finished else None,
            ended_at=self.bot.clock.now(),
        )
        try:
            await self.writer.edit(channel, view.card_message_id, card, view)
        except discord.HTTPException as exc:
            log.warning("game=%s table card not updated (%s %s)", view.id, exc.status, exc.code)
