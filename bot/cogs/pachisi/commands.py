"""The `/pachisi` commands that play: start, join, leave, resign, throw, move, board, end, rules, help.

Each command reads what it needs and hands the change to the table flow (`Tables`), which owns the
locks and what is posted.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import bot.cogs.pachisi.messages as messages
import render
from bot import texts
from bot.cogs.answers import tell
from bot.cogs.group import PachisiCommands
from bot.cogs.pachisi.hints import chances_line
from bot.service import GameError, GameView, NoGame
from engine import SEAT_NAMES, Move, NotationError, Rules, parse_move
from engine.players import LEVELS

if TYPE_CHECKING:
    from bot.client import PachisiBot
    from bot.cogs.pachisi.table import Tables

SEAT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=name.capitalize(), value=name) for name in SEAT_NAMES
]
LEVEL_CHOICES: list[app_commands.Choice[str]] = [app_commands.Choice(name=lv, value=lv) for lv in LEVELS]
ON_OFF: list[app_commands.Choice[int]] = [
    app_commands.Choice(name="on", value=1),
    app_commands.Choice(name="off", value=0),
]
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "embed_links")
MAX_CHOICE = 100
"""Longer typed choices are not read (a move is about a dozen characters; a choice name at most 100)."""
ECHOED = 40


def quoted(typed: str) -> str:
    """What a refusal repeats of a typed choice: its start, without backticks (Discord refuses a
    reply over 2,000 characters, so the whole input never goes back)."""
    text = typed.replace("`", "'")
    return text if len(text) <= ECHOED else text[:ECHOED] + "…"


def seat_index(name: str | None) -> int | None:
    return None if name is None else SEAT_NAMES.index(name)


class PlayCommands(PachisiCommands):
    def __init__(self, bot: PachisiBot, tables: Tables) -> None:
        super().__init__(bot)
        self.tables = tables
        self.service = bot.service

    @app_commands.command(name="start", description="Start a game here; computers fill the empty seats")
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
        hints="a Hint button on your turn and the win chances on the board (default on)",
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
        hints=ON_OFF,
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
        hints: int | None = None,
    ) -> None:
        missing = self.missing_permissions(interaction)
        if missing:
            await tell(interaction, f"I can't run a game here: I need {', '.join(missing)} in this channel.")
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
            await tell(interaction, f"Those options don't fit together: {exc}.")
            return
        chosen_seat = seat_index(seat)
        if chosen_seat is not None and chosen_seat not in rules.seats:
            await tell(interaction, "In a two-player game the seats are Black and Yellow.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.tables.remember(interaction.user)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        view = await self.service.start(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            rules,
            level or self.bot.settings.default_level,
            chosen_seat,
            hints=hints is None or bool(hints),
        )
        seat_name = SEAT_NAMES[view.seat_of(interaction.user.id) or 0].capitalize()
        channel = self.tables.channel(view)
        if channel is not None:
            await channel.send(
                messages.started(interaction.user.mention, view),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await interaction.followup.send(f"Your game has started: you play {seat_name}.", ephemeral=True)
        async with self.tables.locks[view.id]:
            await self.tables.advance(view.id, [])

    @app_commands.command(name="join", description="Take a computer's seat in this channel's game")
    @app_commands.describe(seat="the seat to take (default: the first computer seat)")
    @app_commands.choices(seat=SEAT_CHOICES)
    async def join(self, interaction: discord.Interaction[Any], seat: str | None = None) -> None:
        await self.tables.take_seat(interaction, await self.channel_game(interaction), seat_index(seat))

    @app_commands.command(name="leave", description="Give your seat back to the computer")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.tables.give_up(interaction, await self.channel_game(interaction), resign=False)

    @app_commands.command(
        name="resign", description="Give your seat to the computer for the rest of this game"
    )
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self.tables.give_up(interaction, await self.channel_game(interaction), resign=True)

    @app_commands.command(name="throw", description="Throw the cowries for your turn")
    async def throw(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.channel_game(interaction)
        await self.tables.play_throw(interaction, view.id, view.turn_number)

    @app_commands.command(name="move", description="Play one of the legal moves of your throw")
    @app_commands.describe(choice="the move: its letter on the board, or pick from the list")
    async def move(self, interaction: discord.Interaction[Any], choice: str) -> None:
        view = await self.channel_game(interaction)
        move = self.read_choice(view, choice)
        await self.tables.play_move(interaction, view.id, view.turn_number, move)

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
            app_commands.Choice(name=messages.choice_text(i, view, m)[:100], value=str(m))
            for i, m in enumerate(view.legal_moves())
        ]
        return [c for c in choices if wanted in c.name.lower() or wanted in c.value][:25]

    @app_commands.command(name="board", description="Show the current board (only to you)")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.channel_game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.tables.board_png(view)
        board = discord.Embed(colour=discord.Colour.dark_gold()).set_image(url="attachment://board.png")
        if view.hints:
            board.set_footer(text=chances_line(view))  # under the picture
        await interaction.followup.send(
            messages.status_line(view),
            file=discord.File(io.BytesIO(png), "board.png"),
            embed=board,
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules of Pachisi, by section")
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

    @app_commands.command(name="help", description="How to play Pachisi here")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(texts.HELP, ephemeral=True)

    @app_commands.command(name="end", description="End this channel's game (the starter or Manage Channels)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.tables.confirm_end(interaction, await self.channel_game(interaction))

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
            move = parse_move(text.split(" ")[0].lower()) if len(text) <= MAX_CHOICE else None
        except NotationError:
            move = None
        if move is None:
            options = ", ".join(f"{render.choice_label(i)} ({m})" for i, m in enumerate(moves)) or "none"
            raise GameError(f"`{quoted(text)}` is not a move. Legal moves: {options}.")
        return move

    def missing_permissions(self, interaction: discord.Interaction[Any]) -> list[str]:
        permissions = interaction.app_permissions
        return [name.replace("_", " ") for name in NEEDED_PERMISSIONS if not getattr(permissions, name)]
