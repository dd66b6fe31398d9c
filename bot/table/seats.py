"""Opening a table and its seats: start and rematch, take a seat, leave or resign, end the game.

Each is one service call; what it shows goes through the game flow (`GameFlow.show`) and, for the
table card in the channel, `GameFlow.update_card`. News of a seat taken is the member's
interaction answer when they are in the game's channel, else a post there. A seat given up (leave,
resign) is told twice, once to each audience: the member's own word only to them, the news to the
table once (on the turn message it closes, else a post of its own). Where a new table plays (a new
thread or the channel itself) is the chat's to make: the caller hands it in as a `Place`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.core import present, records
from bot.core.config import Settings
from bot.core.errors import NotAllowed, NotPlaying
from bot.core.present import Message
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.core.texts import Language, table
from bot.table.channel import Reply, WriteRefused
from bot.table.flow import GameFlow
from engine import Rules
from engine.game import Termination

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opening:
    """A table to open: its rules and options, and the members seated from the start
    (`members`: seat -> member, under `names`: member -> display name)."""

    rules: Rules
    level: str
    seat: int | None
    thread: bool
    hints: bool = True
    language: str = "en"
    members: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    rematch_of: int | None = None
    """The finished game whose Rematch opens this table (it opens one: `GameService.start`)."""


@dataclass(frozen=True)
class Place:
    """Where a new table plays: its channel (a new thread, or where the member asked), and the
    channel of its table card when that is another (the thread's parent)."""

    guild_id: int
    channel_id: int
    card_channel_id: int | None = None


def may_end(user_id: int, game: GameSnapshot | None, *, can_manage: bool) -> bool:
    """The member manages channels, or started the game."""
    return can_manage or (game is not None and user_id == game.started_by)


class Seats:
    """Who sits where: the table sets up one (`Table.seats`) beside the game flow it shows through."""

    def __init__(self, flow: GameFlow, settings: Settings) -> None:
        self.flow = flow
        self.service = flow.service
        self.settings = settings

    async def open(self, reply: Reply, place: Place, opening: Opening, *, note: list[str]) -> None:
        """Start a game at `place`, post its card, tell the member (with `note`: the permissions a
        thread lacked) and show its first turn. The interaction is deferred."""
        self.flow.remember(reply)
        played = await self.service.start(
            place.guild_id,
            place.channel_id,
            reply.user_id,
            opening.rules,
            opening.level,
            opening.seat,
            card_channel_id=place.card_channel_id,
            members=opening.members,
            hints=opening.hints,
            language=opening.language,
            names={**opening.names, reply.user_id: reply.user_name},
            rematch_of=opening.rematch_of,
        )
        game = played.snapshot
        if opening.rematch_of is not None:
            await self.retire_rematch(opening.rematch_of)
        await self.post_card(game)
        await reply.tell(table.your_game(reply.language, game, reply.user_id, note))
        await self.flow.changed(played, intro=self.intro(played))

    def intro(self, played: Played) -> str | None:
        """A new game's word on what the bot plays for its members, as the start read them to play
        on (`Played.throwers`); none once the game is over (it played itself to its end)."""
        game = played.snapshot
        if game.status != Status.ACTIVE:
            return None
        lang, auto = self.flow.language(game), bool(played.throwers)
        return table.plays_by_itself(lang, auto=auto, one_piece=game.rules.pieces == 1)

    async def thread_name(self, lang: Language, user_id: int, name: str, channel_id: int) -> str:
        """The name of the thread a member's new table plays in, off the channel `channel_id`:
        numbered from their second table there on."""
        store = self.flow.store
        async with store.transaction() as session:
            started = await store.tables_started(session, user_id, channel_id)
        return table.table_name(lang, name, started + 1)

    async def post_card(self, game: GameSnapshot) -> None:
        """The table card, where onlookers look: the channel of a game's thread, or the game's own
        channel when it plays there (ahead of its turns)."""
        channel = self.flow.card_channel(game)
        if channel is None:
            return
        number = await self.flow.table_number(game)
        card = present.card(self.flow.language(game), game, self.flow.starter(game), number=number)
        posted = await self.flow.writer.post(channel, card, game)
        await self.service.set_card(game.id, posted.id)

    @asynccontextmanager
    async def rematching(self, reply: Reply, game_id: int) -> AsyncIterator[Opening]:
        """A Rematch click on the card of `game_id`: the table to open (`rematch`), opened by the
        caller inside the block. One click at a time per game: a second click (a double click)
        waits, deferred, for the first's table and is then sent to it (`rematch_started`)."""
        lock = self.flow.locks[game_id]
        if lock.locked():
            await reply.defer(thinking=True, ephemeral=True)
        async with lock:
            opening = await self.rematch(reply.user_id, game_id)
            if not reply.done():
                await reply.defer(thinking=True, ephemeral=True)
            yield opening

    async def retire_rematch(self, game_id: int) -> None:
        """The finished game's Rematch is used: its card's button goes grey."""
        old = await self.service.get(game_id)
        channel = self.flow.card_channel(old)
        if channel is None or old.card_message_id is None:
            return
        try:
            await channel.disable_buttons(await channel.fetch(old.card_message_id))
        except WriteRefused as exc:
            log.warning("game=%s rematch button not disabled (%s %s)", game_id, exc.status, exc.code)

    async def rematch(self, user_id: int, game_id: int) -> Opening:
        """The same seats and options at a new table (a new thread of the card's channel), for a
        member who played the game once it is over, unless its rematch has started."""
        old = await self.service.get(game_id)
        players = {info.user_id: seat for seat, info in old.seats.items() if info.user_id}
        everyone = await records.game_players(self.flow.store, game_id)
        if user_id not in players and user_id not in everyone:
            raise NotAllowed("rematch_not_yours")
        if old.status == Status.ACTIVE:
            raise NotAllowed("rematch_too_soon")
        await self.service.refuse_second_rematch(old)
        seat = players.pop(user_id, None)
        levels = {info.level for info in old.seats.values()}
        level = levels.pop() if len(levels) == 1 else self.settings.default_level
        names = {u: self.flow.names.get(u) or old.seats[s].name for u, s in players.items()}
        return Opening(
            old.rules,
            level,
            seat,
            thread=old.card_channel_id is not None,
            hints=old.hints,
            language=old.language,
            members={s: u for u, s in players.items()},
            names={u: name for u, name in names.items() if name},
            rematch_of=game_id,
        )

    async def take(self, reply: Reply, game: GameSnapshot, seat: int | None) -> None:
        """A member takes a computer's seat; if it is their turn now, the turn is shown to them,
        else the turn message is redrawn with their name before the news is told."""
        self.flow.remember(reply)
        if not reply.done():  # the card and the board are drawn before the news: say it comes
            await reply.defer(ephemeral=reply.channel_id != game.channel_id, thinking=True)
        async with self.flow.locked(game.id):
            user = reply.user_id
            played = await self.service.join(game.id, user, seat, reply.user_name)
            joined = played.snapshot
            taken = joined.seat_of(user)
            assert taken is not None
            shown = bool(played.events) or joined.user_to_move() == user
            await self.flow.update_card(joined)
            if not shown:
                await self.flow.redraw(joined)
            await self.announce(reply, joined, lambda lang: table.seat_taken(lang, user, joined, taken))
            if shown:  # the news is said: the turn message closes without it
                await self.flow.show(played)

    async def give_up(self, reply: Reply, game: GameSnapshot, *, resign: bool) -> None:
        """The member's seat goes back to the computer. They are told so, only them (`gave_up`);
        the table reads the news once: on the turn message it closes, else posted on its own."""
        if not reply.done():
            await reply.defer(ephemeral=True, thinking=True)
        async with self.flow.locked(game.id):
            user = reply.user_id
            seat = game.seat_of(user)
            played = await (self.service.resign if resign else self.service.leave)(game.id, user)
            after = played.snapshot
            assert seat is not None, "the service refuses a member without a seat"
            yours = table.gave_up(reply.language, seat, after, resign=resign)
            if reply.channel_id != game.channel_id:
                yours = table.plays_in(reply.language, yours, after)
            await reply.tell(yours)  # at once: the computers' turns after it may take their pace
            await self.flow.update_card(after)
            text = self.seat_news(after, user, seat, resign=resign)
            if played.events or after.status != Status.ACTIVE or not after.is_human_turn():
                await self.flow.show(played, note=text)
            else:
                await self.flow.redraw(after)
                channel = self.flow.channel(after)
                if channel is not None:
                    await self.flow.writer.post(channel, Message(text), after)

    def seat_news(self, game: GameSnapshot, user: int, seat: int, *, resign: bool) -> str:
        """The table's news of a seat given up, in the table's language."""
        lang = self.flow.language(game)
        outcome = game.outcome
        if outcome is not None and outcome.termination is Termination.RESIGNATION:
            return table.conceded(lang, user, game)
        last = all(info.user_id is None for info in game.seats.values())
        return table.seat_given_up(lang, user, seat, resign=resign, last=last)

    async def announce(self, reply: Reply, game: GameSnapshot, news: Callable[[Language], str]) -> None:
        """News for the table, in the table's language: in the game's channel, and as the answer
        when the member is there; from elsewhere the member is told it in their own language."""
        text = news(self.flow.language(game))
        if reply.channel_id == game.channel_id:
            await reply.tell(text, ephemeral=False)
            return
        channel = self.flow.channel(game)
        if channel is not None:
            await self.flow.writer.post(channel, Message(text), game)
        lang = reply.language
        await reply.tell(table.plays_in(lang, news(lang), game))

    def check_may_end(self, user_id: int, game: GameSnapshot, *, can_manage: bool) -> None:
        """Refuse a member who may not end the game for everyone (before they are asked to confirm),
        saying what they may do instead (`NotAllowed.to_end`)."""
        if not may_end(user_id, game, can_manage=can_manage):
            raise NotAllowed.to_end(game.seat_of(user_id))

    def check_seated(self, user_id: int, game: GameSnapshot) -> None:
        """Refuse a member without a seat before they are asked to confirm giving it up."""
        if game.seat_of(user_id) is None:
            raise NotPlaying()

    async def end(self, user_id: int, game_id: int, *, can_manage: bool) -> GameSnapshot:
        """End the game for everyone; the game as it ended."""
        async with self.flow.locked(game_id):
            game = await self.service.end(game_id, user_id, can_manage=can_manage)
            self.flow.timers.cancel(game_id)
            text = table.ended(self.flow.language(game), user_id, game)
            await self.flow.show(Played(game), note=text)  # said once: on the turn message, or alone
            return game
