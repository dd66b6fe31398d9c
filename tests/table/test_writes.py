"""The table's writes: channel posts and edits paced per channel to the chat's buckets, a new
thread written to before the chat announces it, the card apart from the turns."""

from __future__ import annotations

from bot.core.config import load_settings
from bot.core.present import Message
from bot.table.seats import Opening, Place
from bot.table.writes import BUCKET_WRITES, Pacer, posted_at, too_old
from tests.support.processes import QUICK_BUCKET_SECONDS
from tests.support.world import ALICE, CHANNEL, GUILD, NAMES, TWO, World

SECONDS = 0.3
"""The chat's bucket, shortened: Discord's 5 writes of a kind, per 0.3 s."""


async def test_the_buckets_seconds_are_the_settings(world: World) -> None:
    """The layer paces by `discord_bucket_seconds` (the world's settings say QUICK_BUCKET_SECONDS),
    Discord's count of writes a bucket; unless told otherwise, the bot keeps to Discord's seconds."""
    pacer = world.table.flow.writer.pacer
    assert (pacer.count, pacer.seconds) == (BUCKET_WRITES, QUICK_BUCKET_SECONDS)
    assert load_settings(_env_file=None).discord_bucket_seconds == 5.0  # Discord's 5 writes in 5 s


async def test_channel_posts_wait_for_room_in_the_channels_bucket(world: World) -> None:
    table = world.restart(Pacer(SECONDS))
    game = await world.start()
    room, other = world.chat.room(300), world.chat.room(301)
    for n in range(5):
        await table.flow.writer.post(room, Message(f"post {n}"), game)
    await table.flow.writer.post(other, Message("elsewhere"), game)
    for n in range(5, 7):
        await table.flow.writer.post(room, Message(f"post {n}"), game)
    times = [at for kind, at in room.writes]
    assert times[4] - times[0] < SECONDS, "five go at once"
    assert other.writes[0][1] - times[0] < SECONDS, "another channel's bucket is its own"
    assert times[5] - times[0] >= SECONDS * 0.99, "the sixth post waits for the first to age out"


async def test_edits_have_a_bucket_of_their_own(world: World) -> None:
    table = world.restart(Pacer(SECONDS))
    game = await world.start()
    room = world.chat.room(300)
    posted = [await table.flow.writer.post(room, Message(f"post {n}"), game) for n in range(5)]
    for shown in posted:
        await table.flow.writer.edit(room, shown.id, Message("edited"), game)
    times = [at for kind, at in room.writes]
    assert times[-1] - times[0] < SECONDS, "five posts and five edits go at once"


async def test_a_game_in_a_new_thread_plays_there_and_keeps_its_card_in_the_channel(world: World) -> None:
    """The chat announces a new thread later than the bot may write to it: the table writes all
    the same; the card stays in the channel the thread belongs to."""
    thread = 500
    assert world.chat.get(thread, GUILD) is None
    opening = Opening(TWO, "easy", 0, thread=True, names=NAMES)
    await world.table.seats.open(world.member(ALICE), Place(GUILD, thread, CHANNEL), opening, note=[])
    turns = world.chat.rooms[thread]
    [card] = world.room.messages
    assert card.id == (await world.table.flow.service.get_active(thread)).card_message_id  # type: ignore[union-attr]
    assert [m.actions()[0] for m in turns.live()] == ["throw"]


def test_a_message_id_says_when_it_was_posted(world: World) -> None:
    shown = world.chat.new_id()
    assert posted_at(shown) == world.clock.now()
    assert not too_old(shown, world.clock.now())
    world.clock.advance(45 * 60 + 1)
    assert too_old(shown, world.clock.now())
