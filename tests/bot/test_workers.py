"""The worker pool (bot/core/workers.py): the computers play the same game, throw for throw, in
worker processes as in the bot's own; a worker killed mid-decision costs nothing; a board drawn in
a worker is the same PNG as one drawn here."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

import render
from bot.core.members import MemberSettings
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot
from bot.core.store import Store
from bot.core.texts import answers
from bot.core.texts.language import choose
from bot.core.workers import Workers
from engine.game import Game
from engine.rules import Rules
from engine.state import Position, parse_move
from tests.support.services import ALICE, BOB, CHANNEL, GUILD, Clock, force_position, play_out

FOUR = Rules.parse("classic")
TWO = Rules.parse("classic,players=2,pieces=2")


@pytest.fixture
async def pool() -> AsyncIterator[Workers]:
    workers = Workers(2)
    yield workers
    workers.shutdown()


def games_service(
    store: Store, workers: Workers | None, seed: int, clock: Clock | None = None
) -> GameService:
    return GameService(
        store,
        rng=random.Random(seed),
        turn_timeout=60,
        clock=clock or Clock(),
        members=MemberSettings(store, default_auto_throw=False),
        workers=workers,
    )


async def replayed(store: Store, snapshot: GameSnapshot) -> tuple[Position, int]:
    """The position rebuilt from the game's rules and its move log, and the log's length."""
    async with store.transaction() as session:
        rows = await store.moves(session, snapshot.id)
    assert [row.turn_number for row in rows] == list(range(len(rows)))  # none lost, none twice
    throws = [(row.throw, parse_move(row.move or "pass")) for row in rows]
    return Game.replay(Position.initial(snapshot.rules), throws).position, len(rows)


async def move_log(store: Store, game_id: int) -> list[tuple[int, int, str | None]]:
    async with store.transaction() as session:
        return [(row.seat, row.throw, row.move) for row in await store.moves(session, game_id)]


async def played_game(
    store: Store, workers: Workers | None, channel: int
) -> list[tuple[int, int, str | None]]:
    """A four-player game, Alice and Bob against two computers at `normal`, played to its end by
    the same dice and the same members' clicks."""
    clock = Clock()
    games = games_service(store, workers, seed=11, clock=clock)
    started = await games.start(GUILD, channel, ALICE, FOUR, "normal", 0)
    joined = await games.join(started.snapshot.id, BOB, 2)
    final = await play_out(games, clock, joined.snapshot, random.Random(3))
    assert final.status == "finished"
    position, logged = await replayed(store, final)
    assert position == final.position and logged == final.turn_number
    return await move_log(store, final.id)


async def test_the_same_game_move_for_move_with_workers_on_and_off(
    sqlite_store: Store, pool: Workers
) -> None:
    off = await played_game(sqlite_store, Workers(0), CHANNEL)
    on = await played_game(sqlite_store, pool, CHANNEL + 1)
    assert on == off
    assert len(on) > 100  # a whole game, most of it the computers'


async def computers_play(store: Store, workers: Workers, channel: int, kill: bool) -> tuple[list, Workers]:
    """Alice leaves her seat at once: the computers (`hard`, about 0.2 s with the compiled engine)
    play the game to its end in one call, in a worker; with `kill`, that worker is SIGKILLed as soon
    as the job is handed to the pool, so it dies with the decision in hand, however fast it is."""
    games = games_service(store, workers, seed=5)
    started = await games.start(GUILD, channel, ALICE, TWO, "hard", 0)
    leaving = asyncio.create_task(games.leave(started.snapshot.id, ALICE))
    if kill:
        while workers.jobs == 0 or not workers.pids():
            await asyncio.sleep(0)  # a poll: the job has not reached the pool yet
        os.kill(workers.pids()[0], signal.SIGKILL)
    played = await leaving
    assert played.snapshot.status == "finished"
    position, logged = await replayed(store, played.snapshot)
    assert position == played.snapshot.position and logged == played.snapshot.turn_number
    return await move_log(store, played.snapshot.id), workers


async def test_a_worker_killed_mid_decision_costs_nothing(sqlite_store: Store) -> None:
    calm, killed = Workers(1), Workers(1)
    try:
        await calm.warm()
        await killed.warm()
        expected, _ = await computers_play(sqlite_store, calm, CHANNEL, kill=False)
        got, workers = await computers_play(sqlite_store, killed, CHANNEL + 1, kill=True)
    finally:
        calm.shutdown()
        killed.shutdown()
    assert workers.retries == 1  # the decision was run again, once
    assert got == expected  # nothing lost, nothing played twice, the same dice
    assert len(got) > 40


async def test_a_turn_that_waits_for_its_member_is_no_trip_to_a_worker(sqlite_store: Store) -> None:
    """A start with its member to throw, and their throw with a choice, leave the computer
    nothing to play: the pool (started on its first job) starts no worker until it has."""
    workers = Workers(1)
    try:
        games = games_service(sqlite_store, workers, seed=5)
        game = (await games.start(GUILD, CHANNEL, ALICE, TWO, "easy", 0)).snapshot
        assert game.user_to_move() == ALICE and workers.pids() == [], "Alice to throw"
        await force_position(sqlite_store, game, SPREAD)
        game = (await games.act(game.id, ALICE, game.turn_number)).snapshot
        assert game.user_to_move() == ALICE and len(game.legal_moves()) == 2
        assert workers.pids() == [], "Alice to choose her move"
        await games.leave(game.id, ALICE)
        assert workers.pids(), "the computer's turns are played in a worker"
    finally:
        workers.shutdown()


SPREAD = "black:10,20 yellow:0,0 turn:black captured:- rules:classic"
"""Black's two pieces apart on the board: every throw moves either."""


async def test_a_board_drawn_in_a_worker_is_the_same_png(pool: Workers) -> None:
    game = Game(Position.initial(FOUR))
    game.throw(random.Random(2))
    before = game.position
    choices = game.legal_moves()
    game.play(choices[0])
    words = choose("hi").picture
    kwargs = {"names": {0: "Asha", 2: "राम"}, "moves": [render.DrawnMove(choices[0], before)], "words": words}
    here = render.board_png(game.position, **kwargs)  # type: ignore[arg-type]
    there = await pool.run(render.board_png, game.position, **kwargs)
    assert there == here


@pytest.mark.parametrize("code", ["en", "hi"])
async def test_a_members_language_reaches_a_worker_and_reads_the_same_there(pool: Workers, code: str) -> None:
    """A Hindi tournament's standings picture is drawn in a worker from the member's language: its
    catalog's plural rule is compiled code that does not pickle, so it travels as its code (a seventh
    look met every Hindi event stuck after its first round)."""
    lang = choose(code)
    assert await pool.run(answers.help_text, lang) == answers.help_text(lang)
    assert await pool.run(lang.ngettext, "{count} game", "{count} games", 5) == lang.ngettext(
        "{count} game", "{count} games", 5
    )
