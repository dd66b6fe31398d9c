"""Every button the bot posts that outlives a restart: one dynamic item per action, each with the
typed template of its custom id. The id is built from the item's fields and read back into them
here only, so a button posted before a restart still works:

- `pachisi:throw:<game>:<turn>`, `pachisi:join:...`, `pachisi:rematch:...`, `pachisi:hint:...`
- `pachisi:move:<game>:<turn>:<move>` (the move as the notation writes it, `black:12-16`)
- `pachisi:puzzle:<number>:<day>:<member>:<move>` (the day as a date's ordinal)
- `pachisi:tournament-join:<tournament>`, `pachisi:tournament-leave:<tournament>` (a sign-up card's)

Any client can send any id: one that fits no template is `Unreadable`'s, refused before anything
reaches the database. A click is handed on as data (the game, the turn, the move), with its
interaction as the table's `Reply`, to the table layer the bot set up (`bot.table`): its `flow`
plays a turn, its `seats` seat a member; no cog is looked up by name.

To add a button: an action name in `bot.core.present`, an item here with its template, listed in
`GAME_BUTTONS` (or `BUTTONS`), and in `TURN_BUTTONS` or `item_of` if the presenter shows it.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.cogs import puzzle_answer
from bot.cogs.answers import handle_error
from bot.cogs.host import Host, host_of
from bot.cogs.pachisi import hints, opening
from bot.cogs.pachisi.channels import Components, InteractionReply
from bot.core.errors import GameError
from bot.core.present import HINT, JOIN, MOVE, REMATCH, THROW, Button
from bot.core.texts.language import clip
from bot.table.acts import Act
from bot.table.channel import Key
from bot.table.tournament import TOURNAMENT_JOIN, TOURNAMENT_LEAVE
from engine import SEAT_NAMES, Move

Item = discord.ui.DynamicItem[discord.ui.Button[Any]]
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

ID = r"[1-9][0-9]{0,8}"
"""A game or puzzle number: game ids are INTEGER columns (32 bits on PostgreSQL), which nine
digits never overflow."""
GAME, TURN = rf"(?P<game>{ID})", r"(?P<turn>0|[1-9][0-9]{0,8})"
TOURNAMENT = rf"(?P<tournament>{ID})"
STEP = r"(?:[0-9]|[1-7][0-9]|8[0-4])"
"""A piece's step, 0 (not entered) to 84 (home), as the notation writes it."""
MOVE_TEXT = rf"(?P<move>(?:{'|'.join(SEAT_NAMES)}):{STEP}-{STEP})"
"""A move as `Move.parse` reads it: what fits here always parses."""


def face(label: str, style: str = "secondary", row: int | None = None) -> dict[str, Any]:
    """How a button looks: its label (Discord takes 80 characters), colour and row."""
    return {"label": clip(label, 80), "style": STYLES[style], "row": row}


BASE = r"(?!)"
"""The template of a base class, which is never registered: it matches nothing."""


class Clicked(Item, template=BASE):
    """What every button does with a click: hand it on, and answer whatever goes wrong."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.clicked(interaction, host_of(interaction))
        except Exception as exc:  # every click gets an answer; unexpected errors are logged there
            await handle_error(interaction, exc)

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        raise NotImplementedError


class GameButton(Clicked, template=BASE):
    """A button of one game: its id names the game and the turn it was posted for."""

    action: ClassVar[str]
    game_id: int
    turn: int

    def key(self) -> Key:
        """The button as the table reads it back from a message."""
        return Key(self.action, self.game_id, self.turn)

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        """The button whose id matched this class's template."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.read(match)


class OnTurn(GameButton, template=BASE):
    """A button of a game's turn or card: its id names the action, the game and the turn."""

    def __init__(self, game_id: int, turn: int, **looks: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"pachisi:{self.action}:{game_id}:{turn}", **looks))
        self.game_id = game_id
        self.turn = turn

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["turn"]))


class ThrowButton(OnTurn, template=rf"pachisi:{THROW}:{GAME}:{TURN}"):
    action = THROW

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        await bot.table.flow.click(reply(interaction), Act(self.game_id, interaction.user.id, self.turn))


class JoinButton(OnTurn, template=rf"pachisi:{JOIN}:{GAME}:{TURN}"):
    action = JOIN

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        game = await bot.service.get(self.game_id)
        await bot.table.seats.take(reply(interaction), game, None)


class RematchButton(OnTurn, template=rf"pachisi:{REMATCH}:{GAME}:{TURN}"):
    action = REMATCH

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        member = reply(interaction)
        async with bot.table.seats.rematching(member, self.game_id) as plan:
            await opening.open_table(interaction, member, bot.table.seats, plan)


class HintButton(OnTurn, template=rf"pachisi:{HINT}:{GAME}:{TURN}"):
    action = HINT

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        await hints.hint(interaction, bot.table.hints, self.game_id, self.turn)


class MoveButton(GameButton, template=rf"pachisi:{MOVE}:{GAME}:{TURN}:{MOVE_TEXT}"):
    """One of the throw's choices: its id carries the move."""

    action = MOVE

    def __init__(self, game_id: int, turn: int, move: Move, **looks: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"pachisi:{MOVE}:{game_id}:{turn}:{move}", **looks))
        self.game_id = game_id
        self.turn = turn
        self.move = move

    @classmethod
    def read(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["turn"]), Move.parse(match["move"]))

    def key(self) -> Key:
        return Key(MOVE, self.game_id, self.turn, self.move)

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        act = Act(self.game_id, interaction.user.id, self.turn, self.move)
        await bot.table.flow.click(reply(interaction), act)


PUZZLE = "puzzle"
"""The daily puzzle's choices (`bot.cogs.puzzle`)."""


PUZZLE_ID = (
    rf"pachisi:{PUZZLE}:(?P<number>{ID}):(?P<day>[0-9]{{1,7}}):(?P<member>[1-9][0-9]{{0,19}}):{MOVE_TEXT}"
)


class PuzzleButton(Clicked, template=PUZZLE_ID):
    """A choice of the daily puzzle, sent to one member: the puzzle, its day and the member ride in
    the id, so a click is judged without anything kept in memory."""

    def __init__(self, number: int, day: int, member: int, move: Move, **looks: Any) -> None:
        custom_id = f"pachisi:{PUZZLE}:{number}:{day}:{member}:{move}"
        super().__init__(discord.ui.Button(custom_id=custom_id, **looks))
        self.number = number
        self.day = day
        self.member = member
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["number"]), int(match["day"]), int(match["member"]), Move.parse(match["move"]))

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        await puzzle_answer.answer(interaction, bot, self.number, self.day, self.member, self.move)


class TournamentButton(Clicked, template=BASE):
    """A button of a tournament's sign-up card: its id names the action and the tournament."""

    action: ClassVar[str]

    def __init__(self, tournament_id: int, **looks: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"pachisi:{self.action}:{tournament_id}", **looks))
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["tournament"]))


class TournamentJoinButton(TournamentButton, template=rf"pachisi:{TOURNAMENT_JOIN}:{TOURNAMENT}"):
    action = TOURNAMENT_JOIN

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        await bot.table.tournaments.join(reply(interaction), self.tournament_id)


class TournamentLeaveButton(TournamentButton, template=rf"pachisi:{TOURNAMENT_LEAVE}:{TOURNAMENT}"):
    action = TOURNAMENT_LEAVE

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        await bot.table.tournaments.leave(reply(interaction), self.tournament_id)


TOURNAMENT_BUTTONS: dict[str, type[TournamentButton]] = {
    b.action: b for b in (TournamentJoinButton, TournamentLeaveButton)
}
GAME_BUTTONS: tuple[type[GameButton], ...] = (
    ThrowButton,
    MoveButton,
    JoinButton,
    RematchButton,
    HintButton,
)
TURN_BUTTONS: dict[str, type[OnTurn]] = {
    b.action: b for b in (ThrowButton, JoinButton, RematchButton, HintButton)
}


def _unreadable(*items: type[Item]) -> str:
    """Any `pachisi:` id that fits none of these items' templates."""
    known = "|".join(re.sub(r"\(\?P<\w+>", "(?:", i.__discord_ui_compiled_template__.pattern) for i in items)
    return rf"(?s)(?!(?:{known})\Z)pachisi:.*"


FORGED = {PUZZLE: "puzzle_forged"}
"""The refusal of an unreadable id by its action; any other action's is `stale_button`."""


class Unreadable(Clicked, template=_unreadable(*GAME_BUTTONS, PuzzleButton, *TOURNAMENT_BUTTONS.values())):
    """A forged or malformed id (or an action this version does not have): refused, nothing read."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string)

    async def clicked(self, interaction: discord.Interaction[Any], bot: Host) -> None:
        action = self.custom_id.split(":")[1]
        raise GameError(FORGED.get(action, "stale_button"))


BUTTONS: tuple[type[Item], ...] = (*GAME_BUTTONS, PuzzleButton, *TOURNAMENT_BUTTONS.values(), Unreadable)
"""What the bot registers at start-up (`PachisiBot.setup_hook`)."""


def item_of(button: Button) -> Item:
    """The Discord button of a button the presenter planned (or a tournament card's)."""
    looks = face(button.label, button.style, button.row)
    if button.action in TOURNAMENT_BUTTONS:
        return TOURNAMENT_BUTTONS[button.action](button.game_id, **looks)
    if button.action == MOVE:
        assert button.move is not None
        return MoveButton(button.game_id, button.turn, button.move, **looks)
    return TURN_BUTTONS[button.action](button.game_id, button.turn, **looks)


def read(custom_id: str) -> GameButton | None:
    """The game button a custom id names; None for any other id."""
    for item in GAME_BUTTONS:
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return item.read(match)
    return None


def buttons_view(buttons: tuple[Button, ...]) -> discord.ui.View | None:
    """The message's components (None: a message without buttons)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(item_of(button))
    return view


def key_of(custom_id: str) -> Key | None:
    """A live button's id as the table reads it back (None: not a game's button)."""
    button = read(custom_id)
    return None if button is None else button.key()


COMPONENTS = Components(buttons_view, key_of)
"""The buttons' shape, handed to the Discord side of the table's protocols."""


def reply(interaction: discord.Interaction[Any]) -> InteractionReply:
    """The member's interaction as the table's `Reply`."""
    return InteractionReply(interaction, COMPONENTS)
