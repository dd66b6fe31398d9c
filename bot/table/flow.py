"""The game flow: a change to a game, made by the service, shown by the presenter's plan.

A click walks down once: its button (`bot/cogs/pachisi/buttons.py`) hands `click` what the member
did, as data (`Act`), with its interaction as a `Reply`; under the game's lock the service plays
it, the presenter plans the answer, and the click's own interaction carries it (the clicked
message updated at once; after the computers' pace, updated again or followed by a new message
that pings the next member). A change nobody clicked for (a timer, a restart, a typed command, a
seat handed over) is shown through the channel by `show`. Rules live in the engine, state in the
service, words in `bot.core.texts`; this module only decides where a message goes. The table
sets up one `GameFlow` (`bot.table.flow`) for all the games, from the parts it needs; it writes
through the channel protocol (`bot.table.channel`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from bot.core import metrics, present, records
from bot.core.clock import Clock
from bot.core.config import Settings
from bot.core.errors import AlreadyThrown, GameError, PlayedAlready, StaleTurn
from bot.core.present import Message, Plan
from bot.core.records import SeatTally
from bot.core.service import GameService
from bot.core.shown import ShownBatch
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status, Store
from bot.core.texts import Language, table
from bot.core.texts.language import choose
from bot.core.texts.turns import log_lines
from bot.core.workers import Workers
from bot.table.acts import Act
from bot.table.channel import Attachment, Channel, Channels, Gone, NotPermitted, Reply, Shown, WriteRefused
from bot.table.timers import TurnTimers
from bot.table.writes import Writer, too_old

log = logging.getLogger(__name__)

OLD_MESSAGE_EDITS = 30046
"""Discord's error code for an edit of a message over an hour old once it took a few already."""
CLICKS_AT_ONCE = 16
"""Clicks played and answered at once: a busy bot keeps its event loop's queue short, so a new
click is deferred within moments instead of waiting behind every other click's work."""
ANSWER_WITHIN = 0.8
"""Seconds a click's work may take before its answer is deferred: Discord allows 3 from the click,
the gateway's delay included, and a member is told within a second even when the bot is busy."""
GameEnd = Callable[[GameSnapshot], Awaitable[None]]
"""Told of a game that left play (finished, or ended without a result) once its result is shown;
it may be told again after a restart, so it acts once per game (`Table.add_game_end`)."""


class GameShown:
    """Where a game is shown, and in which words: its channel, the message that shows it, the table
    card in the channel and the language the table speaks."""

    store: Store
    clock: Clock
    channels: Channels
    writer: Writer
    names: dict[int, str]

    def language(self, game: GameSnapshot) -> Language:
        """The language of what the table shares (turn messages, the card, the result): the one it
        was started in."""
        return choose(game.language)

    def starter(self, game: GameSnapshot) -> str:
        return table.member_name(self.language(game), game.started_by, self.names, game.starter_name)

    async def table_number(self, game: GameSnapshot) -> int:
        """Which of its starter's tables off its channel the game is (its thread's number)."""
        if game.card_channel_id is None:
            return 1
        async with self.store.transaction() as session:
            return await self.store.tables_started(session, game.started_by, game.card_channel_id, game.id)

    def channel(self, game: GameSnapshot) -> Channel | None:
        """Where the game plays. A thread just created may not be known yet (its gateway event
        comes later): it is written to all the same."""
        threaded = game.card_channel_id is not None
        return self.channels.get(game.channel_id, game.guild_id, new_thread=threaded)

    async def stored_message(self, game: GameSnapshot, channel: Channel) -> Shown | None:
        with contextlib.suppress(Gone, NotPermitted):
            return None if game.message_id is None else await channel.fetch(game.message_id)
        return None

    def card_channel(self, game: GameSnapshot) -> Channel | None:
        """Where the table card is: the channel of the game's thread, else the game's own channel."""
        if game.card_channel_id is None:
            return self.channel(game)
        return self.channels.get(game.card_channel_id, game.guild_id)

    async def update_card(self, game: GameSnapshot) -> None:
        """Show the seats as they are now, or the result at the end (an edit, never a new message)."""
        channel = self.card_channel(game)
        if game.card_message_id is None or channel is None:
            return
        finished = game.status == Status.FINISHED
        card = present.card(
            self.language(game),
            game,
            self.starter(game),
            tallies=await self._tallies(game),
            players=await records.game_players(self.store, game.id) if finished else None,
            ended_at=self.clock.now(),
            number=await self.table_number(game),
        )
        try:
            await self.writer.edit(channel, game.card_message_id, card, game)
        except WriteRefused as exc:
            log.warning("game=%s table card not updated (%s %s)", game.id, exc.status, exc.code)

    async def _tallies(self, game: GameSnapshot) -> dict[int, SeatTally] | None:
        return await records.tallies(self.store, game.id) if game.status == Status.FINISHED else None


class GameFlow(GameShown):
    """Every game of this process: locks, the names it has seen, turn timers and the writes."""

    def __init__(
        self,
        *,
        service: GameService,
        store: Store,
        clock: Clock,
        settings: Settings,
        workers: Workers,
        channels: Channels,
        writer: Writer,
        game_ends: Sequence[GameEnd] = (),
    ) -> None:
        self.service = service
        self.store = store
        self.clock = clock
        self.settings = settings
        self.workers = workers
        self.channels = channels
        self.writer = writer
        self.game_ends = game_ends
        """What is told of a game that left play: the table's hooks (`Table.add_game_end`)."""
        self.timers = TurnTimers(clock, settings.turn_timeout_seconds, self.timed_out, self.remind)
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.working = asyncio.Semaphore(CLICKS_AT_ONCE)
        """Clicks being played and answered now; the others wait, deferred, so the loop stays free."""
        self.shown = ShownBatch(store)
        """The next turn's message ids, stored in batches (bot/core/shown.py)."""
        self.names: dict[int, str] = {}
        """Display names of the members this process has seen, for the board's panels."""

    def remember(self, reply: Reply) -> None:
        self.names[reply.user_id] = reply.user_name

    # --- a click on a turn message ----------------------------------------------------------

    async def click(self, reply: Reply, act: Act) -> None:
        """Play `act` and answer with the clicked message, updated."""
        self.remember(reply)
        clicked = reply.message
        assert clicked is not None
        lock = self.locks[act.game_id]
        if lock.locked() or self.working.locked() or self.workers.backlog:
            await defer(reply, act.game_id)  # the work would wait: say at once that it comes
        async with lock:
            async with self.working:
                work = asyncio.ensure_future(self._planned(clicked, act))
                done, _ = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
                if not done:
                    await defer(reply, act.game_id)
                try:
                    played, plan, files = await work
                except PlayedAlready:
                    await defer(reply, act.game_id)  # the member's own click again: the first answers
                    return
                game = played.snapshot
                await self._answer(reply, plan.now or Message(clicked.content), game, files)
            metrics.answered(reply.id)
            if played.replaced is not None:
                await self.close(game, played.replaced)
            await self._after_pace(played, plan, reply)

    async def _answer(
        self, reply: Reply, message: Message, game: GameSnapshot, files: list[Attachment] | None = None
    ) -> None:
        """The clicked message becomes `message` through the click's interaction; if Discord no
        longer takes that answer (it came too late, or failed), through the channel instead."""
        try:
            await reply.answer(message, files or await self.writer.files(message, game))
        except WriteRefused as exc:
            log.warning("game=%s click answer refused (%s %s)", game.id, exc.status, exc.code)
            clicked = reply.message
            if clicked is not None and exc.code != OLD_MESSAGE_EDITS:
                await self._edit(game, clicked.id, message)
            elif message.buttons:  # the message takes no more edits: the turn goes on in a new one
                await self._post(game, message)

    async def _planned(self, clicked: Shown, act: Act) -> tuple[Played, Plan, list[Attachment]]:
        played = await self._clicked(act, clicked.id)
        game = played.snapshot
        lang = self.language(game)
        seat = game.seat_of(act.user_id)
        earlier = log_lines(clicked.content)
        tallies = await self._tallies(game)
        if seat is None or too_old(clicked.id, self.clock.now()):
            plan = present.after_change(lang, played, earlier, self.names, tallies)
        else:
            plan = present.after_click(lang, played, seat, earlier, self.names, tallies)
        files = await self.writer.files(plan.now, game) if plan.now is not None else []
        return played, plan, files

    async def _clicked(self, act: Act, shown_on: int) -> Played:
        """The service plays a click on the message `shown_on`, which its transaction stores as the
        one showing the game: the game's id noted and not yet written (`self.shown`) is then moot."""
        noted = self.shown.take(act.game_id)
        try:
            played = await self._act(act, shown_on)
        except BaseException:
            self.shown.put_back(act.game_id, noted)
            raise
        return self.shown.settled(played, noted, shown_on)

    async def _act(self, act: Act, shown_on: int) -> Played:
        try:
            return await self.service.act(act.game_id, act.user_id, act.turn, act.move, shown_on=shown_on)
        except AlreadyThrown:
            if act.move is not None:
                raise
            # The throw is stored but this message still offers "Throw" (a restart between the
            # two): show the stored throw's choices on it.
            return Played(await self.service.get(act.game_id))
        except StaleTurn:
            if await self.service.played_by(act.game_id, act.turn, act.user_id):
                raise PlayedAlready() from None
            raise

    async def _after_pace(self, played: Played, plan: Plan, reply: Reply | None) -> None:
        """What follows the first answer: the computers' turns after their pace, the next message;
        through the click's `reply`, or through the channel when nobody clicked."""
        game = played.snapshot
        if plan.paced:
            await asyncio.sleep(self.settings.computer_pace_seconds)  # the computers' pace
        if plan.later is not None:
            if reply is None:
                await self._edit(game, game.message_id or 0, plan.later)
            else:
                await self._answer(reply, plan.later, game)
        over = game.status != Status.ACTIVE
        if over:  # the card first: killed before the result, the game is resumed with both
            await self.update_card(game)
        if plan.post is not None:
            if reply is None:
                await self._post(game, plan.post)
            else:
                await self._follow(reply, game, plan.post)
        if not over and any(e.handed_back for e in played.events):
            await self.update_card(game)
        self.timers.schedule(game)
        if over:
            await self.ended(game)
        if played.more:
            await self._play_on(game.id)

    async def ended(self, game: GameSnapshot) -> None:
        """Tell the table's hooks that `game` left play (a hook's failure is logged, not the game's)."""
        for hook in list(self.game_ends):
            try:
                await hook(game)
            except Exception:
                log.exception("game=%s game-end hook failed", game.id)

    async def _follow(self, reply: Reply, game: GameSnapshot, message: Message) -> None:
        """The next turn as a new message sent through the click's interaction, outside the
        channel's post bucket; through the channel when Discord no longer takes it."""
        try:
            posted = await self.writer.follow(reply, message, game)
        except WriteRefused as exc:
            log.warning("game=%s followup refused (%s %s): posted instead", game.id, exc.status, exc.code)
            await self._post(game, message)
            return
        self.shown.note(game.id, game.version, posted.id if game.status == Status.ACTIVE else None)

    async def _post(self, game: GameSnapshot, message: Message) -> None:
        channel = self.channel(game)
        if channel is None:
            return
        try:
            posted = await self.writer.post(channel, message, game)
        except Gone:
            await self.abandon(game.id)
            return
        except NotPermitted as exc:
            log.warning("game=%s channel=%s missing permissions to post", game.id, game.channel_id)
            raise GameError("cannot_post") from exc
        await self.service.shown(game.id, posted.id if game.status == Status.ACTIVE else None)

    # --- a change nobody clicked for --------------------------------------------------------

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        """The game's lock for a change nobody clicked for, with the turn message a click's
        followup noted stored first: the change reads which message shows the game, and closes it."""
        async with self.locks[game_id]:
            await self.shown.write_now(game_id)
            yield

    async def show(self, played: Played, note: str | None = None, *, intro: str | None = None) -> None:
        """Close the message that showed the turn (saying why with `note`, the table's news: a seat
        given up, the game ended) and post the game as it stands (call locked), with `intro` said
        once on it. The news is said once, at once: on the closed message, or on its own when no
        message showed the turn (before the computers' turns, which may take their pace)."""
        plan = await self._close_shown(played, note, intro)
        if plan is None:
            return
        channel = self.channel(played.snapshot)
        if note is not None and plan.now is None and channel is not None:
            await self.writer.post(channel, Message(note), played.snapshot)
        await self._after_pace(played, plan, None)

    async def _close_shown(
        self, played: Played, note: str | None = None, intro: str | None = None
    ) -> Plan | None:
        """Plan the change's messages and close the one that showed the turn; None: no channel."""
        game = played.snapshot
        channel = self.channel(game)
        if channel is None:
            return None
        stored = await self.stored_message(game, channel)
        earlier = None if stored is None else log_lines(stored.content)
        plan = present.after_change(
            self.language(game),
            played,
            earlier,
            self.names,
            await self._tallies(game),
            note=note,
            intro=intro,
        )
        if plan.now is not None and stored is not None:
            await self._edit(game, stored.id, plan.now)
        return plan

    async def redraw(self, game: GameSnapshot) -> None:
        """The message that shows the turn, drawn again as the game stands, where it is: a seat
        changed hands and its panel names the new holder at once (call locked)."""
        channel = self.channel(game)
        if channel is None or game.status != Status.ACTIVE:
            return
        stored = await self.stored_message(game, channel)
        if stored is None:
            return
        lang = self.language(game)
        message = present.turn_message(lang, game, [], self.names, earlier=log_lines(stored.content))
        await self._edit(game, stored.id, message)

    async def _edit(self, game: GameSnapshot, message_id: int, message: Message) -> None:
        """An earlier message of the game becomes `message`, if Discord still lets it be edited."""
        channel = self.channel(game)
        if channel is None:
            return
        try:
            await self.writer.edit(channel, message_id, message, game)
        except WriteRefused as exc:
            log.warning("game=%s message=%s not edited (%s %s)", game.id, message_id, exc.status, exc.code)

    async def close(self, game: GameSnapshot, message_id: int) -> None:
        """An earlier turn message of the game is done with: its log stays, its buttons go."""
        channel = self.channel(game)
        if channel is None:
            return
        try:
            message = await channel.fetch(message_id)
            lang = self.language(game)
            done = present.closed(lang, game, [], log_lines(message.content))
            await self.writer.edit(channel, message_id, done, game)
        except WriteRefused as exc:
            log.warning("game=%s message=%s not closed (%s %s)", game.id, message_id, exc.status, exc.code)

    async def changed(self, played: Played, *, intro: str | None = None) -> None:
        """Show a change already made outside a click (locked here)."""
        async with self.locked(played.snapshot.id):
            await self.show(played, intro=intro)

    async def play(self, act: Act) -> Played:
        """Play a turn nobody clicked for (a typed command) and show it, locked."""
        async with self.locked(act.game_id):
            played = await self.service.act(act.game_id, act.user_id, act.turn, act.move)
            await self.show(played)
            return played

    async def _play_on(self, game_id: int) -> None:
        """Computers still had throws to play after a call's limit: play and show the next part."""
        await asyncio.sleep(self.settings.computer_pace_seconds)  # the computers' pace
        await self.show(await self.service.play_on(game_id))

    async def timed_out(self, game_id: int, turn: int) -> None:
        async with self.locked(game_id):
            await self.show(await self.service.timeout(game_id, turn))

    async def remind(self, game_id: int, turn: int) -> None:
        """Half the member's time is gone: their turn moves to a new message that pings them, and
        the old one is closed. A separate reminder would keep its countdown ("time runs out 12
        minutes ago") once the turn was played; a turn message is closed with the turn."""
        async with self.locked(game_id):
            game = await self.service.get(game_id)
            if game.turn_number != turn or not game.is_human_turn():
                return
            plan = await self._close_shown(Played(game))
            if plan is not None and plan.post is not None:
                await self._post(game, plan.post)

    async def abandon(self, game_id: int) -> None:
        self.timers.cancel(game_id)
        await self.service.abandon(game_id)


async def defer(reply: Reply, game_id: int) -> None:
    """A deferred update: the click's answer comes later, as an edit of the clicked message."""
    if reply.done():
        return
    try:
        await reply.defer()
    except WriteRefused:
        log.warning("game=%s click not acknowledged in time: shown through the channel", game_id)
