"""The `/pachisi` commands that play: start, join, leave, resign, throw, move, board, end, rules, help.

Each command reads what it needs and hands the change to the table flow (`Tables`), which owns the
locks and what is posted.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import bot.cogs.pachisi.messages as messages
import render
from bot.cogs.answers import tell
from bot.cogs.group import PachisiCommands
from bot.cogs.pachisi.hints import chances_line
from bot.core import texts
from bot.core.errors import GameError, NoGame
from bot.core.service import GameSnapshot
from engine import SEAT_NAMES, Move, NotationError, Rules, parse_move
from engine.players import LEVELS

if TYPE_CHECKING:
    from bot.client import PachisiBot
    from bot.cogs.pachisi.table import Tables

SEAT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=name.capitalize(), value=name) for name in SEAT_NAMES
]
LEVEL_CHOICES: list[app_commands.Choice[str]] = [app_commands.Choice(name=lv, value=lv) for lv in LEVELS]
RULE_HELP = {
    "must_capture": "no piece comes home before its side has captured",
    "escape_hatch": "come home without a capture when nothing else can move",
    "last_square": "a piece on the last square comes home on any throw",
    "enter_moves": "an entering piece moves the throw from step 1",
    "start_on_board": "pieces per seat that start on the board",
}


def rules_completions(current: str) -> list[tuple[str, str]]:
    """Suggestions for the `rules` option: the typed options kept, one more option added."""
    done = [part.strip() for part in current.split(",")[:-1] if part.strip()]
    typed = current.split(",")[-1].strip().lower()
    given = {part.partition("=")[0] for part in done}
    found: list[tuple[str, str]] = []
    for name, help_text in RULE_HELP.items():
        if name in given:
            continue
        values = ["0", "1", "2", "3", "4"] if name == "start_on_board" else ["on", "off"]
        for value in values:
            option = f"{name}={value}"
            if typed and typed not in option:
                continue
            text = ",".join([*done, option])
            note = messages.FREEZING_NOTE if option == messages.FREEZING_RULE else help_text
            found.append((f"{text}: {note}", text))
    return found[:25]


NEEDED_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "embed_links")
MAX_CHOICE = 100
"""Longer typed choices are not read (a move is about a dozen characters; a choice name at most 100)."""


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
        pieces="pieces per seat, 1-4",
        level="how well the computer players play",
        seat="the seat you take (default Black)",
        thread="play in a new thread of this channel (default on)",
        rules="more options, e.g. escape_hatch=off,enter_moves=on",
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
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: int = 4,
        variant: str = "classic",
        pieces: app_commands.Range[int, 1, 4] = 4,
        level: str | None = None,
        seat: str | None = None,
        thread: bool | None = None,
        rules: app_commands.Range[str, 0, 200] | None = None,
        hints: bool = True,
    ) -> None:
        missing = self.missing_permissions(interaction)
        if missing:
            await tell(interaction, f"I can't run a game here: give me {', '.join(missing)} in this channel.")
            return
        try:
            chosen = Rules.parse(f"{variant},{rules or ''}", allow_shape=False).with_options(
                players=players, pieces=pieces
            )
        except ValueError as exc:  # NotationError too: it names the option, not the whole input
            reason = str(exc).rsplit(" (in ", 1)[0][:80]
            await tell(
                interaction,
                f"{messages.quoted(rules or variant)} is not a rule set I know ({reason}): "
                "pick the options from the list.",
            )
            return
        chosen_seat = seat_index(seat)
        if chosen_seat is not None and chosen_seat not in chosen.seats:
            await tell(
                interaction, "In a two-player game the seats are Black and Yellow: choose one of them."
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.tables.open_table(
            interaction,
            chosen,
            level or self.bot.settings.default_level,
            chosen_seat,
            thread=self.bot.settings.default_thread if thread is None else thread,
            hints=hints,
        )

    @start.autocomplete("rules")
    async def rules_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=name[:100], value=value[:100])
            for name, value in rules_completions(current)
        ]

    @app_commands.command(
        name="auto", description="Whether the bot throws for you (on) or you click Throw (off)"
    )
    @app_commands.describe(mode="on: the bot throws for you and plays forced moves; off: you throw yourself")
    @app_commands.choices(
        mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def auto(self, interaction: discord.Interaction[Any], mode: str) -> None:
        on = mode == "on"
        await self.service.set_auto_throw(interaction.user.id, on)
        if on:
            text = "Auto-throw is on: I throw for you and ask only when a throw offers a choice."
        else:
            text = (
                "Auto-throw is off: you get a Throw button on your turns (forced moves still play at once)."
            )
        await tell(interaction, text + " This holds in every game and server.")

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
        """The text and the board's key (pieces, castles, choice arrows, story, capture marks)."""
        legend = await asyncio.get_running_loop().run_in_executor(self.bot.render_pool, render.legend_png)
        await interaction.response.send_message(
            texts.HELP, file=discord.File(io.BytesIO(legend), "legend.png"), ephemeral=True
        )

    @app_commands.command(
        name="end", description="End this game for everyone (its starter or Manage Channels)"
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.tables.confirm_end(interaction, await self.channel_game(interaction))

    # --- helpers --------------------------------------------------------------------------

    async def channel_game(self, interaction: discord.Interaction[Any]) -> GameSnapshot:
        assert interaction.channel_id is not None
        view = await self.service.get_active(interaction.channel_id)
        if view is None:
            raise NoGame("There is no game in this channel: start one with /pachisi start.")
        return view

    def read_choice(self, view: GameSnapshot, choice: str) -> Move:
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
            raise GameError(f"{messages.quoted(text)} is not a move of this throw: choose {options}.")
        return move

    def missing_permissions(self, interaction: discord.Interaction[Any]) -> list[str]:
        permissions = interaction.app_permissions
        return [name.replace("_", " ") for name in NEEDED_PERMISSIONS if not getattr(permissions, name)]
