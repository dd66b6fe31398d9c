"""Memory and CPU of the bot by WORKERS: what a small host needs (the README's sizing table).

    python bench/memory_bench.py [--workers 0 1 2] [--tables 20] [--rounds 3] [--json]

For each WORKERS value a fresh bot process (`python -m bot` on the fake Discord, on a SQLite file)
is started. `idle_mib`: its memory once ready, with no game. Then `--tables` two-member games, each
in a channel of its own, are played at a human pace (each member thinks 2-6 s before a click) for
`--rounds` throws each: `tables_mib` is the most memory seen meanwhile (sampled every 0.2 s),
`cpu_share` the bot's CPU seconds over that time (1.0 is one core busy) and `cpu_ms_per_click` the
same per click. Memory is the PSS of the bot and its worker processes, summed (/proc/PID/smaps_rollup:
pages the processes share are counted once, split between them); `rss_mib` the plain RSS sum.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import figures
from bot_bench import bot_env, bot_process, cpu_seconds, many_games, new_game

from tests.support.driver import FakeDiscord, Guild


def process_tree(pid: int) -> set[int]:
    """`pid` and every live process under it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue  # gone meanwhile
    tree, more = {pid}, {pid}
    while more:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
    return tree


def memory_mib(pid: int) -> tuple[float, float]:
    """(PSS, RSS) of the process tree under `pid`, in MiB."""
    pss = rss = 0
    for member in process_tree(pid):
        try:
            for line in Path(f"/proc/{member}/smaps_rollup").read_text().splitlines():
                key, _, value = line.partition(":")
                if key == "Pss":
                    pss += int(value.split()[0])
                elif key == "Rss":
                    rss += int(value.split()[0])
        except OSError:
            continue
    return round(pss / 1024, 1), round(rss / 1024, 1)


async def one_setting(fake: FakeDiscord, guild: Guild, workers: int, args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        async with bot_process(fake, bot_env(fake, database_url, WORKERS=str(workers))) as bot:
            assert bot.pid is not None
            await asyncio.sleep(args.settle)
            idle, idle_rss = memory_mib(bot.pid)
            tables = [
                await new_game(fake, guild, f"w{workers}-{n}", database_url) for n in range(args.tables)
            ]
            peak = [idle, idle_rss]

            async def sample() -> None:
                while True:
                    pss, rss = memory_mib(bot.pid or 0)
                    peak[:] = [max(peak[0], pss), max(peak[1], rss)]
                    await asyncio.sleep(0.2)

            sampler = asyncio.create_task(sample())
            cpu, started = cpu_seconds(bot.pid), time.perf_counter()
            try:
                *_, clicks, _ = await many_games(
                    fake, guild, database_url, len(tables), args.rounds, tables=tables, thinking=(2.0, 6.0)
                )
            finally:
                sampler.cancel()
            cpu, elapsed = cpu_seconds(bot.pid) - cpu, time.perf_counter() - started
    return {
        f"workers_{workers}_idle_mib": idle,
        f"workers_{workers}_idle_rss_mib": idle_rss,
        f"workers_{workers}_tables_mib": peak[0],
        f"workers_{workers}_tables_rss_mib": peak[1],
        f"workers_{workers}_cpu_share": round(cpu / elapsed, 2),
        f"workers_{workers}_cpu_ms_per_click": round(cpu * 1000 / max(1, clicks), 1),
    }


async def measure(args: argparse.Namespace) -> dict[str, float | int]:
    found: dict[str, float | int] = {"tables": args.tables, "rounds": args.rounds}
    async with FakeDiscord.start() as fake:
        guild = fake.add_guild("Memory club")
        for workers in args.workers:
            found |= await one_setting(fake, guild, workers, args)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2], help="WORKERS values")
    parser.add_argument("--tables", type=int, default=20, help="games played at once, at a human pace")
    parser.add_argument("--rounds", type=int, default=3, help="throws per member in each game")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after ready before idle")
    figures.add_arguments(parser)
    args = parser.parse_args()
    results = asyncio.run(measure(args))
    figures.save("memory_bench", results, args)
    figures.show(results, args)


if __name__ == "__main__":
    main()
