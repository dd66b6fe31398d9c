"""Where the board's labels go: the story's move numbers and the choices' letter tiles.

Each label has a home (a number: the square its move started from; a tile: its move's landing
square) and goes to the free spot nearest it, where it covers no piece, no struck-out capture mark,
no other label and no other choice's arrow, on the board and off the panels. A tile stands on its
landing square's pieces only when its move captures there: it shows them small on its corner (the
captured struck out), so it hides nothing; beside pieces it spares it steps aside. Then two tiles
trade places where that uncrosses their arrows. Geometry only, no Pillow:
the tests check the boxes over many positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations, pairwise
from math import cos, pi, sin
from typing import NamedTuple

from engine.board import HOME, ROUTES
from engine.state import Move, Position
from render import layout
from render.layout import Box, Point
from render.moves import DrawnMove

PIECE = 40
"""Piece diameter on a square holding one seat's pieces."""
SMALL_PIECE = 24
"""Piece diameter when two or more seats share a (castle) square."""
WAITING_PIECE = 34
TILE = 48
"""Side of a choice tile: its letter is over 30 px high on the 960 px picture (12 px on a phone)."""
NUMBER, LAST_NUMBER = 28, 34
"""Diameters of the story's number discs; the last move's is larger."""
STRUCK = 32
"""A captured seat's struck-out shape on the square where the capture happened."""
MINI = 24
"""A piece shown on a tile's corner (22 px, struck out 24)."""
STACK_OFFSETS = ((-11, -11), (11, -11), (-11, 11), (11, 11))
"""Where each seat's small piece stands on a square shared by several seats."""
STORY_OFFSET = -6
CHOICE_OFFSETS = (4, 12, 20, -14, -22)
"""The story's paths and the choices' arrows run this many px off the squares' centres (diagonally),
so a choice's arrow and a story path over the same squares, or two choices' arrows, lie side by side:
8 px apart, as wide as an arrow with its white edge, so arrows along one lane read as separate
lines, not one bundle."""

_RINGS = (0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 120, 144, 168, 192, 240, 288, 336)
_DIRECTIONS = 16
SPOTS: tuple[Point, ...] = tuple(
    dict.fromkeys(
        (
            round(r * cos(2 * pi * k / _DIRECTIONS - 3 * pi / 4)),
            round(r * sin(2 * pi * k / _DIRECTIONS - 3 * pi / 4)),
        )
        for r in _RINGS
        for k in range(_DIRECTIONS)
    )
)
"""Offsets from a label's home, nearest first (up and left first at each distance, as the old
fixed spot was)."""


def centred_box(centre: Point, size: int) -> Box:
    """The box a `size` px sprite covers when pasted centred on `centre` (as sprites.paste does)."""
    left, top = centre[0] - size // 2, centre[1] - size // 2
    return left, top, left + size, top + size


def overlaps(a: Box, b: Box) -> bool:
    """Two boxes (right and bottom exclusive) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def stacks(position: Position) -> dict[int, list[tuple[int, int]]]:
    """square -> [(seat, count)] for every occupied board square, seats in seat order."""
    counts: dict[int, dict[int, int]] = {}
    for seat in position.rules.seats:
        route = ROUTES[seat]
        for step in position.steps[seat]:
            if 0 < step < HOME:
                per_seat = counts.setdefault(route[step], {})
                per_seat[seat] = per_seat.get(seat, 0) + 1
    return {square: sorted(per_seat.items()) for square, per_seat in counts.items()}


def stack_boxes(centre: Point, groups: list[tuple[int, int]]) -> list[Box]:
    """The pieces and count badges drawn for one square's stack (see draw._draw_stack)."""
    x, y = centre
    if len(groups) == 1:
        found = [centred_box(centre, PIECE)]
        return found + ([centred_box((x + 14, y + 14), 20)] if groups[0][1] > 1 else [])
    found = []
    for (_, count), (dx, dy) in zip(groups, STACK_OFFSETS, strict=False):
        found.append(centred_box((x + dx, y + dy), SMALL_PIECE))
        if count > 1:
            found.append(centred_box((x + dx + 9, y + dy + 9), 14))
    return found


def waiting_boxes(position: Position) -> list[Box]:
    """The pieces waiting in the Charkoni, beside their arms, and their count badges."""
    found = []
    for seat in position.rules.seats:
        count = position.charkoni_count(seat)
        if count:
            x, y = layout.charkoni_point(seat)
            found.append(centred_box((x, y), WAITING_PIECE))
            if count > 1:
                found.append(centred_box((x + 13, y + 13), 18))
    return found


def struck_centres(box: Box, count: int) -> list[Point]:
    """Where each of `count` captured seats' struck-out shapes goes: along the square's top left
    corner (`box`: the square's)."""
    return [(box[0] + 7 + k * 24, box[1] + 7) for k in range(count)]


CORNERS = ((1, -1), (-1, -1), (1, 1), (-1, 1))
"""A tile's corners, (x, y) signs, in the order tried for the pieces it shows: top right first."""


def mini_centres(centre: Point, standing: int, corner: tuple[int, int] = CORNERS[0]) -> tuple[Point, ...]:
    """Where a tile shows the pieces standing on its landing square: along one of its corners,
    the first on the corner and the others inwards."""
    sx, sy = corner
    reach = TILE // 2 - 3
    return tuple((centre[0] + sx * (reach - 16 * k), centre[1] + sy * reach) for k in range(standing))


class Label(NamedTuple):
    """A placed label: a choice's tile or a story move's number disc."""

    order: int
    """The choice's or the move's place in its list, from 0."""
    centre: Point
    home: Point
    box: Box
    """Everything it draws: the disc, or the tile with the pieces shown on its corner."""
    minis: tuple[Point, ...] = ()
    """A tile's: where it shows the pieces standing on its landing square (`mini_centres`)."""


class Placement(NamedTuple):
    """Where everything of one picture's labels goes, and what they must leave visible."""

    pieces: list[Box]
    """Every piece drawn full size on the board (with its count badge), and every struck-out
    capture mark: no label covers one."""
    covered: frozenset[int]
    """Squares a tile stands on: their pieces are drawn small on the tile, not on the board."""
    tiles: list[Label]
    numbers: list[Label]
    arrows: list[list[Point]]
    """Each choice's arrow: its route off the squares' centres, then to its tile when the tile
    stands off the landing square."""

    def labels(self) -> list[Label]:
        return [*self.tiles, *self.numbers]


def tile_options(centre: Point, standing: int) -> list[tuple[Box, tuple[Point, ...]]]:
    """A tile at `centre` with the pieces it shows on each of its corners in turn: what it covers,
    and where those pieces go."""
    tile = centred_box(centre, TILE)
    if not standing:
        return [(tile, ())]
    found = []
    for corner in CORNERS:
        minis = mini_centres(centre, standing, corner)
        found.append((union([tile] + [centred_box(m, MINI) for m in minis]), minis))
    return found


PANELS: tuple[Box, ...] = tuple(layout.panel_box(seat) for seat in range(4))
"""The four corner panels (their words and counts), which no label covers."""


def _inside(box: Box) -> bool:
    """On the picture's board, off the four corner panels (their words and counts)."""
    if box[0] < 0 or box[1] < 0 or box[2] > layout.WIDTH or box[3] > layout.HEIGHT:
        return False
    return not _over_any(box, PANELS)


def _over_any(box: Box, others: Sequence[Box]) -> bool:
    """`box` overlaps one of `others` (`overlaps` written out: a picture asks this thousands of
    times)."""
    left, top, right, bottom = box
    for other in others:
        if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
            return True
    return False


def _free(box: Box, blocked: Sequence[Box]) -> bool:
    return _inside(box) and not _over_any(box, blocked)


def _spot(
    home: Point,
    options: Callable[[Point], list[tuple[Box, tuple[Point, ...]]]],
    blocked: Sequence[Box],
    lines: Sequence[Sequence[Point]] = (),
    lead: tuple[Point, Sequence[Box]] | None = None,
) -> tuple[Point, Box, tuple[Point, ...]]:
    """The free spot nearest `home` for a label whose ways to stand at a centre are `options(centre)`,
    off `lines` (the other choices' arrows); `lead`: where its own arrow's line to it starts and
    the labels that line must not run over."""
    for dx, dy in SPOTS:
        centre = (home[0] + dx, home[1] + dy)
        if lead is not None and any(passes_through((lead[0], centre), box) for box in lead[1]):
            continue
        for box, minis in options(centre):
            if _free(box, blocked) and _clear(box, lines):
                return centre, box, minis
    box, minis = options(home)[0]
    return home, box, minis  # nowhere free within reach: its home (not met on a real board)


def _disc_options(centre: Point, size: int) -> list[tuple[Box, tuple[Point, ...]]]:
    return [(centred_box(centre, size), ())]


def place(position: Position, story: Sequence[DrawnMove], choices: Sequence[Move]) -> Placement:
    """Where the tiles of `choices` and the numbers of `story` go on `position`'s picture."""
    by_square = {sq: stack_boxes(layout.square_centre(sq), groups) for sq, groups in stacks(position).items()}
    fixed = waiting_boxes(position)
    for drawn in story:
        victims = drawn.victims()
        square = ROUTES[drawn.move.seat][drawn.move.dst]
        fixed += [centred_box(c, STRUCK) for c in struck_centres(layout.square_box(square), len(victims))]
    tiles, covered = _place_tiles(position, choices, by_square, fixed)
    arrows = [_arrow(index, move, tiles[index]) for index, move in enumerate(choices)]
    _uncross(tiles, arrows, choices, position, by_square, fixed, covered)
    pieces = fixed + [box for sq, boxes in by_square.items() if sq not in covered for box in boxes]
    numbers = _place_numbers(story, pieces + [t.box for t in tiles], arrows)
    return Placement(pieces, frozenset(covered), tiles, numbers, arrows)


def _landing(move: Move) -> int | None:
    """The board square a move lands on, None for home (the Charkoni)."""
    return None if move.dst == HOME else ROUTES[move.seat][move.dst]


def _standing(position: Position, move: Move) -> int:
    """How many seats' pieces the tile of `move` shows on its corner: those on its landing square
    when it captures there (struck out, beside the pieces it spares), else none (a tile stands
    beside pieces it does not capture, and they stay drawn full size)."""
    square = _landing(move)
    if square is None or not position.captures(move):
        return 0
    return len({seat for seat, _ in position.pieces_on(square)})


def _clear(box: Box, lines: Sequence[Sequence[Point]]) -> bool:
    return not any(passes_through(line, box) for line in lines)


def _routes(choices: Sequence[Move]) -> list[list[Point]]:
    """Each choice's arrow along its route, off the squares' centres (`CHOICE_OFFSETS`)."""
    found = []
    for index, move in enumerate(choices):
        shift = CHOICE_OFFSETS[index % len(CHOICE_OFFSETS)]
        found.append([(x + shift, y + shift) for x, y in layout.path_points(move.seat, move.src, move.dst)])
    return found


def _place_tiles(
    position: Position, choices: Sequence[Move], by_square: dict[int, list[Box]], fixed: list[Box]
) -> tuple[list[Label], set[int]]:
    """Each tile on its landing square when that is free of everything but the square's own
    pieces and off the other choices' arrows, else at the nearest such spot, in the choices'
    order (two pieces on one lane: the nearer one's tile steps aside from the farther one's
    arrow)."""
    tiles: list[Label] = []
    covered: set[int] = set()
    routes = _routes(choices)
    for index, move in enumerate(choices):
        home = layout.step_point(move.seat, move.dst)
        square = _landing(move)
        options = partial(tile_options, standing=_standing(position, move))
        labels = [t.box for t in tiles]
        lines = [route for other, route in enumerate(routes) if other != index]
        captures_there = square not in by_square or _standing(position, move) > 0
        if square is not None and square not in covered and captures_there:
            others = [
                b for sq, boxes in by_square.items() if sq != square and sq not in covered for b in boxes
            ]
            free = [
                (box, minis)
                for box, minis in options(home)
                if _free(box, fixed + others + labels) and _clear(box, lines)
            ]
            if free:
                if square in by_square:
                    covered.add(square)
                tiles.append(Label(index, home, home, *free[0]))
                continue
        blocked = fixed + labels + [b for sq, boxes in by_square.items() if sq not in covered for b in boxes]
        centre, box, minis = _spot(home, options, blocked, lines, (routes[index][-1], labels))
        tiles.append(Label(index, centre, home, box, minis))
    return tiles, covered


def _arrow(index: int, move: Move, tile: Label) -> list[Point]:
    shift = CHOICE_OFFSETS[index % len(CHOICE_OFFSETS)]
    points = [(x + shift, y + shift) for x, y in layout.path_points(move.seat, move.src, move.dst)]
    return points if tile.centre == tile.home else [*points, tile.centre]


def _place_numbers(
    story: Sequence[DrawnMove], blocked: list[Box], arrows: Sequence[Sequence[Point]] = ()
) -> list[Label]:
    """Each move's number at the square it started from (an entering move's between the waiting
    pieces and the Charkoni's centre), else the nearest free spot off the choices' `arrows`; the
    last move's first."""
    placed: dict[int, Label] = {}
    for index in reversed(range(len(story))):
        move = story[index].move
        home = layout.step_point(move.seat, move.src)
        if move.src == 0:
            middle = layout.charkoni_point(-1)
            home = ((home[0] + middle[0]) // 2, (home[1] + middle[1]) // 2)
        size = LAST_NUMBER if index == len(story) - 1 else NUMBER
        taken = blocked + [label.box for label in placed.values()]
        centre, box, _ = _spot(home, partial(_disc_options, size=size), taken, arrows)
        placed[index] = Label(index, centre, home, box)
    return [placed[index] for index in range(len(story))]


def passes_through(line: Sequence[Point], box: Box) -> bool:
    """A polyline (an arrow's middle) runs over `box`: checked every 2 px along each segment.
    A segment wholly on one side of the box has no such point: it is passed over unsampled."""
    left, top, right, bottom = box
    for (x1, y1), (x2, y2) in pairwise(line):
        if (
            (x1 < left and x2 < left)
            or (x1 >= right and x2 >= right)
            or (y1 < top and y2 < top)
            or (y1 >= bottom and y2 >= bottom)
        ):
            continue
        steps = max(abs(x2 - x1), abs(y2 - y1)) // 2 + 1
        for k in range(steps + 1):
            x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
            if left <= x < right and top <= y < bottom:
                return True
    return False


def crossings(first: list[Point], second: list[Point]) -> int:
    """How many times two polylines cross (touching at an end does not count)."""
    return sum(_cross(a, b, c, d) for a, b in pairwise(first) for c, d in pairwise(second))


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def turn(p: Point, q: Point, r: Point) -> int:
        value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (value > 0) - (value < 0)

    return turn(a, b, c) * turn(a, b, d) < 0 and turn(c, d, a) * turn(c, d, b) < 0


def _uncross(
    tiles: list[Label],
    arrows: list[list[Point]],
    choices: Sequence[Move],
    position: Position,
    by_square: dict[int, list[Box]],
    fixed: list[Box],
    covered: set[int],
) -> None:
    """Two tiles trade places where their arrows then cross less and both still cover nothing; a
    tile standing on its landing square trades only with one landing there too (its pieces are
    drawn on whichever tile stands there)."""
    visible = fixed + [b for sq, boxes in by_square.items() if sq not in covered for b in boxes]
    for i, j in combinations(range(len(tiles)), 2):
        a, b = tiles[i], tiles[j]
        if a.home != b.home and (a.centre == a.home or b.centre == b.home):
            continue
        rest = [t.box for t in tiles if t.order not in (i, j)]
        routes = _routes(choices)
        lines_a = [route for k, route in enumerate(routes) if k != i]
        lines_b = [route for k, route in enumerate(routes) if k != j]
        moved_a = _moved(a, b.centre, _standing(position, choices[i]), visible + rest, lines_a)
        moved_b = _moved(b, a.centre, _standing(position, choices[j]), visible + rest, lines_b)
        if moved_a is None or moved_b is None or overlaps(moved_a.box, moved_b.box):
            continue
        new_a, new_b = _arrow(i, choices[i], moved_a), _arrow(j, choices[j], moved_b)
        if crossings(new_a, new_b) < crossings(arrows[i], arrows[j]):
            tiles[i], tiles[j], arrows[i], arrows[j] = moved_a, moved_b, new_a, new_b


def _moved(
    tile: Label, centre: Point, standing: int, blocked: Sequence[Box], lines: Sequence[Sequence[Point]]
) -> Label | None:
    """`tile` standing at `centre` instead, its pieces on the first free corner; None if it would
    cover something there or stand on another choice's arrow (`lines`)."""
    for box, minis in tile_options(centre, standing):
        if _free(box, blocked) and _clear(box, lines):
            return Label(tile.order, centre, tile.home, box, minis)
    return None
