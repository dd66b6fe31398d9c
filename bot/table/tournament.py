"""Tournaments at the table: the sign-up card with its Join and Leave buttons, the organizer's
commands, a member withdrawn when they leave, the sign-up's closing time, and what a restart
resumes. The rounds themselves (tables, results, the round's clock) are `bot.table.rounds`'.

Each change is one call of the tournaments' service (`bot.core.tournaments.service`), which
refuses with a `GameError` what may not be (the cog answers it to the member alone); this module
shows the change: the card edited, the news posted, the member told.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import datetime

from bot.core.present import Button, Message
from bot.core.store import Status, TournamentStatus
from bot.core.texts import tournament as words
from bot.core.tournaments.picture import standings_picture
from bot.core.tournaments.reads import TournamentError
from bot.core.tournaments.service import Decided, Options, Paired, Tournaments
from bot.core.tournaments.snapshot import ROUND_ROBIN, Tournament
from bot.table.channel import Reply, WriteRefused
from bot.table.flow import GameFlow
from bot.table.rounds import Roster, Rounds, Threads

log = logging.getLogger(__name__)

TOURNAMENT_JOIN = "tournament-join"
TOURNAMENT_LEAVE = "tournament-leave"
"""The card's buttons' actions (their ids are the Discord side's: `bot/cogs/pachisi/buttons.py`)."""


class TournamentDesk:
    """The tournaments of this process: their cards, the organizer's commands, their clocks."""

    def __init__(
        self,
        flow: GameFlow,
        tournaments: Tournaments,
        threads: Threads | None,
        roster: Roster | None = None,
    ) -> None:
        self.flow = flow
        self.tournaments = tournaments
        self.rounds = Rounds(flow, tournaments, threads, self.update_card, roster)
        self.signups: dict[int, asyncio.Task[None]] = {}

    # --- the card ---------------------------------------------------------------------------

    def card(self, tournament: Tournament) -> Message:
        """The card's words, and the buttons still useful: Join and Leave during sign-up, Leave
        while it runs, none once it is over."""
        lang = self.rounds.language(tournament)
        join = Button(TOURNAMENT_JOIN, tournament.id, 0, words.join_label(lang), style="success")
        leave = Button(TOURNAMENT_LEAVE, tournament.id, 0, words.leave_label(lang))
        buttons = {
            TournamentStatus.SIGNUP: (join, leave),
            TournamentStatus.RUNNING: (leave,),
        }.get(TournamentStatus(tournament.status), ())
        return Message(words.card(lang, tournament), buttons)

    async def post_card(self, tournament: Tournament) -> None:
        channel = self.rounds.channel(tournament)
        if channel is None:
            return
        await self.flow.writer.pacer.wait(channel.id, "post")
        posted = await channel.send(self.card(tournament), [])
        await self.tournaments.set_card(tournament.id, posted.id)

    async def update_card(self, tournament: Tournament) -> None:
        """The card follows the entrants and where the event stands (an edit, paced)."""
        channel = self.rounds.channel(tournament)
        if channel is None or tournament.card_message_id is None:
            return
        await self.flow.writer.pacer.wait(channel.id, "edit")
        try:
            await channel.edit(tournament.card_message_id, self.card(tournament), [])
        except WriteRefused as exc:
            log.warning("tournament=%s card not updated (%s %s)", tournament.id, exc.status, exc.code)

    # --- sign-up ----------------------------------------------------------------------------

    async def here(self, channel_id: int | None) -> Tournament:
        """The channel's live tournament (refused when there is none)."""
        found = None if channel_id is None else await self.tournaments.in_channel(channel_id)
        if found is None:
            raise TournamentError("no_tournament")
        return found

    async def open(
        self, reply: Reply, guild_id: int, channel_id: int, options: Options, closes_at: datetime
    ) -> Tournament:
        tournament = await self.tournaments.open(guild_id, channel_id, reply.user_id, options, closes_at)
        await self.post_card(tournament)
        tournament = await self.tournaments.get(tournament.id)
        self.arm_signup(tournament)
        await reply.tell(words.opened(reply.language, tournament))
        return tournament

    async def join(self, reply: Reply, tournament_id: int) -> None:
        """A Join click: in once (a second click is refused, having joined)."""
        tournament = await self.tournaments.join(tournament_id, reply.user_id, reply.user_name)
        await reply.tell(words.joined(reply.language, tournament))  # first: the card's edit is paced
        await self.update_card(tournament)

    async def leave(self, reply: Reply, tournament_id: int) -> None:
        decided = await self.tournaments.leave(tournament_id, reply.user_id)
        await reply.tell(words.left(reply.language, decided.tournament))
        await self.taken_out(decided, reply.user_id)

    async def add(self, reply: Reply, member: int, name: str | None, *, manager: bool) -> None:
        here = await self.here(reply.channel_id)
        tournament = await self.tournaments.add(here.id, reply.user_id, member, name, manager=manager)
        await reply.tell(words.added(reply.language, tournament, member))
        await self.update_card(tournament)

    async def drop(self, reply: Reply, member: int, *, manager: bool) -> None:
        here = await self.here(reply.channel_id)
        decided = await self.tournaments.drop(here.id, reply.user_id, member, manager=manager)
        await reply.tell(words.dropped(reply.language, decided.tournament, member))
        await self.taken_out(decided, member)

    async def member_left(self, guild_id: int, member: int) -> None:
        """A member left the server: withdrawn from each event of it they play in."""
        for tournament in await self.tournaments.live():
            entrant = tournament.entrant(member)
            if tournament.guild_id != guild_id or entrant is None or not entrant.playing:
                continue
            try:
                decided = await self.tournaments.withdraw(tournament.id, member)
            except TournamentError:
                continue
            await self.taken_out(decided, member)

    async def taken_out(self, decided: Decided, member: int) -> None:
        """Show a withdrawal: the card, the news once the event runs, the member's game (lost by
        forfeit at a 2-player table, the computer in their seat at a partnership's)."""
        tournament = decided.tournament
        await self.update_card(tournament)
        if tournament.status == TournamentStatus.SIGNUP:
            return
        lang = self.rounds.language(tournament)
        note = words.withdrawn(lang, member)
        await self.rounds.post(tournament, Message(note))
        table = decided.table
        if table is not None and table.game_id is not None:
            await self.rounds.end_game(table.game_id, table.winner, note)
        else:
            await self.seat_to_computer(tournament, member)
        if decided.new:
            await self.rounds.after_result(decided)

    async def seat_to_computer(self, tournament: Tournament, member: int) -> None:
        table = tournament.table_of(member)
        if table is None or table.done or table.game_id is None:
            return
        game = await self.flow.service.get(table.game_id)
        if game.status != Status.ACTIVE or game.seat_of(member) is None:
            return
        async with self.flow.locked(game.id):
            await self.flow.show(await self.flow.service.leave(game.id, member))

    # --- the organizer ----------------------------------------------------------------------

    async def start(self, reply: Reply, *, manager: bool) -> None:
        here = await self.here(reply.channel_id)
        paired = await self.tournaments.start(here.id, reply.user_id, manager=manager)
        await reply.tell(words.started(reply.language, paired.tournament))
        await self.begin(paired)

    async def begin(self, paired: Paired) -> None:
        """A round opens (the first of a round robin after its whole schedule)."""
        tournament = paired.tournament
        self.disarm_signup(tournament.id)
        await self.update_card(tournament)
        if paired.round == 1 and tournament.format == ROUND_ROBIN:
            lang = self.rounds.language(tournament)
            await self.rounds.post(tournament, Message(words.schedule(lang, tournament)))
        await self.rounds.begin(paired)

    async def cancel(self, reply: Reply, *, manager: bool) -> None:
        """The event ends without a result; its games still playing end too."""
        here = await self.here(reply.channel_id)
        tournament = await self.tournaments.cancel(here.id, reply.user_id, manager=manager)
        self.disarm_signup(tournament.id)
        self.rounds.disarm(tournament.id)
        note = words.cancelled(self.rounds.language(tournament), tournament)
        for table in tournament.round_tables():
            if table.game_id is not None and not table.done:
                await self.rounds.end_game(table.game_id, None, note)
        await reply.tell(words.cancelled(reply.language, tournament), ephemeral=False)
        await self.update_card(tournament)

    async def pause(self, reply: Reply, *, paused: bool, manager: bool) -> None:
        here = await self.here(reply.channel_id)
        tournament = await self.tournaments.pause(here.id, reply.user_id, paused=paused, manager=manager)
        await reply.tell(words.paused(reply.language, tournament))
        await self.update_card(tournament)
        if not paused and tournament.status == TournamentStatus.RUNNING and tournament.round_over():
            await self.rounds.close_round(tournament.id)

    async def next(self, reply: Reply, *, manager: bool) -> None:
        """The organizer pairs the next round now (a paused event's)."""
        here = await self.here(reply.channel_id)
        paired = await self.tournaments.pair_next(here.id, reply.user_id, manager=manager)
        assert paired is not None
        await reply.tell(words.started(reply.language, paired.tournament))
        await self.rounds.post_standings(paired.tournament, paired.round)
        await self.begin(paired)

    async def standings(self, reply: Reply) -> tuple[str, bytes]:
        """The standings now, as text and picture, in the member's language; once the channel's
        tournament is over, its final standings."""
        channel = reply.channel_id
        live = None if channel is None else await self.tournaments.in_channel(channel)
        here = live or (None if channel is None else await self.tournaments.finished_in_channel(channel))
        if here is None:
            raise TournamentError("no_tournament")
        lang = reply.language
        picture = await self.flow.workers.run(standings_picture, lang, here, None)
        return words.standings(lang, here), picture

    # --- the sign-up's clock, and a start -----------------------------------------------------

    def arm_signup(self, tournament: Tournament) -> None:
        self.disarm_signup(tournament.id)
        if tournament.status == TournamentStatus.SIGNUP:
            task = asyncio.create_task(self._signup_closes(tournament.id, tournament.signup_closes_at))
            self.signups[tournament.id] = task

    def disarm_signup(self, tournament_id: int) -> None:
        task = self.signups.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _signup_closes(self, tournament_id: int, closes_at: datetime) -> None:
        """Sign-up closed: the bot starts the event (too few entrants: it waits for the organizer)."""
        try:
            await self.flow.clock.sleep_until(closes_at)
            self.signups.pop(tournament_id, None)
            paired = await self.tournaments.start(tournament_id, None)
        except asyncio.CancelledError:
            raise
        except TournamentError as exc:
            log.info("tournament=%s not started at sign-up's close (%s)", tournament_id, exc.key)
            return
        await self.begin(paired)

    async def resume(self, guild_ids: Iterable[int]) -> None:
        """After a start: sign-up clocks and rounds run again for the events of these guilds."""
        guilds = set(guild_ids)
        for tournament in await self.tournaments.live():
            if tournament.guild_id not in guilds:
                continue
            try:
                if tournament.status == TournamentStatus.SIGNUP:
                    self.arm_signup(tournament)
                else:
                    await self.rounds.resume(tournament)
            except Exception:
                log.exception("tournament=%s could not be resumed", tournament.id)

    def close(self) -> None:
        for tournament_id in list(self.signups):
            self.disarm_signup(tournament_id)
        for tournament_id in list(self.rounds.clocks):
            self.rounds.disarm(tournament_id)
