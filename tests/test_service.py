"""The game flow on real databases (SQLite and PostgreSQL): each call plays on to the next decision
in one transaction; turns, seats, timers, races, replays."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta

import pytest

from bot.core import records
from bot.core.errors import (
    AlreadyThrown,
    Conflict,
    GameEnded,
    GameExists,
    IllegalMove,
    NoGame,
    NotAllowed,
    NotPlaying,
    NotThrown,
    NotYourTurn,
    SeatTaken,
    StaleTurn,
)
from bot.core.records import game_record, stored_game
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot, Played
from bot.core.stats import member_stats, rebuild_ratings
from bot.core.store import RatingRow, Store
from bot.core.turns import MAX_MISSED, MAX_THROWS_AT_ONCE
from engine.game import MAX_THROWS, Game, Outcome, Termination
from engine.rules import Rules
from engine.state import DRAW, Move, Position, parse_move
from engine.throws import VALUE_TO_MOUTHS
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Clock,
    count_transactions,
    force_position,
    play_out,
    service,
)

TWO = Rules.parse("classic,players=2,pieces=1")
FOUR = Rules.parse("classic")


class ScriptedCowries(random.Random):
    """A seeded RNG whose next cowrie throws are given (six-shell throws use getrandbits(6))."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.script = [(1 << VALUE_TO_MOUTHS[v]) - 1 for v in values]

    def getrandbits(self, k: int) -> int:
        if k == 6 and self.script:
            return self.script.pop(0)
        return super().getrandbits(k)


async def replayed(store: Store, snapshot: GameSnapshot) -> tuple[Position, int]:
    """The position rebuilt from the game's rules and its move log, and the log's length."""
    async with store.transaction() as session:
        rows = await store.moves(session, snapshot.id)
    assert [row.turn_number for row in rows] == list(range(len(rows)))
    game = Game.replay(
        Position.initial(snapshot.rules), [(r.throw, parse_move(r.move or "pass")) for r in rows]
    )
    return game.position, len(rows)


def decided(played: Played, user: int) -> None:
    """The call stopped where `user` must decide: throw (auto-throw off) or choose a move."""
    snapshot = played.snapshot
    assert snapshot.status == "active" and snapshot.user_to_move() == user
    assert snapshot.pending_throw is None or len(snapshot.legal_moves()) > 1


# --- starting ---------------------------------------------------------------------------------


async def test_start_seats_the_starter_and_computers_fill_the_rest(store: Store) -> None:
    clock = Clock()
    games = service(store, clock=clock)
    played = await games.start(GUILD, CHANNEL, ALICE, FOUR, "easy", None)
    snapshot = played.snapshot
    assert played.events == () and snapshot.status == "active" and snapshot.turn_number == 0
    assert snapshot.pending_throw is None and snapshot.version == 1
    assert {s: (i.user_id, i.level) for s, i in snapshot.seats.items()} == {
        0: (ALICE, "easy"),
        1: (None, "easy"),
        2: (None, "easy"),
        3: (None, "easy"),
    }
    assert snapshot.is_human_turn() and snapshot.user_to_move() == ALICE
    assert snapshot.deadline == clock.now + timedelta(seconds=60)
    assert snapshot.position == Position.initial(FOUR)
    assert await games.get(snapshot.id) == snapshot


async def test_start_plays_the_computers_before_the_starter(store: Store) -> None:
    games = service(store)
    played = await games.start(GUILD, CHANNEL, BOB, FOUR, "hard", 1)
    snapshot = played.snapshot
    assert snapshot.seats[1].user_id == BOB and snapshot.seats[0].user_id is None
    assert played.events and all(e.seat == 0 and e.actor_id is None for e in played.events)
    decided(played, BOB)
    assert (await replayed(store, snapshot)) == (snapshot.position, snapshot.turn_number)


async def test_one_game_per_channel_and_the_refusal_names_it(store: Store) -> None:
    games = service(store)
    first = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    with pytest.raises(GameExists, match=f"game {first.id}") as caught:
        await games.start(GUILD, CHANNEL, BOB, TWO, "normal", None)
    assert caught.value.game_id == first.id
    with pytest.raises(NotAllowed) as mine:  # the starter, seated: not asked to join their own game
        await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    assert mine.value.key == "playing_here" and mine.value.params == {"game": first.id, "seat": 0}
    assert (await games.get_active(CHANNEL)) == first
    await games.end(first.id, ALICE, can_manage=False)
    assert await games.get_active(CHANNEL) is None
    second = (await games.start(GUILD, CHANNEL, BOB, TWO, "normal", None)).snapshot
    assert second.id != first.id


async def test_concurrent_starts_in_one_channel_make_one_game(db_url: str, store: Store) -> None:
    other = Store(db_url)
    try:
        services = [service(store), service(other)] * 4
        results = await asyncio.gather(
            *(s.start(GUILD, CHANNEL, ALICE + i, TWO, "normal", None) for i, s in enumerate(services)),
            return_exceptions=True,
        )
    finally:
        await other.close()
    started = [r.snapshot for r in results if isinstance(r, Played)]
    assert len(started) == 1
    assert all(
        isinstance(r, GameExists) and r.game_id == started[0].id for r in results if not isinstance(r, Played)
    )


async def test_concurrent_rematches_of_one_game_make_one_game(db_url: str, store: Store) -> None:
    """Rematch clicks raced through two processes, each in its own new thread: the first to commit
    is the game's rematch, every other start is refused with its place and keeps nothing."""
    old = (await service(store).start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    await service(store).end(old.id, ALICE, can_manage=False)
    other = Store(db_url)
    try:
        services = [service(store), service(other)] * 3
        results = await asyncio.gather(
            *(
                s.start(
                    GUILD, 500 + i, ALICE, TWO, "normal", None, card_channel_id=CHANNEL, rematch_of=old.id
                )
                for i, s in enumerate(services)
            ),
            return_exceptions=True,
        )
    finally:
        await other.close()
    [started] = [r.snapshot for r in results if isinstance(r, Played)]
    refused = [r for r in results if not isinstance(r, Played)]
    assert len(refused) == 5 and all(
        isinstance(r, NotAllowed) and r.key == "rematch_started" for r in refused
    )
    assert all(r.params == {"thread": started.channel_id} for r in refused if isinstance(r, NotAllowed))
    assert (await service(store).get(old.id)).rematch_id == started.id
    for i in range(6):
        active = await service(store).get_active(500 + i)
        assert active is None or active.id == started.id, "no refused start keeps a game"


async def test_start_refuses_unknown_levels_and_seats_out_of_play(store: Store) -> None:
    games = service(store)
    with pytest.raises(NotAllowed) as unknown:
        await games.start(GUILD, CHANNEL, ALICE, TWO, "grandmaster", None)
    assert str(
        unknown.value
    ) == "There is no computer level `grandmaster`: choose easy, normal and hard." or (
        "grandmaster" in str(unknown.value)
    )
    with pytest.raises(NotAllowed, match="Black and Yellow"):
        await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", 1)
    with pytest.raises(NoGame):
        await games.get(12345)


# --- one call, one transaction, up to the next decision ------------------------------------------


async def test_a_click_is_one_transaction_that_plays_to_the_members_next_choice(store: Store) -> None:
    games = service(store, seed=11, auto_throw=True)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    decided(Played(snapshot), ALICE)
    assert snapshot.pending_throw is not None  # the bot threw for her: she has a real choice
    counted = count_transactions(store)
    for clicks in range(1, 7):
        played = await games.act(snapshot.id, ALICE, snapshot.turn_number, snapshot.legal_moves()[0])
        assert counted[0] == clicks
        snapshot = played.snapshot
        if snapshot.status != "active":
            break
        decided(played, ALICE)
        assert snapshot.pending_throw is not None
        assert played.events[0].seat == 0 and played.events[0].actor_id == ALICE
        numbers = [e.turn_number for e in played.events]
        assert numbers == list(range(numbers[0], snapshot.turn_number))
    assert (await replayed(store, snapshot)) == (snapshot.position, snapshot.turn_number)


async def test_a_throw_is_stored_before_it_is_seen_and_survives_a_restart(db_url: str, store: Store) -> None:
    games = service(store, seed=5)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    while True:  # until a throw offers a choice (one with one move or none is played at once)
        played = await games.act(snapshot.id, ALICE, snapshot.turn_number)
        snapshot = played.snapshot
        if snapshot.pending_throw is not None:
            break
        snapshot = (await games.play_on(snapshot.id)).snapshot
    assert snapshot.pending_cowries is not None and snapshot.legal_moves() == snapshot.position.legal_moves(
        snapshot.pending_throw
    )

    restarted = Store(db_url)  # a new process: nothing shared but the database
    try:
        again = GameService(restarted, rng=random.Random(99), turn_timeout=60)
        seen = await again.get(snapshot.id)
        assert (seen.pending_throw, seen.pending_cowries) == (
            snapshot.pending_throw,
            snapshot.pending_cowries,
        )
        with pytest.raises(AlreadyThrown):
            await again.act(snapshot.id, ALICE, snapshot.turn_number)
        moved = await again.act(snapshot.id, ALICE, snapshot.turn_number, seen.legal_moves()[0])
    finally:
        await restarted.close()
    first = moved.events[0]
    assert (first.throw, first.cowries, first.actor_id) == (
        snapshot.pending_throw,
        snapshot.pending_cowries,
        ALICE,
    )
    assert first.move == seen.legal_moves()[0] and first.before == seen.position


async def test_a_throw_that_offers_no_move_is_passed_at_once(store: Store) -> None:
    games = service(store, rng=ScriptedCowries(3))
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    stuck = "black:0,0,0,82 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    assert Position.parse(stuck).legal_moves(3) == []
    await force_position(store, snapshot, stuck)
    played = await games.act(snapshot.id, ALICE, 0)
    first = played.events[0]
    assert (first.seat, first.throw, first.move, first.actor_id) == (0, 3, None, ALICE)
    assert first.forced and not first.by_timer
    assert all(e.seat != 0 for e in played.events[1:])  # then the computers, back to Black
    decided(played, ALICE)


async def test_moves_are_checked_against_turn_seat_and_throw(store: Store) -> None:
    games = service(store, rng=ScriptedCowries(10, 10))
    two = Rules.parse("classic,players=2,pieces=2")
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, two, "normal", None)).snapshot
    with pytest.raises(NotThrown):
        await games.act(snapshot.id, ALICE, 0, Move(0, 0, 1))
    with pytest.raises(NotYourTurn, match="not playing"):
        await games.act(snapshot.id, BOB, 0)
    with pytest.raises(StaleTurn, match="already played"):
        await games.act(snapshot.id, ALICE, 1)
    played = await games.act(snapshot.id, ALICE, 0)  # 10: one piece enters, the grace throws again
    snapshot = played.snapshot
    assert [(e.throw, e.move, e.forced) for e in played.events] == [(10, Move(0, 0, 1), True)]
    assert snapshot.pending_throw is None  # her grace: she throws again (auto-throw off)
    snapshot = (await games.act(snapshot.id, ALICE, snapshot.turn_number)).snapshot  # 10 again: enter or move
    assert len(snapshot.legal_moves()) == 2
    with pytest.raises(IllegalMove):
        await games.act(snapshot.id, ALICE, snapshot.turn_number, Move(0, 0, 7))
    move = snapshot.legal_moves()[0]
    after = await games.act(snapshot.id, ALICE, snapshot.turn_number, move)
    assert (after.events[0].move, after.events[0].before) == (move, snapshot.position)
    with pytest.raises(StaleTurn):
        await games.act(snapshot.id, ALICE, snapshot.turn_number, move)
    assert (await replayed(store, after.snapshot))[0] == after.snapshot.position


async def test_a_game_with_no_member_left_plays_on_in_steps(store: Store) -> None:
    games = service(store, seed=9)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, Rules(players=2, pieces=4), "easy", None)).snapshot
    played = await games.leave(snapshot.id, ALICE)
    steps = 1
    while played.more:
        assert len(played.events) == MAX_THROWS_AT_ONCE
        played = await games.play_on(snapshot.id)
        steps += 1
    assert played.snapshot.status == "finished" and steps > 1
    assert (await replayed(store, played.snapshot)) == (played.snapshot.position, played.snapshot.turn_number)


# --- seats ------------------------------------------------------------------------------------


async def test_join_leave_and_resign(store: Store) -> None:
    clock = Clock()
    games = service(store, clock=clock)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    with pytest.raises(SeatTaken):
        await games.join(snapshot.id, BOB, 0)
    with pytest.raises(NotAllowed, match="already play Black"):
        await games.join(snapshot.id, ALICE, 2)
    snapshot = (await games.join(snapshot.id, BOB, None)).snapshot
    assert snapshot.seats[1].user_id == BOB
    snapshot = (await games.join(snapshot.id, CAROL, 3)).snapshot
    assert snapshot.seat_of(CAROL) == 3
    with pytest.raises(NotPlaying):
        await games.leave(snapshot.id, 999)
    snapshot = (await games.leave(snapshot.id, BOB)).snapshot
    assert snapshot.seats[1].user_id is None
    snapshot = (await games.join(snapshot.id, BOB, 1)).snapshot
    snapshot = (await games.resign(snapshot.id, BOB)).snapshot
    assert snapshot.seats[1].user_id is None
    with pytest.raises(NotAllowed, match="resigned"):
        await games.join(snapshot.id, BOB, 1)

    # Alice leaves her turn: the computer plays Black on to Carol's decision, with a deadline for her.
    clock.advance(5)
    played = await games.leave(snapshot.id, ALICE)
    assert played.events and played.events[0].seat == 0
    decided(played, CAROL)
    assert played.snapshot.deadline == clock.now + timedelta(seconds=60)


async def test_a_member_takes_a_seat_with_its_throw_pending(store: Store) -> None:
    games = service(store, rng=ScriptedCowries(10, 10))
    two = Rules.parse("classic,players=2,pieces=2")
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, two, "normal", None)).snapshot
    snapshot = (await games.act(snapshot.id, ALICE, 0)).snapshot
    snapshot = (await games.act(snapshot.id, ALICE, snapshot.turn_number)).snapshot
    assert len(snapshot.legal_moves()) == 2  # her second 10, pending
    async with store.transaction() as session:  # as after a crash between her leaving and the
        await store.update_seat(session, snapshot.id, 0, user_id=None)  # computer's move
    joined = await games.join(snapshot.id, BOB, 0)
    assert (
        joined.events == () and joined.snapshot.pending_throw == 10 and joined.snapshot.user_to_move() == BOB
    )
    after = await games.act(snapshot.id, BOB, snapshot.turn_number, joined.snapshot.legal_moves()[0])
    assert after.events[0].actor_id == BOB and after.events[0].throw == 10


async def test_play_on_plays_a_stored_throw_instead_of_throwing_again(db_url: str, store: Store) -> None:
    games = service(store, rng=ScriptedCowries(10, 10))
    two = Rules.parse("classic,players=2,pieces=2")
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, two, "normal", None)).snapshot
    snapshot = (await games.act(snapshot.id, ALICE, 0)).snapshot
    thrown = (await games.act(snapshot.id, ALICE, snapshot.turn_number)).snapshot
    async with store.transaction() as session:  # the seat handed over, the process dead before the move
        await store.update_seat(session, thrown.id, 0, user_id=None)
    restarted = Store(db_url)
    try:
        played = await service(restarted, seed=77).play_on(thrown.id)
    finally:
        await restarted.close()
    first = played.events[0]
    assert (first.throw, first.cowries, first.seat) == (thrown.pending_throw, thrown.pending_cowries, 0)


# --- auto-throw -----------------------------------------------------------------------------------


async def test_the_bot_throws_for_members_who_want_it_and_stops_at_a_real_choice(store: Store) -> None:
    games = service(store, seed=21, auto_throw=True)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, Rules(players=2), "normal", None)).snapshot
    snapshot = (await games.join(snapshot.id, BOB, 2)).snapshot
    await games.members.set_auto_throw(BOB, False)
    for _ in range(20):
        if snapshot.status != "active":
            break
        user = snapshot.user_to_move()
        if user == BOB and snapshot.pending_throw is None:
            played = await games.act(snapshot.id, BOB, snapshot.turn_number)  # Bob throws for himself
        elif user == BOB:
            played = await games.act(snapshot.id, BOB, snapshot.turn_number, snapshot.legal_moves()[0])
        else:
            assert user == ALICE and len(snapshot.legal_moves()) > 1  # the bot threw for her
            played = await games.act(snapshot.id, ALICE, snapshot.turn_number, snapshot.legal_moves()[-1])
        assert all(e.actor_id in (ALICE, BOB) for e in played.events)
        forced = [e for e in played.events if e.forced]
        assert all(e.actor_id == ALICE or e is played.events[0] for e in forced)
        snapshot = played.snapshot


async def test_a_start_says_whom_the_bot_throws_for_as_it_read_them_to_play_on(store: Store) -> None:
    """The table's first word on auto-throw comes from the start's own read, not a second one."""
    games = service(store, seed=21, auto_throw=True)
    await games.members.set_auto_throw(BOB, False)
    counted = count_transactions(store)
    played = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None, members={2: BOB})
    assert counted[0] == 1 and played.throwers == {ALICE}
    one_piece = await games.start(GUILD, CHANNEL + 1, ALICE, TWO, "normal", None)
    assert one_piece.throwers == frozenset(), "with one piece a seat the bot throws for nobody"


async def test_auto_throw_is_on_until_the_member_turns_it_off_everywhere(store: Store) -> None:
    members = service(store, auto_throw=True).members
    assert await members.auto_throw(ALICE)
    await members.set_auto_throw(ALICE, False)
    assert not await members.auto_throw(ALICE)
    assert await members.auto_throw(BOB)
    await members.set_auto_throw(ALICE, True)
    assert await members.auto_throw(ALICE)


# --- timers -------------------------------------------------------------------------------------


async def test_timeout_plays_for_the_member_and_gives_the_seat_back_after_three(store: Store) -> None:
    clock = Clock()
    games = service(store, seed=8, clock=clock)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    with pytest.raises(NotAllowed, match="not timed out"):
        await games.timeout(snapshot.id, 0)
    missed = []
    while snapshot.seats[0].user_id == ALICE:
        clock.advance(61)
        played = await games.timeout(snapshot.id, snapshot.turn_number)
        first = played.events[0]
        assert (first.seat, first.actor_id, first.by_timer) == (0, None, True)
        snapshot = played.snapshot
        missed.append(snapshot.seats[0].missed)
    assert missed == [*range(1, MAX_MISSED), 0]
    assert played.events[0].handed_back and snapshot.seats[0].user_id is None
    assert snapshot.status != "active" or not snapshot.is_human_turn()  # nobody left to wait for


async def test_a_members_move_resets_missed_turns(store: Store) -> None:
    clock = Clock()
    games = service(store, seed=4, clock=clock)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    clock.advance(61)
    snapshot = (await games.timeout(snapshot.id, 0)).snapshot
    assert snapshot.seats[0].missed == 1
    with pytest.raises(StaleTurn):
        await games.timeout(snapshot.id, snapshot.turn_number - 1)
    while snapshot.seats[0].missed:
        played = await games.act(snapshot.id, ALICE, snapshot.turn_number)
        if played.snapshot.pending_throw is not None:
            played = await games.act(
                snapshot.id, ALICE, snapshot.turn_number, played.snapshot.legal_moves()[0]
            )
        snapshot = played.snapshot
    assert snapshot.seats[0].missed == 0


async def test_the_throw_cap_ends_the_game_in_a_draw(store: Store) -> None:
    games = service(store)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    await force_position(store, snapshot, snapshot.position.notation(), turn_number=MAX_THROWS - 1)
    snapshot = (await games.act(snapshot.id, ALICE, MAX_THROWS - 1)).snapshot
    assert snapshot.status == "finished" and snapshot.position.result == DRAW
    assert snapshot.outcome == Outcome(Termination.THROW_LIMIT, None)
    with pytest.raises(GameEnded):
        await games.act(snapshot.id, ALICE, MAX_THROWS)
    stats = await member_stats(store, GUILD, ALICE)
    assert (stats.games, stats.wins) == (1, 0)


# --- races ------------------------------------------------------------------------------------


async def test_many_writers_on_one_turn_apply_exactly_once(db_url: str, store: Store) -> None:
    other = Store(db_url)  # a second process on the same database
    try:
        games = [service(store, seed=i) if i % 2 else service(other, seed=i) for i in range(12)]
        snapshot = (await games[0].start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
        throws = await asyncio.gather(*(g.act(snapshot.id, ALICE, 0) for g in games), return_exceptions=True)
        won = [r for r in throws if isinstance(r, Played)]
        assert len(won) == 1
        assert all(
            isinstance(r, StaleTurn | AlreadyThrown | Conflict) for r in throws if not isinstance(r, Played)
        )
        snapshot = won[0].snapshot
        while snapshot.pending_throw is None:  # the first throw entered a piece: throw until a choice
            snapshot = (await games[0].act(snapshot.id, ALICE, snapshot.turn_number)).snapshot
        move = snapshot.legal_moves()[0]
        moves = await asyncio.gather(
            *(g.act(snapshot.id, ALICE, snapshot.turn_number, move) for g in games), return_exceptions=True
        )
        assert sum(isinstance(r, Played) for r in moves) == 1
        assert all(isinstance(r, StaleTurn | Conflict) for r in moves if not isinstance(r, Played))
        assert all("already played" in str(r).lower() for r in moves if not isinstance(r, Played))
    finally:
        await other.close()
    final = await service(store).get(snapshot.id)
    assert (await replayed(store, final)) == (final.position, final.turn_number)


# --- whole games ------------------------------------------------------------------------------

GAME_RULES = [
    Rules.parse("classic,players=2,pieces=1"),
    Rules.parse("standard,players=2,pieces=2"),
    Rules.parse("classic,pieces=1"),
    Rules.parse("standard,pieces=1,last_square=off"),
]


async def test_stored_positions_equal_replays_of_the_move_log_over_many_games(store: Store) -> None:
    await check_replays_and_stats(store, games_per_rules=1, seed=2024)


@pytest.mark.slow
async def test_stored_positions_equal_replays_over_more_games(store: Store) -> None:
    await check_replays_and_stats(store, games_per_rules=6, seed=99)


async def check_replays_and_stats(store: Store, games_per_rules: int, seed: int) -> None:
    """Whole games with random clicks: each stored game equals its replay; stats add up."""
    clock = Clock()
    games = service(store, seed=seed, clock=clock, auto_throw=True)
    await games.members.set_auto_throw(BOB, False)
    rng = random.Random(seed + 1)
    expected: Counter[tuple[int, str]] = Counter()
    for index in range(games_per_rules * len(GAME_RULES)):
        rules = GAME_RULES[index % len(GAME_RULES)]
        snapshot = (
            await games.start(GUILD, CHANNEL + index, ALICE, rules, "random", rng.choice(rules.seats))
        ).snapshot
        free = [s for s in rules.seats if snapshot.seats[s].user_id is None]
        if snapshot.status == "active":
            snapshot = (await games.join(snapshot.id, BOB, rng.choice(free))).snapshot
        snapshot = await play_out(games, clock, snapshot, rng)

        position, count = await replayed(store, snapshot)
        assert snapshot.status == "finished" and position.result is not None
        assert position == snapshot.position and count == snapshot.turn_number
        assert await games.get(snapshot.id) == snapshot

        async with store.transaction() as session:
            rows = await store.moves(session, snapshot.id)
        players = await records.game_players(store, snapshot.id)
        assert ALICE in players  # a seat handed to the computer still counts
        for user, seat in players.items():
            expected[user, "games"] += 1
            expected[user, "wins"] += snapshot.position.side_of(seat) == position.result
            expected[user, "captures"] += sum(r.captures for r in rows if r.actor_id == user)
            expected[user, "pieces_home"] += snapshot.position.home_count(seat)
    for user in (ALICE, BOB):
        stats = await member_stats(store, GUILD, user)
        got = (stats.games, stats.wins, stats.captures, stats.pieces_home)
        assert got == tuple(expected[user, key] for key in ("games", "wins", "captures", "pieces_home"))


# --- the rest of the contract -----------------------------------------------------------------


async def test_end_needs_the_starter_or_a_manager_and_counts_the_game(store: Store) -> None:
    games = service(store)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    snapshot = (await games.join(snapshot.id, BOB, 2)).snapshot
    with pytest.raises(NotAllowed, match="Manage Channels"):
        await games.end(snapshot.id, BOB, can_manage=False)
    ended = await games.end(snapshot.id, BOB, can_manage=True)
    assert ended.status == "abandoned" and ended.deadline is None
    with pytest.raises(GameEnded):
        await games.end(snapshot.id, ALICE, can_manage=False)
    with pytest.raises(GameEnded):
        await games.act(snapshot.id, ALICE, 0)
    for user in (ALICE, BOB):
        stats = await member_stats(store, GUILD, user)
        assert (stats.games, stats.wins) == (1, 0)
    assert (await member_stats(store, GUILD, CAROL)).games == 0


async def test_a_command_in_a_channel_whose_game_is_over_hears_it_ended(store: Store) -> None:
    """`/pachisi move` in a finished table's thread: "This game has ended", not "There is no game
    in this channel" (a fourth fresh look met it); a channel that never had one hears the latter."""
    games = service(store)
    with pytest.raises(NoGame):
        await games.playing_here(CHANNEL)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    assert (await games.playing_here(CHANNEL)).id == snapshot.id
    await games.end(snapshot.id, ALICE, can_manage=False)
    with pytest.raises(GameEnded):
        await games.playing_here(CHANNEL)
    with pytest.raises(NoGame):
        await games.playing_here(CHANNEL + 1)


async def test_end_refused_tells_a_seated_member_to_leave_and_a_seatless_one_why(store: Store) -> None:
    """Ending a game without the right is refused; `/pachisi leave` is offered only to a member
    who has a seat to leave (issue 58)."""
    games = service(store)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    snapshot = (await games.join(snapshot.id, BOB, 1)).snapshot
    with pytest.raises(NotAllowed) as seated:
        await games.end(snapshot.id, BOB, can_manage=False)
    assert str(seated.value).endswith("To stop playing Red, give your seat back with `/pachisi leave`.")
    with pytest.raises(NotAllowed) as seatless:
        await games.end(snapshot.id, CAROL, can_manage=False)
    said = str(seatless.value)
    assert said.startswith("You have no seat in this game") and "leave" not in said
    assert (await games.get_active(CHANNEL)) is not None


async def test_the_message_shown_and_listing(store: Store) -> None:
    games = service(store)
    a = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    b = (await games.start(GUILD + 1, CHANNEL + 1, BOB, TWO, "normal", None)).snapshot
    await games.shown(a.id, 555)
    a_now = await games.get(a.id)
    assert a_now.message_id == 555 and a_now.version == a.version
    played = await games.act(a.id, ALICE, 0, shown_on=777)  # the message clicked shows the result
    assert played.snapshot.message_id == 777 == (await games.get(a.id)).message_id
    assert [g.id for g in await games.active_games()] == [a.id, b.id]
    assert [g.id for g in await games.active_games([GUILD + 1])] == [b.id]
    await games.abandon(b.id)
    await games.abandon(b.id)  # twice is harmless
    assert (await games.get(b.id)).status == "abandoned"
    assert [g.id for g in await games.active_games()] == [a.id]
    assert (await member_stats(store, GUILD + 1, BOB)).games == 1


async def test_a_finished_game_is_listed_for_resuming_until_its_result_is_posted(store: Store) -> None:
    games = service(store)
    done = (await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).snapshot
    ended = (await games.start(GUILD, CHANNEL + 1, BOB, TWO, "normal", None)).snapshot
    await games.shown(ended.id, 555)
    await games.end(ended.id, BOB, can_manage=False)
    await force_position(store, done, done.position.notation(), turn_number=MAX_THROWS - 1)
    snapshot = (await games.act(done.id, ALICE, MAX_THROWS - 1, shown_on=555)).snapshot
    assert snapshot.status == "finished" and snapshot.message_id == 555
    assert await games.active_games() == []
    assert [g.id for g in await games.active_games(unannounced=True)] == [done.id]
    assert await games.active_games([GUILD + 1], unannounced=True) == []
    await games.shown(done.id, None)  # the result was posted
    assert await games.active_games(unannounced=True) == []


async def test_tallies_count_throws_turns_and_captures_from_the_log(store: Store) -> None:
    games = service(store, seed=9)
    snapshot = (await games.start(1, 77, 500, Rules(players=2, pieces=2), "easy", None)).snapshot
    played = await games.leave(snapshot.id, 500)  # computers only: play the whole game
    while played.more:
        played = await games.play_on(snapshot.id)
    snapshot = played.snapshot
    tallies = await records.tallies(store, snapshot.id)
    async with store.transaction() as session:
        rows = await store.moves(session, snapshot.id)
    # Independently: replay the log with the engine, counting captures and changes of seat.
    position = Position.initial(snapshot.rules)
    expected = {seat: [0, 0, 0] for seat in snapshot.rules.seats}
    previous = None
    for row in rows:
        move = parse_move(row.move or "pass")
        tally = expected[row.seat]
        tally[0] += 1
        tally[1] += row.seat != previous
        tally[2] += len(position.captures(move)) if move else 0
        previous = row.seat
        position = position.play(row.throw, move)
    assert {s: [t.throws, t.turns, t.captures] for s, t in tallies.items()} == expected
    assert sum(t.throws for t in tallies.values()) == snapshot.turn_number


# --- concessions, who counts ------------------------------------------------------------------


async def test_resigning_a_two_player_game_concedes_it(store: Store) -> None:
    games = service(store, auto_throw=True)
    snapshot = (
        await games.start(GUILD, CHANNEL, ALICE, Rules(players=2), "normal", None, members={2: BOB})
    ).snapshot
    while snapshot.turn_number < 4:  # both sides throw, so the game is rated
        user = snapshot.user_to_move()
        assert user is not None
        snapshot = (
            await games.act(snapshot.id, user, snapshot.turn_number, snapshot.legal_moves()[0])
        ).snapshot
    over = (await games.resign(snapshot.id, ALICE)).snapshot
    conceded = Outcome(Termination.RESIGNATION, over.position.side_of(2))
    assert over.status == "finished" and over.outcome == conceded
    # Stored and read back (the notation refuses `result:` on a live position: it is kept apart).
    again = await games.get(snapshot.id)
    assert (again.outcome, again.position) == (conceded, over.position)
    assert again.turn_number == snapshot.turn_number
    assert (await member_stats(store, GUILD, BOB)).wins == 1
    alice = await member_stats(store, GUILD, ALICE)
    assert (alice.games, alice.wins) == (1, 0)
    stored = await stored_game(store, GUILD, CHANNEL, snapshot.id)
    assert stored is not None
    record = game_record(stored.game, stored.seats, stored.moves)
    assert (record.result, record.termination) == ("yellow", "resignation")
    rated = {u: r.mu for u, r in (await _ratings(store, [ALICE, BOB])).items()}
    assert rated[BOB] > rated[ALICE]
    assert await rebuild_ratings(store, GUILD) == 1
    assert {u: r.mu for u, r in (await _ratings(store, [ALICE, BOB])).items()} == pytest.approx(rated)


async def _ratings(store: Store, users: list[int]) -> dict[int, RatingRow]:
    async with store.transaction() as session:
        return await store.ratings(session, GUILD, users)


async def test_a_member_who_left_still_gets_the_game_counted(store: Store) -> None:
    games = service(store)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)).snapshot
    await games.join(snapshot.id, BOB, 1)
    await games.leave(snapshot.id, BOB)
    await games.join(snapshot.id, CAROL, 2)
    await games.resign(snapshot.id, ALICE)  # four players: the computer takes the seat, the game goes on
    assert (await games.get(snapshot.id)).status == "active"
    await games.end(snapshot.id, CAROL, can_manage=True)
    assert await records.game_players(store, snapshot.id) == {ALICE: 0, BOB: 1, CAROL: 2}
    for user in (ALICE, BOB):
        assert (await member_stats(store, GUILD, user)).games == 1


async def test_a_member_who_changed_sides_counts_where_they_played_in_stats_and_rating(store: Store) -> None:
    """Bob plays Yellow, leaves, and takes Black only to resign it: his stats and his rating both
    count him on Yellow's side, which wins (the stats once counted the seat he held last)."""
    games = service(store, 7, auto_throw=True)  # a seed whose computers leave the game on for Bob
    rules = Rules(players=2)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, rules, "easy", None, members={2: BOB})).snapshot
    while snapshot.turn_number < 6:  # both sides throw, so the game is rated
        user = snapshot.user_to_move()
        assert user is not None
        snapshot = (
            await games.act(snapshot.id, user, snapshot.turn_number, snapshot.legal_moves()[0])
        ).snapshot
    await games.leave(snapshot.id, ALICE)
    snapshot = (await games.leave(snapshot.id, BOB)).snapshot
    assert snapshot.status == "active"  # the computers stopped after MAX_THROWS_AT_ONCE throws
    await games.join(snapshot.id, BOB, 0)
    over = (await games.resign(snapshot.id, BOB)).snapshot
    assert over.outcome == Outcome(Termination.RESIGNATION, over.position.side_of(2))
    rated = await _ratings(store, [ALICE, BOB])
    for user, won in ((ALICE, 0), (BOB, 1)):
        stats = await member_stats(store, GUILD, user)
        rating = rated[user]
        assert (stats.games, stats.wins) == (1, won)
        assert (rating.games_people, rating.wins_people) == (1, won)
    bob = await member_stats(store, GUILD, BOB)
    assert bob.pieces_home == over.position.home_count(2)
