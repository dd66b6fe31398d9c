"""The board's labels (story numbers, choice tiles) cover no piece and no other label, and no
choice's arrow runs under another choice's tile or a story number, over many positions of seeded
random games; tiles trade places where that uncrosses their arrows."""

from __future__ import annotations

from itertools import combinations
from random import Random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import Game, Move, Position, Rules, play_out
from engine.board import HOME, ROUTES
from render import DrawnMove, board_png, layout, theme
from render.board import base_board
from render.draw import MAX_STORY, render
from render.labels import (
    CHOICE_OFFSETS,
    STORY_OFFSET,
    Label,
    Placement,
    crossings,
    overlaps,
    passes_through,
    place,
    tile_options,
)
from tests.render.helpers import count_colour, decode


def _decisions(players: int, seed: int) -> list[tuple[Position, list[DrawnMove], list[Move]]]:
    """Every decision of a seeded game of random moves: the position, the story of the moves
    before it (as the picture gets it) and the throw's moves."""
    found: list[tuple[Position, list[DrawnMove], list[Move]]] = []
    story: list[DrawnMove] = []
    rng = Random(seed)

    def choose(position: Position, _throw: int, moves: list[Move]) -> Move:
        found.append((position, story[-MAX_STORY:], moves))
        move = moves[rng.randrange(len(moves))]
        story.append(DrawnMove(move, position))
        return move

    play_out(Game.new(Rules().with_options(players=players), record=False), choose, Random(seed + 100))
    return found


def _check(placement: Placement) -> None:
    labels = placement.labels()
    for label in labels:
        assert not any(overlaps(label.box, piece) for piece in placement.pieces), label
        assert label.box[0] >= 0 and label.box[2] <= layout.WIDTH, label
        assert label.box[1] >= 0 and label.box[3] <= layout.HEIGHT, label
        assert not any(overlaps(label.box, layout.panel_box(seat)) for seat in range(4)), label
    for first, second in combinations(labels, 2):
        assert not overlaps(first.box, second.box), (first, second)
    for square in placement.covered:  # its pieces are drawn on the tile standing there
        assert any(tile.centre == tile.home == layout.square_centre(square) for tile in placement.tiles)
    for tile in placement.tiles:  # a choice's arrow runs past the other choices' tiles, not under them
        for order, arrow in enumerate(placement.arrows):
            if order != tile.order:
                assert not passes_through(arrow, tile.box), (order, tile)
    for number in placement.numbers:  # and past the story's numbers
        assert not any(passes_through(arrow, number.box) for arrow in placement.arrows), number


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (4, 1), (4, 2)])
def test_no_label_covers_a_piece_or_another_label_in_random_games(players: int, seed: int) -> None:
    decisions = _decisions(players, seed)
    assert len(decisions) > 100
    displaced = 0
    for position, story, moves in decisions:
        placement = place(position, story, moves)
        _check(placement)
        # Every piece on the board is either visible or on a tile's corner.
        on_board = {
            ROUTES[s][step] for s in position.rules.seats for step in position.steps[s] if 0 < step < HOME
        }
        assert placement.covered <= on_board
        for tile in placement.tiles:  # a tile hides only pieces its move captures
            if tile.centre == tile.home and moves[tile.order].dst != HOME:
                landing = ROUTES[moves[tile.order].seat][moves[tile.order].dst]
                assert landing not in placement.covered or position.captures(moves[tile.order])
        displaced += sum(label.centre != label.home for label in placement.labels())
    assert displaced > 0  # crowded boards were met: some label had to move


@pytest.mark.parametrize("players", [2, 4])
def test_no_trade_of_two_tiles_would_uncross_their_arrows(players: int) -> None:
    """Where the arrows of two tiles cross, trading the tiles' places would cross them as often or
    make one of them cover something."""
    for position, story, moves in _decisions(players, 3):
        placement = place(position, story, moves)
        for a, b in combinations(placement.tiles, 2):
            now = crossings(placement.arrows[a.order], placement.arrows[b.order])
            if now == 0 or a.centre == b.centre:
                continue
            traded = (
                _arrow_to(placement.arrows[a.order], a, b.centre),
                _arrow_to(placement.arrows[b.order], b, a.centre),
            )
            if crossings(*traded) < now:
                others = [t.box for t in placement.labels() if t not in (a, b)]
                blocked = placement.pieces + others
                # The trade was refused: a tile stands on its own square, or one would cover something.
                assert (
                    a.centre == a.home
                    or b.centre == b.home
                    or _covers(a, b.centre, position, moves, blocked)
                    or _covers(b, a.centre, position, moves, blocked)
                )


def _covers(
    tile: Label, centre: tuple[int, int], position: Position, moves: list[Move], blocked: list
) -> bool:
    """`tile` moved to `centre` would cover something there, its pieces on whichever corner."""
    square = ROUTES[moves[tile.order].seat][moves[tile.order].dst] if moves[tile.order].dst != HOME else None
    standing = 0 if square is None else len({seat for seat, _ in position.pieces_on(square)})
    return all(any(overlaps(box, other) for other in blocked) for box, _ in tile_options(centre, standing))


def _arrow_to(arrow: list, tile: Label, centre: tuple[int, int]) -> list:
    route = arrow if tile.centre == tile.home else arrow[:-1]
    return route if centre == tile.home else [*route, centre]


def test_crossings_counts_proper_crossings_only() -> None:
    assert crossings([(0, 0), (10, 10)], [(0, 10), (10, 0)]) == 1
    assert crossings([(0, 0), (10, 0)], [(10, 0), (20, 5)]) == 0  # they meet at an end
    assert crossings([(0, 0), (10, 0)], [(0, 5), (10, 5)]) == 0
    assert crossings([(0, 0), (10, 10), (20, 0)], [(0, 8), (20, 8)]) == 2


def test_an_entering_moves_number_leaves_the_waiting_pieces_visible() -> None:
    before = Position.parse(
        "black:0,0,0,30 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    )
    move = Move(0, 0, 1)
    after = before.after(25, move)
    placement = place(after, [DrawnMove(move, before)], [])
    _check(placement)
    (number,) = placement.numbers
    assert number.centre != number.home  # its old spot covered Black's waiting pieces
    waiting = layout.charkoni_point(0)
    assert abs(number.centre[0] - waiting[0]) + abs(number.centre[1] - waiting[1]) < 3 * layout.CELL


def test_a_finished_game_draws_no_choices_and_nobody_to_move() -> None:
    """The last board of a game shows its result: no arrows, no tiles and no "to move", even when
    the caller still passes the last throw and its moves."""
    won = Position.parse(
        "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,30,84 turn:red"
        " captured:black+yellow rules:classic result:black+yellow"
    )
    live = won.with_result(None)
    moves = live.legal_moves(6)
    assert moves
    plain = decode(board_png(won, termination="win"))
    stale = decode(board_png(won, termination="win", throw=6, choices=moves))
    assert plain.tobytes() == stale.tobytes()
    unfinished = decode(board_png(live, throw=6, choices=moves))
    landing = layout.square_box(ROUTES[moves[0].seat][moves[0].dst])
    assert count_colour(unfinished, landing, theme.CHOICE_EDGE) > 50  # the live board shows the tile
    assert count_colour(plain, landing, theme.CHOICE_EDGE) == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_piece_boxes_hold_every_piece_drawn(players: int) -> None:
    """The layout's boxes are where the pieces are drawn: on a board with no story and no choices,
    every pixel that differs from the empty board (off the panels) lies in a piece's box or on a
    blockade's square."""
    stacked = Position.parse(  # two pieces on a square, four seats on a castle, a blockade
        "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84 turn:red captured:black+yellow rules:classic"
        if players == 4
        else "black:0,3,3,25 yellow:0,8,8,40 turn:black captured:- rules:classic"
    )
    for position in [stacked] + [p for p, _, _ in _decisions(players, 5)[::40]]:
        drawn = render(position).image.convert("RGB")
        empty = base_board().convert("RGB")
        changed = ImageChops.difference(drawn, empty).convert("L").point(lambda v: 255 if v > 24 else 0)
        inside = Image.new("L", drawn.size, 0)
        paint = ImageDraw.Draw(inside)
        for box in place(position, [], []).pieces:
            paint.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=255)
        for square in position.blockades():
            box = layout.square_box(square)
            paint.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=255)
        for seat in range(4):
            box = layout.panel_box(seat)
            paint.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=255)
        stray = ImageChops.subtract(changed, inside)
        assert stray.getbbox() is None, (position.notation(), stray.getbbox())


def test_a_game_stopped_without_a_result_draws_no_throw_choices_nor_anyone_to_move() -> None:
    """A game ended by a member (or whose channel went) has no result, yet it is over: its last
    board draws the pieces as they stand and nothing of the throw that was pending."""
    live = Position.parse(
        "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84 turn:black captured:black+yellow rules:classic"
    )
    moves = live.legal_moves(4)
    assert moves
    stopped = decode(board_png(live, termination="abandoned"))
    stale = decode(
        board_png(live, termination="abandoned", throw=4, cowries=(True,) * 4 + (False,) * 2, choices=moves)
    )
    assert stopped.tobytes() == stale.tobytes()
    playing = decode(board_png(live, throw=4, choices=moves))
    landing = layout.square_box(ROUTES[moves[0].seat][moves[0].dst])
    assert count_colour(playing, landing, theme.CHOICE_EDGE) > 50
    assert count_colour(stopped, landing, theme.CHOICE_EDGE) == 0
    frame = layout.panel_box(0)
    assert stopped.crop(frame).tobytes() != playing.crop(frame).tobytes(), "no frame, no 'to move'"
    assert stopped.size == playing.size, "no result: no result's band"


def test_arrows_along_one_lane_lie_apart() -> None:
    """Choices' arrows over the same squares (several pieces on one lane, shot 26 of the look) and
    the story's paths run at least an arrow's width apart (4 px line, 2 px white edge each side),
    so they read as separate lines rather than one bundle."""
    offsets = [*CHOICE_OFFSETS, STORY_OFFSET]
    assert min(abs(a - b) for a, b in combinations(offsets, 2)) >= 8
    assert all(abs(offset) + 2 <= layout.CELL // 2 for offset in offsets), "within their squares"
