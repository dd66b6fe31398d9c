"""A tournament's rounds at the table: each table's game opened in a thread of its own, results
recorded as games end (the table's game-end hook), the round's clock that adjudicates games still
playing at its limit, the standings posted when a round is over and the next round paired, and the
podium at the end. Everything is read back from the store, so a restart resumes (`resume`).

The rules of the event (pairing, scoring, what a withdrawal does) are `bot.core.tournaments`'; this
module only opens, shows and keeps time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from bot.core.errors import GameError
from bot.core.present import Message
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status, TournamentStatus
from bot.core.texts import tournament as words
from bot.core.texts.language import Language, choose
from bot.core.tournaments.picture import standings_picture
from bot.core.tournaments.service import Decided, Paired, Tournaments
from bot.core.tournaments.snapshot import TableView, Tournament
from bot.table.channel import Attachment, Channel, WriteRefused
from bot.table.flow import GameFlow
from engine import Rules
from engine.state import side_seats
from engine.winchance import win_chance

log = logging.getLogger(__name__)


class Threads(Protocol):
    """Making a table's place: a new public thread of a channel."""

    async def open_thread(self, channel_id: int, guild_id: int, name: str) -> int:
        """The new thread's id; `WriteRefused` when the bot may not make one there."""
        ...


class Roster(Protocol):
    """Who is still in a server: a member who left is withdrawn before the next round is paired
    (Discord tells a bot of a member leaving only with the Server Members intent)."""

    async def gone(self, guild_id: int, members: list[int]) -> list[int]:
        """Those of `members` no longer in the server (none when it cannot tell)."""
        ...


class Rounds:
    """Opens each round's tables, records their results, keeps the round's clock."""

    def __init__(
        self,
        flow: GameFlow,
        tournaments: Tournaments,
        threads: Threads | None,
        changed: Callable[[Tournament], Awaitable[None]],
        roster: Roster | None = None,
    ) -> None:
        self.flow = flow
        self.roster = roster
        self.tournaments = tournaments
        self.threads = threads
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        """One per tournament: a round closes, and the next is paired, once."""
        self.clocks: dict[int, asyncio.Task[None]] = {}
        self.changed = changed
        """The sign-up card follows where the event stands."""

    def language(self, tournament: Tournament) -> Language:
        return choose(tournament.language)

    def channel(self, tournament: Tournament) -> Channel | None:
        return self.flow.channels.get(tournament.channel_id, tournament.guild_id)

    async def post(
        self, tournament: Tournament, message: Message, files: list[Attachment] | None = None
    ) -> None:
        """A message in the tournament's channel (paced like the games' writes)."""
        channel = self.channel(tournament)
        if channel is None:
            return
        await self.flow.writer.pacer.wait(channel.id, "post")
        try:
            await channel.send(message, files or [])
        except WriteRefused as exc:
            log.warning("tournament=%s post refused (%s %s)", tournament.id, exc.status, exc.code)

    # --- a round begins -----------------------------------------------------------------------

    async def begin(self, paired: Paired) -> None:
        """Post the round's pairings and open a game for each table still to play."""
        tournament = paired.tournament
        lang = self.language(tournament)
        await self.post(tournament, Message(words.round_paired(lang, tournament, paired.round)))
        await self.open_tables(tournament, paired.to_open)
        self.arm(tournament)

    async def open_tables(self, tournament: Tournament, tables: list[TableView]) -> None:
        for table in tables:
            try:
                await self.open_table(tournament, table)
            except Exception:
                log.exception("tournament=%s table=%s could not open", tournament.id, table.id)

    async def open_table(self, tournament: Tournament, table: TableView) -> None:
        """The table's thread, its game with the members seated by side, each member pinged once."""
        lang = self.language(tournament)
        if self.threads is None:
            return
        try:
            thread = await self.threads.open_thread(
                tournament.channel_id, tournament.guild_id, words.thread_name(lang, tournament, table)
            )
        except WriteRefused:
            await self.post(tournament, Message(words.no_thread(lang, tournament, table)))
            return
        rules = Rules.parse(tournament.rules)
        seated = {
            side_seats(side, rules.players)[index]: member
            for side, members in enumerate(table.sides)
            for index, member in enumerate(members)
            if member is not None
        }
        starter_seat = min(seated)
        starter = seated.pop(starter_seat)
        names = {e.member: e.name for e in tournament.entrants if e.name}
        played = await self.flow.service.start(
            tournament.guild_id,
            thread,
            starter,
            rules,
            tournament.level,
            starter_seat,
            card_channel_id=tournament.channel_id,
            members=seated,
            language=tournament.language,
            names=names,
            turn_seconds=tournament.move_seconds,
        )
        if not await self.tournaments.set_game(table.id, played.snapshot.id):
            return  # another process opened it first
        channel = self.flow.channels.get(thread, tournament.guild_id, new_thread=True)
        if channel is not None:
            welcome = Message(words.welcome(lang, tournament, table), pings=tuple(table.members))
            await self.flow.writer.pacer.wait(channel.id, "post")
            await channel.send(welcome, [])
        await self.flow.changed(played)

    # --- results --------------------------------------------------------------------------

    async def game_ended(self, game: GameSnapshot) -> None:
        """The table's game-end hook: a finished game of a tournament is its table's result."""
        if game.status != Status.FINISHED or game.outcome is None:
            return
        decided = await self.tournaments.record(game.id, game.outcome.winner)
        if decided is not None and decided.new:
            await self.after_result(decided)

    async def after_result(self, decided: Decided) -> None:
        if decided.round_over or decided.finished:
            await self.close_round(decided.tournament.id)

    async def close_round(self, tournament_id: int) -> None:
        """The round is over: the standings, then the next round paired (unless paused) or the
        podium. Once per round, whoever asks first."""
        async with self.locks[tournament_id]:
            tournament = await self.tournaments.get(tournament_id)
            if tournament.status == TournamentStatus.RUNNING and not tournament.round_over():
                return  # paired already
            self.disarm(tournament_id)
            if tournament.status == TournamentStatus.FINISHED:
                await self.post_standings(tournament, None)
                await self.post(tournament, Message(words.podium(self.language(tournament), tournament)))
                await self.changed(tournament)
                return
            if tournament.status != TournamentStatus.RUNNING:
                return
            await self.withdraw_gone(tournament)
            paired = await self.tournaments.pair_next(tournament_id)
            if paired is None:  # paused: the organizer pairs it
                await self.post_standings(tournament, None)
                return
            await self.post_standings(paired.tournament, paired.round)
            await self.begin(paired)
            await self.changed(paired.tournament)

    async def withdraw_gone(self, tournament: Tournament) -> None:
        """Members who left the server since are withdrawn before the next round is paired."""
        if self.roster is None:
            return
        playing = [e.member for e in tournament.entrants if e.playing]
        for member in await self.roster.gone(tournament.guild_id, playing):
            decided = await self.tournaments.withdraw(tournament.id, member)
            await self.post(tournament, Message(words.withdrawn(self.language(tournament), member)))
            await self.changed(decided.tournament)

    async def post_standings(self, tournament: Tournament, next_round: int | None) -> None:
        lang = self.language(tournament)
        picture = await self.flow.workers.run(standings_picture, lang, tournament, next_round)
        text = words.standings(lang, tournament, next_round)
        await self.post(tournament, Message(text), [Attachment("standings.png", picture)])

    # --- the round's clock ------------------------------------------------------------------

    def arm(self, tournament: Tournament) -> None:
        """The current round's clock: at its deadline the games still playing are adjudicated."""
        self.disarm(tournament.id)
        found = tournament.round()
        if tournament.status != TournamentStatus.RUNNING or found is None or found.ended_at is not None:
            return
        self.clocks[tournament.id] = asyncio.create_task(
            self._clock(tournament.id, found.number, found.deadline)
        )

    def disarm(self, tournament_id: int) -> None:
        task = self.clocks.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _clock(self, tournament_id: int, number: int, deadline: datetime) -> None:
        try:
            await self.flow.clock.sleep_until(deadline)
            if self.clocks.get(tournament_id) is asyncio.current_task():
                del self.clocks[tournament_id]
            await self.adjudicate(tournament_id, number)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament=%s round=%s clock failed", tournament_id, number)

    async def adjudicate(self, tournament_id: int, number: int) -> None:
        """Every game of round `number` still playing goes to the side its win chance favours."""
        tournament = await self.tournaments.get(tournament_id)
        if tournament.current_round != number:
            return
        for table in tournament.round_tables(number):
            if table.done:
                continue
            await self.adjudicate_table(tournament, table)
        await self.close_round(tournament_id)

    async def adjudicate_table(self, tournament: Tournament, table: TableView) -> None:
        game = None if table.game_id is None else await self.flow.service.get(table.game_id)
        active = game is not None and game.status == Status.ACTIVE
        chance = 0.5
        if game is not None and active:
            chance = (await self.flow.workers.run(win_chance, game.position, game.pending_throw))[0]
        decided = await self.tournaments.adjudicate(table.id, chance)
        if not decided.new or decided.table is None:
            return
        lang = self.language(tournament)
        note = words.adjudicated(lang, decided.tournament, decided.table)
        await self.post(tournament, Message(note))
        if game is not None and active:
            await self.end_game(game.id, decided.table.winner, note)

    async def end_game(self, game_id: int, winner: int | None, note: str) -> None:
        """A game the tournament decided ends: the other side concedes (it counts for ratings), or
        without a result for a draw."""
        async with self.flow.locked(game_id):
            try:
                if winner is None:
                    game = await self.flow.service.end(game_id, 0, can_manage=True)
                    self.flow.timers.cancel(game_id)
                    await self.flow.show(Played(game), note=note)
                else:
                    played = await self.flow.service.concede(game_id, 1 - winner)
                    await self.flow.show(played, note=note)
            except GameError:
                pass  # it ended on its own meanwhile

    # --- after a start ----------------------------------------------------------------------

    async def adopt(self, tournament: Tournament, table: TableView) -> bool:
        """A game a killed process opened for `table` before noting it (its members seated, under
        this event's card, since the round began) is noted now rather than opened twice."""
        found = tournament.round(table.round)
        if found is None:
            return False
        for game in await self.flow.service.active_games([tournament.guild_id], unannounced=True):
            seated = {info.user_id for info in game.seats.values() if info.user_id is not None}
            ours = game.card_channel_id == tournament.channel_id and game.created_at >= found.started_at
            if not (ours and seated and seated <= set(table.members)):
                continue
            if await self.tournaments.game_table(game.id) is None:
                return await self.tournaments.set_game(table.id, game.id)
        return False

    async def resume(self, tournament: Tournament) -> None:
        """A running event as a new process finds it: tables not yet opened open, games that ended
        unrecorded are recorded, the round's clock runs again (or the round closes)."""
        unopened = [t for t in tournament.round_tables() if not t.done and t.game_id is None]
        unopened = [t for t in unopened if not await self.adopt(tournament, t)]
        await self.open_tables(tournament, unopened)
        for table in tournament.round_tables():
            if table.done or table.game_id is None:
                continue
            game = await self.flow.service.get(table.game_id)
            if game.status == Status.FINISHED:
                await self.game_ended(game)
        tournament = await self.tournaments.get(tournament.id)
        if tournament.status == TournamentStatus.RUNNING and tournament.round_over():
            if not tournament.paused:
                await self.close_round(tournament.id)
            return
        self.arm(tournament)
