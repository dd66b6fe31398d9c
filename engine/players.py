"""Computer players: given a position and a throw, choose one legal move.

Five levels, weakest first: `random` (the baseline), `easy` (random, but never misses a capture or
a piece coming home), `normal` (the move whose result `engine.evaluate` scores best for the side),
`hard` (expectimax over the seven throw outcomes that follow each move, with their real
weights, on top of the `normal` evaluation, which it uses with a piece on the board worth more; a
node budget keeps it fast and repeatable) and `expert` (with two players a shallower expectimax
whose leaves are judged by a value network trained on self-play, engine/network.py; with four,
`hard`'s search with that network's verdict on each move blended in).
Every player plays for its side: the evaluation counts the partner's pieces as its own.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from engine.evaluate import ENTERED, SEARCH_ENTERED, evaluate
from engine.network import Network, encode, network
from engine.state import DRAW, Move, Position
from engine.throws import OUTCOMES, Outcome

LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
DEFAULT_LEVEL = "normal"
HARD_NODES = 3000
"""Default node budget of `hard` (fresh positions evaluated per decision): the budget measured in
docs/AI.md, with a p99 decision time under 100 ms here (bench/ai_bench.py)."""
HARD_DEPTH = 3
"""Default number of chance layers of `hard` (see PLANS): enemy, self, enemy in two-player games;
the two enemies and the seat itself in four-player ones (the partner passed over). A fourth layer
fits the time budget but won no more games for either player count."""
_COMMON: tuple[Outcome, ...] = tuple(o for o in OUTCOMES if o.weight >= 15)
"""The three commonest throws, 2, 3 and 4 (50 in 64)."""
PLANS: dict[int, tuple[tuple[Outcome, ...], ...]] = {
    1: (OUTCOMES,),
    2: (OUTCOMES,) * 2,
    3: (OUTCOMES,) * 3,
    4: (OUTCOMES, OUTCOMES, OUTCOMES, _COMMON),
}
"""PLANS[layers]: the throws each chance layer of a search looks at, the layer right after the move
first: every throw, graces included (they bring pieces out), at every layer but a fourth, which
looks at 2, 3 and 4 to keep the search within the time budget. A four-player search passes over
the partner's throws (see HardPlayer), so its three layers reach the seat's own next throw, and a
fourth the next enemy's reply to it; in two-player games a fourth is the seat's own throw after the
enemy's reply."""
MAX_DEPTH = max(PLANS)


class Player(Protocol):
    """Chooses one of `moves` (the non-empty legal moves of `throw` in `position`)."""

    name: str

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move: ...


class RandomPlayer:
    """Uniform among the legal moves: the baseline every other level is measured against."""

    name = "random"

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        return moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class EasyPlayer:
    """Random, with a little sense: takes a capture when it sees one, else brings a piece home."""

    name = "easy"

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        pool = [m for m in moves if position.captures(m)] or [m for m in moves if m.comes_home] or moves
        return pool[rng.randrange(len(pool))]


def _ranked(
    position: Position, throw: int, moves: list[Move], rng: Random, entered: float = ENTERED
) -> list[tuple[float, Move]]:
    """(static score for the mover's side, move), best first; equal scores in a seeded random order."""
    side = position.side_of(position.turn)
    shuffled = list(moves)
    rng.shuffle(shuffled)
    scored = [(evaluate(position.after(throw, m), side, entered), m) for m in shuffled]
    scored.sort(key=lambda pair: -pair[0])  # stable: ties keep the shuffled order
    return scored


class NormalPlayer:
    """The move whose resulting position the hand-tuned evaluation likes best (one move, no search)."""

    name = "normal"

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        return _ranked(position, throw, moves, rng)[0][1]


class HardPlayer:
    """Expectimax: each move is worth the weighted mean, over the throws that follow it, of the
    best reply for whoever throws next (self again after a grace or capture, or an enemy).
    At the last layer the replies are judged by the static evaluation; above it the `beam` best
    replies of each throw (by that evaluation) are searched once more the same way.

    In four-player games the partner's throws are passed over, as if each were lost: a layer spent
    on the partner would leave the seat's own next throw (with its graces) beyond the default's
    three layers. The partner plays for the side too, so leaving its move out undervalues every
    line about alike.

    The search deepens iteratively: every move at one layer, then at two, then at `depth` (three
    by default; four skips three, whose values it could not reuse), moves in order of their last
    value while fewer than `nodes` positions have been evaluated (always at least two: one move
    alone could not change the choice). The choice is the best move at the deepest level reached;
    moves left out had scored worse one level up. Counting nodes rather than time keeps every
    decision repeatable for a seed.

    Two layers search the best two replies of each throw again, deeper searches only the best one
    (the reply the evaluation prefers), looking at the throws of PLANS. `beam` overrides the width
    for experiments.

    The search judges positions by `normal`'s evaluation with one weight of its own: a piece on the
    board is worth `entered` (SEARCH_ENTERED) beyond its steps, where `normal` counts ENTERED. Set
    by play (docs/AI.md, "The search"); `entered=12` searches with `normal`'s evaluation exactly.
    """

    name = "hard"

    def __init__(
        self,
        nodes: int = HARD_NODES,
        depth: int = HARD_DEPTH,
        beam: int | None = None,
        entered: float = SEARCH_ENTERED,
        net: Network | None = None,
        root: float = 0.0,
    ) -> None:
        if nodes < 1 or (beam is not None and beam < 1):
            raise ValueError("nodes and beam must be at least 1")
        if not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be 1 to {MAX_DEPTH}")
        if entered < 0:
            raise ValueError("entered must not be negative")
        if not 0.0 <= root <= 1.0:
            raise ValueError("root must be 0 to 1")
        self.nodes = nodes
        self.depth = depth
        self.beam = beam
        self.entered = float(entered)
        self.net = net
        self.root = float(root) if net is not None else 0.0
        """The share of `net`'s verdict on each move's afterstate in the move's value (`expert`
        with four players); 0: the search alone."""

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        return self.rank(position, throw, moves, rng)[0]

    def rank(self, position: Position, throw: int, moves: list[Move], rng: Random) -> list[Move]:
        """Every move, the one `choose` plays first: the moves the deepest level reached searched, by
        their value there, then those the budget left out, in their order one level up (the hint)."""
        if len(moves) == 1:
            return list(moves)
        partner = (position.turn + 2) % 4 if position.rules.players == 4 else None
        search = _Search(position.side_of(position.turn), partner, 1, self.beam, self.entered)
        ranked = _ranked(position, throw, moves, rng, self.entered)
        children = [(m, position.after(throw, m)) for _, m in ranked]
        search.nodes = len(moves)
        verdicts = self._verdicts(position.side_of(position.turn), children)
        keep = 1.0 - self.root
        for layers in sorted({1, min(2, self.depth), self.depth}):
            if layers > 1:
                search.plan(layers, self.beam)
            scored: list[tuple[float, Move, Position]] = []
            for move, child in children:
                if len(scored) >= 2 and search.nodes >= self.nodes:
                    break
                value = search.expect(child, layers)
                verdict = verdicts.get(move)  # none for a decided game: its WIN stands
                scored.append((value if verdict is None else keep * value + verdict, move, child))
            scored.sort(key=lambda item: -item[0])  # stable: ties keep the previous order
            children = [(move, child) for _, move, child in scored] + children[len(scored) :]
            if search.nodes >= self.nodes:
                break
        return [move for move, _ in children]

    def _verdicts(self, side: int, children: list[tuple[Move, Position]]) -> dict[Move, float]:
        """`root` x the network's log-odds for `side` after each move, in the evaluation's steps (a
        decided game is left to the search, which scores it WIN)."""
        net = self.net
        if net is None or self.root == 0.0:
            return {}
        verdicts: dict[Move, float] = {}
        for move, child in children:
            if child.result is None:
                indices, inputs = encode(child)
                odds = net.logit(indices, inputs)
                mine = child.side_of(child.turn) == side
                verdicts[move] = self.root * STEPS_PER_LOGIT * (odds if mine else -odds)
        return verdicts

    def expect(self, position: Position, side: int, depth: int = 1) -> tuple[float, int]:
        """The chance node after a move by a seat of `side`, searched alone with `depth` layers:
        (expected score for `side`, positions evaluated)."""
        players, turn = position.rules.players, position.turn
        # The mover's partner sits across from a mover about to throw again, or just after the
        # enemy seat the turn has passed to.
        partner = (turn + (2 if position.side_of(turn) == side else 1)) % 4 if players == 4 else None
        search = _Search(side, partner, depth, self.beam, self.entered)
        return search.expect(position, depth), search.nodes


STEPS_PER_LOGIT = 166.0
"""The network's log-odds in the evaluation's steps, where `expert` blends its verdict into `hard`'s
search: one over the least-squares slope (through 0) of the four-player network's log-odds on
`evaluate` with SEARCH_ENTERED, over each move's afterstate in 3,000 four-player decisions of
`normal`'s games, seed 5 (docs/AI.md), measured with the network of 20,000 games and kept since:
the arena's figures for the blend were measured with it."""

_PASSING_THROW = 2
"""Not a grace: played with no move, it passes the turn on (how a partner's throw is passed over)."""


class _Search:
    """One decision's expectimax for `side`, with its caches: a position reached twice (two pieces
    moved in either order, say) is evaluated, and its chance node searched, only once."""

    def __init__(
        self, side: int, passed_over: int | None, layers: int, beam: int | None, entered: float
    ) -> None:
        self.side = side
        self.entered = entered
        """A piece's worth beyond its steps in this search's evaluation (HardPlayer)."""
        self.passed_over = passed_over
        """The mover's partner in four-player games, whose throws the search passes over (HardPlayer)."""
        self.nodes = 0
        """Positions evaluated so far (cache hits are free)."""
        self._scores: dict[tuple[object, ...], float] = {}
        self.plan(layers, beam)

    def plan(self, layers: int, beam: int | None) -> None:
        """Prepare a search of `layers` chance layers. Chance values depend on the plan, so their
        cache starts afresh; static evaluations do not, and are kept."""
        self.beam = beam or (2 if layers == 2 else 1)
        throws = PLANS[layers]
        self.throws = {layers - i: (t, sum(o.weight for o in t)) for i, t in enumerate(throws)}
        """self.throws[depth]: the throws of the layer `depth` layers above the leaves, and their weight."""
        self._chances: dict[tuple[object, ...], float] = {}

    def score(self, position: Position) -> float:
        """`evaluate` for the searching side, once per distinct position."""
        key = (position.steps, position.turn, position.captured)
        value = self._scores.get(key)
        if value is None:
            value = self._scores[key] = evaluate(position, self.side, self.entered)
            self.nodes += 1
        return value

    def expect(self, position: Position, depth: int) -> float:
        """The chance node after a move: the expected score over the throws that follow, `depth`
        layers deep (each layer's throws as planned)."""
        key = (position.steps, position.turn, position.captured, depth)
        cached = self._chances.get(key)
        if cached is not None:
            return cached
        result = position.result
        if result is not None:
            return 0.0 if result == DRAW else self.score(position)
        if position.turn == self.passed_over:
            total = self._chances[key] = self.expect(position.after(_PASSING_THROW, None), depth)
            return total
        sign = 1.0 if position.side_of(position.turn) == self.side else -1.0
        total = 0.0
        outcomes, weight_sum = self.throws[depth]
        for value, _, weight in outcomes:
            replies = position.legal_moves(value)
            if not replies:
                lost = position.after(value, None)
                total += weight * (self.expect(lost, depth - 1) if depth > 1 else self.score(position))
                continue
            children = [position.after(value, r) for r in replies]
            scores = [sign * self.score(child) for child in children]
            if depth > 1:
                order = sorted(range(len(children)), key=lambda i: -scores[i])[: self.beam]
                scores = [sign * self.expect(children[i], depth - 1) for i in order]
            total += weight * sign * max(scores)
        total /= weight_sum
        self._chances[key] = total
        return total


EXPERT_DEPTH = 2
"""Default chance layers of `expert`'s search: two won more games than one against `normal`, within
the time targets (docs/AI.md, "The expert")."""
EXPERT_MAX_DEPTH = 3
"""With four players the third layer is the other enemy's throw, after the next enemy's and the
partner's: tried against `hard` (docs/AI.md, "The expert's results")."""
EXPERT_NODES = 2000
"""Default budget of `expert`: network evaluations per decision before it stops deepening."""
EXPERT_ROOT = 30
"""With four players, `expert` plays `hard`'s search (nodes, depth as `hard`'s) and weighs each
move at 70 % its search value and 30 % the network's verdict on the position after it: measured
against `hard` and the network's own search (docs/AI.md, "The expert's results")."""


class ExpertPlayer:
    """With four players (and `root` set): `hard`'s search, each move's value blended with the
    network's verdict on the position after it (EXPERT_ROOT). Otherwise:

    Expectimax on the value network: each move is worth the weighted mean, over the seven throws
    that follow it, of the chance to win after the best reply of whoever throws next (an enemy, or
    the mover again after a grace or capture), each reply chosen by the network from the replying
    side's view. With `depth` 0 it plays the move whose afterstate the network likes best (how it
    played itself in training); deeper layers search the `beam` best replies of each throw again.

    Moves are searched one layer at a time, best first by the last layer's value, while fewer than
    `nodes` positions have been judged (always at least two moves), as `hard` does. The network's
    chances are exact probabilities, so the search needs no hand-set weights of its own.
    """

    name = "expert"

    def __init__(
        self,
        nodes: int = EXPERT_NODES,
        depth: int = EXPERT_DEPTH,
        beam: int = 1,
        net: Network | None = None,
        root: int | None = EXPERT_ROOT,
    ) -> None:
        if nodes < 1 or beam < 1:
            raise ValueError("nodes and beam must be at least 1")
        if not 0 <= depth <= EXPERT_MAX_DEPTH:
            raise ValueError(f"depth must be 0 to {EXPERT_MAX_DEPTH}")
        if root is not None and not 0 <= root <= 100:
            raise ValueError("root must be 0 to 100")
        self.nodes = nodes
        self.depth = depth
        self.beam = beam
        self.net = net
        self.root = root
        """With four players, the network's share in percent of a move's value in `hard`'s search
        (EXPERT_ROOT); None: the network's own search, as with two players."""

    def choose(self, position: Position, throw: int, moves: list[Move], rng: Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        players = position.rules.players
        if players == 4 and self.root is not None:
            net = self.net or network(players)
            return HardPlayer(net=net, root=self.root / 100.0).rank(position, throw, moves, rng)[0]
        return self.rank(position, throw, moves)[0][1]

    def rank(self, position: Position, throw: int, moves: list[Move]) -> list[tuple[float, Move]]:
        """(the mover's side's chance to win, move) for every move, the one `choose` plays first:
        the moves the deepest layer reached searched, by their value there, then the rest."""
        net = self.net or network(position.rules.players)
        search = _NetSearch(net, position.side_of(position.turn), self.beam)
        children = [(move, position.after(throw, move)) for move in moves]
        scored = sorted(
            ((search.value(child), i) for i, (_, child) in enumerate(children)), key=lambda item: -item[0]
        )
        ranked = [(value, children[i][0], children[i][1]) for value, i in scored]
        for layers in range(1, self.depth + 1):
            deeper: list[tuple[float, Move, Position]] = []
            for _, move, child in ranked:
                if len(deeper) >= 2 and search.nodes >= self.nodes:
                    break
                deeper.append((search.expect(child, layers), move, child))
            deeper.sort(key=lambda item: -item[0])  # stable: ties keep the previous order
            ranked = deeper + ranked[len(deeper) :]
            if search.nodes >= self.nodes:
                break
        return [(value, move) for value, move, _ in ranked]


class _NetSearch:
    """One decision's expectimax on the network for `side`, its evaluations cached by position."""

    def __init__(self, net: Network, side: int, beam: int) -> None:
        self.net = net
        self.side = side
        self.beam = beam
        self.nodes = 0
        self._values: dict[tuple[object, ...], float] = {}

    def value(self, position: Position) -> float:
        """`side`'s chance to win in `position` by the network (1 or 0 once decided)."""
        key = (position.steps, position.turn, position.captured)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self.net.side_value(position, self.side)
            self.nodes += 1
        return found

    def expect(self, position: Position, depth: int) -> float:
        """The chance node after a move: the mean over the seven throws of the value after the best
        reply of the seat to throw, `depth` layers deep."""
        if position.result is not None:
            return self.value(position)
        mine = position.side_of(position.turn) == self.side
        total = 0.0
        for value, _, weight in OUTCOMES:
            replies = position.legal_moves(value)
            if not replies:
                lost = position.after(value, None)
                total += weight * (self.expect(lost, depth - 1) if depth > 1 else self.value(lost))
                continue
            scores = [self.value(position.after(value, r)) for r in replies]
            if depth > 1:
                order = sorted(range(len(replies)), key=lambda i: -scores[i] if mine else scores[i])
                scores = [
                    self.expect(position.after(value, replies[i]), depth - 1) for i in order[: self.beam]
                ]
            total += weight * (max(scores) if mine else min(scores))
        return total / 64.0


def get_player(level: str, **budget: int) -> Player:
    """The computer player for a level name (`random`, `easy`, `normal`, `hard`, `expert`).

    `budget` tunes `hard` and `expert` only (`nodes=`, and `depth=` / `beam=` for experiments;
    `entered=` for `hard`; `root=` for `expert`, in percent, and `hybrid=0` for the network's own
    search with four players); the other levels take none.
    """
    if level == "hard":
        if set(budget) - {"nodes", "depth", "beam", "entered"}:
            raise ValueError("hard takes nodes, depth, beam and entered")
        return HardPlayer(
            budget.get("nodes", HARD_NODES),
            budget.get("depth", HARD_DEPTH),
            budget.get("beam"),
            budget.get("entered", SEARCH_ENTERED),
        )
    if level == "expert":
        if set(budget) - {"nodes", "depth", "beam", "root", "hybrid"}:
            raise ValueError("expert takes nodes, depth, beam, root and hybrid")
        if budget.get("hybrid", 1) not in (0, 1):
            raise ValueError("hybrid must be 0 or 1")
        return ExpertPlayer(
            budget.get("nodes", EXPERT_NODES),
            budget.get("depth", EXPERT_DEPTH),
            budget.get("beam", 1),
            root=budget.get("root", EXPERT_ROOT) if budget.get("hybrid", 1) else None,
        )
    if budget:
        raise ValueError(f"level {level!r} takes no budget (only hard and expert do: nodes=)")
    players: dict[str, type[RandomPlayer | EasyPlayer | NormalPlayer]] = {
        "random": RandomPlayer,
        "easy": EasyPlayer,
        "normal": NormalPlayer,
    }
    if level not in players:
        raise ValueError(f"unknown level {level!r} (choose from random, {', '.join(LEVELS)})")
    return players[level]()
