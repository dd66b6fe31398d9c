"""Whole games played by computer policies, and the statistics the seeds quote (RULES.md 8)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from engine.board import HOME
from engine.game import MAX_THROWS, Game, Outcome, Termination, play_out
from engine.players import Player, get_player
from engine.rules import Rules
from engine.state import Move, Position, side_name


@dataclass
class GameSummary:
    """How one game went: length, result, and whether the escape hatch was used or decided it."""

    throws: int
    outcome: Outcome
    escape_hatch_used: bool
    escape_hatch_decided: bool  # the winning side's last piece came home through the hatch
    final: Position


def play_game(
    start: Position, players: dict[int, Player], rng: Random, *, max_throws: int = MAX_THROWS
) -> GameSummary:
    """Play one game from `start` to its end: `players` maps each seat in play to its policy, and
    `rng` throws the cowries and breaks the policies' ties."""
    game = Game(start, max_throws=max_throws)
    hatch_used = False
    last_home_via_hatch = [False, False]  # per side: did its latest piece home use the hatch?

    def choose(position: Position, throw: int, moves: list[Move]) -> Move:
        nonlocal hatch_used
        move = moves[0] if len(moves) == 1 else players[position.turn].choose(position, throw, moves, rng)
        if move.dst == HOME:
            via_hatch = position.needs_capture(move.seat)
            hatch_used |= via_hatch
            last_home_via_hatch[position.side_of(move.seat)] = via_hatch
        return move

    outcome = play_out(game, choose, rng)
    assert outcome is not None
    winner = outcome.winner
    return GameSummary(
        throws=game.throws,
        outcome=outcome,
        escape_hatch_used=hatch_used,
        escape_hatch_decided=winner is not None and last_home_via_hatch[winner],
        final=game.position,
    )


@dataclass
class SimulationReport:
    games: int = 0
    frozen: int = 0
    capped: int = 0
    throws: list[int] = field(default_factory=list)
    wins: dict[str, int] = field(default_factory=dict)
    escape_hatch_games: int = 0
    escape_hatch_decided: int = 0
    seconds: float = 0.0
    """Set by the caller that timed the run (the engine keeps no clock); while 0 the speeds read 0."""

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "frozen": self.frozen,
            "capped": self.capped,
            "throws_mean": round(statistics.fmean(self.throws), 2) if self.throws else 0.0,
            "throws_median": statistics.median(self.throws) if self.throws else 0,
            "wins": self.wins,
            "escape_hatch_games": self.escape_hatch_games,
            "escape_hatch_decided": self.escape_hatch_decided,
            "games_per_s": round(self.games / self.seconds, 2) if self.seconds else 0.0,
            "throws_per_s": round(sum(self.throws) / self.seconds) if self.seconds else 0,
        }


def simulate(
    games: int,
    rules: Rules,
    *,
    seed: int | None = None,
    policy: str = "random",
    start: Position | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play `games` games with every seat on `policy` (from `start`, else from the beginning);
    deterministic for a given seed."""
    start = Position.initial(rules) if start is None else start
    rules = start.rules
    rng = Random(seed)
    players = {seat: get_player(policy) for seat in rules.seats}
    report = SimulationReport(wins={side_name(side, rules.players): 0 for side in (0, 1)})
    for index in range(games):
        summary = play_game(start, players, rng)
        report.games += 1
        report.throws.append(summary.throws)
        termination, winner = summary.outcome
        if termination is Termination.FROZEN:
            report.frozen += 1
        elif termination is Termination.THROW_LIMIT:
            report.capped += 1
        else:
            assert winner is not None
            report.wins[side_name(winner, rules.players)] += 1
        report.escape_hatch_games += summary.escape_hatch_used
        report.escape_hatch_decided += summary.escape_hatch_decided
        if progress:
            progress(index + 1)
    return report
