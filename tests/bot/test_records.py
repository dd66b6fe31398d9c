"""Records, ratings and history from the store, on real databases, after games the service played."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path

from bot.core import ratings
from bot.core.records import game_record, history, seat_players
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot
from bot.core.stats import rebuild_ratings
from bot.core.store import RatingRow, Store, upgrade
from bot.core.store.database import ROOT
from engine.record import read_record
from engine.rules import Rules
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, force_position, play_out, service

RULES = [
    Rules.parse("classic,players=2,pieces=1"),
    Rules.parse("standard,pieces=1"),
    Rules.parse("classic,pieces=1,players=2"),
    Rules.parse("standard,players=2,pieces=2"),
]


async def play_games(store: Store, count: int, seed: int) -> tuple[GameService, list[GameSnapshot]]:
    """Whole games: Alice starts each, Bob or Carol joins some; random clicks, timeouts, leaving."""
    clock = Clock()
    games = service(store, seed=seed, clock=clock)
    rng = random.Random(seed)
    played = []
    for index in range(count):
        rules = RULES[index % len(RULES)]
        level = rng.choice(["easy", "normal"])  # hard searches: slow in plain Python
        guest = rng.choice([None, BOB, CAROL])
        seat = rng.choice(rules.seats)
        members = {} if guest is None else {rng.choice([s for s in rules.seats if s != seat]): guest}
        snapshot = (
            await games.start(GUILD, CHANNEL + index, ALICE, rules, level, seat, members=members)
        ).snapshot
        played.append(await play_out(games, clock, snapshot, rng))
    return games, played


async def rating_rows(store: Store) -> dict[int, tuple[float, float, int, int, int, int]]:
    async with store.transaction() as session:
        rows = await store.ratings(session, GUILD, [ALICE, BOB, CAROL])
    return {
        user: (r.mu, r.sigma, r.games_people, r.wins_people, r.games_computers, r.wins_computers)
        for user, r in rows.items()
    }


async def test_stored_games_give_records_that_replay_and_ratings_a_rebuild_repeats(store: Store) -> None:
    """Eight whole games: each record replays to the stored position; live ratings = a rebuild."""
    _, played = await play_games(store, 8, seed=11)
    people = computers = rated = 0
    for snapshot in played:
        async with store.transaction() as session:
            game = await store.game(session, snapshot.id)
            seats = await store.seats(session, snapshot.id)
            moves = await store.moves(session, snapshot.id)
        assert game is not None
        record = game_record(game, seats, moves, names={ALICE: "Alice; the [best]", BOB: 'Bob "B"'})
        again = read_record(record.text())
        assert again.final == snapshot.position
        assert len(again.throws) == snapshot.turn_number
        assert again.termination in ("win", "frozen", "throw_limit")
        assert again.tags["Game"] == str(snapshot.id)
        seat_tags = [again.tags[name] for name in ("Black", "Red", "Yellow", "Green") if name in again.tags]
        if any(row.actor_id == ALICE for row in moves):  # she might have left before her first throw
            assert any("Alice, the [best] (user 11)" in tag for tag in seat_tags)

        rated += any(row.actor_id is not None for row in moves)  # a member threw: a rated game
        players = seat_players(seats, moves)
        mine = {snapshot.position.side_of(s) for s, who in players.items() if ALICE in who}
        if not mine:
            continue
        assert len(mine) == 1
        opponents = [p for s, who in players.items() if snapshot.position.side_of(s) not in mine for p in who]
        if any(isinstance(p, int) for p in opponents):
            people += 1
        else:
            computers += 1

    live = await rating_rows(store)
    assert (live[ALICE][2], live[ALICE][4]) == (people, computers)
    assert people and computers
    assert await rebuild_ratings(store) == rated
    assert await rating_rows(store) == live
    assert await rebuild_ratings(store, GUILD) == rated
    assert await rating_rows(store) == live


async def test_an_abandoned_game_is_recorded_as_abandoned(store: Store) -> None:
    games = service(store)
    snapshot = (await games.start(GUILD, CHANNEL, ALICE, RULES[0], "normal", None)).snapshot
    snapshot = (await games.act(snapshot.id, ALICE, 0)).snapshot
    assert snapshot.turn_number > 0
    await games.end(snapshot.id, ALICE, can_manage=False)
    async with store.transaction() as session:
        game = await store.game(session, snapshot.id)
        assert game is not None
        record = game_record(
            game, await store.seats(session, snapshot.id), await store.moves(session, snapshot.id)
        )
    text = record.text()
    assert '[Result "*"]' in text and '[Termination "abandoned"]' in text
    assert read_record(text).final == snapshot.position
    assert record.tags["Black"] == "user 11 (user 11)"  # no name given: the id stands in


async def test_the_board_ranks_by_ordinal_among_members_with_enough_games(store: Store) -> None:
    async with store.transaction() as session:
        for user, mu, sigma, games in [
            (1, 30.0, 6.0, 5),
            (2, 26.0, 3.0, 9),
            (3, 40.0, 2.0, 2),
            (4, 25.0, 2.6, 3),
        ]:
            session.add(
                RatingRow(
                    guild_id=GUILD,
                    user_id=user,
                    mu=mu,
                    sigma=sigma,
                    games_people=games,
                    wins_people=0,
                    games_computers=0,
                    wins_computers=0,
                )
            )
    async with store.transaction() as session:
        board = await store.rating_board(session, GUILD, ratings.MIN_GAMES, 10)
    assert [row.user_id for row in board] == [4, 2, 1]


async def test_history_lists_the_newest_games_with_players_and_results(store: Store) -> None:
    _, played = await play_games(store, 2, seed=4)
    games = service(store)
    active = (await games.start(GUILD, CHANNEL + 99, BOB, RULES[1], "easy", None)).snapshot
    listed = await history(store, GUILD, limit=3)
    assert [g.id for g in listed] == [active.id, played[-1].id, played[-2].id]
    assert listed[0].result == "active" and listed[0].throws == 0
    last = listed[1]
    assert last.throws == played[-1].turn_number
    assert last.result in ("black", "yellow", "black+yellow", "red+green", "draw")
    assert any(ALICE in who for who in last.seats.values())


async def test_the_command_line_rebuild_restores_the_live_ratings(sqlite_url: str, tmp_path: Path) -> None:
    """`python -m bot ratings --rebuild`, run as an operator would, after the ratings were lost."""
    await upgrade(sqlite_url)
    store = Store(sqlite_url)
    try:
        await play_games(store, 3, seed=8)
        live = await rating_rows(store)
        assert live
        async with store.transaction() as session:
            await store.clear_ratings(session)
        assert await rating_rows(store) == {}
    finally:
        await store.close()
    env = {**os.environ, "DATABASE_URL": sqlite_url, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "--rebuild"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ratings rebuilt from ")
    store = Store(sqlite_url)
    try:
        assert await rating_rows(store) == live
    finally:
        await store.close()


async def test_two_games_ending_at_once_both_count_for_their_member(db_url: str, store: Store) -> None:
    """Alice's two games end in the same instant, through two connections: both are rated, in turn."""
    other = Store(db_url)  # a second process on the same database
    try:
        games = [service(store, seed=1), service(other, seed=2)]
        rules = Rules.parse("standard,players=2,pieces=1")
        views = []
        for index, games_ in enumerate(games):
            snapshot = (await games_.start(GUILD, CHANNEL + index, ALICE, rules, "easy", None)).snapshot
            computer_threw = False
            while not computer_threw:  # Alice throws (her graces again) until the computer has too
                played = await games_.act(snapshot.id, ALICE, snapshot.turn_number)
                snapshot, computer_threw = played.snapshot, any(e.seat == 2 for e in played.events)
            # One step from home (the last square: home on any throw), the computer's piece behind.
            await force_position(store, snapshot, "black:83 yellow:1 turn:black captured:- rules:standard")
            views.append(await games_.get(snapshot.id))
        ends = await asyncio.gather(
            *(g.act(v.id, ALICE, v.turn_number) for g, v in zip(games, views, strict=True))
        )
    finally:
        await other.close()
    assert all(end.snapshot.status == "finished" for end in ends)
    rows = await rating_rows(store)
    assert (rows[ALICE][4], rows[ALICE][5]) == (2, 2)  # two games against computers, two wins
    once = ratings.rate({}, ratings.RatedGame(({ALICE: 1.0}, {"easy": 1.0}), winner=0))[ALICE]
    assert rows[ALICE][0] > once.mu  # the second win built on the first
