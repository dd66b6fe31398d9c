"""Bot latency benchmark: members click through the fake Discord; the real bot runs in a subprocess.

    python bench/bot_bench.py [--moves 200] [--autocompletes 100] [--games 100] [--rounds 10] [--json]

Writes its figures to bench/results/bot_bench.json (figures.py; --no-save does not).

One game: Alice (Black) and Bob (Yellow) play a two-player game by buttons, so every click is a
human's and nothing but the bot's own work sits between a click and its answer. A move's latency is
from the click to the next turn message in the channel: the move committed, the old buttons
disabled, the board rendered and posted. Autocomplete latency is from typing to the choices.
Many games: `--games` channels, each its own two-member game, all clicking at once for `--rounds`
turns each; p99 is over every move click, and afterwards every game's move log must hold every throw
the members made and replay to the stored position (`moves_lost` counts what does not).
`concurrent_ack_p99_ms` is the p99 of the time from a click to its first answer in that phase: the
figure Discord's 3 s limit applies to (`concurrent_p99_ms` is the whole wait for the next board).
That phase runs in a bot process of its own: `transactions_per_click` is the database transactions
it began (it logs the count when it stops), over the clicks, the games' starts and joins included.

A table as a new member meets it (a second bot process with the bot's defaults: a thread per table,
the bot throwing for members), under Discord's per-channel limit of 5 new messages per 5 s: one
member against three computers at the default level, clicking a random choice whenever asked, to the
end. `clicks_per_human_throw` is their clicks over the throws of their seat, `pings_per_human_throw`
the notifications they got over the same, `parent_channel_messages` the messages the game left in the
channel it was started in, `rate_limited_move_p99_ms` the p99 from a click to the next board (or
the result), and `channel_writes_per_human_click` the posts and edits through the channel routes
(both limited to 5 per 5 s a channel, as Discord does) over the member's clicks. The same with
`/pachisi auto mode:off` gives `clicks_per_human_throw_auto_off`.
`--table-games` such games are played each way and pooled (throws over all games; p99 over all
clicks): games differ (the bot's dice are not seeded), and one game's figures vary widely.
`parent_channel_messages` is the most any of them left; `rate_limited_posts` the 429s answered.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import figures

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/support, as the tests import it

from bot import eventloop
from localdiscord.objects import Message
from tests.support import play
from tests.support.driver import BotProcess, Channel, FakeDiscord, Guild, Member
from tests.support.processes import PLAY_SETTINGS
from tests.support.processes import bot_env as test_env
from tests.support.processes import running_bot as bot_process
from tests.support.table import Table, wait_for_turn_or_end
from tests.support.table import player_to_move as player_of

START: dict[str, Any] = {"players": 2, "pieces": 4, "level": "easy"}


def bot_env(fake: FakeDiscord, database_url: str, **settings: str) -> dict[str, str]:
    """The tests' settings for the bot, its worker processes as the bot's default has them."""
    return test_env(fake, database_url, base=PLAY_SETTINGS, **settings)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def new_game(fake: FakeDiscord, guild: Guild, name: str, database_url: str) -> Table:
    """A channel with a game between two new members, Black to throw."""
    channel = guild.add_text_channel(name)
    alice, bob = guild.add_member(f"{name}-a"), guild.add_member(f"{name}-b")
    table = Table(fake, None, guild, channel, alice, bob, database_url)  # type: ignore[arg-type]
    await alice.slash(channel, "pachisi start", timeout=30, **START)
    await wait_for_turn_or_end(table)
    await bob.slash(channel, "pachisi join", seat="yellow", timeout=30)
    return table


async def player_to_move(table: Table, message: Message) -> Member:
    """Who the stored game says is to play the turn `message` shows."""
    return await player_of(table, message, [table.alice, table.bob])


async def turn(
    table: Table, rng: random.Random, moves: list[float], acks: list[float] | None = None
) -> tuple[bool, int]:
    """One click by whoever is to play; a move's latency goes to `moves`, and every click's time to
    its first answer (what Discord's 3 s limit applies to) to `acks`: infinite when Discord gave up
    on the click (the stand-in refuses an answer after 3 s, so no answered click is over 3 s).

    Returns (game over, throws the click ended: 1 for a move or a throw that offered none)."""
    message = await wait_for_turn_or_end(table)
    if play.is_result(message):
        return True, 0
    before = play.turn_state(table.channel.messages)
    buttons = play.play_buttons(message)
    member = await player_to_move(table, message)
    started = time.perf_counter()
    if not play.offers_moves(message):
        reply = await member.click(message, custom_id=buttons[0].custom_id, wait=False)
        after = await wait_for_turn_or_end(table, after=before)
        passed = play.is_result(after) or not play.offers_moves(after)
        if acks is not None:
            acks.append(math.inf if reply.latency is None else reply.latency * 1000)
        return False, int(passed)
    reply = await member.click(message, custom_id=rng.choice(buttons).custom_id, wait=False)
    await wait_for_turn_or_end(table, after=before)
    moves.append((time.perf_counter() - started) * 1000)
    if acks is not None:
        acks.append(math.inf if reply.latency is None else reply.latency * 1000)
    return False, 1


async def one_game(
    fake: FakeDiscord, guild: Guild, database_url: str, count: int, autocompletes: int
) -> tuple[list[float], list[float]]:
    rng = random.Random(1)
    moves: list[float] = []
    typed: list[float] = []
    table = await new_game(fake, guild, "solo-0", database_url)
    games = 1
    while len(moves) < count or len(typed) < autocompletes:
        message = await wait_for_turn_or_end(table)
        if play.is_result(message):
            games += 1
            table = await new_game(fake, guild, f"solo-{games}", database_url)
            continue
        if len(typed) < autocompletes and play.offers_moves(message):
            member = await player_to_move(table, message)
            started = time.perf_counter()
            await member.autocomplete(table.channel, "pachisi move", "choice", "")
            typed.append((time.perf_counter() - started) * 1000)
        await turn(table, rng, moves if len(moves) < count else [])
    return moves, typed


async def many_games(
    fake: FakeDiscord,
    guild: Guild,
    database_url: str,
    games: int,
    rounds: int,
    *,
    tables: list[Table] | None = None,
    thinking: tuple[float, float] | None = None,
) -> tuple[list[float], list[float], float, int, int, list[Table]]:
    """Every game's members click as soon as their turn shows (after `thinking` seconds, drawn
    uniformly, when given)."""
    if tables is None:
        tables = [await new_game(fake, guild, f"many-{n}", database_url) for n in range(games)]
    moves: list[float] = []
    acks: list[float] = []
    played = [0] * games
    clicks = [0] * games

    async def play_one(n: int) -> None:
        rng = random.Random(n)
        for _ in range(rounds * 2):  # a round: a throw and, usually, a move
            if thinking is not None:
                await asyncio.sleep(rng.uniform(*thinking))
            over, done = await turn(tables[n], rng, moves, acks)
            played[n] += done
            if over:
                return
            clicks[n] += 1

    started = time.perf_counter()
    await asyncio.gather(*(play_one(n) for n in range(games)))
    elapsed = time.perf_counter() - started
    return moves, acks, elapsed, sum(played), sum(clicks), tables


def cpu_seconds(pid: int, *, alone: bool = False) -> float:
    """CPU time (user + system) the process `pid` and every live process under it have used: the
    bot and its worker processes, read from /proc (`alone`: the bot's own process only)."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, grew = {pid}, not alone
    while grew:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(used.get(p, 0.0) for p in tree)


def transactions(bot: BotProcess) -> int:
    """The database transactions the bot began, as it logs them (on SIGUSR1, and when it stops)."""
    logged = re.findall(r"store transactions=(\d+)", bot.output(since_start=True))
    if not logged:
        print(bot.output()[-5000:], file=sys.stderr)
        raise RuntimeError("the bot did not report its transactions")
    return int(logged[-1])


async def bot_report(bot: BotProcess) -> int:
    """Ask the bot for its transaction count now (SIGUSR1; it logs it) and return it."""
    assert bot.pid is not None
    before = len(re.findall(r"store transactions=", bot.output(since_start=True)))
    os.kill(bot.pid, signal.SIGUSR1)
    for _ in range(200):
        if len(re.findall(r"store transactions=", bot.output(since_start=True))) > before:
            return transactions(bot)
        await asyncio.sleep(0.05)
    raise RuntimeError("the bot did not answer SIGUSR1 with its transactions")


async def busy_phase(
    fake: FakeDiscord, guild: Guild, database_url: str, args: argparse.Namespace, *, pace: bool = False
) -> dict[str, float | int]:
    """`--busy-tables` two-member games in a bot process of their own, every member clicking as soon
    as their turn shows (with `pace`: after thinking 2-6 s): the bot's CPU per click, the
    first answer's and the next board's latency, clicks served per second, transactions per click."""
    count = args.pace_tables if pace else args.busy_tables
    name = "pace" if pace else "busy"
    settings = {"WORKERS": str(args.workers)} if args.workers is not None else {}
    if args.profile and not pace:
        settings["PACHISI_PROFILE"] = str(Path(args.profile).resolve())
    async with bot_process(fake, bot_env(fake, database_url, **settings)) as bot:
        assert bot.pid is not None
        try:
            tables = [await new_game(fake, guild, f"{name}-{n}", database_url) for n in range(count)]
            began, cpu, main = await bot_report(bot), cpu_seconds(bot.pid), cpu_seconds(bot.pid, alone=True)
            if args.profile and not pace:
                os.kill(bot.pid, signal.SIGUSR2)  # the profiler starts (PACHISI_PROFILE)
            moves, acks, elapsed, _, clicks, _ = await many_games(
                fake,
                guild,
                database_url,
                len(tables),
                args.rounds,
                tables=tables,
                thinking=(2.0, 6.0) if pace else None,
            )
            cpu, main = cpu_seconds(bot.pid) - cpu, cpu_seconds(bot.pid, alone=True) - main
            if args.profile and not pace:
                os.kill(bot.pid, signal.SIGUSR2)  # and stops: written to PACHISI_PROFILE
            ended = await bot_report(bot)
        except Exception:
            print(bot.output()[-5000:], file=sys.stderr)
            raise
    return {
        f"{name}_tables": count,
        f"{name}_clicks": clicks,
        f"{name}_bot_cpu_ms_per_click": round(cpu * 1000 / clicks, 2),
        f"{name}_event_loop_cpu_ms_per_click": round(main * 1000 / clicks, 2),
        f"{name}_ack_p99_ms": round(percentile(acks, 0.99), 1),
        f"{name}_ack_max_ms": round(max(acks), 1),
        f"{name}_acks_over_3s": sum(a > 3000 for a in acks),
        f"{name}_board_p50_ms": round(statistics.median(moves), 1),
        f"{name}_board_p99_ms": round(percentile(moves, 0.99), 1),
        f"{name}_board_max_ms": round(max(moves), 1),
        f"{name}_clicks_per_s": round(clicks / elapsed, 1),
        f"{name}_bot_cpu_share": round(cpu / elapsed, 2),
        f"{name}_transactions_per_click": round((ended - began) / clicks, 3),
    }


def board_state(thread: Channel) -> tuple[int, int] | None:
    """The message that asks the table's one member (a choice or a Throw), and its edits."""
    message = play.turn_message(thread.messages)
    return None if message is None else (message.id, len(message.edits))


async def table_game(
    fake: FakeDiscord, guild: Guild, database_url: str, name: str, *, auto: bool
) -> dict[str, Any]:
    """One member and three computers, the bot's defaults, to the end (see the module's doc)."""
    channel = guild.add_text_channel(name)
    member = guild.add_member(f"{name}-member")
    if not auto:
        await member.slash(channel, "pachisi auto", timeout=30, mode="off")
    await member.slash(channel, "pachisi start", timeout=30)
    thread = await fake.wait_until(lambda: channel.threads[0] if channel.threads else None, timeout=30)
    rng = random.Random(7)
    clicks = 0
    waits: list[float] = []
    games = play.StoredGames(database_url)
    refused: set[int] = set()  # messages shaped as the result that the stored game says are not

    def over() -> bool:
        final = play.result_after(thread.messages)
        return final is not None and final.id not in refused

    def moved_on(state: tuple[int, int] | None) -> bool:
        """The result is up, or a new board asks the member (a new message or the same one edited)."""
        return over() or board_state(thread) not in (None, state)

    state = None
    while True:
        await fake.wait_until(functools.partial(moved_on, state), timeout=120, what="a board")
        if over():
            if await games.over_in(thread.id):
                break
            refused.add(play.result_after(thread.messages).id)  # type: ignore[union-attr]
            continue
        message = play.turn_message(thread.messages)
        assert message is not None
        state = board_state(thread)
        buttons = play.play_buttons(message)
        started = time.perf_counter()
        await member.click(message, custom_id=rng.choice(buttons).custom_id, wait=False, timeout=30)
        clicks += 1
        await fake.wait_until(functools.partial(moved_on, state), timeout=120, what="the next board")
        waits.append((time.perf_counter() - started) * 1000)
    [game] = [g for g in await games.all() if g.snapshot.channel_id == thread.id]
    seat = next(s for s, info in game.snapshot.seats.items() if info.user_id == member.id)
    throws = sum(1 for row in game.moves if row.seat == seat)
    pings = sum(m.pinged.count(member.id) for m in [*thread.messages, *channel.messages])
    routes = (f"/channels/{thread.id}/messages", f"/channels/{channel.id}/messages")
    writes = sum(
        r.method in ("POST", "PATCH") and r.path.startswith(routes) and r.status == 200
        for r in fake.server.requests
    )
    return {
        "clicks": clicks,
        "writes": writes,
        "throws": throws,
        "pings": pings,
        "parent": len(channel.messages),
        "waits": waits,
    }


async def tables_bench(
    fake: FakeDiscord, guild: Guild, database_url: str, games: int
) -> dict[str, float | int]:
    env = bot_env(
        fake, database_url, DEFAULT_THREAD="true", DEFAULT_AUTO_THROW="true", DEFAULT_LEVEL="normal"
    )
    fake.enforce_message_limit(5, 5.0)
    async with bot_process(fake, env) as bot:
        try:
            auto = [
                await table_game(fake, guild, database_url, f"table-auto-{n}", auto=True)
                for n in range(games)
            ]
            manual = [
                await table_game(fake, guild, database_url, f"table-manual-{n}", auto=False)
                for n in range(games)
            ]
        except Exception:
            print(bot.output()[-5000:], file=sys.stderr)
            raise

    def per_throw(runs: list[dict[str, Any]], key: str) -> float:
        return round(sum(r[key] for r in runs) / sum(r["throws"] for r in runs), 2)

    return {
        "table_games": games,
        "clicks_per_human_throw": per_throw(auto, "clicks"),
        "clicks_per_human_throw_auto_off": per_throw(manual, "clicks"),
        "parent_channel_messages": max(r["parent"] for r in auto + manual),
        "pings_per_human_throw": per_throw(auto, "pings"),
        "rate_limited_move_p99_ms": round(percentile([w for r in auto for w in r["waits"]], 0.99), 2),
        "rate_limited_posts": fake.server.rate_limited,
        "channel_writes_per_human_click": round(
            sum(r["writes"] for r in auto) / max(1, sum(r["clicks"] for r in auto)), 3
        ),
    }


async def load_phases(fake: FakeDiscord, guild: Guild, database_url: str, args: argparse.Namespace) -> dict:
    """The busy phase (`--busy-tables`) and the human-paced one (`--pace-tables`), when asked for."""
    found: dict[str, float | int] = {}
    if args.busy_tables:
        found |= await busy_phase(fake, guild, database_url, args)
    if args.pace_tables:
        found |= await busy_phase(fake, guild, database_url, args, pace=True)
    return found


async def measure(args: argparse.Namespace) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        async with FakeDiscord.start() as fake:
            guild = fake.add_guild("Bench club")
            load_figures = await load_phases(fake, guild, database_url, args)
            if args.load_only:
                return load_figures
            table_figures = (
                await tables_bench(fake, guild, database_url, args.table_games) if args.tables else {}
            )
            if args.tables_only:
                return table_figures
            async with bot_process(fake, bot_env(fake, database_url)) as bot:
                try:
                    moves, typed = await one_game(fake, guild, database_url, args.moves, args.autocompletes)
                except Exception:
                    print(bot.output()[-5000:], file=sys.stderr)  # what the bot said about it
                    raise
            async with bot_process(fake, bot_env(fake, database_url)) as bot:
                assert bot.pid is not None
                try:
                    cpu = cpu_seconds(bot.pid)
                    busy, acks, elapsed, clicked, clicks, tables = await many_games(
                        fake, guild, database_url, args.games, args.rounds
                    )
                    cpu = cpu_seconds(bot.pid) - cpu
                finally:
                    await bot.terminate()
                began = transactions(bot)
            channels = {t.channel.id for t in tables}
            played = [
                g for g in await play.StoredGames(database_url).all() if g.snapshot.channel_id in channels
            ]
            lost = sum(not play.replays(game) for game in played)
            lost += abs(clicked - sum(len(g.moves) for g in played))
    return {
        "move_p50_ms": round(statistics.median(moves), 2),
        "move_p99_ms": round(percentile(moves, 0.99), 2),
        "autocomplete_p50_ms": round(statistics.median(typed), 2),
        "games": args.games,
        "concurrent_p99_ms": round(percentile(busy, 0.99), 2),
        "concurrent_ack_p99_ms": round(percentile(acks, 0.99), 2),
        "moves_per_s": round(clicked / elapsed, 1),
        "moves_lost": lost,
        "transactions_per_click": round(began / clicks, 2),
        "bot_cpu_ms_per_click": round(cpu * 1000 / clicks, 2),
        **table_figures,
        **load_figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="move clicks timed in one game")
    parser.add_argument("--autocompletes", type=int, default=100)
    parser.add_argument("--games", type=int, default=100, help="concurrent games, one channel each")
    parser.add_argument("--rounds", type=int, default=10, help="throws per member in each game")
    parser.add_argument("--no-tables", dest="tables", action="store_false", help="skip the table game")
    parser.add_argument("--tables-only", action="store_true", help="only the table games' figures")
    parser.add_argument("--table-games", type=int, default=5, help="table games per auto mode")
    parser.add_argument("--busy-tables", type=int, default=0, help="tables of the busy phase (0: none)")
    parser.add_argument("--pace-tables", type=int, default=0, help="tables of the 2-6 s paced phase")
    parser.add_argument("--load-only", action="store_true", help="only the busy and human-paced phases")
    parser.add_argument("--workers", type=int, help="the bot's WORKERS setting (default: the bot's)")
    parser.add_argument("--profile", metavar="FILE", help="pstats of the busy phase")
    figures.add_arguments(parser)
    args = parser.parse_args()
    result = eventloop.run(measure(args))  # the stand-in on the bot's loop, as `python -m bot play` runs it
    figures.save("bot_bench", result, args)
    figures.show(result, args)


if __name__ == "__main__":
    main()
