"""The /pachisi commands and the turn flow: Discord in, service call, board out.

Rules live in the engine and game state in the service; this cog only decides what to post.
Every change to a game runs under that game's lock (one process) and the store's version check
(several processes), so double clicks and simultaneous commands apply once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import itertools
import logging
from collections import Counter, defaultdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import render
from bot import texts
from bot.service import AlreadyThrown, Event, GameError, GameView, NoGame, SeatTally
from bot.views import JOIN, MOVE, THROW, GameButton, disabled_copy
from engine import DRAW, MAX_THROWS, SEAT_NAMES, Move, NotationError, Rules, parse_move
from engine.notation import describe_move, describe_side
from engine.players import LEVELS

if TYPE_CHECKING:
    from bot.client import PachisiBot

log = logging.getLogger(__name__)

SEAT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=name.capitalize(), value=name) for name in SEAT_NAMES
]
LEVEL_CHOICES: list[app_commands.Choice[str]] = [app_commands.Choice(name=lv, value=lv) for lv in LEVELS]
ON_OFF: list[app_commands.Choice[int]] = [
    app_commands.Choice(name="on", value=1),
    app_commands.Choice(name="off", value=0),
]
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "embed_links")
LOG_LINES = 12
"""At most this many throws are listed in one update; older ones are summarised."""


def seat_index(name: str | None) -> int | None:
    return None if name is None else SEAT_NAMES.index(name)


def log_lines(content: str) -> list[str]:
    """The throw log at the top of a turn message (`turn_content` writes it first)."""
    return list(itertools.takewhile(lambda line: line.startswith(("`", "... ")), content.splitlines()))


def choice_text(index: int, view: GameView, move: Move) -> str:
    """`A: Black: piece on 21 to 25, castle`: the label shared by buttons, autocomplete and board."""
    assert view.pending_throw is not None
    return f"{render.choice_label(index)}: {describe_move(view.position, view.pending_throw, move)}"


class PachisiCog(commands.Cog, name="Pachisi"):
    pachisi = app_commands.Group(
        name="pachisi", description="Play Pachisi, the ancestor of Ludo", guild_only=True
    )

    def __init__(self, bot: PachisiBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.posts: Counter[int] = Counter()
        """Turn messages posted per game by this process (tells a paused advance it was overtaken)."""
        self.names: dict[int, str] = {}

    async def cog_unload(self) -> None:
        for task in self.timers.values():
            task.cancel()

    # --- commands -------------------------------------------------------------------------

    @pachisi.command(name="start", description="Start a game in this channel; computers fill the empty seats")
    @app_commands.describe(
        players="2 or 4 players (4: partners Black + Yellow against Red + Green)",
        variant="classic (default) or standard",
        level="how well the computer players play",
        seat="the seat you take (default Black)",
        pieces="pieces per seat, 1-4",
        start_on_board="pieces per seat that start on the board",
        must_capture="no piece comes home before its side has captured",
        escape_hatch="come home without a capture when nothing else can move",
        last_square="a piece on the last square comes home on any throw",
        enter_moves="an entering piece moves the throw from step 1",
    )
    @app_commands.choices(  # type: ignore[misc]  # str and int choices mixed
        players=[app_commands.Choice(name="4", value=4), app_commands.Choice(name="2", value=2)],
        variant=[
            app_commands.Choice(name="classic", value="classic"),
            app_commands.Choice(name="standard", value="standard"),
        ],
        level=LEVEL_CHOICES,
        seat=SEAT_CHOICES,
        must_capture=ON_OFF,
        escape_hatch=ON_OFF,
        last_square=ON_OFF,
        enter_moves=ON_OFF,
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: int = 4,
        variant: str = "classic",
        level: str | None = None,
        seat: str | None = None,
        pieces: app_commands.Range[int, 1, 4] | None = None,
        start_on_board: app_commands.Range[int, 0, 4] | None = None,
        must_capture: int | None = None,
        escape_hatch: int | None = None,
        last_square: int | None = None,
        enter_moves: int | None = None,
    ) -> None:
        missing = self.missing_permissions(interaction)
        if missing:
            await self.tell(
                interaction, f"I can't run a game here: I need {', '.join(missing)} in this channel."
            )
            return
        options: dict[str, Any] = {"players": players}
        for name, value in (
            ("pieces", pieces),
            ("start_on_board", start_on_board),
            ("must_capture", must_capture),
            ("escape_hatch", escape_hatch),
            ("last_square", last_square),
            ("enter_moves", enter_moves),
        ):
            if value is not None:
                options[name] = value if name in ("pieces", "start_on_board") else bool(value)
        try:
            rules = Rules.preset_rules(variant, **options)
        except ValueError as exc:
            await self.tell(interaction, f"Those options don't fit together: {exc}.")
            return
        chosen_seat = seat_index(seat)
        if chosen_seat is not None and chosen_seat not in rules.seats:
            await self.tell(interaction, "In a two-player game the seats are Black and Yellow.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.remember(interaction.user)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        view = await self.service.start(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            rules,
            level or self.bot.settings.default_level,
            chosen_seat,
        )
        seat_name = SEAT_NAMES[view.seat_of(interaction.user.id) or 0].capitalize()
        channel = self.channel(view)
        if channel is not None:
            await channel.send(
                f"{interaction.user.mention} starts a game of Pachisi ({rules.token()}, "
                f"{rules.players} players). Computers fill the other seats: anyone can take one "
                "with **Take a seat** or `/pachisi join`.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await interaction.followup.send(f"Your game has started: you play {seat_name}.", ephemeral=True)
        async with self.locks[view.id]:
            await self.advance(view.id, [])

    @pachisi.command(name="join", description="Take a computer's seat in this channel's game")
    @app_commands.describe(seat="the seat to take (default: the first computer seat)")
    @app_commands.choices(seat=SEAT_CHOICES)
    async def join(self, interaction: discord.Interaction[Any], seat: str | None = None) -> None:
        await self.take_seat(interaction, await self.channel_game(interaction), seat_index(seat))

    @pachisi.command(name="leave", description="Give your seat back to the computer")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.give_up(interaction, resign=False)

    @pachisi.command(name="resign", description="Give your seat to the computer for the rest of this game")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self.give_up(interaction, resign=True)

    @pachisi.command(name="throw", description="Throw the cowries for your turn")
    async def throw(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.channel_game(interaction)
        await self.play_throw(interaction, view.id, view.turn_number)

    @pachisi.command(name="move", description="Play one of the legal moves of your throw")
    @app_commands.describe(choice="the move: its letter on the board, or pick from the list")
    async def move(self, interaction: discord.Interaction[Any], choice: str) -> None:
        view = await self.channel_game(interaction)
        move = self.read_choice(view, choice)
        await self.play_move(interaction, view.id, view.turn_number, move)

    @move.autocomplete("choice")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        assert interaction.channel_id is not None
        view = await self.service.get_active(interaction.channel_id)
        if view is None or view.pending_throw is None:
            return []
        wanted = current.strip().lower()
        choices = [
            app_commands.Choice(name=choice_text(i, view, m)[:100], value=str(m))
            for i, m in enumerate(view.legal_moves())
        ]
        return [c for c in choices if wanted in c.name.lower() or wanted in c.value][:25]

    @pachisi.command(name="board", description="Show the current board (only to you)")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.channel_game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.board_png(view)
        await interaction.followup.send(
            self.status_line(view), file=discord.File(io.BytesIO(png), "board.png"), ephemeral=True
        )

    @pachisi.command(name="rules", description="The rules of Pachisi, by section")
    @app_commands.describe(section="which part of the rules")
    @app_commands.choices(
        section=[app_commands.Choice(name=title, value=key) for key, (title, _) in texts.RULES.items()]
    )
    async def rules(self, interaction: discord.Interaction[Any], section: str | None = None) -> None:
        keys = [section] if section else list(texts.RULES)
        embed = discord.Embed(title="Pachisi rules", colour=discord.Colour.dark_gold())
        for key in keys:
            title, text = texts.RULES[key]
            embed.add_field(name=title, value=text, inline=False)
        embed.set_footer(text=texts.SOURCES)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @pachisi.command(name="help", description="How to play Pachisi here")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(texts.HELP, ephemeral=True)

    @pachisi.command(name="stats", description="A member's Pachisi record in this server")
    @app_commands.describe(member="whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = member or interaction.user
        assert interaction.guild_id is not None
        record = await self.service.stats(interaction.guild_id, who.id)
        await interaction.response.send_message(
            f"**{who.display_name}**: {record.games} games, {record.wins} wins, "
            f"{record.captures} captures, {record.pieces_home} pieces home.",
            ephemeral=True,
        )

    @pachisi.command(name="leaderboard", description="The best Pachisi players in this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await self.service.leaderboard(interaction.guild_id, limit=10)
        if not rows:
            await interaction.response.send_message("No finished games in this server yet.", ephemeral=True)
            return
        lines = [
            f"{rank}. <@{row.user_id}>: {row.wins} wins in {row.games} games, {row.captures} captures"
            for rank, row in enumerate(rows, start=1)
        ]
        await interaction.response.send_message(
            "**Leaderboard**\n" + "\n".join(lines),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @pachisi.command(name="end", description="End this channel's game (the starter or Manage Channels)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.channel_game(interaction)
        confirm = ConfirmEnd(self, view.id, interaction.user.id)
        await interaction.response.send_message(
            "End this game for everyone? It can't be resumed.", view=confirm, ephemeral=True
        )

    # --- buttons --------------------------------------------------------------------------

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, game_id: int, turn: int, move: Move | None
    ) -> None:
        try:
            if action == THROW:
                await self.play_throw(interaction, game_id, turn)
            elif action == MOVE and move is not None:
                await self.play_move(interaction, game_id, turn, move)
            elif action == JOIN:
                await self.take_seat(interaction, await self.service.get(game_id), None)
        except GameError as exc:
            await self.tell(interaction, str(exc))

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
        content = self.turn_content(view, events, tallies)
        png = await self.board_png(view)
        mentions = self.mentions(view)
        try:
            message = await channel.send(
                content,
                file=discord.File(io.BytesIO(png), "board.png"),
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
                content="\n".join([*log_lines(previous.content), self.turn_content(view, [])]),
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
            await self.tell(
                interaction,
                f"{interaction.user.mention} takes **{SEAT_NAMES[taken].capitalize()}** "
                f"({describe_side(joined.position.side_of(taken), joined.rules.players)}).",
                ephemeral=False,
            )
            if joined.is_human_turn() and joined.user_to_move() == interaction.user.id:
                await self.post_turn(joined, [])

    async def give_up(self, interaction: discord.Interaction[Any], *, resign: bool) -> None:
        view = await self.channel_game(interaction)
        async with self.locks[view.id]:
            seat = view.seat_of(interaction.user.id)
            after = await (self.service.resign if resign else self.service.leave)(
                view.id, interaction.user.id
            )
            word = "resigns" if resign else "leaves"
            name = SEAT_NAMES[seat].capitalize() if seat is not None else "their seat"
            await self.tell(
                interaction, f"{interaction.user.mention} {word}; the computer plays {name}.", ephemeral=False
            )
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
        except Exception:
            log.exception("game=%s turn timer failed", game_id)

    # --- start-up -------------------------------------------------------------------------

    async def resume(self, guild_ids: list[int]) -> None:
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
                    if not current.is_human_turn() or current.message_id is None:
                        await self.advance(current.id, [])
                    elif await self.turn_is_shown(current):
                        self.schedule_timer(current)
                    else:
                        await self.post_turn(current, [])
            except Exception:
                log.exception("game=%s could not be resumed", view.id)
        log.info("resumed games=%d", len(views))

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

    # --- helpers --------------------------------------------------------------------------

    async def channel_game(self, interaction: discord.Interaction[Any]) -> GameView:
        assert interaction.channel_id is not None
        view = await self.service.get_active(interaction.channel_id)
        if view is None:
            raise NoGame("There is no game in this channel. Start one with `/pachisi start`.")
        return view

    def read_choice(self, view: GameView, choice: str) -> Move:
        """A typed choice: a board letter (A, B...) or a move like `black:12-16`; checked by the service."""
        text = choice.strip()
        moves = view.legal_moves()
        labels = {render.choice_label(i).lower(): m for i, m in enumerate(moves)}
        if text.lower() in labels:
            return labels[text.lower()]
        try:
            move = parse_move(text.split(" ")[0].lower())
        except NotationError:
            move = None
        if move is None:
            options = ", ".join(f"{render.choice_label(i)} ({m})" for i, m in enumerate(moves)) or "none"
            raise GameError(f"`{choice}` is not a move. Legal moves: {options}.")
        return move

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

    async def tell(self, interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True) -> None:
        """Say something to the user who acted: ephemeral unless it's news for the channel."""
        mentions = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, allowed_mentions=mentions)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, allowed_mentions=mentions)

    def missing_permissions(self, interaction: discord.Interaction[Any]) -> list[str]:
        permissions = interaction.app_permissions
        return [name.replace("_", " ") for name in NEEDED_PERMISSIONS if not getattr(permissions, name)]

    def channel(self, view: GameView) -> discord.TextChannel | discord.Thread | None:
        channel = self.bot.get_channel(view.channel_id)
        return channel if isinstance(channel, discord.TextChannel | discord.Thread) else None

    def remember(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    def seat_name(self, view: GameView, seat: int) -> str:
        info = view.seats[seat]
        if info.user_id is None:
            return f"Computer ({info.level})"
        return self.names.get(info.user_id) or f"Player {str(info.user_id)[-4:]}"

    def seat_label(self, view: GameView, seat: int) -> str:
        info = view.seats[seat]
        who = f"<@{info.user_id}>" if info.user_id else f"Computer ({info.level})"
        return f"{who} ({SEAT_NAMES[seat].capitalize()})"

    def mentions(self, view: GameView) -> discord.AllowedMentions:
        """Only the game's own players are ever pinged: the one to move, or everyone at the end."""
        if view.status != "active":
            users = [info.user_id for info in view.seats.values() if info.user_id]
        else:
            users = [u for u in [view.user_to_move()] if u]
        return discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False, everyone=False)

    def status_line(self, view: GameView) -> str:
        seat = view.seat_to_move()
        return f"Throw {view.turn_number + 1}: {self.seat_label(view, seat)} to play."

    def turn_content(
        self, view: GameView, events: list[Event], tallies: dict[int, SeatTally] | None = None
    ) -> str:
        lines: list[str] = []
        shown = events[-LOG_LINES:]
        if len(events) > len(shown):
            lines.append(f"... {len(events) - len(shown)} earlier throws")
        for event in shown:
            who = f"<@{event.actor_id}>" if event.actor_id else "Computer"
            timer = " (time ran out)" if event.by_timer else ""
            lines.append(f"`{event.throw:>2}` {event.text} ({who}{timer})")
        if view.status == "finished":
            lines.append(self.final_summary(view, tallies or {}))
            return "\n".join(lines)
        if view.status != "active":
            lines.append("This game has ended.")
            return "\n".join(lines)
        seat = view.seat_to_move()
        if view.pending_throw is not None:
            lines.append(f"{self.seat_label(view, seat)} threw **{view.pending_throw}**: choose a move.")
        else:
            lines.append(f"{self.seat_label(view, seat)}, your throw.")
        if view.deadline is not None:
            lines.append(f"Time runs out {discord.utils.format_dt(view.deadline, 'R')}.")
        return "\n".join(lines)

    def final_summary(self, view: GameView, tallies: dict[int, SeatTally]) -> str:
        """The result, everyone mentioned, and how the game went seat by seat."""
        result = view.position.result
        players = " ".join(f"<@{i.user_id}>" for i in view.seats.values() if i.user_id)
        if result is None or result == DRAW:
            why = "the throw limit was reached" if view.turn_number >= MAX_THROWS else "no piece can move"
            head = f"The game is a draw: {why}."
        else:
            seats = view.rules.seats
            winners = [self.seat_label(view, s) for s in seats if view.position.side_of(s) == result]
            head = f"**{describe_side(result, view.rules.players)} win!** " + ", ".join(winners)
        turns = sum(t.turns for t in tallies.values())
        captures = ", ".join(
            f"{SEAT_NAMES[s].capitalize()} {tallies[s].captures if s in tallies else 0}"
            for s in view.rules.seats
        )
        return (
            f"{head}\nThrows: {view.turn_number} in {turns} turns. Captures: {captures}.\n{players}".strip()
        )

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
                        label=choice_text(i, view, move),
                        style=discord.ButtonStyle.primary,
                    )
                )
        elif view.is_human_turn():
            buttons.add_item(
                GameButton(THROW, view.id, view.turn_number, label="Throw", style=discord.ButtonStyle.success)
            )
        if any(info.user_id is None for info in view.seats.values()):
            buttons.add_item(GameButton(JOIN, view.id, view.turn_number, label="Take a seat", row=4))
        return buttons

    async def board_png(self, view: GameView) -> bytes:
        names = {seat: self.seat_name(view, seat) for seat in view.rules.seats}
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


class ConfirmEnd(discord.ui.View):
    """The confirmation for /pachisi end (ephemeral, so it needs no persistence)."""

    def __init__(self, cog: PachisiCog, game_id: int, user_id: int) -> None:
        super().__init__(timeout=60)
        self.cog = cog
        self.game_id = game_id
        self.user_id = user_id

    @discord.ui.button(label="End the game", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="Ending the game...", view=None)
        await self.cog.end_game(interaction, self.game_id)

    @discord.ui.button(label="Keep playing", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="The game goes on.", view=None)


async def setup(bot: PachisiBot) -> None:
    await bot.add_cog(PachisiCog(bot))
