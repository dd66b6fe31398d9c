"""The table layer: the games of this process in their channels, without the chat library.

Who may act, the pace of the computers' turns and of the channel's writes, turn timers, seats
changing hands, which message shows a turn, and what a restart finds: `flow` (a click's and a
command's way to a game), `seats`, `resumer` and `hints`, built once by the bot (`setup_hook`) from
what they need, and writing through the protocols of `bot.table.channel`. The cogs and the buttons
(`bot/cogs/`) read Discord's input, call this layer with the member's interaction as a `Reply`,
and own nothing of a game. It never imports the bot class nor discord.py.

An extension adds to a finished game's result through `add_result_file` (the story chart), and
hears of every game that leaves play through `add_game_end` (the tournaments record results).
"""

from __future__ import annotations

from concurrent.futures import Executor

from bot.core.clock import Clock
from bot.core.config import Settings
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.tournaments.service import Tournaments
from bot.core.workers import Workers
from bot.table.channel import Channels
from bot.table.flow import GameEnd, GameFlow
from bot.table.hints import Hints
from bot.table.resume import Resumer
from bot.table.rounds import Roster, Threads
from bot.table.seats import Seats
from bot.table.tournament import TournamentDesk
from bot.table.writes import Pacer, ResultFile, Writer


class Table:
    """The table layer of one process: its parts, and the hooks extensions add behaviour through."""

    def __init__(
        self,
        *,
        service: GameService,
        store: Store,
        clock: Clock,
        settings: Settings,
        workers: Workers,
        channels: Channels,
        pool: Executor,
        pacer: Pacer | None = None,
        threads: Threads | None = None,
        roster: Roster | None = None,
    ) -> None:
        self._result_files: list[ResultFile] = []
        self._game_ends: list[GameEnd] = []
        writer = Writer(workers, self._result_files, pacer or Pacer(settings.discord_bucket_seconds))
        self.flow = GameFlow(
            service=service,
            store=store,
            clock=clock,
            settings=settings,
            workers=workers,
            channels=channels,
            writer=writer,
            game_ends=self._game_ends,
        )
        """Plays and shows every game: a click's and a command's way to a game."""
        self.seats = Seats(self.flow, settings)
        """Opens tables, seats and unseats members, ends games (through `flow`)."""
        self.resumer = Resumer(self.flow)
        """Shows the games as they stand after a start; closes those whose place is gone."""
        self.hints = Hints(self.flow, service, store, pool)
        self.tournaments = TournamentDesk(self.flow, Tournaments(store, clock.now), threads, roster)
        """Tournaments: their cards, the organizer's commands, their rounds (`threads` makes each
        table's thread, without it no round opens a table; `roster` says who left the server)."""
        self.add_game_end(self.tournaments.rounds.game_ended)

    def add_result_file(self, make: ResultFile) -> None:
        """Every finished game's result carries the file `make` returns (in the order added)."""
        if make not in self._result_files:
            self._result_files.append(make)

    def remove_result_file(self, make: ResultFile) -> None:
        if make in self._result_files:
            self._result_files.remove(make)

    def add_game_end(self, hook: GameEnd) -> None:
        """`hook` is told of every game that leaves play, once its result is shown (a tournament
        records it); it may be told again of a game after a restart."""
        if hook not in self._game_ends:
            self._game_ends.append(hook)

    def remove_game_end(self, hook: GameEnd) -> None:
        if hook in self._game_ends:
            self._game_ends.remove(hook)

    async def close(self) -> None:
        """Stop the timers and store the turn messages still noted (the bot stopping)."""
        self.flow.timers.cancel_all()
        self.tournaments.close()
        await self.flow.shown.flush()
