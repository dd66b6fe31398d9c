"""After a game, through the fake Discord: history, the record file, the animated replay, ratings."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from PIL import Image

from engine.record import read_record
from tests.support.processes import stored_games
from tests.support.table import Table, final_message, play_out


async def test_after_a_game_members_list_export_replay_and_see_their_rating(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    async with start_table() as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="hard")
        await play_out(table, [table.alice], by="buttons")  # one click a throw: one piece, one move
        (game,) = await stored_games(table.database_url)
        assert game.snapshot.status == "finished"

        listed = await table.bob.slash(table.channel, "pachisi history")
        assert listed.ephemeral
        line = next(line for line in listed.content.splitlines() if line.startswith(f"`#{game.snapshot.id}`"))
        assert f"<@{table.alice.id}>" in line and "computer (hard)" in line
        assert "classic, 2 players, 1 piece ·" in line and f"{game.snapshot.turn_number} throws" in line
        assert " won · " in line or "draw" in line

        exported = await table.bob.slash(table.channel, "pachisi export")
        assert exported.ephemeral
        # Said for a member: what the file is and where its format is described, not a command to run.
        assert "python -m" not in exported.content and "PGN" in exported.content
        assert "`/pachisi rules`" in exported.content and "docs/" not in exported.content
        (attachment,) = exported.attachments
        assert attachment.filename == f"pachisi-game-{game.snapshot.id}.txt"
        record = read_record(attachment.data.decode())
        assert record.final == game.snapshot.position
        assert len(record.throws) == game.snapshot.turn_number
        assert record.tags["Black"] == f"Alice (user {table.alice.id})"
        assert record.tags["Yellow"] == "computer (hard)"
        assert record.tags["Site"] == "Discord: Pachisi club #games"

        replayed = await table.bob.slash(table.channel, "pachisi replay", game=game.snapshot.id)
        assert not replayed.ephemeral
        (gif,) = replayed.attachments
        assert gif.filename == f"pachisi-game-{game.snapshot.id}.gif"
        animation = Image.open(io.BytesIO(gif.data))
        assert animation.format == "GIF" and getattr(animation, "n_frames", 1) > 2
        assert gif in table.channel.messages[-1].attachments  # posted for the channel to see

        stats = await table.alice.slash(table.channel, "pachisi stats")
        # A newcomer's rating on the scale members know, marked provisional: not "-1.6".
        assert re.search(r"Rating \*\*1[0-9]{3}\?\*\* ± [0-9]+ · ", stats.content), stats.content
        assert "1 game, " in stats.content and "1 games" not in stats.content
        # each number with its own noun (issue 41): never "1 wins in 1 game"
        assert (
            "against computers: 1 game, 1 win." in stats.content
            or "against computers: 1 game, 0 wins." in stats.content
        )
        board = await table.alice.slash(table.channel, "pachisi leaderboard")
        assert "Nobody has played 3 rated games" in board.content  # one game is not enough to rank


async def test_a_missing_game_is_refused_and_nothing_is_posted(table: Table) -> None:
    before = len(table.channel.messages)
    nothing = await table.alice.slash(table.channel, "pachisi replay")
    assert nothing.ephemeral and "No game has been played in this channel" in nothing.content
    missing = await table.alice.slash(table.channel, "pachisi export", game=999)
    assert missing.ephemeral and "no game #999 in this server" in missing.content
    empty = await table.alice.slash(table.channel, "pachisi history")
    assert empty.ephemeral and "No games in this server yet" in empty.content
    assert len(table.channel.messages) == before


async def test_export_and_replay_in_the_channel_find_the_game_of_its_thread(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    async with start_table(default_thread=True, default_auto_throw=True) as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        [thread] = await table.fake.wait_until(lambda: table.channel.threads, what="the game's thread")
        await table.alice.slash(thread, "pachisi leave")  # the computers play the game to its end
        await table.fake.wait_until(lambda: final_message(thread), what="the game's result")
        (game,) = await stored_games(table.database_url)
        assert game.snapshot.status == "finished" and game.snapshot.card_channel_id == table.channel.id
        # Typed in the channel that shows the table card, not in the thread.
        exported = await table.bob.slash(table.channel, "pachisi export")
        (attachment,) = exported.attachments
        assert attachment.filename == f"pachisi-game-{game.snapshot.id}.txt"
        replayed = await table.bob.slash(table.channel, "pachisi replay")
        (gif,) = replayed.attachments
        assert gif.filename == f"pachisi-game-{game.snapshot.id}.gif"
        # Another channel has had no game.
        other = table.guild.add_text_channel("elsewhere")
        nothing = await table.bob.slash(other, "pachisi export")
        assert nothing.ephemeral and not nothing.attachments


async def test_stats_of_another_member_name_that_member(table: Table) -> None:
    # Discord sends the member an option names in the interaction's resolved data; so does the fake.
    reply = await table.alice.slash(table.channel, "pachisi stats", member=table.bob)
    assert reply.ephemeral
    assert reply.content.startswith("**Bob**"), reply.content
