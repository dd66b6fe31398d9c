"""Board rendering benchmark: time `render.board_png` over positions from simulated games.

    python bench/render_bench.py [--games 20] [--every 7] [--locale hi] [--json]

Each sample is a position from a random-policy game with its story (the moves since the seat to
move last moved, up to the last 8, captures marked), the next throw's cowries and its legal moves
drawn, as the bot draws them after every turn. The first call
(drawing and caching the static board and sprites) is timed apart as `first_ms`. Wall-clock times
depend on what else the machine runs, so the CPU time of the rendering thread and the load average
are printed too. `replay_ms` / `replay_bytes` time `render.replay.replay_gif` on one whole
four-player random game (`replay_throws` long). `--locale` draws every word in one of the bot's
languages (its catalog, and display names in its script); English by default.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from random import Random

import figures

from engine import Position
from engine.throws import throw_cowries
from render import DrawnMove, board_png
from render.words import Words

NAMES = {
    "en": {0: "Alice", 1: "Computer · hard", 2: "Bob", 3: "Computer · normal"},
    "hi": {0: "आशा", 1: "कंप्यूटर · कठिन", 2: "रवि", 3: "कंप्यूटर · सामान्य"},
}

STORY = 8
"""At most this many moves of the story are drawn (the bot's limit too)."""

Sample = tuple[Position, list[DrawnMove], int, tuple[bool, ...]]


def samples(games: int, every: int) -> list[Sample]:
    """(position, its story, next throw, its cowries) every `every` throws of each game."""
    found: list[Sample] = []
    for seed in range(games):
        rng = Random(seed)
        position = Position.initial()
        played: list[DrawnMove] = []
        count = 0
        while position.result is None and count < 3000:
            throw, _ = throw_cowries(rng)
            moves = position.legal_moves(throw)
            move = moves[rng.randrange(len(moves))] if moves else None
            if move is not None:
                played.append(DrawnMove(move, position))
            position = position.after(throw, move)
            count += 1
            if count % every == 0:
                nxt, faces = throw_cowries(rng)
                seat = position.turn
                mine = [
                    k
                    for k, drawn in enumerate(played)
                    if drawn.before is not None and drawn.before.turn == seat
                ]
                story = played[mine[-1] + 1 :] if mine else played
                found.append((position, story[-STORY:], nxt, faces))
    return found


def replay_figures(words: Words, seed: int = 0) -> dict[str, float | int]:
    """`replay_ms` and `replay_bytes`: the animated replay of one whole four-player random game."""
    from engine.record import Record, Throw
    from render.replay import replay_gif

    rng = Random(seed)
    position = Position.initial()
    throws = []
    while position.result is None:
        throw, _ = throw_cowries(rng)
        moves = position.legal_moves(throw)
        move = moves[rng.randrange(len(moves))] if moves else None
        throws.append(Throw(position.turn, throw, move))
        position = position.after(throw, move)
    record = Record.play(position.rules, throws)
    start, start_cpu = time.perf_counter(), time.thread_time()
    gif = replay_gif(record, words=words)
    return {
        "replay_ms": round((time.perf_counter() - start) * 1000, 1),
        "replay_cpu_ms": round((time.thread_time() - start_cpu) * 1000, 1),
        "replay_bytes": len(gif),
        "replay_throws": len(throws),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=7, help="sample a position every N throws")
    parser.add_argument("--locale", default="en", choices=sorted(NAMES), help="the words' language")
    figures.add_arguments(parser)
    args = parser.parse_args()
    from bot.core.texts.language import language

    words = language(args.locale).picture
    names = NAMES[args.locale]
    cases = samples(args.games, args.every)

    start = time.perf_counter()
    board_png(Position.initial(), words=words)
    first_ms = (time.perf_counter() - start) * 1000

    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    width = 0
    for position, story, throw, faces in cases:
        start, start_cpu = time.perf_counter(), time.thread_time()
        png = board_png(
            position,
            names=names,
            moves=story,
            throw=throw,
            cowries=faces,
            choices=position.legal_moves(throw),
            words=words,
        )
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        sizes.append(len(png))
        width = int.from_bytes(png[16:20], "big")  # IHDR width
    times.sort()
    cpu.sort()
    result = {
        "locale": args.locale,
        "positions": len(times),
        "story_moves_mean": round(statistics.mean(len(story) for _, story, _, _ in cases), 2),
        "first_ms": round(first_ms, 1),
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "max_ms": round(times[-1], 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_p99_ms": round(cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))], 2),
        "bytes_p50": int(statistics.median(sizes)),
        "bytes_max": max(sizes),
        "width": width,
        **replay_figures(words),
        "python": platform.python_version(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    figures.save(f"render_bench-{args.locale}", result, args)
    figures.show(result, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
