"""The bot process dies (SIGKILL) mid-game; a new process picks the game up where it was."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from sqlalchemy import select

from bot.core import present
from bot.core.shown import ShownBatch
from bot.core.store import GameRow, GameValues, Store
from bot.core.texts import ENGLISH
from localdiscord.objects import Message
from tests.e2e.fakediscord import FakeDiscord
from tests.support.processes import (
    bot_env,
    check_move_log,
    running_bot,
    stored_games,
    wait_for,
    wait_for_game,
)
from tests.support.table import (
    WHOLE_GAME,
    Table,
    choices_shown,
    click_until_acknowledged,
    final_message,
    is_final,
    live_buttons,
    play_out,
    player_to_move,
    subprocess_table,
    turn_state,
    wait_for_turn_or_end,
)


async def test_killed_while_a_human_move_is_pending(fake: FakeDiscord, database_url: str) -> None:
    table = subprocess_table(fake, database_url)
    env = bot_env(fake, database_url)
    async with running_bot(fake, env) as bot:
        # Four pieces: a game of two can end before Black is ever offered a choice (1 in 35).
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=4, level="easy")
        # Alice throws until she has a move to choose (a throw with one move plays at once).
        while True:
            message = await wait_for_turn_or_end(table)
            labels = [b.label for b in live_buttons(message)]
            if labels != ["Throw"]:
                break
            before = turn_state(table.channel)
            await table.alice.click(message, "Throw")
            await wait_for_turn_or_end(table, after=before)
        [game] = await stored_games(database_url)
        pending = game.snapshot.pending_throw, game.snapshot.turn_number
        assert pending[0] is not None

        await bot.kill()
        await bot.start()
        [game] = await stored_games(database_url)
        assert (game.snapshot.pending_throw, game.snapshot.turn_number) == pending
        # The buttons posted by the dead process still work.
        await click_until_acknowledged(
            table, table.alice, message, labels[0] or "", turn_state(table.channel)
        )
        [game] = await stored_games(database_url)
        assert game.snapshot.turn_number > pending[1]
        assert [m.turn_number for m in game.moves].count(pending[1]) == 1
        final = await play_out(table, [table.alice], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"


async def test_killed_while_the_computers_play(fake: FakeDiscord, database_url: str) -> None:
    table = subprocess_table(fake, database_url)
    env = bot_env(fake, database_url)
    async with running_bot(fake, env) as bot:
        # Four pieces a seat: the longer game leaves a wide window for the kill below.
        await table.alice.slash(table.channel, "pachisi start", players=4, pieces=4, level="easy")
        await wait_for_turn_or_end(table)
        await table.alice.slash(table.channel, "pachisi leave")  # four computers play on, fast

        # One open store and a one-column read keep the polls quick: the computers play a whole
        # game in a few seconds, and a slow poll could first look after the game has ended.
        store = Store(database_url)
        try:

            async def ten_throws() -> int:
                played = await throws_stored(store)
                return played if played >= 10 else 0

            played = await wait_for(ten_throws, what="ten throws stored")
            await bot.kill()
            killed_at = await throws_stored(store)
        finally:
            await store.close()
        assert killed_at >= played
        [game] = await stored_games(database_url)
        assert game.snapshot.status == "active", "the computers finished before the kill"
        check_move_log(game)
        await bot.start()
        final = await fake.wait_until(  # a posted "… is playing" has the result's shape until edited
            lambda: (
                ((m := final_message(table.channel)) is not None and "Throws:" in m.content and m) or None
            ),
            timeout=WHOLE_GAME,  # the computers play the rest of the game
            what="the computers' game finished after the restart",
        )
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    assert game.snapshot.turn_number > killed_at
    assert "Throws: " + str(game.snapshot.turn_number) in final.content


async def throws_stored(store: Store) -> int:
    """The stored throw count of the only game."""
    async with store.transaction() as session:
        return (await session.execute(select(GameRow.turn_number))).scalar_one()


async def two_members_to_a_choice(table: Table) -> tuple[Message, list[str]]:
    """Alice (Black) and Bob (Yellow) play a two-player game by buttons until one has thrown."""
    await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
    await wait_for_turn_or_end(table)
    await table.bob.slash(table.channel, "pachisi join", seat="yellow")
    members = [table.alice, table.bob]
    while True:
        message = await wait_for_turn_or_end(table)
        labels = [b.label or "" for b in live_buttons(message)]
        if labels != ["Throw"]:
            return message, labels
        before = turn_state(table.channel)
        await (await player_to_move(table, message, members)).click(message, "Throw")
        await wait_for_turn_or_end(table, after=before)


async def test_killed_after_a_move_is_stored_before_the_next_turn_is_shown(
    fake: FakeDiscord, database_url: str
) -> None:
    table = subprocess_table(fake, database_url)
    env = bot_env(fake, database_url)
    async with running_bot(fake, env) as bot:
        message, labels = await two_members_to_a_choice(table)
        [game] = await stored_games(database_url)
        turn = game.snapshot.turn_number
        # Discord holds the click's answer back (a long 429): the bot dies waiting.
        fake.fail_next("POST", "/interactions/{i}/{t}/callback", status=429, retry_after=60)
        member = await player_to_move(table, message, [table.alice, table.bob])
        await member.click(message, labels[0], wait=False)
        await fake.wait_until(lambda: any(r.status == 429 for r in fake.server.requests), what="the 429")
        await bot.kill()
        [game] = await stored_games(database_url)
        assert game.snapshot.turn_number == turn + 1  # the move was stored, the channel was not told
        await bot.start()
        final = await play_out(table, [table.alice, table.bob], by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"


async def test_killed_after_a_throw_is_stored_before_its_choices_are_shown(
    fake: FakeDiscord, database_url: str
) -> None:
    table = subprocess_table(fake, database_url)
    env = bot_env(fake, database_url)
    async with running_bot(fake, env) as bot:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=2, level="easy")
        await wait_for_turn_or_end(table)
        await table.bob.slash(table.channel, "pachisi join", seat="yellow")
        members = [table.alice, table.bob]
        # Throw until a throw offers moves while its answer is held back, then kill the bot.
        for _ in range(100):
            message = await wait_for_turn_or_end(table)
            [game] = await stored_games(database_url)
            before = turn_state(table.channel)
            fake.fail_next("POST", "/interactions/{i}/{t}/callback", status=429, retry_after=3)
            limited = sum(r.status == 429 for r in fake.server.requests)
            await (await player_to_move(table, message, members)).click(message, "Throw", wait=False)
            await fake.wait_until(
                lambda: sum(r.status == 429 for r in fake.server.requests) > limited,  # noqa: B023
                what="the 429",
            )
            [game] = await stored_games(database_url)
            if game.snapshot.pending_throw is not None:
                break
            # The throw played at once (one move or none): the bot waits out the short 429.
            fake.server.faults.clear()
            await wait_for_turn_or_end(table, after=before)
        else:
            raise AssertionError("no throw offered a move")
        await bot.kill()
        fake.server.faults.clear()
        pending = game.snapshot.pending_throw, game.snapshot.turn_number
        await bot.start()
        [game] = await stored_games(database_url)
        assert (game.snapshot.pending_throw, game.snapshot.turn_number) == pending
        final = await play_out(table, members, by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)


async def test_killed_after_the_last_move_is_stored_before_the_result_is_posted(
    fake: FakeDiscord, database_url: str
) -> None:
    table = subprocess_table(fake, database_url)
    env = bot_env(fake, database_url)
    members = [table.alice, table.bob]
    async with running_bot(fake, env) as bot:
        await two_members_to_a_choice(table)
        # Discord holds back the result, sent as the winning click's followup (a long 429), and the
        # bot dies waiting; the winning move may be a choice or a throw with one move.
        fake.fail_next("POST", "/webhooks/{a}/{t}", status=429, retry_after=60, body_contains="Throws: ")
        playing = asyncio.create_task(play_out(table, members, by="buttons"))
        try:
            await fake.wait_until(
                lambda: any(r.status == 429 for r in fake.server.requests),
                timeout=WHOLE_GAME,  # the members play the rest of the game first
                what="the 429 of the result",
            )
        finally:
            playing.cancel()
        await bot.kill()
        fake.server.faults.clear()
        [game] = await stored_games(database_url)
        assert game.snapshot.status == "finished" and final_message(table.channel) is None
        await bot.start()
        final = await fake.wait_until(
            lambda: final_message(table.channel), what="the result after the restart"
        )
        assert "Throws: " + str(game.snapshot.turn_number) in final.content
        assert not any(live_buttons(m) for m in table.channel.messages), "a finished game offers a move"
        # The result's post is followed by clearing the stored turn message.
        await wait_for_game(
            database_url, lambda g: g.snapshot.message_id is None, what="the turn message cleared"
        )
        await bot.kill()
        await bot.start()
        resumed = await bot.wait_for_output("msg=resumed games=")
        assert resumed.endswith("msg=resumed games=0"), resumed  # the game and its result are done
    assert len([m for m in table.channel.messages if is_final(m)]) == 1, "the result was posted twice"
    [game] = await stored_games(database_url)
    check_move_log(game)


async def test_a_second_copy_of_the_turn_message_left_by_a_crash_still_plays(table: Table) -> None:
    """A crash between posting a turn and storing its id leaves two live copies; either works."""
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy")
    first = await wait_for_turn_or_end(table)
    flow = table.bot.table.flow
    (game,) = await stored_games(table.database_url)
    snapshot = await flow.service.get(game.snapshot.id)
    turn = present.turn_message(ENGLISH, snapshot, [], flow.names)
    await flow.writer.post(flow.channel(snapshot), turn, snapshot)  # the copy a restart re-posts...
    await flow.service.shown(game.snapshot.id, first.id)  # ...whose id the crash never stored
    copy = table.channel.last_message()
    assert copy is not None and copy.id != first.id and live_buttons(copy)[0].label == "Throw"
    await table.alice.click(copy, "Throw")
    await table.fake.wait_until(lambda: copy.edits, what="the copy updated")
    original = next(m for m in table.channel.messages if m.id == first.id)
    await table.fake.wait_until(lambda: not live_buttons(original), what="the first copy closed")
    (after,) = await stored_games(table.database_url)
    assert after.snapshot.turn_number > game.snapshot.turn_number or after.snapshot.pending_throw is not None
    assert after.snapshot.message_id != first.id  # the copy (or the next turn after it) is the turn now


@contextlib.asynccontextmanager
async def batch_writer_busy(shown: ShownBatch) -> AsyncIterator[None]:
    """The batch writer of turn messages busy (as under load): ids noted meanwhile wait in it."""
    busy = asyncio.create_task(asyncio.Event().wait())
    shown.writing = busy
    try:
        yield
    finally:
        busy.cancel()
        shown.writing = None


async def test_a_typed_throw_closes_the_turn_message_whose_id_is_still_batched(table: Table) -> None:
    """A click's next turn goes out as a followup whose id waits in a batch (bot/core/shown.py); a
    throw typed then closes that followup, not the older message the store still names."""
    message, _ = await two_members_to_a_choice(table)
    members, flow = [table.alice, table.bob], table.bot.table.flow
    async with batch_writer_busy(flow.shown):
        while not flow.shown.pending:  # the members click until a turn is a followup
            assert not is_final(message), "the game ended before a turn was posted as a followup"
            before = turn_state(table.channel)
            member = await player_to_move(table, message, members)
            label = live_buttons(message)[0].label
            message = await click_until_acknowledged(table, member, message, label, before)
            await table.fake.wait_until(
                lambda: not any(lock.locked() for lock in flow.locks.values()), what="the click's work done"
            )
        [(game_id, (_, followup_id))] = flow.shown.pending.items()
        assert followup_id is not None, "the game ended before a turn was posted as a followup"
        assert (await flow.service.get(game_id)).message_id != followup_id  # the store names an older one
        [followup] = [m for m in table.channel.messages if m.id == followup_id]
        assert [b.label for b in live_buttons(followup)] == ["Throw"]
        thrower = await player_to_move(table, followup, members)
        assert (await thrower.slash(table.channel, "pachisi throw")).ephemeral
        await table.fake.wait_until(lambda: not live_buttons(followup), what="the followup closed")
    live = await table.fake.wait_until(
        lambda: [m for m in table.channel.messages if live_buttons(m)] or None, what="the next turn"
    )
    assert [m.id for m in live] == [(await flow.service.get(game_id)).message_id]


async def test_throw_clicked_again_after_the_throw_was_stored_shows_its_choices(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy")
    message = await wait_for_turn_or_end(table)
    (game,) = await stored_games(table.database_url)
    store = table.bot.service.store
    async with store.transaction() as session:  # a throw stored, then a crash before it was shown
        values: GameValues = {"pending_throw": 10, "pending_cowries": "100000"}
        assert await store.update_game(session, game.snapshot.id, game.snapshot.version, **values)
    thrown = await table.bot.service.get(game.snapshot.id)
    await table.alice.click(message, "Throw", wait=False)
    shown = await table.fake.wait_until(lambda: choices_shown(table.channel), what="the choices")
    (after,) = await stored_games(table.database_url)
    assert after.snapshot.pending_throw == thrown.pending_throw
    assert len(after.moves) == len(game.moves)  # nothing thrown twice
    assert all(b.label and b.label[1] == ":" for b in live_buttons(shown))


async def test_killed_after_a_turn_is_posted_before_its_id_is_stored(
    fake: FakeDiscord, database_url: str
) -> None:
    """The post reaches Discord, the bot dies before hearing back: after the restart only the current
    turn's message may offer buttons (the first copy used to keep a live Throw for good)."""
    table = subprocess_table(fake, database_url)
    members = [table.alice, table.bob]
    async with running_bot(fake, bot_env(fake, database_url)) as bot:
        await two_members_to_a_choice(table)
        # The members play on until a turn is posted, as a click's followup (a turn message is often
        # updated in place).
        hold = fake.hold_next("POST", "/webhooks/{a}/{t}")
        playing = asyncio.create_task(play_out(table, members, by="buttons"))
        try:
            await fake.wait_until(hold.reached.is_set, what="the next turn's post")
        finally:
            playing.cancel()
        await bot.kill()
        orphan = table.channel.last_message()
        assert orphan is not None and live_buttons(orphan), "the held post is the next turn's"
        await bot.start()

        def one_live_turn() -> Message | None:
            live = [m for m in table.channel.messages if live_buttons(m)]
            return live[0] if len(live) == 1 and live[0].id != orphan.id else None

        current = await fake.wait_until(one_live_turn, what="one live turn message, not the orphan")
        # The bot stores a turn message's id once Discord has answered its post: a moment later.
        await wait_for_game(
            database_url, lambda g: g.snapshot.message_id == current.id, what="the live turn's id stored"
        )
        final = await play_out(table, members, by="buttons")
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert not any(live_buttons(m) for m in table.channel.messages)


async def test_a_resumed_game_draws_the_members_names_as_before(fake: FakeDiscord, database_url: str) -> None:
    """Display names were kept in memory only: after a restart the board's panels read "Player
    5823" until the member acted again, and the card "Player 5823's table". They are stored with
    the seats (and the starter's with the game), so a resumed game draws the same names."""
    table = subprocess_table(fake, database_url)
    carol = table.guild.add_member("Carol")  # an onlooker: asking for the board tells the bot nobody's name
    env = bot_env(fake, database_url)
    async with running_bot(fake, env) as bot:
        await table.alice.slash(table.channel, "pachisi start", players=4, pieces=4, level="easy")
        await wait_for_turn_or_end(table)  # Alice to throw: nothing moves until she does
        await table.bob.slash(table.channel, "pachisi join", seat="red")
        await wait_for_game(
            database_url, lambda g: g.snapshot.seats[1].user_id == table.bob.id, what="Bob's seat"
        )
        [before] = (await carol.slash(table.channel, "pachisi board")).attachments

        await bot.kill()
        await bot.start()
        [after] = (await carol.slash(table.channel, "pachisi board")).attachments
        assert after.data == before.data  # the same picture: the same names on the same panels

        card = table.channel.messages[0]
        await table.bob.slash(table.channel, "pachisi leave")  # the card shows the seats anew
        await fake.wait_until(lambda: "Red: Computer" in card.content, what="the card after Bob left")
        assert card.content.startswith("**Pachisi: Alice's table**"), card.content
