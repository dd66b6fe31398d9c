"""The game flow on real databases (SQLite and PostgreSQL): turns, seats, timers, races, replays."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta

import pytest

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
from bot.core.records import game_record, rebuild_ratings, stored_game
from bot.core.service import MAX_MISSED, GameService, GameSnapshot
from bot.core.store import RatingRow, Store
from engine.game import MAX_THROWS, Game, Outcome, Termination
from engine.rules import Rules
from engine.state import DRAW, Move, Position, parse_move
from engine.throws import VALUE_TO_MOUTHS
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, force_position, play_out, service

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


async def replayed(store: Store, view: GameSnapshot) -> tuple[Position, int]:
    """The position rebuilt from the game's rules and its move log, and the log's length."""
    async with store.transaction() as session:
        rows = await store.moves(session, view.id)
    assert [row.turn_number for row in rows] == list(range(len(rows)))
    game = Game.replay(Position.initial(view.rules), [(r.throw, parse_move(r.move or "pass")) for r in rows])
    return game.position, len(rows)


# --- starting ---------------------------------------------------------------------------------


async def test_start_seats_the_starter_and_computers_fill_the_rest(store: Store) -> None:
    clock = Clock()
    games = service(store, clock=clock)
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "easy", None)
    assert view.status == "active" and view.turn_number == 0 and view.pending_throw is None
    assert {s: (i.user_id, i.level) for s, i in view.seats.items()} == {
        0: (ALICE, "easy"),
        1: (None, "easy"),
        2: (None, "easy"),
        3: (None, "easy"),
    }
    assert view.is_human_turn() and view.user_to_move() == ALICE
    assert view.deadline == clock.now + timedelta(seconds=60)
    assert view.position == Position.initial(FOUR)

    red = await games.start(GUILD, CHANNEL + 1, BOB, FOUR, "hard", 1)
    assert red.seats[1].user_id == BOB and red.seats[0].user_id is None
    assert not red.is_human_turn() and red.deadline is None
    assert await games.get(red.id) == red


async def test_one_game_per_channel_and_the_refusal_names_it(store: Store) -> None:
    games = service(store)
    first = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    with pytest.raises(GameExists, match=f"game {first.id}") as caught:
        await games.start(GUILD, CHANNEL, BOB, TWO, "normal", None)
    assert caught.value.game_id == first.id
    assert (await games.get_active(CHANNEL)) == first
    await games.end(first.id, ALICE, can_manage=False)
    assert await games.get_active(CHANNEL) is None
    second = await games.start(GUILD, CHANNEL, BOB, TWO, "normal", None)
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
    started = [r for r in results if isinstance(r, GameSnapshot)]
    assert len(started) == 1
    assert all(
        isinstance(r, GameExists) and r.game_id == started[0].id for r in results if r is not started[0]
    )


async def test_start_refuses_unknown_levels_and_seats_out_of_play(store: Store) -> None:
    games = service(store)
    with pytest.raises(NotAllowed, match="unknown level"):
        await games.start(GUILD, CHANNEL, ALICE, TWO, "grandmaster", None)
    with pytest.raises(NotAllowed, match="black, yellow"):
        await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", 1)
    with pytest.raises(NoGame):
        await games.get(12345)


# --- throwing and moving ----------------------------------------------------------------------


async def test_a_throw_is_stored_before_it_is_seen_and_survives_a_restart(db_url: str, store: Store) -> None:
    games = service(store, seed=5)
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)
    thrown, events = await games.throw(view.id, ALICE, 0)
    assert events == [] and thrown.pending_throw is not None and thrown.pending_cowries is not None
    assert thrown.legal_moves() == thrown.position.legal_moves(thrown.pending_throw)

    restarted = Store(db_url)  # a new process: nothing shared but the database
    try:
        again = GameService(restarted, rng=random.Random(99), turn_timeout=60)
        seen = await again.get(view.id)
        assert (seen.pending_throw, seen.pending_cowries) == (thrown.pending_throw, thrown.pending_cowries)
        with pytest.raises(AlreadyThrown):
            await again.throw(view.id, ALICE, 0)
        moved, events = await again.move(view.id, ALICE, 0, seen.legal_moves()[0])
    finally:
        await restarted.close()
    assert [(e.throw, e.cowries, e.actor_id) for e in events] == [
        (thrown.pending_throw, thrown.pending_cowries, ALICE)
    ]
    assert moved.turn_number == 1 and moved.pending_throw is None
    assert moved.last_move == seen.legal_moves()[0] and moved.last_position == seen.position


async def test_a_throw_that_offers_no_move_is_passed_at_once(store: Store) -> None:
    games = GameService(store, rng=ScriptedCowries(3), turn_timeout=60)
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)
    stuck = "black:0,0,0,82 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    assert Position.parse(stuck).legal_moves(3) == []
    await force_position(store, view, stuck)
    after, events = await games.throw(view.id, ALICE, 0)
    assert [(e.seat, e.throw, e.move, e.actor_id) for e in events] == [(0, 3, None, ALICE)]
    assert events[0].forced and not events[0].by_timer
    assert after.turn_number == 1 and after.pending_throw is None and after.seat_to_move() == 1


async def test_moves_are_checked_against_turn_seat_and_throw(store: Store) -> None:
    games = service(store)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    with pytest.raises(NotThrown):
        await games.move(view.id, ALICE, 0, Move(0, 0, 1))
    with pytest.raises(NotYourTurn):
        await games.throw(view.id, BOB, 0)
    with pytest.raises(StaleTurn, match="already played"):
        await games.throw(view.id, ALICE, 1)
    view, _ = await games.throw(view.id, ALICE, 0)
    with pytest.raises(IllegalMove):
        await games.move(view.id, ALICE, 0, Move(0, 0, 7))
    with pytest.raises(NotYourTurn):
        await games.move(view.id, BOB, 0, view.legal_moves()[0])
    move = view.legal_moves()[0]
    after, events = await games.move(view.id, ALICE, 0, move)
    assert [(e.turn_number, e.seat, e.move, e.by_timer) for e in events] == [(0, 0, move, False)]
    assert events[0].before == view.position and not events[0].forced
    with pytest.raises(StaleTurn):
        await games.move(view.id, ALICE, 0, move)
    assert (await replayed(store, after))[0] == after.position


# --- seats ------------------------------------------------------------------------------------


async def test_join_leave_and_resign(store: Store) -> None:
    clock = Clock()
    games = service(store, clock=clock)
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)
    with pytest.raises(SeatTaken):
        await games.join(view.id, BOB, 0)
    with pytest.raises(NotAllowed, match="already play Black"):
        await games.join(view.id, ALICE, 2)
    view = await games.join(view.id, BOB, None)
    assert view.seats[1].user_id == BOB
    view = await games.join(view.id, CAROL, 3)
    assert view.seat_of(CAROL) == 3
    with pytest.raises(NotPlaying):
        await games.leave(view.id, 999)

    view = await games.leave(view.id, BOB)
    assert view.seats[1].user_id is None
    view = await games.join(view.id, BOB, 1)
    view = await games.resign(view.id, BOB)
    assert view.seats[1].user_id is None
    with pytest.raises(NotAllowed, match="resigned"):
        await games.join(view.id, BOB, 1)

    # The seat to move changing hands sets or clears the deadline.
    view = await games.leave(view.id, ALICE)
    assert view.deadline is None and not view.is_human_turn()
    clock.advance(5)
    view = await games.join(view.id, ALICE, 0)
    assert view.deadline == clock.now + timedelta(seconds=60)


async def left_with_a_throw_pending(games: GameService) -> GameSnapshot:
    """Alice throws a 10 (one move: she may still choose it herself) and leaves before moving: the
    computer now holds Black with her throw pending, as after a crash between a throw and its move."""
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", 0)
    thrown, _ = await games.throw(view.id, ALICE, 0)
    assert thrown.pending_throw == 10 and len(thrown.legal_moves()) == 1
    return await games.leave(view.id, ALICE)


async def test_a_computer_plays_its_throw_with_its_move_in_one_commit(store: Store) -> None:
    games = service(store)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", 2)
    after, event = await games._throw(view.id, None, 0)
    assert event is not None and event.actor_id is None
    assert after.pending_throw is None and after.turn_number == 1
    assert (await replayed(store, after)) == (after.position, 1)


async def test_a_human_can_take_a_seat_with_a_throw_pending(store: Store) -> None:
    games = GameService(store, rng=ScriptedCowries(10), turn_timeout=60, clock=Clock())
    left = await left_with_a_throw_pending(games)
    joined = await games.join(left.id, BOB, 0)
    assert joined.pending_throw == 10 and joined.user_to_move() == BOB
    after, events = await games.play_computers(left.id)
    assert events == [] and after.pending_throw == 10
    after, events = await games.move(left.id, BOB, 0, joined.legal_moves()[0])
    assert events[0].actor_id == BOB


# --- computers, timers, crashes ---------------------------------------------------------------


async def test_play_computers_stops_when_a_human_must_act(store: Store) -> None:
    games = service(store, seed=3)
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", 2)
    view, events = await games.play_computers(view.id)
    assert events and all(e.actor_id is None and not e.by_timer for e in events)
    assert [e.turn_number for e in events] == list(range(len(events)))
    assert view.user_to_move() == ALICE and view.turn_number == len(events)
    again, more = await games.play_computers(view.id)
    assert more == [] and again == view


async def test_play_computers_plays_a_stored_throw_instead_of_throwing_again(
    db_url: str, store: Store
) -> None:
    games = GameService(store, rng=ScriptedCowries(10), turn_timeout=60, clock=Clock())
    thrown = await left_with_a_throw_pending(games)  # committed; the process dies before the move
    restarted = Store(db_url)
    try:
        _, events = await GameService(restarted, rng=random.Random(77)).play_computers(thrown.id)
    finally:
        await restarted.close()
    assert (events[0].throw, events[0].cowries) == (thrown.pending_throw, thrown.pending_cowries)


async def test_timeout_plays_for_the_human_and_gives_the_seat_back_after_three(store: Store) -> None:
    clock = Clock()
    games = service(store, seed=8, clock=clock)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    with pytest.raises(NotAllowed, match="not timed out"):
        await games.timeout(view.id, 0)
    missed = []
    while view.seats[0].user_id == ALICE:
        if not view.is_human_turn():
            view, _ = await games.play_computers(view.id)
            continue
        clock.advance(61)
        view, events = await games.timeout(view.id, view.turn_number)
        assert [(e.seat, e.actor_id, e.by_timer) for e in events] == [(0, None, True)]
        missed.append(view.seats[0].missed)
    assert missed == [*range(1, MAX_MISSED), 0]
    assert view.seats[0].user_id is None
    assert not view.is_human_turn() and view.deadline is None  # nobody left to wait for


async def test_a_human_move_resets_missed_turns(store: Store) -> None:
    clock = Clock()
    games = service(store, seed=4, clock=clock)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    clock.advance(61)
    view, _ = await games.timeout(view.id, 0)
    assert view.seats[0].missed == 1
    view, _ = await games.play_computers(view.id)
    with pytest.raises(StaleTurn):
        await games.timeout(view.id, view.turn_number - 1)
    view, events = await games.throw(view.id, ALICE, view.turn_number)
    if not events:
        view, _ = await games.move(view.id, ALICE, view.turn_number, view.legal_moves()[0])
    assert view.seats[0].missed == 0


async def test_the_throw_cap_ends_the_game_in_a_draw(store: Store) -> None:
    games = service(store)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    await force_position(store, view, view.position.notation(), turn_number=MAX_THROWS - 1)
    view, _ = await games.throw(view.id, ALICE, MAX_THROWS - 1)
    view, _ = await games.move(view.id, ALICE, MAX_THROWS - 1, view.legal_moves()[0])
    assert view.status == "finished" and view.position.result == DRAW
    with pytest.raises(GameEnded):
        await games.throw(view.id, ALICE, MAX_THROWS)
    stats = await games.stats(GUILD, ALICE)
    assert (stats.games, stats.wins) == (1, 0)


# --- races ------------------------------------------------------------------------------------


async def test_many_writers_on_one_turn_apply_exactly_once(db_url: str, store: Store) -> None:
    other = Store(db_url)  # a second process on the same database
    try:
        games = [service(store, seed=i) if i % 2 else service(other, seed=i) for i in range(12)]
        view = await games[0].start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)
        throws = await asyncio.gather(*(g.throw(view.id, ALICE, 0) for g in games), return_exceptions=True)
        won = [r for r in throws if isinstance(r, tuple)]
        assert len(won) == 1
        assert all(isinstance(r, AlreadyThrown | Conflict) for r in throws if not isinstance(r, tuple))
        thrown = won[0][0]
        move = thrown.legal_moves()[0]
        moves = await asyncio.gather(
            *(g.move(view.id, ALICE, 0, move) for g in games), return_exceptions=True
        )
        assert sum(isinstance(r, tuple) for r in moves) == 1
        assert all(isinstance(r, StaleTurn | Conflict) for r in moves if not isinstance(r, tuple))
        assert all("already played" in str(r).lower() for r in moves if not isinstance(r, tuple))
        played = await games[0].get(view.id)
        computers = await asyncio.gather(*(g.play_computers(view.id) for g in games[:4]))
    finally:
        await other.close()
    final = await service(store).get(view.id)
    position, count = await replayed(store, final)
    assert count == final.turn_number == played.turn_number + sum(len(events) for _, events in computers)
    assert position == final.position


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
    games = service(store, seed=seed, clock=clock)
    rng = random.Random(seed + 1)
    expected: Counter[tuple[int, str]] = Counter()
    for index in range(games_per_rules * len(GAME_RULES)):
        rules = GAME_RULES[index % len(GAME_RULES)]
        view = await games.start(GUILD, CHANNEL + index, ALICE, rules, "random", rng.choice(rules.seats))
        free = [s for s in rules.seats if view.seats[s].user_id is None]
        view = await games.join(view.id, BOB, rng.choice(free))
        view = await play_out(games, clock, view, rng)

        position, count = await replayed(store, view)
        assert view.status == "finished" and position.result is not None
        assert position == view.position and count == view.turn_number
        assert await games.get(view.id) == view

        async with store.transaction() as session:
            rows = await store.moves(session, view.id)
        players = await games.players(view.id)
        assert set(players) == {ALICE, BOB}  # a seat handed to the computer still counts
        for user, seat in players.items():
            expected[user, "games"] += 1
            expected[user, "wins"] += view.position.side_of(seat) == position.result
            expected[user, "captures"] += sum(r.captures for r in rows if r.actor_id == user)
            expected[user, "pieces_home"] += view.position.home_count(seat)
    board = {s.user_id: s for s in await games.leaderboard(GUILD)}
    for user in (ALICE, BOB):
        stats = await games.stats(GUILD, user)
        got = (stats.games, stats.wins, stats.captures, stats.pieces_home)
        assert got == tuple(expected[user, key] for key in ("games", "wins", "captures", "pieces_home"))
        assert stats.games > 0 and board[user] == stats


# --- the rest of the contract -----------------------------------------------------------------


async def test_end_needs_the_starter_or_a_manager_and_counts_the_game(store: Store) -> None:
    games = service(store)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    view = await games.join(view.id, BOB, 2)
    with pytest.raises(NotAllowed):
        await games.end(view.id, BOB, can_manage=False)
    ended = await games.end(view.id, BOB, can_manage=True)
    assert ended.status == "abandoned" and ended.deadline is None
    with pytest.raises(GameEnded):
        await games.end(view.id, ALICE, can_manage=False)
    with pytest.raises(GameEnded):
        await games.throw(view.id, ALICE, 0)
    for user in (ALICE, BOB):
        stats = await games.stats(GUILD, user)
        assert (stats.games, stats.wins) == (1, 0)
    assert (await games.stats(GUILD, CAROL)).games == 0


async def test_abandoned_messages_and_listing(store: Store) -> None:
    games = service(store)
    a = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    b = await games.start(GUILD + 1, CHANNEL + 1, BOB, TWO, "normal", None)
    await games.set_message(a.id, 555)
    a_now = await games.get(a.id)
    assert a_now.message_id == 555 and a_now.version == a.version
    assert [g.id for g in await games.active_games()] == [a.id, b.id]
    assert [g.id for g in await games.active_games([GUILD + 1])] == [b.id]
    await games.mark_abandoned(b.id)
    await games.mark_abandoned(b.id)  # twice is harmless
    assert (await games.get(b.id)).status == "abandoned"
    assert [g.id for g in await games.active_games()] == [a.id]
    assert (await games.stats(GUILD + 1, BOB)).games == 1


async def test_a_finished_game_is_listed_for_resuming_until_its_result_is_posted(store: Store) -> None:
    games = service(store)
    done = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    ended = await games.start(GUILD, CHANNEL + 1, BOB, TWO, "normal", None)
    for view in (done, ended):
        await games.set_message(view.id, 555)
    await games.end(ended.id, BOB, can_manage=False)
    await force_position(store, done, done.position.notation(), turn_number=MAX_THROWS - 1)
    view, _ = await games.throw(done.id, ALICE, MAX_THROWS - 1)
    view, _ = await games.move(done.id, ALICE, MAX_THROWS - 1, view.legal_moves()[0])
    assert view.status == "finished" and view.message_id == 555
    assert await games.active_games() == []
    assert [g.id for g in await games.active_games(unannounced=True)] == [done.id]
    assert await games.active_games([GUILD + 1], unannounced=True) == []
    await games.set_message(done.id, None)  # the result was posted
    assert await games.active_games(unannounced=True) == []


async def test_tallies_count_throws_turns_and_captures_from_the_log(store: Store) -> None:
    games = service(store, seed=9)
    view = await games.start(1, 77, 500, Rules(players=2, pieces=2), "easy", None)
    view = await games.leave(view.id, 500)  # computers only: play the whole game
    while view.status == "active":
        view, _ = await games.play_computers(view.id)
    tallies = await games.tallies(view.id)
    async with store.transaction() as session:
        rows = await store.moves(session, view.id)
    # Independently: replay the log with the engine, counting captures and changes of seat.
    position = Position.initial(view.rules)
    expected = {seat: [0, 0, 0] for seat in view.rules.seats}
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
    assert sum(t.throws for t in tallies.values()) == view.turn_number


# --- forced throws, concessions, who counts, members' settings ----------------------------------


async def test_a_members_throw_with_one_move_is_played_for_them(store: Store) -> None:
    games = service(store, seed=3)
    view = await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)
    assert len({tuple(view.position.legal_moves(t)) for t in (2, 3, 4)}) == 1  # one piece: at most one move
    after, events = await games.throw(view.id, ALICE, 0, play_forced=True)
    [event] = events
    assert event.forced and event.actor_id == ALICE and event.before == view.position
    assert event.move in (None, *view.position.legal_moves(event.throw))
    assert after.pending_throw is None and after.turn_number == 1
    assert (await replayed(store, after))[0] == after.position


async def test_resigning_a_two_player_game_concedes_it(store: Store) -> None:
    games = service(store)
    view = await games.join((await games.start(GUILD, CHANNEL, ALICE, TWO, "normal", None)).id, BOB, 2)
    while view.turn_number < 4:  # both sides throw, so the game is rated
        user = view.user_to_move()
        assert user is not None
        view, _ = await games.throw(view.id, user, view.turn_number, play_forced=True)
        if view.pending_throw is not None:
            view, _ = await games.move(view.id, user, view.turn_number, view.legal_moves()[0])
    over = await games.resign(view.id, ALICE)
    conceded = Outcome(Termination.RESIGNATION, over.position.side_of(2))
    assert over.status == "finished" and over.outcome == conceded
    # Stored and read back (the notation refuses `result:` on a live position: it is kept apart).
    again = await games.get(view.id)
    assert (again.outcome, again.position) == (conceded, over.position)
    assert again.turn_number == view.turn_number
    assert (await games.stats(GUILD, BOB)).wins == 1
    alice = await games.stats(GUILD, ALICE)
    assert (alice.games, alice.wins) == (1, 0)
    stored = await stored_game(store, GUILD, CHANNEL, view.id)
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
    view = await games.start(GUILD, CHANNEL, ALICE, FOUR, "normal", None)
    await games.join(view.id, BOB, 1)
    await games.leave(view.id, BOB)
    await games.resign(view.id, ALICE)  # four players: the computer takes the seat, the game goes on
    assert (await games.get(view.id)).status == "active"
    await games.end(view.id, ALICE, can_manage=False)
    assert await games.players(view.id) == {ALICE: 0, BOB: 1}
    for user in (ALICE, BOB):
        assert (await games.stats(GUILD, user)).games == 1


async def test_auto_throw_is_on_until_the_member_turns_it_off_everywhere(store: Store) -> None:
    games = service(store)
    assert await games.auto_throw(ALICE)
    await games.set_auto_throw(ALICE, False)
    assert not await games.auto_throw(ALICE)
    assert await games.auto_throw(BOB)
    await games.set_auto_throw(ALICE, True)
    assert await games.auto_throw(ALICE)
