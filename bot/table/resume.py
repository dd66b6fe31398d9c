"""After a (re)start: every game of this process's guilds is shown as it stands, and games whose
channel, thread or server is gone are closed.

A process can die anywhere: after a throw or move was stored and before the message showed it,
after a post reached Discord and before its id was stored (an orphan with live buttons), after
the last move and before the result was posted. Resuming finds each of these from the store and
the channel's recent messages and shows the game once, as it stands; it says nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.core import present
from bot.core.present import MOVE, THROW
from bot.core.snapshot import GameSnapshot, Played
from bot.core.store import Status
from bot.table.channel import Gone, Key, NotPermitted, Shown
from bot.table.flow import GameFlow

log = logging.getLogger(__name__)

ORPHAN_SEARCH = 25
"""Messages read back, on resume, for turn messages a killed process posted but never stored."""
PLAYING = (THROW, MOVE)
"""The buttons that play a turn (the Hint and Take a seat do not)."""


class Resumer:
    """Shows each game as it stands after a start, and closes games whose place is gone."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.service = flow.service

    async def resume(self, guild_ids: Iterable[int]) -> None:
        games = await self.service.active_games(guild_ids, unannounced=True)
        for game in games:
            try:
                async with self.flow.locked(game.id):
                    await self.resume_game(game.id)
            except Exception:
                log.exception("game=%s could not be resumed", game.id)
        log.info("resumed games=%d", len(games))

    async def resume_game(self, game_id: int) -> None:
        current = await self.service.get(game_id)
        if current.status == Status.FINISHED:
            await self.flow.show(Played(current))  # the last move is stored, its result not posted
            return
        if current.status != Status.ACTIVE:
            return
        carded = current.card_message_id is not None  # else a card posted by a killed process is an orphan
        if carded and current.is_human_turn() and await self.turn_is_shown(current):
            self.flow.timers.schedule(current)
            return
        await self.retire_orphans(current)
        played = Played(current) if current.is_human_turn() else await self.service.play_on(game_id)
        await self.flow.show(played)

    async def retire_orphans(self, game: GameSnapshot) -> None:
        """Disable the buttons of this game's messages that the store does not know: a process
        killed after Discord took a turn's post and before its id was stored left one, live."""
        channel = self.flow.channel(game)
        if channel is None:
            return
        try:
            for message in await channel.history(ORPHAN_SEARCH):
                if message.id in (game.message_id, game.card_message_id) or not message.mine:
                    continue
                if any(key.game_id == game.id for key in message.buttons):
                    await self.flow.writer.pacer.wait(channel.id, "edit")
                    await channel.disable_buttons(message)
                    log.info("game=%s retired orphan message=%s", game.id, message.id)
        except (Gone, NotPermitted):
            pass  # no history to read: the orphan stays, and a click on it is refused as stale

    async def turn_is_shown(self, game: GameSnapshot) -> bool:
        """Whether the stored turn message offers this turn's buttons: a process killed between
        committing a throw or move and updating the message leaves buttons nobody can use."""
        channel = self.flow.channel(game)
        message = None if channel is None else await self.flow.stored_message(game, channel)
        if message is None:
            return False
        planned = present.turn_buttons(self.flow.language(game), game)
        expected = {Key(b.action, b.game_id, b.turn, b.move) for b in planned if b.action in PLAYING}
        return expected == playing(message)

    async def place_gone(self, channel_id: int) -> None:
        """The channel or thread of a game was deleted: the game is abandoned."""
        game = await self.service.get_active(channel_id)
        if game is not None:
            await self.flow.abandon(game.id)

    async def guild_gone(self, guild_id: int) -> None:
        for game in await self.service.active_games([guild_id]):
            await self.flow.abandon(game.id)


def playing(message: Shown) -> set[Key]:
    """The message's live buttons that play a turn."""
    return {key for key in message.buttons if key.action in PLAYING}
