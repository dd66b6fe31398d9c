"""Pairing a tournament's rounds: Swiss for 2-player tables, Swiss for 4-player partnership tables,
and round robin by the circle method. Pure: members, points, ratings and the past in, tables out.

**Swiss as a matching.** Who meets whom is a minimum-cost perfect matching on the complete graph of
the members (plus one node for the computer when their number is odd), solved exactly by networkx's
`max_weight_matching` (Edmonds' blossom algorithm). A pair's cost is a tuple compared in order:

1. a second bye for a member (the computer's node, matched with one who already had one);
2. a repeat: the two met before (or, for partners, were partners before);
3. where the bye goes: to the lowest scorer, then the lowest rated, who has had none;
4. the gap in points;
5. the gap in ratings (near ratings meet, so each game is close).

The tuple becomes one integer weight in a mixed radix where each place is wider than the sum of
every lower place over a whole round, so the matching minimises the first place before looking at
the second, and so on. A pairing with fewer second byes, then fewer repeats, is therefore always
chosen when one exists: "no repeat while any pairing avoids one" is exact, not a heuristic.

**4-player partnerships, in two matchings.** A table is two sides of two partners. Choosing whole
tables at once is a partition of the members into groups of four with pairwise costs, which no
matching solves (it is NP-hard in general). It splits into two problems a matching solves exactly:
first the partnerships (members, and the computer's seats that fill the last table, matched with a
large penalty for partners who were partners before, then points and ratings); then the tables
(the partnerships matched with each other, with a penalty for every pair of opponents who met
before). The issue's hard rule is about partners, and the first matching enforces it exactly
whenever it can be; opponents then rotate as well as the partnerships allow. A computer never
partners a computer while a member is free to (two computers as a side would hand their opponents
a game with nobody to beat), and a member who had a computer partner before is the last to get
one again.

**Round robin.** The circle method: the first member stays, the others turn one place a round, so
every two members meet exactly once in n-1 rounds (n rounds for an odd n, one bye each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

COMPUTER: None = None
"""A seat the computer takes (a bye's opponent, a partnership's or a table's filler)."""

Seat = int | None
"""A member's id, or the computer."""


@dataclass(frozen=True)
class Player:
    """A member as pairing sees them: their points so far and their rating."""

    member: int
    points: float = 0.0
    rating: float = 0.0


@dataclass(frozen=True)
class Table:
    """One game: two sides, each one member (2-player) or two partners (4-player), the computer as None."""

    sides: tuple[tuple[Seat, ...], tuple[Seat, ...]]

    @property
    def members(self) -> list[int]:
        return [m for side in self.sides for m in side if m is not None]

    @property
    def bye(self) -> bool:
        """A side with members faces only the computer: its members score the round as a win."""
        return any(not [m for m in side if m is not None] for side in self.sides)


@dataclass(frozen=True)
class History:
    """What earlier rounds paired: opponents and partners (as pairs of members) and byes."""

    opponents: frozenset[frozenset[int]] = frozenset()
    partners: frozenset[frozenset[int]] = frozenset()
    byes: Mapping[int, int] = field(default_factory=dict)
    computer_partners: Mapping[int, int] = field(default_factory=dict)
    """Rounds in which a member had the computer as partner (4-player)."""

    @classmethod
    def of(cls, tables: Iterable[Table]) -> History:
        opponents: set[frozenset[int]] = set()
        partners: set[frozenset[int]] = set()
        byes: dict[int, int] = {}
        alone: dict[int, int] = {}
        for table in tables:
            for side, other in (table.sides, table.sides[::-1]):
                members = [m for m in side if m is not None]
                if table.bye:
                    for m in members:
                        byes[m] = byes.get(m, 0) + 1
                if len(side) == 2 and len(members) == 1:
                    alone[members[0]] = alone.get(members[0], 0) + 1
                partners.update(frozenset(p) for p in combinations(members, 2))
                opponents.update(frozenset((a, b)) for a in members for b in other if b is not None)
        return cls(frozenset(opponents), frozenset(partners), byes, alone)


Cost = tuple[int, ...]
"""A pair's cost, compared place by place (the module's docstring lists the places)."""


Pair = tuple[object, object]


def _weights(costs: Mapping[Pair, Cost], pairs_per_matching: int) -> dict[Pair, int]:
    """Matching weights that rank matchings by their summed costs, first place first.

    Each place's radix exceeds the largest sum that place can reach over a matching, so no amount of
    a lower place outweighs one unit of a higher; the weight is a constant minus the cost, positive
    everywhere, so a maximum-weight perfect matching is a minimum-cost one."""
    places = len(next(iter(costs.values())))
    radices = [max(c[i] for c in costs.values()) * pairs_per_matching + 1 for i in range(places)]
    scale = 1
    value: dict[Pair, int] = dict.fromkeys(costs, 0)
    for i in reversed(range(places)):
        for pair, cost in costs.items():
            value[pair] += cost[i] * scale
        scale *= radices[i]
    return {pair: scale - v for pair, v in value.items()}


def _match(nodes: Sequence[object], cost: Callable[[object, object], Cost]) -> list[Pair]:
    """The minimum-cost perfect matching of `nodes` (an even number), in the nodes' order."""
    import networkx as nx  # here, not at the top: a tenth of a second off every start of the bot

    costs = {(a, b): cost(a, b) for a, b in combinations(nodes, 2)}
    if not costs:
        return []
    graph = nx.Graph()
    for (a, b), weight in _weights(costs, len(nodes) // 2).items():
        graph.add_edge(a, b, weight=weight)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    order = {node: i for i, node in enumerate(nodes)}
    pairs = [tuple(sorted(pair, key=order.__getitem__)) for pair in matched]
    assert len(pairs) * 2 == len(nodes), "a complete graph on an even number of nodes has a perfect matching"
    return sorted(pairs, key=lambda pair: order[pair[0]])


def _ranked(players: Iterable[Player]) -> list[Player]:
    """Best first: points, then rating, then the member's id (so the result never depends on order)."""
    return sorted(players, key=lambda p: (-p.points, -p.rating, p.member))


def _half_points(points: float) -> int:
    return round(points * 2)


def _rating_gap(a: float, b: float) -> int:
    return round(abs(a - b))


@dataclass(frozen=True)
class _Bye:
    """The computer's node in a matching (one per missing seat)."""

    index: int


def swiss_pairs(players: Sequence[Player], history: History = History()) -> list[Table]:
    """A Swiss round of 2-player tables, best-placed table first; with an odd number of members,
    one plays the computer (a bye)."""
    ranked = _ranked(players)
    rank = {p.member: i for i, p in enumerate(ranked)}
    nodes: list[object] = [*ranked, *([_Bye(0)] if len(ranked) % 2 else [])]

    def cost(a: object, b: object) -> Cost:
        if isinstance(b, _Bye):
            assert isinstance(a, Player)
            had = history.byes.get(a.member, 0)
            return (had, 0, len(ranked) - rank[a.member], 0, 0)
        assert isinstance(a, Player) and isinstance(b, Player)
        repeat = frozenset((a.member, b.member)) in history.opponents
        gap = abs(_half_points(a.points) - _half_points(b.points))
        return (0, int(repeat), 0, gap * gap, _rating_gap(a.rating, b.rating))

    tables = []
    for a, b in _match(nodes, cost):
        assert isinstance(a, Player)
        other = b.member if isinstance(b, Player) else COMPUTER
        tables.append(Table(((a.member,), (other,))))
    return tables


def partnership_pairs(players: Sequence[Player], history: History = History()) -> list[Table]:
    """A Swiss round of 4-player partnership tables: partnerships by one matching, tables by a
    second; the computer fills the seats of the last table that members do not."""
    ranked = _ranked(players)
    missing = -len(ranked) % 4
    fillers = [_Bye(i) for i in range(missing)]
    teams = [tuple(pair) for pair in _match([*ranked, *fillers], _partner_cost(ranked, history))]
    return [Table((_seats(a), _seats(b))) for a, b in _match(teams, _opponent_cost(history))]


def _seats(team: object) -> tuple[Seat, Seat]:
    assert isinstance(team, tuple)
    first, second = (p.member if isinstance(p, Player) else COMPUTER for p in team)
    return (first, second)


def _partner_cost(ranked: Sequence[Player], history: History) -> Callable[[object, object], Cost]:
    rank = {p.member: i for i, p in enumerate(ranked)}

    def cost(a: object, b: object) -> Cost:
        if isinstance(a, _Bye) and isinstance(b, _Bye):
            return (1, 0, 0, 0, 0)
        if isinstance(b, _Bye):
            assert isinstance(a, Player)
            had = history.computer_partners.get(a.member, 0)
            return (0, had, len(ranked) - rank[a.member], 0, 0)
        assert isinstance(a, Player) and isinstance(b, Player)
        repeat = frozenset((a.member, b.member)) in history.partners
        gap = abs(_half_points(a.points) - _half_points(b.points))
        return (0, int(repeat), 0, gap * gap, _rating_gap(a.rating, b.rating))

    return cost


def _team_points(team: object) -> tuple[int, float, list[int]]:
    """A partnership's points (in halves) and rating, each its members' mean, and its members."""
    assert isinstance(team, tuple)
    members = [p for p in team if isinstance(p, Player)]
    points = sum(_half_points(p.points) for p in members) // max(1, len(members))
    rating = sum(p.rating for p in members) / max(1, len(members))
    return points, rating, [p.member for p in members]


def _opponent_cost(history: History) -> Callable[[object, object], Cost]:
    def cost(a: object, b: object) -> Cost:
        points_a, rating_a, members_a = _team_points(a)
        points_b, rating_b, members_b = _team_points(b)
        alone = int(not members_a or not members_b)
        repeats = sum(frozenset((x, y)) in history.opponents for x in members_a for y in members_b)
        gap = abs(points_a - points_b)
        return (alone, repeats, 0, gap * gap, _rating_gap(rating_a, rating_b))

    return cost


def round_robin(members: Sequence[int]) -> list[list[Table]]:
    """The whole schedule of 2-player tables by the circle method: each two members meet once; with
    an odd number, each member has one round against the computer (a bye)."""
    circle: list[Seat] = [*members, *([COMPUTER] if len(members) % 2 else [])]
    count = len(circle)
    rounds = []
    for number in range(count - 1):
        tables = []
        for i in range(count // 2):
            a, b = circle[i], circle[count - 1 - i]
            if (i == 0 and number % 2) or a is COMPUTER:
                a, b = b, a  # the fixed member alternates sides; a member always takes side 0 of a bye
            tables.append(Table(((a,), (b,))))
        rounds.append(tables)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
