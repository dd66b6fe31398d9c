"""A click on a turn message, through the table layer: who may act, stale clicks, the answer
through the click's own interaction (deferred when the work would wait), one message per turn,
and the channel as the way round when the chat refuses the interaction's answers."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.errors import GameError, NotYourTurn, StaleTurn
from bot.core.present import MOVE, THROW, turn_message
from bot.core.store import Status
from bot.core.texts import ENGLISH, table
from bot.table import acts, flow
from bot.table.acts import Act
from bot.table.channel import WriteRefused
from tests.support.world import ALICE, BOB, CHOICES, TWO, World, pick


async def test_the_member_to_move_throws_and_the_click_answers_on_its_own_message(world: World) -> None:
    await world.start()
    message = world.turn_message()
    assert message.actions()[0] == THROW and ALICE in message.pings
    writes = len(world.room.writes)
    click = await world.click(ALICE, THROW)
    assert click.answers and not click.deferred, "answered at once, through its own interaction"
    assert message.edits >= 1 and len(world.room.writes) == writes  # no channel write for the answer
    game = await world.game()
    assert game.turn_number > 0 or game.pending_throw is not None


async def test_a_member_who_does_not_play_is_refused_and_nothing_changes(world: World) -> None:
    before = await world.start()
    message = world.turn_message()
    content = message.content
    with pytest.raises(NotYourTurn) as refused:
        await world.click(BOB, THROW)
    assert refused.value.key == "not_playing"
    assert (await world.game()).version == before.version
    assert message.content == content and message.actions()[0] == THROW


async def test_a_seated_member_out_of_turn_is_refused(world: World) -> None:
    before = await world.start(members={TWO.seats[1]: BOB})
    assert before.user_to_move() == ALICE
    with pytest.raises(NotYourTurn):
        await world.click(BOB, THROW)
    assert (await world.game()).version == before.version


async def test_a_click_on_an_earlier_turn_is_stale_and_refused(world: World) -> None:
    """Another member's click on a turn gone by is refused: that throw was someone else's."""
    await world.start(members={TWO.seats[1]: BOB})
    message = world.turn_message()
    [old] = [b for b in message.live() if b.action == THROW]
    await world.play_turn(ALICE)
    after = await world.game()
    assert after.turn_number > old.turn
    with pytest.raises(StaleTurn) as refused:
        await world.table.flow.click(world.member(BOB, message), Act(old.game_id, BOB, old.turn))
    assert type(refused.value) is StaleTurn and refused.value.key == "stale_turn"
    assert (await world.game()).version == after.version


async def test_a_members_click_again_on_their_own_played_throw_is_silent(world: World) -> None:
    """Alice's click on a throw she played herself (a message read late, a slow double click) is
    acknowledged and changes nothing: no refusal, no new message."""
    await world.start(members={TWO.seats[1]: BOB})
    message = world.turn_message()
    [old] = [b for b in message.live() if b.action == THROW]
    await world.play_turn(ALICE)
    after = await world.game()
    writes = len(world.room.writes)
    again = world.member(ALICE, message)
    await world.table.flow.click(again, Act(old.game_id, ALICE, old.turn))
    assert again.deferred and not again.answers and not again.told and not again.followups
    assert (await world.game()).version == after.version and len(world.room.writes) == writes


async def test_each_turn_has_one_message_and_a_new_member_gets_a_new_one(world: World) -> None:
    """Between two members, a turn that passes to the other goes out as a new message (a followup
    of the click, which pings them); the message it leaves keeps its log and loses its buttons."""
    await world.start(members={TWO.seats[1]: BOB})
    posts = sum(kind == "post" for kind, _ in world.room.writes)
    followups = 0
    for _ in range(10):
        game = await world.game()
        if game.status != Status.ACTIVE:
            break
        user = await world.to_move()
        message = world.turn_message()
        assert user in message.pings
        click = await world.click(user, THROW if game.pending_throw is None else MOVE)
        followups += len(click.followups)
        assert len([m for m in world.room.live() if {THROW, MOVE} & set(m.actions())]) <= 1
    assert followups, "the turn never passed to the other member"
    assert sum(kind == "post" for kind, _ in world.room.writes) == posts, "no post through the channel"
    await world.stored()
    game = await world.game()
    assert game.status != Status.ACTIVE or game.message_id == world.turn_message().id


async def test_a_message_older_than_45_minutes_is_closed_and_the_turn_goes_on_in_a_new_one(
    world: World,
) -> None:
    await world.start()
    message = world.turn_message()
    world.clock.advance(46 * 60)
    click = await world.click(ALICE, THROW)
    assert not message.live(), "the old message keeps its log, not its buttons"
    [new] = click.followups
    assert new.live() and new is world.turn_message()


async def test_an_answer_the_chat_no_longer_takes_on_an_old_message_goes_on_in_a_new_one(
    world: World,
) -> None:
    await world.start()
    message = world.turn_message()
    click = world.member(ALICE, message)
    click.refuse_answers = WriteRefused(400, flow.OLD_MESSAGE_EDITS)
    [button] = [b for b in message.live() if b.action == THROW]
    await world.table.flow.click(click, Act(button.game_id, ALICE, button.turn))
    new = world.room.messages[-1]
    assert new is not message and new.live() and "post" in [kind for kind, _ in world.room.writes[-2:]]
    await world.stored()
    assert (await world.game()).message_id == new.id, "the new message shows the turn; the old one is stale"


async def test_a_refused_answer_is_made_through_the_channel(world: World) -> None:
    await world.start()
    message = world.turn_message()
    edits = message.edits
    click = world.member(ALICE, message)
    click.refuse_answers = WriteRefused(404, 10062)  # the interaction expired
    [button] = [b for b in message.live() if b.action == THROW]
    await world.table.flow.click(click, Act(button.game_id, ALICE, button.turn))
    assert message.edits > edits and "edit" in [kind for kind, _ in world.room.writes]


async def test_a_refused_followup_is_posted_through_the_channel(world: World) -> None:
    await world.start(members={TWO.seats[1]: BOB})
    posts = 0
    for _ in range(12):  # until the turn passes from one member to the other
        game = await world.game()
        user = await world.to_move()
        message = world.turn_message()
        click = world.member(user, message)
        click.refuse_followups = WriteRefused(404, 10015)
        button = pick(message.live(), THROW if game.pending_throw is None else MOVE)
        before = sum(kind == "post" for kind, _ in world.room.writes)
        await world.table.flow.click(click, Act(button.game_id, user, button.turn, button.move))
        posts = sum(kind == "post" for kind, _ in world.room.writes) - before
        if posts:
            break
    assert posts == 1 and not click.followups
    assert (await world.game()).message_id == world.turn_message().id  # stored at once, not batched


async def test_a_click_that_would_wait_for_the_games_lock_is_deferred_at_once(world: World) -> None:
    game = await world.start()
    async with world.table.flow.locks[game.id]:
        message = world.turn_message()
        click = world.member(ALICE, message)
        [button] = [b for b in message.live() if b.action == THROW]
        clicking = asyncio.create_task(world.table.flow.click(click, Act(game.id, ALICE, button.turn)))
        while not click.deferred:
            await asyncio.sleep(0)  # the click's task runs up to its deferral
        assert not click.answers
    await clicking
    assert click.answers, "the deferred click is answered by an edit of its response"


async def test_a_click_whose_work_outlasts_the_answer_limit_is_deferred(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.start()
    monkeypatch.setattr(flow, "ANSWER_WITHIN", 0.0)  # any work takes longer than no time at all
    click = await world.click(ALICE, THROW)
    assert click.deferred and click.answers


async def test_a_typed_throw_closes_the_turn_message_and_posts_the_game_as_it_stands(world: World) -> None:
    game = await world.start()
    message = world.turn_message()
    posts = sum(kind == "post" for kind, _ in world.room.writes)
    await world.table.flow.play(Act(game.id, ALICE, game.turn_number))
    assert not message.live(), "closed: its log stays, its buttons go"
    assert sum(kind == "post" for kind, _ in world.room.writes) == posts + 1
    assert (await world.game()).message_id == world.turn_message().id


async def test_a_typed_throw_closes_the_followup_whose_id_is_still_batched(world: World) -> None:
    """A click's next turn goes out as a followup whose id waits in a batch (bot/core/shown.py); a
    change nobody clicked for stores it first, so it closes that followup, not an older message."""
    await world.start(members={TWO.seats[1]: BOB})
    shown = world.table.flow.shown
    busy = asyncio.create_task(asyncio.Event().wait())
    shown.writing = busy  # type: ignore[assignment]  # the batch writer busy, as under load: noted ids wait
    try:
        for _ in range(12):
            game = await world.game()
            await world.click(await world.to_move(), THROW if game.pending_throw is None else MOVE)
            if shown.pending:
                break
        [(game_id, (_, followup_id))] = shown.pending.items()
        assert (await world.game()).message_id != followup_id, "the store still names an older message"
        followup = world.room.find(followup_id or 0)
        game = await world.game()
        await world.table.flow.play(Act(game_id, await world.to_move(), game.turn_number))
    finally:
        busy.cancel()
        shown.writing = None
    assert not followup.live() or followup is world.turn_message()
    assert len([m for m in world.room.live() if {THROW, MOVE} & set(m.actions())]) == 1
    assert (await world.game()).message_id == world.turn_message().id


async def test_a_double_click_plays_once(world: World) -> None:
    """Two clicks of one button, the second while the first is played: the move is played once,
    and the second is acknowledged silently (the member's own move, not a mistake)."""
    await world.start(rules=CHOICES)
    game = await world.to_a_choice(ALICE)
    message = world.turn_message()
    button = next(b for b in message.live() if b.action == MOVE)
    act = Act(button.game_id, ALICE, button.turn, button.move)
    first, second = world.member(ALICE, message), world.member(ALICE, message)
    results = await asyncio.gather(
        world.table.flow.click(first, act), world.table.flow.click(second, act), return_exceptions=True
    )
    assert results == [None, None]
    assert second.deferred and not second.answers and not second.told, "no refusal for a repeat"
    assert (await world.moves()) == game.turn_number + 1 or (
        await world.game()
    ).turn_number > game.turn_number


async def test_throw_clicked_again_after_the_throw_was_stored_shows_its_choices(world: World) -> None:
    """A restart between storing a throw and showing it leaves Throw on the message: a click on it
    shows the stored throw's choices, and throws nothing new."""
    await world.start(rules=CHOICES)
    await world.to_a_choice(ALICE)
    for _ in range(20):  # Alice throws, stored and not shown, until the throw offers a choice
        await world.play_turn(ALICE)
        game = await world.game()
        message = world.turn_message()
        played = await world.table.flow.service.act(game.id, ALICE, game.turn_number)
        thrown = played.snapshot
        if thrown.pending_throw is not None and len(thrown.legal_moves()) > 1:
            break
        await world.table.flow.changed(played)  # no choice: show the throw, and try the next turn
    assert thrown.pending_throw is not None and len(thrown.legal_moves()) > 1
    logged = await world.moves()
    click = await world.click(ALICE, THROW, message=message)
    assert click.answers and message.actions().count(MOVE) == len(thrown.legal_moves())
    assert (await world.game()).pending_throw == thrown.pending_throw
    assert await world.moves() == logged, "nothing thrown twice"


async def test_a_second_copy_of_the_turn_message_plays_and_the_first_is_closed(world: World) -> None:
    """A crash between posting a turn and storing its id leaves two live copies: either plays, and
    the one the store named is closed."""
    game = await world.start()
    first = world.turn_message()
    flow = world.table.flow
    shown = await flow.writer.post(world.room, turn_message(ENGLISH, game, [], {}), game)
    copy = world.room.find(shown.id)
    click = await world.click(ALICE, THROW, message=copy)
    assert click.answers and not first.live()


async def test_a_new_games_first_turn_message_says_once_what_the_bot_plays_by_itself(world: World) -> None:
    """The throws played before anyone clicked (forced moves) are explained once, on the game's first
    turn message; the next update of that message drops the word. Auto-throw is off at this table:
    the word does not offer to turn it off."""
    await world.start(rules=CHOICES, members={CHOICES.seats[1]: BOB})
    message = world.turn_message()
    said = table.plays_by_itself(ENGLISH, auto=False, one_piece=False)
    assert message.content.endswith(said) and "/pachisi auto" not in message.content
    await world.play_turn(ALICE)
    assert all(said not in m.content for m in world.room.messages)


async def test_with_auto_throw_on_the_bot_throws_for_members_and_says_how_to_stop_it(world: World) -> None:
    await world.table.flow.service.members.set_auto_throw(ALICE, True)
    game = await world.start(rules=CHOICES)
    assert game.pending_throw is not None or game.turn_number > 0, "the bot threw for Alice"
    said = table.plays_by_itself(ENGLISH, auto=True, one_piece=False)
    assert world.turn_message().content.endswith(said) and "/pachisi auto off" in said


async def test_a_one_piece_game_waits_for_each_members_throw_even_with_auto_throw_on(world: World) -> None:
    """With one piece a seat every throw has one move: thrown for its members too, the game played
    itself to its end before anyone clicked. The members throw; their moves are played at once."""
    members = world.table.flow.service.members
    for user in (ALICE, BOB):
        await members.set_auto_throw(user, True)
    game = await world.start(members={TWO.seats[1]: BOB})
    assert game.status == Status.ACTIVE and game.turn_number == 0 and game.pending_throw is None
    message = world.turn_message()
    assert message.actions() == [THROW] and ALICE in message.pings
    said = table.plays_by_itself(ENGLISH, auto=True, one_piece=True)
    assert message.content.endswith(said) and "/pachisi auto" not in said
    await world.click(ALICE, THROW)
    after = await world.game()
    assert [row.actor_id for row in await world.move_rows()] == [ALICE], "her throw, played at once"
    assert after.pending_throw is None and world.turn_message().actions() == [THROW]


async def test_whose_turn_it_is_is_told_before_what_a_typed_choice_means(world: World) -> None:
    """Bob types a letter on Alice's throw: he hears it is her turn, whether or not the letter names
    one of her moves, as his click on one of her buttons does; only Alice hears about the letter."""
    await world.start(rules=CHOICES, members={CHOICES.seats[1]: BOB})
    game = await world.to_a_choice(ALICE)
    for typed in ("Q", "A", None):
        with pytest.raises(NotYourTurn) as refused:
            acts.typed(game, BOB, typed)
        assert refused.value.key == "members_turn", typed
    with pytest.raises(NotYourTurn) as clicked:
        await world.click(BOB, MOVE)
    assert clicked.value.key == "members_turn", "a button refuses in the same order"
    with pytest.raises(GameError) as letter:
        acts.typed(game, ALICE, "Q")
    assert letter.value.key == "not_a_choice"
    act = acts.typed(game, ALICE, "a")
    assert act == Act(game.id, ALICE, game.turn_number, game.legal_moves()[0])
    await world.table.flow.play(act)
    assert (await world.game()).turn_number > game.turn_number
