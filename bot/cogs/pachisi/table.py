"""The table flow: locks, posting turns, timers and resuming after a restart.

Rules live in the engine and game state in the service; this cog decides what to post and when.
Every change to a game runs under that game's lock (one process) and the store's version check
(several processes), so double clicks and simultaneous commands apply once. Commands live in
`commands.py`, texts in `messages.py`, buttons in `views.py`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

import bot.cogs.pachisi.messages as messages
import render
from bot.cogs.answers import tell
from bot.cogs.pachisi.views import (
    JOIN,
    MOVE,
    THROW,
    ButtonHandler,
    Confirm,
    GameButton,
    disabled_copy,
    game_of,
)
from bot.service import AlreadyThrown, Event, GameError, GameView
from bot.store import StoreUnavailable
from engine import Move, parse_move
from engine.notation import NotationError

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

TIMER_RETRY_SECONDS = 5.0
"""A turn timer that found the database down tries again after this long."""
ORPHAN_SEARCH = 25
"""Messages read back, on resume, for turn messages a killed process posted but never stored."""


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
        self.resumed_guilds: set[int] = set()
        self.buttons: dict[str, ButtonHandler] = {}
        self.turn_extras: list[Callable[[GameView], GameButton | None]] = []
        """Buttons other modules add to a turn's message (`add_turn_button`)."""
        self.result_files: list[Callable[[GameView], Awaitable[discord.File | None]]] = []
        """Pictures other modules add to a finished game's message (`add_result_file`)."""
        self.add_button(THROW, self.on_throw_button)
        self.add_button(MOVE, self.on_move_button)
        self.add_button(JOIN, self.on_join_button)

    async def cog_unload(self) -> None:
        for task in self.timers.values():
            task.cancel()

    # --- buttons --------------------------------------------------------------------------

    def add_button(self, action: str, handler: ButtonHandler) -> None:
        """Route clicks on `GameButton(action, ...)` to `handler` (other cogs add theirs)."""
        self.buttons[action] = handler

    def add_turn_button(self, make: Callable[[GameView], GameButton | None]) -> None:
        """Show `make(view)` on every turn message, where it returns a button (the Hint)."""
        self.turn_extras.append(make)

    def add_result_file(self, make: Callable[[GameView], Awaitable[discord.File | None]]) -> None:
        """Attach `await make(view)` to the message that announces a game's result (the story chart)."""
        self.result_files.append(make)

    async def on_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        handler = self.buttons.get(button.action)
        if handler is None:
            raise GameError("That button is no longer in use.")
        await handler(interaction, button)

    async def on_throw_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.play_throw(interaction, button.game_id, button.turn)

    async def on_move_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        try:
            move = parse_move(button.arg or "")
        except NotationError:
            move = None
        if move is None:  # unreadable, or `pass`, which no button offers
            raise GameError("That button is no longer in use.")
        await self.play_move(interaction, button.game_id, button.turn, move)

    async def on_join_button(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        await self.take_seat(interaction, await self.service.get(button.game_id), None)

    # --- the turn flow --------------------------------------------------------------------

    async def play_throw(self, interaction: discord.Interaction[Any], game_id: int, turn: int) -> None:
        await self.acknowledge(interaction)
        async with self.locks[game_id]:
            try:
                view, events = await self.service.throw(game_id, interaction.user.id, turn)
            except AlreadyThrown:
                # This turn's throw is stored but the message clicked still offers "Throw" (a
                # restart between the two): show the stored throw's choices there.
                view, events = await self.service.get(game_id), []
            self.remember(interaction.user)
            if view.pending_throw is not None:
                await self.show_choices(view, interaction.message)
                if interaction.type is discord.InteractionType.application_command:
                    await interaction.followup.send(
                        f"You threw **{view.pending_throw}**: choose a move with the buttons "
                        "or `/pachisi move`.",
                        ephemeral=True,
                    )
            else:
                view = await self.finish_turn(view)
                await self.advance(game_id, events, view)
                await self.confirm_command(interaction, events)

    async def play_move(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, move: Move
    ) -> None:
        await self.acknowledge(interaction)
        async with self.locks[game_id]:
            view, events = await self.service.move(game_id, interaction.user.id, turn, move)
            self.remember(interaction.user)
            view = await self.finish_turn(view, previous=interaction.message)
            await self.advance(game_id, events, view)
            await self.confirm_command(interaction, events)

    async def advance(self, game_id: int, events: list[Event], view: GameView | None = None) -> None:
        """Play the computers' throws up to the next human turn, then post that turn (call locked).

        `view`: the game as just stored by this caller (saves reading it again on a busy database)."""
        if view is None:
            view = await self.service.get(game_id)
        pace = self.bot.settings.computer_pace_seconds
        if view.status == "active" and not view.is_human_turn() and pace > 0:
            # Let the channel read the last move; a member may take a seat meanwhile.
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
        if view.status == "active" and not view.is_human_turn():
            view, more = await self.service.play_computers(game_id)
            events = [*events, *more]
        await self.post_turn(view, events)

    async def post_turn(self, view: GameView, events: list[Event]) -> None:
        """A new message for the turn (or the end of the game), and its timer."""
        channel = self.channel(view)
        if channel is None:
            return
        await self.finish_turn(view)
        tallies = await self.service.tallies(view.id) if view.status == "finished" else {}
        content = messages.turn_content(view, events, tallies)
        png = await self.board_png(view)
        files = [discord.File(io.BytesIO(png), "board.png")]
        if view.status == "finished":
            files += [file for make in self.result_files if (file := await make(view)) is not None]
        mentions = self.mentions(view)
        try:
            message = await channel.send(
                content,
                files=files,
                view=self.turn_buttons(view) or discord.utils.MISSING,
                allowed_mentions=mentions,
            )
        except discord.NotFound:
            await self.abandon(view.id)
            return
        except discord.Forbidden as exc:
            log.warning("game=%s channel=%s missing permissions to post", view.id, view.channel_id)
            raise GameError(
                "I can't post the board in this channel: I need Send Messages, Attach Files and "
                "Embed Links here. The game is saved: `/pachisi throw` and `/pachisi move` still work."
            ) from exc
        self.posts[view.id] += 1
        await self.service.set_message(view.id, message.id if view.status == "active" else None)
        self.schedule_timer(view)

    async def show_choices(self, view: GameView, previous: discord.Message | None = None) -> None:
        """Edit the turn message: the throw, the lettered choices on the board, a button each; the
        throws listed above the turn (the computers' since the last human move) stay listed."""
        channel = self.channel(view)
        if channel is None or view.message_id is None:
            await self.post_turn(view, [])
            return
        png = await self.board_png(view)
        try:
            if previous is None:
                previous = await channel.fetch_message(view.message_id)
            elif previous.id != view.message_id:
                # A restart left two copies of this turn's message and the member used the other
                # one: it becomes the turn's message, and the stored one is retired.
                await self.finish_turn(view)
                await self.service.set_message(view.id, previous.id)
            await previous.edit(
                content="\n".join([*messages.log_lines(previous.content), messages.turn_content(view, [])]),
                attachments=[discord.File(io.BytesIO(png), "board.png")],
                view=self.turn_buttons(view),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.NotFound:
            await self.post_turn(view, [])

    async def finish_turn(self, view: GameView, previous: discord.Message | None = None) -> GameView:
        """Disable the buttons of the turn's message, and of `previous` (the message clicked) when a
        restart left a second copy of it; returns `view` without that message."""
        channel = self.channel(view)
        if channel is None:
            return view
        messages: list[discord.Message | int] = [previous] if previous is not None else []
        if view.message_id is not None and (previous is None or previous.id != view.message_id):
            messages.append(view.message_id)
        for message in messages:
            try:
                if isinstance(message, int):
                    message = await channel.fetch_message(message)
                buttons = disabled_copy(message)
                if buttons is not None:
                    await message.edit(view=buttons)
            except (discord.NotFound, discord.Forbidden):
                pass
        # The store keeps the old id until the next turn's message replaces it (one write, not two);
        # a restart in between finds stale buttons on it and posts the turn again.
        return dataclasses.replace(view, message_id=None)

    # --- seats ----------------------------------------------------------------------------

    async def take_seat(
        self, interaction: discord.Interaction[Any], view: GameView, seat: int | None
    ) -> None:
        async with self.locks[view.id]:
            joined = await self.service.join(view.id, interaction.user.id, seat)
            self.remember(interaction.user)
            taken = joined.seat_of(interaction.user.id)
            assert taken is not None
            await tell(
                interaction, messages.seat_taken(interaction.user.mention, joined, taken), ephemeral=False
            )
            if joined.is_human_turn() and joined.user_to_move() == interaction.user.id:
                await self.post_turn(joined, [])

    async def give_up(self, interaction: discord.Interaction[Any], view: GameView, *, resign: bool) -> None:
        async with self.locks[view.id]:
            seat = view.seat_of(interaction.user.id)
            after = await (self.service.resign if resign else self.service.leave)(
                view.id, interaction.user.id
            )
            text = messages.seat_given_up(interaction.user.mention, seat, resign=resign)
            await tell(interaction, text, ephemeral=False)
            if after.status == "active" and not after.is_human_turn():
                await self.finish_turn(after)
                await self.advance(after.id, [])

    async def end_game(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        member = interaction.user
        can_manage = isinstance(member, discord.Member) and member.guild_permissions.manage_channels
        async with self.locks[game_id]:
            view = await self.service.end(game_id, member.id, can_manage=can_manage)
            self.cancel_timer(game_id)
            await self.finish_turn(view)
        channel = self.channel(view)
        if channel is not None:
            await channel.send(
                f"{member.mention} ended the game after {view.turn_number} throws.",
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def abandon(self, game_id: int) -> None:
        self.cancel_timer(game_id)
        await self.service.mark_abandoned(game_id)

    # --- timers ---------------------------------------------------------------------------

    def schedule_timer(self, view: GameView) -> None:
        self.cancel_timer(view.id)
        if view.status != "active" or view.deadline is None:
            return
        self.timers[view.id] = asyncio.create_task(self.run_timer(view.id, view.turn_number, view.deadline))

    def cancel_timer(self, game_id: int) -> None:
        task = self.timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def run_timer(self, game_id: int, turn: int, deadline: datetime) -> None:
        delay = (deadline - datetime.now(UTC)).total_seconds()
        await asyncio.sleep(max(0.0, delay))
        try:
            async with self.locks[game_id]:
                self.timers.pop(game_id, None)
                view, events = await self.service.timeout(game_id, turn)
                await self.finish_turn(view)
                await self.advance(game_id, events)
        except GameError:
            pass  # the turn was played, or the game ended, before the deadline fired
        except StoreUnavailable:
            log.warning("game=%s turn timer: database unavailable, trying again", game_id)
            retry = datetime.now(UTC) + timedelta(seconds=TIMER_RETRY_SECONDS)
            self.timers[game_id] = asyncio.create_task(self.run_timer(game_id, turn, retry))
        except Exception:
            log.exception("game=%s turn timer failed", game_id)

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
                    if current.status == "finished" and current.message_id is not None:
                        await self.post_turn(current, [])  # the last move is stored, its result not shown
                    if current.status != "active":
                        continue
                    if current.is_human_turn() and await self.turn_is_shown(current):
                        self.schedule_timer(current)
                        continue
                    await self.retire_orphans(current)
                    if not current.is_human_turn() or current.message_id is None:
                        await self.advance(current.id, [])
                    else:
                        await self.post_turn(current, [])
            except Exception:
                log.exception("game=%s could not be resumed", view.id)
        log.info("resumed games=%d", len(views))

    async def retire_orphans(self, view: GameView) -> None:
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

    async def turn_is_shown(self, view: GameView) -> bool:
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

    async def confirm_end(self, interaction: discord.Interaction[Any], view: GameView) -> None:
        """Ask before ending a game for everyone."""

        async def end(answer: discord.Interaction[Any]) -> None:
            await self.end_game(answer, view.id)

        confirm = Confirm(end, yes="End the game", no="Keep playing", kept="The game goes on.")
        await interaction.response.send_message(
            "End this game for everyone? It can't be resumed.", view=confirm, ephemeral=True
        )

    # --- helpers --------------------------------------------------------------------------

    async def acknowledge(self, interaction: discord.Interaction[Any]) -> None:
        """Answer within Discord's 3 seconds before any database or rendering work."""
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def confirm_command(self, interaction: discord.Interaction[Any], events: list[Event]) -> None:
        if interaction.type is discord.InteractionType.application_command:
            played = events[0].text if events else "Done."
            await interaction.followup.send(played, ephemeral=True)

    def channel(self, view: GameView) -> discord.TextChannel | discord.Thread | None:
        channel = self.bot.get_channel(view.channel_id)
        return channel if isinstance(channel, discord.TextChannel | discord.Thread) else None

    def remember(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    def mentions(self, view: GameView) -> discord.AllowedMentions:
        """Only the game's own players are ever pinged: the one to move, or everyone at the end."""
        users = [discord.Object(u) for u in messages.pinged(view)]
        return discord.AllowedMentions(users=users, roles=False, everyone=False)

    def turn_buttons(self, view: GameView) -> discord.ui.View | None:
        if view.status != "active":
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

    async def board_png(self, view: GameView) -> bytes:
        names = {seat: messages.seat_name(view, seat, self.names) for seat in view.rules.seats}
        draw = functools.partial(
            render.board_png,
            view.position,
            names=names,
            last_move=view.last_move,
            last_position=view.last_position,
            throw=view.pending_throw,
            cowries=view.pending_cowries,
            choices=view.legal_moves() or None,
        )
        return await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, draw)

    # --- Discord events -------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        view = await self.service.get_active(channel.id)
        if view is not None:
            await self.abandon(view.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for view in await self.service.active_games([guild.id]):
            await self.abandon(view.id)
