"""The `/pachisi` commands that play: start, auto, join, leave, resign, throw, move, board, end,
rules, help.

Each reads its options, refuses what cannot be (in the member's language), and hands the change
to the seats or the table, which own the locks and what is shown.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import render
from bot.cogs.answers import language_of, refuse, tell
from bot.cogs.group import PachisiCommands
from bot.cogs.pachisi.buttons import reply
from bot.cogs.pachisi.hints import chances_line
from bot.cogs.pachisi.opening import open_table
from bot.cogs.pachisi.views import Confirm, manages_channels
from bot.core.errors import GameError
from bot.core.present import board_of
from bot.core.snapshot import GameSnapshot
from bot.core.texts import ENGLISH, Language, answers, board, table, turns
from bot.core.texts.language import SHIPPED, choose, clip, native_name, speaks
from bot.core.texts.rules import RULES
from bot.table import acts
from bot.table.acts import Act
from bot.table.seats import Opening
from engine import SEAT_NAMES, Rules
from engine.players import LEVELS

if TYPE_CHECKING:
    from bot.client import PachisiBot

SEAT_CHOICES = [app_commands.Choice(name=board.colour(ENGLISH, i), value=n) for i, n in enumerate(SEAT_NAMES)]
LANGUAGE_CHOICES = [app_commands.Choice(name=native_name(code), value=code) for code in SHIPPED]
"""Each language by its own name (`हिन्दी`), so a member finds theirs whatever their client's."""
STRONGEST = {2: "expert", 4: "expert"}
"""The level that wins most against the others at each table size, by the arena's figures (docs/AI.md,
"The expert's results" and "Four players: what was tried")."""


def level_choice_name(level: str) -> str:
    """A level as the `level` option lists it, saying where it is the strongest."""
    sizes = [str(players) for players, strongest in sorted(STRONGEST.items()) if strongest == level]
    return f"{level} (strongest with {' or '.join(sizes)} players)" if sizes else level


LEVEL_CHOICES = [app_commands.Choice(name=level_choice_name(level), value=level) for level in LEVELS]
RULE_OPTIONS = ("must_capture", "escape_hatch", "last_square", "enter_moves", "start_on_board")
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "embed_links")


def rules_completions(current: str) -> list[tuple[str, str]]:
    """(typed options, one more option) for the `rules` option: the typed ones kept, one added."""
    done = [part.strip() for part in current.split(",")[:-1] if part.strip()]
    typed = current.split(",")[-1].strip().lower()
    given = {part.partition("=")[0] for part in done}
    found: list[tuple[str, str]] = []
    for name in RULE_OPTIONS:
        if name in given:
            continue
        for value in ["0", "1", "2", "3", "4"] if name == "start_on_board" else ["on", "off"]:
            option = f"{name}={value}"
            if not typed or typed in option:
                found.append((",".join([*done, option]), option))
    return found[:25]


def table_language(interaction: discord.Interaction[Any]) -> Language:
    """A new table's language when `/pachisi start` names none: the starter's, if the bot speaks it,
    else the server's (a Community server's), else English."""
    server = interaction.guild_locale.value if interaction.guild_locale is not None else None
    return choose(interaction.locale.value, server)


def seat_index(name: str | None) -> int | None:
    return None if name is None else SEAT_NAMES.index(name)


def typed_seat(lang: Language, game: GameSnapshot, text: str | None) -> int | None:
    """The seat a member typed or picked for /pachisi join (a colour's name: in the notation, in
    English or in `lang`); anything else is refused with the free seats."""
    if text is None:
        return None
    named = {name: i for i, name in enumerate(SEAT_NAMES)}
    for words in (ENGLISH, lang):
        named |= {board.colour(words, i).lower(): i for i in range(len(SEAT_NAMES))}
    seat = named.get(text.strip().lower())
    if seat is None:
        raise GameError("seat_not_in_play", free=game.free_seats())
    return seat


class PlayCommands(PachisiCommands):
    def __init__(self, bot: PachisiBot) -> None:
        super().__init__(bot)
        self.flow = bot.table.flow
        self.seats = bot.table.seats
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
        language="the table's language (default: yours if I speak it, else the server's, else English)",
    )
    @app_commands.choices(  # type: ignore[misc]  # str and int choices mixed
        players=[app_commands.Choice(name="4", value=4), app_commands.Choice(name="2", value=2)],
        variant=[
            app_commands.Choice(name="classic", value="classic"),
            app_commands.Choice(name="standard", value="standard"),
        ],
        level=LEVEL_CHOICES,
        seat=SEAT_CHOICES,
        language=LANGUAGE_CHOICES,
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
        language: str | None = None,
    ) -> None:
        permissions = interaction.app_permissions
        missing = [name for name in NEEDED_PERMISSIONS if not getattr(permissions, name)]
        if missing:
            await refuse(interaction, "missing_permissions", permissions=missing)
            return
        try:
            chosen = Rules.parse(f"{variant},{rules or ''}", allow_shape=False).with_options(
                players=players, pieces=pieces
            )
        except ValueError as exc:  # NotationError too: it names the option, not the whole input
            reason = clip(str(exc).rsplit(" (in ", 1)[0], 80)
            await refuse(interaction, "unknown_rules", typed=rules or variant, reason=reason)
            return
        chosen_seat = seat_index(seat)
        if chosen_seat is not None and chosen_seat not in chosen.seats:
            await refuse(interaction, "two_player_seats")
            return
        if language is not None and not speaks(language):
            names = [native_name(code) for code in SHIPPED]
            await refuse(interaction, "unknown_language", language=language, languages=names)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        opening = Opening(
            chosen,
            level or self.bot.settings.default_level,
            chosen_seat,
            thread=self.bot.settings.default_thread if thread is None else thread,
            hints=hints,
            language=language or table_language(interaction).code,
        )
        await open_table(interaction, reply(interaction), self.seats, opening)

    @start.autocomplete("rules")
    async def rules_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = language_of(interaction)
        return [
            app_commands.Choice(name=clip(answers.rule_completion(lang, text, option), 100), value=text[:100])
            for text, option in rules_completions(current)
        ]

    @app_commands.command(
        name="auto", description="Whether the bot throws for you (on) or you click Throw (off)"
    )
    @app_commands.describe(mode="on: the bot throws for you and plays forced moves; off: you throw yourself")
    @app_commands.choices(
        mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def auto(self, interaction: discord.Interaction[Any], mode: str) -> None:
        await self.service.members.set_auto_throw(interaction.user.id, mode == "on")
        await tell(interaction, answers.auto_throw(language_of(interaction), mode == "on"))

    @app_commands.command(name="join", description="Take a computer's seat in this channel's game")
    @app_commands.describe(seat="the seat to take (default: the first computer seat)")
    async def join(self, interaction: discord.Interaction[Any], seat: str | None = None) -> None:
        game = await self.channel_game(interaction)
        await self.seats.take(reply(interaction), game, typed_seat(language_of(interaction), game, seat))

    @join.autocomplete("seat")
    async def seat_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the seats a member may take: the computer's, never one a person holds."""
        assert interaction.channel_id is not None
        game = await self.service.get_active(interaction.channel_id)
        if game is None:
            return []
        lang, wanted = language_of(interaction), current.strip().lower()
        choices = [
            app_commands.Choice(name=board.colour(lang, seat), value=SEAT_NAMES[seat])
            for seat in game.free_seats()
        ]
        return [c for c in choices if wanted in c.name.lower() or wanted in c.value]

    @app_commands.command(name="leave", description="Give your seat back to the computer")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.seats.give_up(reply(interaction), await self.channel_game(interaction), resign=False)

    @app_commands.command(
        name="resign", description="Give your seat to the computer for the rest of this game"
    )
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Ask before resigning, once the member has a seat to resign."""
        game = await self.channel_game(interaction)
        self.seats.check_seated(interaction.user.id, game)
        lang = language_of(interaction)
        question, yes, no, kept = answers.confirm_resign(lang, game.rules.players)

        async def resign(clicked: discord.Interaction[Any]) -> None:
            await self.seats.give_up(reply(clicked), game, resign=True)  # they are told what happened

        confirm = Confirm(resign, yes=yes, no=no, kept=kept, working=answers.working(lang))
        await interaction.response.send_message(question, view=confirm, ephemeral=True)

    @app_commands.command(name="throw", description="Throw the cowries for your turn")
    async def throw(self, interaction: discord.Interaction[Any]) -> None:
        await self.typed(
            interaction, acts.typed(await self.channel_game(interaction), interaction.user.id, None)
        )

    @app_commands.command(name="move", description="Play one of the legal moves of your throw")
    @app_commands.describe(choice="the move: its letter on the board, or pick from the list")
    async def move(self, interaction: discord.Interaction[Any], choice: str) -> None:
        game = await self.channel_game(interaction)
        await self.typed(interaction, acts.typed(game, interaction.user.id, choice))

    @move.autocomplete("choice")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        assert interaction.channel_id is not None
        game = await self.service.get_active(interaction.channel_id)
        if game is None or game.pending_throw is None:
            return []
        lang, wanted = language_of(interaction), current.strip().lower()
        choices = [
            app_commands.Choice(name=clip(board.choice_option(lang, i, game.position, m), 100), value=str(m))
            for i, m in enumerate(game.legal_moves())
        ]
        return [c for c in choices if wanted in c.name.lower() or wanted in c.value][:25]

    async def typed(self, interaction: discord.Interaction[Any], act: Act) -> None:
        """`/pachisi throw` or `/pachisi move`, read as `act`: played and shown in the game's
        channel; the member is told what happened."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.flow.remember(reply(interaction))
        played = await self.flow.play(act)
        move = act.move
        lang = language_of(interaction)
        after = played.snapshot
        if move is None and after.pending_throw is not None and not played.events:
            text = answers.thrown(lang, after.pending_throw)
        elif played.events:
            text = turns.event_line(lang, played.events[0], after)
        else:
            text = answers.played(lang)
        await tell(interaction, text)

    @app_commands.command(name="board", description="Show the current board (only to you)")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        game = await self.channel_game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.flow.writer.board_png(board_of(self.flow.language(game), game, [], self.flow.names))
        picture = discord.Embed(colour=discord.Colour.dark_gold()).set_image(url="attachment://board.png")
        lang = language_of(interaction)
        if game.hints:
            picture.set_footer(text=chances_line(lang, game))  # under the picture
        await interaction.followup.send(
            turns.status_line(lang, game),
            file=discord.File(io.BytesIO(png), "board.png"),
            embed=picture,
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules of Pachisi, by section")
    @app_commands.describe(section="which part of the rules")
    @app_commands.choices(
        section=[app_commands.Choice(name=title, value=key) for key, (title, _) in RULES.items()]
    )
    async def rules(self, interaction: discord.Interaction[Any], section: str | None = None) -> None:
        lang = language_of(interaction)
        url = self.bot.settings.project_url
        embed = discord.Embed(title=answers.rules_title(lang), colour=discord.Colour.dark_gold(), url=url)
        for title, text in answers.rules_sections(lang, [section] if section else list(RULES)):
            embed.add_field(name=title, value=text, inline=False)
        embed.set_footer(text=answers.rules_sources(lang, url))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How to play Pachisi here")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The text and the board's key (pieces, castles, choice arrows, story, capture marks).
        Deferred first: the key's first drawing in a process builds the renderer's caches, which on
        a busy host can outlast Discord's 3 s for an answer."""
        lang = language_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        legend = await asyncio.get_running_loop().run_in_executor(
            self.bot.render_pool, render.legend_png, lang.picture
        )
        await interaction.followup.send(
            answers.help_text(lang), file=discord.File(io.BytesIO(legend), "legend.png"), ephemeral=True
        )

    @app_commands.command(
        name="end", description="End this game for everyone (its starter or Manage Channels)"
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Ask before ending a game for everyone, once the member may end it at all."""
        game = await self.channel_game(interaction)
        self.seats.check_may_end(interaction.user.id, game, can_manage=manages_channels(interaction))
        lang = language_of(interaction)
        question, yes, no, kept = answers.confirm_end(lang)

        async def end(clicked: discord.Interaction[Any]) -> str:
            user = clicked.user.id
            ended = await self.seats.end(user, game.id, can_manage=manages_channels(clicked))
            return table.you_ended(language_of(clicked), ended)  # the table reads the news

        confirm = Confirm(end, yes=yes, no=no, kept=kept, working=answers.working(lang))
        await interaction.response.send_message(question, view=confirm, ephemeral=True)

    async def channel_game(self, interaction: discord.Interaction[Any]) -> GameSnapshot:
        assert interaction.channel_id is not None
        return await self.service.playing_here(interaction.channel_id)
