"""The table flow: where a game plays, what is posted and when, timers, and resuming after a restart.

Rules live in the engine and game state in the service; this cog decides what to show. A game plays
in a thread of the channel it was started in, with one table card in the channel (or in the channel
itself when threads are not allowed). The bot throws for members by default, so a member is asked
only when a throw offers a real choice; a member's consecutive throws update one turn message.

Every change to a game runs under that game's lock (one process) and the store's version check
(several processes), so double clicks and simultaneous commands apply once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

import discord
from discord.ext import commands

import bot.cogs.pachisi.messages as messages
import render
from bot.cogs.answers import tell
from bot.cogs.pachisi.views import (
    JOIN,
    MOVE,
    REMATCH,
    THROW,
    ButtonHandler,
    Confirm,
    GameButton,
    disabled_copy,
    game_of,
)
from bot.core.errors import AlreadyThrown, GameError, NotAllowed
from bot.core.service import Event, GameSnapshot
from bot.core.store import Status, StoreUnavailable
from engine import Move, Rules, parse_move
from engine.errors import NotationError

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

TIMER_RETRY_SECONDS = 5.0
"""A turn timer that found the database down tries again after this long."""
ORPHAN_SEARCH = 25
"""Messages read back, on resume, for turn messages a killed process posted but never stored."""
THREAD_ARCHIVE_MINUTES: Final = 1440
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
NO_MENTIONS = discord.AllowedMentions.none()
GameChannel = discord.TextChannel | discord.Thread | discord.PartialMessageable


def mentioning(users: Iterable[int]) -> discord.AllowedMentions:
    """Only these members are pinged (never roles or everyone)."""
    return discord.AllowedMentions(
        users=[discord.Object(u) for u in dict.fromkeys(users)], roles=False, everyone=False
    )


def permission_words(name: str) -> str:
    return name.replace("_", " ").title()


class Tables(commands.Cog, name="Pachisi"):
    """Every game table of this process: what is shown, when, and the buttons' handlers."""

    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.posts: Counter[int] = Counter()
        """Turn messages posted per game by this process (tells a paused advance it was overtaken)."""
        self.names: dict[int, str] = {}
        self.last_post: dict[int, int] = {}
        """The newest message this process posted in each game channel."""
        self.clicker: dict[int, int | None] = {}
        """Turn message id -> the member it asked (its updates in place stay theirs)."""
        self.resumed_guilds: set[int] = set()
        self.buttons: dict[str, ButtonHandler] = {}
        self.turn_extras: list[Callable[[GameSnapshot], GameButton | None]] = []
        """Buttons other modules add to a turn's message (`add_turn_button`)."""
        self.result_files: list[Callable[[GameSnapshot], Awaitable[discord.File | None]]] = []
        """Pictures other modules add to a finished game's message (`add_result_file`)."""
        self.add_button(THROW, self.on_throw_button)
        self.add_button(MOVE, self.on_move_button)
        self.add_button(JOIN, self.on_join_button)
        self.add_button(REMATCH, self.on_rematch_button)

    async def cog_unload(self) -> None:
        for task in self.timers.values():
            task.cancel()

    # --- buttons --------------------------------------------------------------------------

    def add_button(self, action: str, handler: ButtonHandler) -> None:
        """Route clicks on `GameButton(action, ...)` to `handler` (other cogs add theirs)."""
        self.buttons[action] = handler

    def add_turn_button(self, make: Callable[[GameSnapshot], GameButton | None]) -> None:
        """Show `make(view)` on every turn message, where it returns a button (the Hint)."""
        self.turn_extras.append(make)

    def add_result_file(self, make: Callable[[GameSnapshot], Awaitable[discord.File | None]]) -> None:
        """Attach `await make(view)` to the message that announces a game's result (the story chart)."""
        self.result_files.append(make)

    async def on_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        handler = self.buttons.get(button.action)
        if handler is None:
            raise GameError("That button is no longer in use: use the newest message of the game.")
        await handler(interaction, button)

    async def on_throw_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.play_throw(interaction, button.game_id, button.turn)

    async def on_move_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        try:
            move = parse_move(button.arg or "")
        except NotationError:
            move = None
        if move is None:  # unreadable, or `pass`, which no button offers
            raise GameError("That button is no longer in use: use the newest message of the game.")
        await self.play_move(interaction, button.game_id, button.turn, move)

    async def on_join_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.take_seat(interaction, await self.service.get(button.game_id), None)

    async def on_rematch_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.rematch(interaction, button.game_id)

    # --- opening a table ------------------------------------------------------------------

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        rules: Rules,
        level: str,
        seat: int | None,
        *,
        thread: bool,
        members: dict[int, int] | None = None,
        hints: bool = True,
    ) -> GameSnapshot:
        """Start a game where the member asked: in a new thread with a table card in the channel,
        in the thread they are in, or in the channel itself. The interaction is deferred."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        self.remember(interaction.user)
        here = interaction.channel
        in_thread = isinstance(here, discord.Thread)
        missing = [p for p in THREAD_PERMISSIONS if not getattr(interaction.app_permissions, p)]
        game_channel: discord.abc.Messageable | None = None
        note = ""
        if thread and not in_thread and isinstance(here, discord.TextChannel):
            if missing:
                names = " and ".join(permission_words(p) for p in missing)
                note = f" It plays in this channel: give me {names} here to play each table in a thread."
            else:
                name = f"Pachisi: {interaction.user.display_name}'s table"[:100]
                game_channel = await here.create_thread(
                    name=name,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    type=discord.ChannelType.public_thread,
                )
        channel_id = game_channel.id if isinstance(game_channel, discord.Thread) else interaction.channel_id
        card_channel = interaction.channel_id if channel_id != interaction.channel_id else None
        view = await self.service.start(
            interaction.guild_id,
            channel_id,
            interaction.user.id,
            rules,
            level,
            seat,
            card_channel_id=card_channel,
            members=members,
            hints=hints,
        )
        if card_channel is not None:
            await self.post_card(view)
        else:
            channel = self.channel(view)
            if channel is not None:
                await channel.send(
                    messages.started(interaction.user.mention, view), allowed_mentions=NO_MENTIONS
                )
        seat_name = messages.colour(view.seat_of(interaction.user.id) or 0)
        where = f" in <#{channel_id}>" if card_channel is not None else ""
        await interaction.followup.send(
            f"Your game has started{where}: you play {seat_name}.{note}", ephemeral=True
        )
        async with self.locks[view.id]:
            await self.advance(view.id, [])
        return view

    async def post_card(self, view: GameSnapshot) -> None:
        if view.card_channel_id is None:
            return
        channel = self.bot.get_channel(view.card_channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        content = messages.card_content(view, self.starter_name(view), view.channel_id)
        card = await channel.send(content, view=self.card_buttons(view), allowed_mentions=NO_MENTIONS)
        await self.service.set_card(view.id, card.id)

    async def update_card(self, view: GameSnapshot) -> None:
        """Show the seats as they are now, or the result at the end (an edit, never a new message)."""
        if view.card_channel_id is None or view.card_message_id is None:
            return
        channel = self.bot.get_channel(view.card_channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        tallies = await self.service.tallies(view.id) if view.status == Status.FINISHED else None
        players = await self.service.players(view.id) if view.status == Status.FINISHED else None
        content = messages.card_content(
            view, self.starter_name(view), view.channel_id, tallies, players, datetime.now(UTC)
        )
        try:
            await channel.get_partial_message(view.card_message_id).edit(
                content=content, view=self.card_buttons(view), allowed_mentions=NO_MENTIONS
            )
        except (discord.NotFound, discord.Forbidden):
            log.warning("game=%s table card could not be updated", view.id)

    def card_buttons(self, view: GameSnapshot) -> discord.ui.View:
        """Take a seat while one is free, Rematch once the game is won or drawn; else none."""
        buttons = discord.ui.View(timeout=None)
        if view.status == Status.ACTIVE and any(i.user_id is None for i in view.seats.values()):
            buttons.add_item(GameButton(JOIN, view.id, view.turn_number, label="Take a seat"))
        elif view.status == Status.FINISHED:
            buttons.add_item(
                GameButton(
                    REMATCH, view.id, view.turn_number, label="Rematch", style=discord.ButtonStyle.success
                )
            )
        return buttons

    def starter_name(self, view: GameSnapshot) -> str:
        return self.names.get(view.started_by) or f"Player {str(view.started_by)[-4:]}"

    async def rematch(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The same seats and options at a new table (a new thread of the card's channel)."""
        old = await self.service.get(game_id)
        players = {info.user_id: seat for seat, info in old.seats.items() if info.user_id}
        if interaction.user.id not in players and interaction.user.id not in await self.service.players(
            game_id
        ):
            raise NotAllowed(
                "Only the players of this game can start its rematch: start your own with /pachisi start."
            )
        if old.status == Status.ACTIVE:
            raise NotAllowed("This game is still on: finish it first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = players.pop(interaction.user.id, None)
        levels = {info.level for info in old.seats.values()}
        level = levels.pop() if len(levels) == 1 else self.bot.settings.default_level
        members = {s: u for u, s in players.items()}
        await self.open_table(
            interaction,
            old.rules,
            level,
            seat,
            thread=old.card_channel_id is not None,
            members=members,
            hints=old.hints,
        )

    # --- the turn flow --------------------------------------------------------------------

    async def play_throw(self, interaction: discord.Interaction[Any], game_id: int, turn: int) -> None:
        await self.acknowledge(interaction)
        async with self.locks[game_id]:
            try:
                view, events = await self.service.throw(game_id, interaction.user.id, turn, play_forced=True)
            except AlreadyThrown:
                # This turn's throw is stored but the message clicked still offers "Throw" (a
                # restart between the two): show the stored throw's choices there.
                view, events = await self.service.get(game_id), []
            self.remember(interaction.user)
            await self.advance(game_id, events, view, clicked=interaction.message)
            if interaction.type is discord.InteractionType.application_command:
                if view.pending_throw is not None and not events:
                    text = f"You threw **{view.pending_throw}**: choose a move on the board's buttons."
                else:
                    text = self.done_text(view, events)
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def play_move(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, move: Move
    ) -> None:
        await self.acknowledge(interaction)
        async with self.locks[game_id]:
            view, events = await self.service.move(game_id, interaction.user.id, turn, move)
            self.remember(interaction.user)
            await self.advance(game_id, events, view, clicked=interaction.message)
            if interaction.type is discord.InteractionType.application_command:
                await interaction.followup.send(
                    self.done_text(view, events), ephemeral=True, allowed_mentions=NO_MENTIONS
                )

    def done_text(self, view: GameSnapshot, events: list[Event]) -> str:
        return messages.event_line(events[0], view) if events else "Done."

    async def settle(
        self, game_id: int, events: list[Event], view: GameSnapshot
    ) -> tuple[GameSnapshot, list[Event]]:
        """Play on until a member must decide: the computers' turns, and the throws the bot makes
        for members with auto-throw on (one move or none plays at once)."""
        events = list(events)
        auto: dict[int, bool] = {}  # each member's setting, read once per call
        while view.status == Status.ACTIVE:
            if not view.is_human_turn():
                view, more = await self.service.play_computers(game_id, known=view)
                events += more
                if not more:
                    break  # another process plays on
                continue
            user = view.user_to_move()
            if view.pending_throw is not None or user is None:
                break
            if user not in auto:
                auto[user] = await self.service.auto_throw(user)
            if not auto[user]:
                break
            try:
                view, more = await self.service.throw(game_id, user, view.turn_number, play_forced=True)
            except GameError:
                return await self.service.get(game_id), events  # lost a race: that writer shows it
            events += more
        return view, events

    async def advance(
        self,
        game_id: int,
        events: list[Event],
        view: GameSnapshot | None = None,
        *,
        clicked: discord.Message | None = None,
    ) -> None:
        """Play up to the next decision, then show it (call locked).

        `view`: the game as just stored by this caller; `clicked`: the message the member used."""
        if view is None:
            view = await self.service.get(game_id)
        pace = self.bot.settings.computer_pace_seconds
        if view.status == Status.ACTIVE and not view.is_human_turn() and pace > 0:
            # Let the players read the last move; a member may take a seat meanwhile.
            lock = self.locks[game_id]
            posts = self.posts[game_id]
            lock.release()
            try:
                await asyncio.sleep(pace)
            finally:
                await lock.acquire()
            if self.posts[game_id] != posts:
                return  # the member who took the seat was shown the turn already
            view = await self.service.get(game_id)
        view, events = await self.settle(game_id, events, view)
        await self.show(view, events, clicked)

    async def show(self, view: GameSnapshot, events: list[Event], clicked: discord.Message | None) -> None:
        """Show the game after `events` in as few writes as possible: the message the member clicked
        is updated in place when it is still the newest post of the game (their graces, and the
        computers' turns up to their next choice, in one edit); otherwise it is closed with its
        outcome and a new turn message is posted (two writes), which pings whoever must choose."""
        channel = self.channel(view)
        if channel is None:
            return
        message = clicked
        if clicked is None:
            message = await self.stored_message(view, channel)
        elif view.message_id is not None and clicked.id != view.message_id:
            # A restart left two copies of this turn's message and the member used the other one:
            # it becomes the turn's message, and the stored one is retired.
            stored = await self.stored_message(view, channel)
            if stored is not None:
                await self.close_message(stored, [])
        acting = view.seat_to_move() if view.status == Status.ACTIVE and view.is_human_turn() else None
        if clicked is not None and message is clicked and acting is not None:
            own_turn = all(e.seat == acting for e in events)
            newest = self.last_post.get(view.channel_id) == clicked.id
            if own_turn or (newest and view.user_to_move() == self.clicker.get(clicked.id)):
                await self.edit_turn(view, events, clicked)
                return
        own = leading_seat_events(events)
        if message is not None:
            await self.close_message(message, own, view)
        await self.post_turn(view, events[len(own) :] if message is not None else events)

    async def stored_message(self, view: GameSnapshot, channel: GameChannel) -> discord.Message | None:
        if view.message_id is None:
            return None
        try:
            return await channel.fetch_message(view.message_id)
        except (discord.NotFound, discord.Forbidden):
            return None

    async def edit_turn(self, view: GameSnapshot, events: list[Event], message: discord.Message) -> None:
        """The member throws again (a grace, a capture) or has thrown: the same message, updated."""
        content = messages.turn_content(view, events, earlier=messages.log_lines(message.content))
        png = await self.board_png(view, events)
        try:
            await message.edit(
                content=content,
                attachments=[discord.File(io.BytesIO(png), "board.png")],
                view=self.turn_buttons(view),
                allowed_mentions=NO_MENTIONS,
            )
        except discord.NotFound:
            await self.post_turn(view, events)
            return
        except discord.Forbidden as exc:
            raise self.cannot_post(view) from exc
        if message.id != view.message_id:
            await self.service.set_message(view.id, message.id)
        self.schedule_timer(view)

    def cannot_post(self, view: GameSnapshot) -> GameError:
        log.warning("game=%s channel=%s missing permissions to post", view.id, view.channel_id)
        return GameError(
            "I can't post the board here: give me Send Messages (in threads too) and Attach Files. "
            "The game is saved: `/pachisi throw` and `/pachisi move` still work."
        )

    async def close_message(
        self, message: discord.Message, events: list[Event], view: GameSnapshot | None = None
    ) -> None:
        """A turn message done with: its outcome added, its buttons gone, in one edit."""
        earlier = messages.log_lines(message.content)
        lines = messages.log(events, view, earlier) if events and view is not None else earlier
        content = "\n".join(lines) or "This turn is over."
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await message.edit(content=content, view=disabled_copy(message), allowed_mentions=NO_MENTIONS)

    async def post_turn(self, view: GameSnapshot, events: list[Event]) -> None:
        """A new message for the turn (or the end of the game), and its timer."""
        channel = self.channel(view)
        if channel is None:
            return
        tallies = await self.service.tallies(view.id) if view.status == Status.FINISHED else {}
        content = messages.turn_content(view, events, tallies)
        png = await self.board_png(view, events)
        files = [discord.File(io.BytesIO(png), "board.png")]
        if view.status == Status.FINISHED:
            files += [file for make in self.result_files if (file := await make(view)) is not None]
        shown = events[-messages.LOG_LINES :]  # a capture is pinged only where it is told
        pinged = [*messages.pinged(view), *messages.captured_members(shown, view)]
        try:
            message = await channel.send(
                content,
                files=files,
                view=self.turn_buttons(view) or discord.utils.MISSING,
                allowed_mentions=mentioning(pinged),
            )
        except discord.NotFound:
            await self.abandon(view.id)
            return
        except discord.Forbidden as exc:
            raise self.cannot_post(view) from exc
        self.posts[view.id] += 1
        self.last_post[view.channel_id] = message.id
        self.clicker[message.id] = view.user_to_move() if view.status == Status.ACTIVE else None
        await self.service.set_message(view.id, message.id if view.status == Status.ACTIVE else None)
        if view.status != Status.ACTIVE or any(e.handed_back for e in events):
            await self.update_card(view)
        self.schedule_timer(view)

    # --- seats ----------------------------------------------------------------------------

    async def take_seat(
        self, interaction: discord.Interaction[Any], view: GameSnapshot, seat: int | None
    ) -> None:
        async with self.locks[view.id]:
            joined = await self.service.join(view.id, interaction.user.id, seat)
            self.remember(interaction.user)
            taken = joined.seat_of(interaction.user.id)
            assert taken is not None
            text = messages.seat_taken(interaction.user.mention, joined, taken)
            await self.announce(interaction, joined, text)
            await self.update_card(joined)
            if joined.is_human_turn() and joined.user_to_move() == interaction.user.id:
                await self.advance(joined.id, [], joined)

    async def give_up(
        self, interaction: discord.Interaction[Any], view: GameSnapshot, *, resign: bool
    ) -> None:
        await self.acknowledge(interaction, public=interaction.channel_id == view.channel_id)
        async with self.locks[view.id]:
            seat = view.seat_of(interaction.user.id)
            after = await (self.service.resign if resign else self.service.leave)(
                view.id, interaction.user.id
            )
            if after.status == Status.FINISHED:
                text = f"{interaction.user.mention} resigns: {messages.result_head(after)}"
            else:
                text = messages.seat_given_up(interaction.user.mention, seat, resign=resign)
            await self.announce(interaction, after, text)
            if after.status != Status.ACTIVE:
                self.cancel_timer(after.id)
                await self.advance(after.id, [], after)
            else:
                await self.update_card(after)
                if not after.is_human_turn():
                    await self.advance(after.id, [], after)

    async def announce(self, interaction: discord.Interaction[Any], view: GameSnapshot, text: str) -> None:
        """News for the table: in the game's channel, and as the answer when the member is there."""
        if interaction.channel_id == view.channel_id:
            await tell(interaction, text, ephemeral=False)
            return
        channel = self.channel(view)
        if channel is not None:
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        await tell(interaction, f"{text} The game plays in <#{view.channel_id}>.")

    async def confirm_end(self, interaction: discord.Interaction[Any], view: GameSnapshot) -> None:
        """Ask before ending a game for everyone, once the member may end it at all."""
        if not self.may_end(interaction, view):
            raise NotAllowed(
                "Only the member who started this game, or one with Manage Channels, can end it: "
                "use `/pachisi leave` to give up your seat."
            )

        async def end(answer: discord.Interaction[Any]) -> None:
            await self.end_game(answer, view.id)

        confirm = Confirm(end, yes="End the game", no="Keep playing", kept="The game goes on.")
        await interaction.response.send_message(
            "End this game for everyone? It can't be resumed.", view=confirm, ephemeral=True
        )

    def may_end(self, interaction: discord.Interaction[Any], view: GameSnapshot) -> bool:
        member = interaction.user
        can_manage = isinstance(member, discord.Member) and member.guild_permissions.manage_channels
        return can_manage or member.id == view.started_by

    async def end_game(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        member = interaction.user
        can_manage = isinstance(member, discord.Member) and member.guild_permissions.manage_channels
        async with self.locks[game_id]:
            view = await self.service.end(game_id, member.id, can_manage=can_manage)
            self.cancel_timer(game_id)
            channel = self.channel(view)
            message = await self.stored_message(view, channel) if channel is not None else None
            if message is not None:
                await self.close_message(message, [])
            await self.update_card(view)
        if channel is not None:
            await channel.send(
                f"{member.mention} ended the game after {view.turn_number} throws.",
                allowed_mentions=NO_MENTIONS,
            )

    async def abandon(self, game_id: int) -> None:
        self.cancel_timer(game_id)
        await self.service.mark_abandoned(game_id)

    # --- timers ---------------------------------------------------------------------------

    def schedule_timer(self, view: GameSnapshot) -> None:
        self.cancel_timer(view.id)
        if view.status != Status.ACTIVE or view.deadline is None:
            return
        self.timers[view.id] = asyncio.create_task(self.run_timer(view.id, view.turn_number, view.deadline))

    def cancel_timer(self, game_id: int) -> None:
        task = self.timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def run_timer(self, game_id: int, turn: int, deadline: datetime) -> None:
        """Remind the member once at half their time; at the deadline the computer plays for them."""
        try:
            half = (deadline - datetime.now(UTC)).total_seconds() - self.bot.settings.turn_timeout_seconds / 2
            if half > 0:
                await asyncio.sleep(half)
                await self.remind(game_id, turn)
            await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()))
            async with self.locks[game_id]:
                self.timers.pop(game_id, None)
                view, events = await self.service.timeout(game_id, turn)
                await self.advance(game_id, events, view)
        except GameError:
            pass  # the turn was played, or the game ended, before the deadline fired
        except StoreUnavailable:
            log.warning("game=%s turn timer: database unavailable, trying again", game_id)
            retry = datetime.now(UTC) + timedelta(seconds=TIMER_RETRY_SECONDS)
            self.timers[game_id] = asyncio.create_task(self.run_timer(game_id, turn, retry))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game=%s turn timer failed", game_id)

    async def remind(self, game_id: int, turn: int) -> None:
        view = await self.service.get(game_id)
        channel = self.channel(view)
        if view.turn_number != turn or not view.is_human_turn() or channel is None:
            return
        user = view.user_to_move()
        await channel.send(messages.reminder(view), allowed_mentions=mentioning([user] if user else []))

    # --- start-up -------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Resume the games of guilds this process has not resumed yet (READY comes again after a
        reconnect, with guilds it may not have had the first time)."""
        guilds = [g.id for g in self.bot.guilds if g.id not in self.resumed_guilds]
        self.resumed_guilds.update(guilds)
        if guilds:
            await self.resume(guilds)

    async def resume(self, guild_ids: Iterable[int]) -> None:
        """After a (re)start: finish computer turns left half-played, post a result or a turn that a
        crash kept from the channel, rearm timers, say nothing else."""
        views = await self.service.active_games(guild_ids, unannounced=True)
        for view in views:
            try:
                async with self.locks[view.id]:
                    current = await self.service.get(view.id)
                    if current.status == Status.FINISHED and current.message_id is not None:
                        await self.show(current, [], None)  # the last move is stored, its result not shown
                    if current.status != Status.ACTIVE:
                        continue
                    if current.is_human_turn() and await self.turn_is_shown(current):
                        self.schedule_timer(current)
                        continue
                    await self.retire_orphans(current)
                    if not current.is_human_turn() or current.message_id is None:
                        await self.advance(current.id, [])
                    else:
                        await self.show(current, [], None)
            except Exception:
                log.exception("game=%s could not be resumed", view.id)
        log.info("resumed games=%d", len(views))

    async def retire_orphans(self, view: GameSnapshot) -> None:
        """Disable the buttons of this game's messages that the store does not know: a process
        killed after Discord took a turn's post and before its id was stored left one, live."""
        channel = self.channel(view)
        if channel is None:
            return
        try:
            async for message in channel.history(limit=ORPHAN_SEARCH):
                if message.id == view.message_id or message.author.id != self.bot.user.id:  # type: ignore[union-attr]
                    continue
                live = [
                    child
                    for row in message.components
                    if isinstance(row, discord.ActionRow)
                    for child in row.children
                    if isinstance(child, discord.Button) and not child.disabled and child.custom_id
                ]
                if any(game_of(child.custom_id or "") == view.id for child in live):
                    buttons = disabled_copy(message)
                    if buttons is not None:
                        await message.edit(view=buttons)
                    log.info("game=%s retired orphan message=%s", view.id, message.id)
        except (discord.NotFound, discord.Forbidden):
            pass  # no history to read: the orphan stays, and a click on it is refused as stale

    async def turn_is_shown(self, view: GameSnapshot) -> bool:
        """Whether the stored turn message offers this turn's buttons: a process killed between
        committing a throw or move and editing the message leaves buttons nobody can use."""
        channel = self.channel(view)
        if channel is None or view.message_id is None:
            return False
        try:
            message = await channel.fetch_message(view.message_id)
        except (discord.NotFound, discord.Forbidden):
            return False
        wanted = self.turn_buttons(view)
        playing = (f"pachisi:{THROW}:", f"pachisi:{MOVE}:")
        expected = {
            item.custom_id
            for item in (wanted.children if wanted else [])
            if isinstance(item, GameButton) and item.custom_id.startswith(playing)
        }
        shown = {
            child.custom_id
            for row in message.components
            if isinstance(row, discord.ActionRow)
            for child in row.children
            if isinstance(child, discord.Button)
            and not child.disabled
            and (child.custom_id or "").startswith(playing)
        }
        return expected == shown

    # --- helpers --------------------------------------------------------------------------

    async def acknowledge(self, interaction: discord.Interaction[Any], *, public: bool | None = None) -> None:
        """Answer within Discord's 3 seconds before any database or rendering work. A click is
        answered by editing its message unless `public` says the answer is a message of its own
        (True: for everyone, False: only for the member)."""
        if interaction.response.is_done():
            return
        if public is not None:
            await interaction.response.defer(ephemeral=not public, thinking=True)
        elif interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

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

    def remember(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    def turn_buttons(self, view: GameSnapshot) -> discord.ui.View | None:
        if view.status != Status.ACTIVE:
            return None
        buttons = discord.ui.View(timeout=None)
        if view.pending_throw is not None:
            for i, move in enumerate(view.legal_moves()):
                buttons.add_item(
                    GameButton(
                        MOVE,
                        view.id,
                        view.turn_number,
                        move,
                        label=messages.choice_text(i, view, move),
                        style=discord.ButtonStyle.primary,
                    )
                )
        elif view.is_human_turn():
            buttons.add_item(
                GameButton(THROW, view.id, view.turn_number, label="Throw", style=discord.ButtonStyle.success)
            )
        for make in self.turn_extras:
            extra = make(view)
            if extra is not None:
                buttons.add_item(extra)
        if any(info.user_id is None for info in view.seats.values()):
            buttons.add_item(GameButton(JOIN, view.id, view.turn_number, label="Take a seat", row=4))
        return buttons

    async def board_png(self, view: GameSnapshot, events: list[Event] | None = None) -> bytes:
        """The board, with the moves of `events` (the story since the member's previous turn)
        numbered on it; without events, the last move."""
        names = {seat: messages.seat_name(view, seat, self.names) for seat in view.rules.seats}
        story = [render.DrawnMove(e.move, e.before) for e in events or [] if e.move is not None]
        draw = functools.partial(
            render.board_png,
            view.position,
            names=names,
            moves=story or None,
            last_move=view.last_move,
            last_position=view.last_position,
            throw=view.pending_throw,
            cowries=view.pending_cowries,
            choices=view.legal_moves() or None,
            termination=view.outcome,
        )
        return await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, draw)

    # --- Discord events -------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        view = await self.service.get_active(channel.id)
        if view is not None:
            await self.abandon(view.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        view = await self.service.get_active(thread.id)
        if view is not None:
            await self.abandon(view.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for view in await self.service.active_games([guild.id]):
            await self.abandon(view.id)


def leading_seat_events(events: list[Event]) -> list[Event]:
    """The leading events of one seat: the outcome of the turn message that was clicked."""
    if not events:
        return []
    first = events[0].seat
    own: list[Event] = []
    for event in events:
        if event.seat != first:
            break
        own.append(event)
    return own
