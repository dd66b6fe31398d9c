"""A tournament's standings, computed from its stored games alone, so anyone can recompute them.

Scoring: a win is 1 point, a loss 0, a draw (the throw limit) half a point each; a bye (a side whose
opponents are all computers) counts as a win whatever the game's result. Both partners of a side
score its result. A withdrawn member scores every game from the round they withdrew in as a loss,
finished or not; their earlier results stand.

Tie-breaks, in order: Buchholz (the sum of the points of every opponent met, both members of the
other side in a partnership game; a bye has no opponent), then the sum of those opponents' ratings
as they entered. Members equal on points and both tie-breaks share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from bot.core.tournaments.pairing import Table

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Entrant:
    """A member in a tournament: their rating as they entered, and the round they withdrew in."""

    member: int
    rating: int
    withdrawn_round: int | None = None

    def withdrawn_by(self, round_number: int) -> bool:
        return self.withdrawn_round is not None and round_number >= self.withdrawn_round


@dataclass(frozen=True)
class Game:
    """A table of a round and its result: `winner` is the winning side, None for a draw;
    `done` is False while the game plays."""

    round: int
    table: Table
    winner: int | None = None
    done: bool = False


@dataclass(frozen=True)
class Line:
    """One row of the standings."""

    rank: int
    member: int
    points: float
    buchholz: float
    opponents_rating: int
    games: int
    withdrawn: bool = False

    @property
    def tie_breaks(self) -> tuple[float, float, int]:
        return (self.points, self.buchholz, self.opponents_rating)


def score(entrant: Entrant, side: int, game: Game) -> float | None:
    """What `game` (in which the entrant sits on `side`) scores for them; None while it counts nothing."""
    if entrant.withdrawn_by(game.round):
        return LOSS
    if not game.done:
        return None
    if game.table.bye:
        return WIN
    if game.winner is None:
        return DRAW
    return WIN if game.winner == side else LOSS


def _results(entrants: Sequence[Entrant], games: Iterable[Game]) -> dict[int, list[tuple[float, list[int]]]]:
    """Each member's scored games: the points and the members they faced."""
    by_member = {e.member: e for e in entrants}
    results: dict[int, list[tuple[float, list[int]]]] = {e.member: [] for e in entrants}
    for game in games:
        for side, members in enumerate(game.table.sides):
            opponents = [m for m in game.table.sides[1 - side] if m is not None]
            for member in members:
                if member is None or member not in by_member:
                    continue
                points = score(by_member[member], side, game)
                if points is not None:
                    results[member].append((points, opponents))
    return results


def standings(entrants: Sequence[Entrant], games: Iterable[Game]) -> list[Line]:
    """The standings, best first (ties beyond the tie-breaks: the higher entry rating, the lower id)."""
    ratings = {e.member: e.rating for e in entrants}
    results = _results(entrants, games)
    points = {m: sum(p for p, _ in scored) for m, scored in results.items()}
    lines = []
    for entrant in entrants:
        scored = results[entrant.member]
        met = [o for _, opponents in scored for o in opponents]
        lines.append(
            Line(
                rank=0,
                member=entrant.member,
                points=points[entrant.member],
                buchholz=sum(points.get(o, 0.0) for o in met),
                opponents_rating=sum(ratings.get(o, 0) for o in met),
                games=len(scored),
                withdrawn=entrant.withdrawn_round is not None,
            )
        )
    lines.sort(key=lambda line: (*(-t for t in line.tie_breaks), -ratings[line.member], line.member))
    ranked: list[Line] = []
    for i, line in enumerate(lines):
        shared = ranked and ranked[-1].tie_breaks == line.tie_breaks
        rank = ranked[-1].rank if shared else i + 1
        ranked.append(replace(line, rank=rank))
    return ranked


def podium(lines: Sequence[Line]) -> list[Line]:
    """The members ranked 1 to 3 (more than three when ranks are shared)."""
    return [line for line in lines if line.rank <= 3]
