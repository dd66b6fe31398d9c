"""Ratings (OpenSkill, Plackett-Luce): a side is a team of its members, computers are fixed players.

Pure functions: the store keeps each member's (mu, sigma) per server, and `rate` turns one finished
game into new ratings. A computer level is a member with a fixed rating fitted to the arena results
of docs/AI.md (`fit_level`), so a win against `hard` computers gains more than one against `easy`.

Seasons: the same ratings are kept a second time per calendar month (UTC), starting afresh each
month, so a newcomer can reach the top of a month's leaderboard; a game counts in the season it
ended in (`season_of`).

A member who played only part of a game counts with their share: the seats' worth of throws they
played (1.0 for a whole seat). A member with share w enters the team as a performance w times
theirs, so the side's strength is the share-weighted sum of who actually played, and their rating
moves about w times as far, whether the side won or lost. (OpenSkill's own `weights` mean a
contribution: a small one loses more on a loss, the opposite of a small share.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce(tau=0.0)
"""The model; `tau` (the drift added to sigma before each game) is applied here, per member."""
TAU = 25 / 300
START_MU = 25.0
START_SIGMA = 25 / 3
MIN_GAMES = 3
"""Games a member needs before the leaderboard ranks them."""

COMPUTER_SIGMA = 1.0
"""A computer level's uncertainty: small, since thousands of arena games measured it."""
ARENA: tuple[tuple[str, int, int, int], ...] = (
    ("easy", 4, 49, 1951),
    ("random", 4, 20, 1980),
    ("hard", 2, 1318 + 1293, 682 + 707),
    ("hard", 4, 1328 + 1343, 672 + 657),
    ("expert", 2, 293, 107),
)
"""docs/AI.md's results table, classic rules (seeds 1 and 2; `expert`: its own rows there): (level,
players, its wins, its losses) against `normal`, which sits at START_MU, where a new member starts."""
LEVEL_MU = {"random": 17.76, "easy": 18.88, "normal": START_MU, "hard": 26.57, "expert": 28.76}
"""fit_level(level) for each level, rounded (a test keeps them equal)."""

Member = int | str
"""A Discord user id, or a computer level's name."""


class Rating(NamedTuple):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard ranks by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


NEW = Rating(START_MU, START_SIGMA)


def level_rating(level: str) -> Rating:
    return Rating(LEVEL_MU[level], COMPUTER_SIGMA)


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the ratings see it: each side's members with their shares, the winner.

    `winner` is the winning side (0: Black's, 1: the other), or None for a draw.
    """

    sides: tuple[Mapping[Member, float], Mapping[Member, float]]
    winner: int | None

    @property
    def users(self) -> set[int]:
        return {m for side in self.sides for m in side if isinstance(m, int)}

    @property
    def rated(self) -> bool:
        """Rated when both sides played, some user among them, and nobody on both sides."""
        users = [{m for m in side if isinstance(m, int)} for side in self.sides]
        return all(self.sides) and bool(users[0] | users[1]) and not users[0] & users[1]


def sides_from_throws(
    players: int, levels: Mapping[int, str], throws: Iterable[tuple[int, int | None]]
) -> tuple[dict[Member, float], dict[Member, float]]:
    """Each side's members and shares from the move log: (seat that threw, user or None) per throw.

    A throw with no user was the computer's, at that seat's level. A seat's share of 1.0 is split
    among those who threw for it, in proportion to their throws.
    """
    counts: dict[int, dict[Member, int]] = {}
    for seat, user in throws:
        member: Member = user if user is not None else levels[seat]
        seat_counts = counts.setdefault(seat, {})
        seat_counts[member] = seat_counts.get(member, 0) + 1
    sides: tuple[dict[Member, float], dict[Member, float]] = ({}, {})
    for seat, seat_counts in sorted(counts.items()):
        side = sides[_side_of(seat, players)]
        total = sum(seat_counts.values())
        for member, count in seat_counts.items():
            side[member] = side.get(member, 0.0) + count / total
    return sides


def _side_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat // 2


def rate(ratings: Mapping[int, Rating], game: RatedGame) -> dict[int, Rating]:
    """The new ratings of the game's users (others' ratings, and computers', do not change).

    `ratings` holds the users' current ratings; a user not in it starts at NEW.
    """
    if not game.rated:
        return {}
    before: dict[Member, Rating] = {}
    teams = []
    for side in game.sides:
        team = []
        for member, share in side.items():
            if isinstance(member, int):
                current = ratings.get(member, NEW)
                current = Rating(current.mu, math.sqrt(current.sigma**2 + TAU**2))
            else:
                current = level_rating(member)
            before[member] = current
            team.append(MODEL.rating(mu=share * current.mu, sigma=share * current.sigma, name=str(member)))
        teams.append(team)
    ranks = [1.0, 1.0] if game.winner is None else [1.0 + (game.winner != side) for side in (0, 1)]
    after = MODEL.rate(teams, ranks=ranks)
    new: dict[int, Rating] = {}
    for side, team in zip(game.sides, after, strict=True):
        for (member, share), rated in zip(side.items(), team, strict=True):
            if isinstance(member, int):
                new[member] = Rating(rated.mu / share, rated.sigma / share)
    return new


def rebuild(games: Iterable[RatedGame]) -> dict[int, Rating]:
    """Every user's rating from their games in the order they ended (what live updates give)."""
    ratings: dict[int, Rating] = {}
    for game in games:
        ratings.update(rate(ratings, game))
    return ratings


def ranking(
    ratings: Mapping[int, Rating], games: Mapping[int, int], min_games: int = MIN_GAMES
) -> list[tuple[int, Rating]]:
    """Users with at least `min_games` rated games, best ordinal first (ties: the lower id)."""
    eligible = [(user, r) for user, r in ratings.items() if games.get(user, 0) >= min_games]
    return sorted(eligible, key=lambda item: (-item[1].ordinal, item[0]))


def win_chance(players: int, mu: float, against_mu: float = START_MU) -> float:
    """The model's chance that computers at `mu` beat computers at `against_mu` (one side each)."""
    seats = players // 2
    team = [MODEL.rating(mu=mu, sigma=COMPUTER_SIGMA) for _ in range(seats)]
    other = [MODEL.rating(mu=against_mu, sigma=COMPUTER_SIGMA) for _ in range(seats)]
    return float(MODEL.predict_win([team, other])[0])


def fit_level(level: str) -> float:
    """The mu that makes the model's win chances against `normal` likeliest given ARENA's games."""
    rows = [(players, wins, losses) for name, players, wins, losses in ARENA if name == level]
    if not rows:
        raise ValueError(f"no arena results for {level!r}")

    def cost(mu: float) -> float:
        total = 0.0
        for players, wins, losses in rows:
            p = min(max(win_chance(players, mu), 1e-12), 1 - 1e-12)
            total -= wins * math.log(p) + losses * math.log(1 - p)
        return total

    low, high = 0.0, 50.0
    for _ in range(80):  # golden-section search: the cost has one minimum
        a = high - (high - low) / 1.618033988749895
        b = low + (high - low) / 1.618033988749895
        if cost(a) < cost(b):
            high = b
        else:
            low = a
    return (low + high) / 2


SHOWN_AT_START = 1500
SHOWN_PER_SKILL = 42
"""Ratings are shown on the scale chess players know: a new member shows 1500, and a skill point
is 42 rating points, so a newcomer's uncertainty (25/3) is Glicko's 350 ± a little."""


def shown(mu: float) -> int:
    """The rating members read for skill `mu` (the leaderboard still ranks by `ordinal`)."""
    return round(SHOWN_AT_START + SHOWN_PER_SKILL * (mu - START_MU))


def season_of(moment: datetime) -> str:
    """The season a moment falls in: its calendar month (UTC), `2026-05`."""
    return moment.astimezone(UTC).strftime("%Y-%m")


def previous_season(season: str) -> str:
    """The season before `season`: `2026-04` before `2026-05`, `2025-12` before `2026-01`."""
    year, month = (int(part) for part in season.split("-"))
    return f"{year - 1:04d}-12" if month == 1 else f"{year:04d}-{month - 1:02d}"


def is_season(text: str) -> bool:
    """Whether `text` names a season: `YYYY-MM` with a real month."""
    return re.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])", text) is not None
