"""Store benchmark: load a game, apply a move, commit, with 1,000 active games in one database.

Each sample picks a random game whose turn waits for a human, throws for that human (one
transaction, not timed), then times `GameService.act` with a move: load the game and its seats,
check and apply the move, write the game with its version check, append to the move log, commit.
Every seat is a member's who throws for themselves, so a call plays exactly the one move.
`cpu_ms` is this process's CPU time per timed call: SQLite's work counts (it runs in the
process), PostgreSQL's server does not. It shows what the bot's own code costs whatever else the machine runs.

    python bench/store_bench.py [--games 1000] [--samples 2000] [--json]

SQLite runs on a fresh file in a temporary folder. PostgreSQL runs when PACHISI_TEST_POSTGRES_URL
reaches a server (`source scripts/postgres-up`); its `public` schema is dropped and rebuilt, so point
it at a throwaway test database only.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import figures

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/support, as the tests import it

from bot.core.members import MemberSettings
from bot.core.service import GameService
from bot.core.snapshot import GameSnapshot
from bot.core.store import GameRow, SeatRow, Store, upgrade, utcnow
from engine.rules import Rules
from engine.state import Position
from tests.support import stores

RULES = Rules.parse("classic")


async def _seed_games(store: Store, count: int) -> list[int]:
    """`count` active four-player games, every seat a different human, inserted in one transaction."""
    now = utcnow()
    position = Position.initial(RULES).notation()
    rows = [
        GameRow(
            guild_id=1 + index % 10,
            channel_id=10_000 + index,
            started_by=index * 4,
            rules=RULES.token(),
            status="active",
            position=position,
            turn_number=0,
            version=0,
            created_at=now,
            updated_at=now,
        )
        for index in range(count)
    ]
    async with store.transaction() as session:
        session.add_all(rows)
        await session.flush()
        session.add_all(
            SeatRow(
                game_id=row.id, seat=seat, user_id=index * 4 + seat, level="normal", missed=0, joined_at=now
            )
            for index, row in enumerate(rows)
            for seat in RULES.seats
        )
    return [row.id for row in rows]


async def run(url: str, games: int, samples: int, seed: int) -> dict[str, float]:
    await upgrade(url)
    store = Store(url)
    try:
        ids = await _seed_games(store, games)
        members = MemberSettings(store, default_auto_throw=False)
        service = GameService(store, rng=random.Random(seed), members=members)
        rng = random.Random(seed)
        timings: list[float] = []
        cpu = 0.0
        while len(timings) < samples:
            game_id = rng.choice(ids)
            snapshot: GameSnapshot = await service.get(game_id)
            user = snapshot.user_to_move()
            if snapshot.status != "active" or user is None:
                ids.remove(game_id)
                continue
            thrown = await service.act(game_id, user, snapshot.turn_number)
            if thrown.events:  # the throw offered one move or none and was played at once
                continue
            snapshot = thrown.snapshot
            move = rng.choice(snapshot.legal_moves())
            start, start_cpu = time.perf_counter(), time.process_time()
            await service.act(game_id, user, snapshot.turn_number, move)
            timings.append((time.perf_counter() - start) * 1000)
            cpu += time.process_time() - start_cpu
    finally:
        await store.close()
    timings.sort()
    return {
        "p50_ms": round(statistics.median(timings), 3),
        "p99_ms": round(timings[min(len(timings) - 1, int(len(timings) * 0.99))], 3),
        "mean_ms": round(statistics.fmean(timings), 3),
        "cpu_ms": round(cpu * 1000 / len(timings), 3),
        "samples": len(timings),
        "games": games,
    }


async def _reset_postgres(url: str) -> bool:
    """Empty the test database's public schema; False when no server answers."""
    try:
        await stores.empty_postgres(url)
    except OSError:
        return False
    return True


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    figures.add_arguments(parser)
    args = parser.parse_args()

    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        sqlite = await run(f"sqlite+aiosqlite:///{folder}/bench.sqlite3", args.games, args.samples, args.seed)
    results.update({f"sqlite_{key}": value for key, value in sqlite.items()})
    postgres_url = stores.postgres_server_url()
    if postgres_url and await _reset_postgres(postgres_url):
        postgres = await run(postgres_url, args.games, args.samples, args.seed)
        results.update({f"postgres_{key}": value for key, value in postgres.items()})

    figures.save("store_bench", results, args)
    figures.show(results, args)


if __name__ == "__main__":
    asyncio.run(main())
