"""The text around the board: each seat's panel, the throw with its cowries, the end-of-game banner."""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import SEAT_NAMES
from engine.game import MAX_THROWS
from engine.state import DRAW, Move, Position, side_seats
from engine.throws import GRACES, VALUE_TO_MOUTHS
from render import layout, sprites, theme
from render.canvas import Canvas
from render.layout import Box, Point
from render.moves import DrawnMove, choice_label, move_words, side_words

PANEL_PIECE = 30
_ARM_WORDS = ("south", "east", "north", "west")
_NAME_SIZES = (30, 26, 22)
"""A long name is first drawn smaller, and cut with an ellipsis only below the smallest size."""


def inner_box(seat: int) -> Box:
    left, top, right, bottom = layout.panel_box(seat)
    gap = 10
    return left + gap, top + gap, right - gap, bottom - gap


def draw_panels(
    canvas: Canvas,
    position: Position,
    names: dict[int, str],
    throw: int | None,
    cowries: tuple[bool, ...] | None,
    story: Sequence[DrawnMove],
    choices: Sequence[Move],
) -> None:
    """Each seat's panel; in two-player games the empty seats' corners hold the story and the throw."""
    two_player = position.rules.players == 2
    for seat in position.rules.seats:
        name = names.get(seat) or SEAT_NAMES[seat].capitalize()
        _draw_panel(canvas, position, seat, name, throw, None if two_player else cowries, not two_player)
    if two_player:
        _draw_story_box(canvas, story)
        if position.result is None:
            name = names.get(position.turn) or SEAT_NAMES[position.turn].capitalize()
            _draw_throw_box(canvas, position, name, throw, cowries, choices)


STORY_CORNER = 3
"""In two-player games: the corner (of the empty West seat) that lists the story in words."""
THROW_CORNER = 1
"""In two-player games: the corner (of the empty East seat) with the throw and the choices."""


def _draw_story_box(canvas: Canvas, story: Sequence[DrawnMove]) -> None:
    left, top, right, _ = inner_box(STORY_CORNER)
    x = left + 16
    canvas.write((x, top + 30), "Last moves", 24, theme.TEXT)
    if not story:
        canvas.write((x, top + 76), "None yet", 21, theme.TEXT_DIM)
    for index, drawn in enumerate(story):
        seat = drawn.move.seat
        y = top + 76 + index * 36
        disc = sprites.disc(
            str(index + 1), 28, theme.SEAT_COLOURS[seat], theme.SEAT_EDGE[seat], theme.SEAT_INK[seat]
        )
        canvas.paste(disc, (x + 14, y))
        words, size = sprites.fit(move_words(drawn.move, drawn.victims()), (22, 18), right - x - 52)
        canvas.write((x + 36, y), words, size, theme.TEXT if index == len(story) - 1 else theme.TEXT_DIM)


def _draw_throw_box(
    canvas: Canvas,
    position: Position,
    name: str,
    throw: int | None,
    cowries: tuple[bool, ...] | None,
    choices: Sequence[Move],
) -> None:
    """The throw's cowries and its choices in words, with the letters of the board's tiles."""
    left, top, right, _ = inner_box(THROW_CORNER)
    x = left + 16
    canvas.write((x, top + 30), "This throw", 24, theme.TEXT)
    if throw is None:
        words, size = sprites.fit(f"{name} to throw", (21, 18), right - x - 16)
        canvas.write((x, top + 76), words, size, theme.TEXT_DIM)
    if throw is None:
        return
    _draw_throw(canvas, (x, top + 112), throw, cowries)
    y = top + 160
    if not choices:
        canvas.write((x, y), "No move: the throw is lost", 21, theme.TEXT_DIM)
    shown = choices if len(choices) <= 5 else choices[:4]
    for index, move in enumerate(shown):
        canvas.paste(sprites.tile(choice_label(index), 28), (x + 14, y))
        victims = sorted({seat for seat, _ in position.captures(move)})
        words, size = sprites.fit(move_words(move, victims), (22, 18), right - x - 52)
        canvas.write((x + 36, y), words, size, theme.TEXT)
        y += 36
    if len(shown) < len(choices):
        canvas.write((x + 36, y), f"and {len(choices) - len(shown)} more", 21, theme.TEXT_DIM)


def _draw_row(canvas: Canvas, at: Point, label: str, seat: int, count: int) -> None:
    x, y = at
    canvas.write((x, y), label, 22, theme.TEXT_DIM)
    x += 120
    for k in range(count):
        canvas.paste(sprites.piece(seat, PANEL_PIECE), (x + 15 + k * 34, y))
    canvas.write((x + 15 + count * 34 - 6, y), str(count), 24, theme.TEXT)


def _draw_panel(
    canvas: Canvas,
    position: Position,
    seat: int,
    name: str,
    throw: int | None,
    cowries: tuple[bool, ...] | None,
    show_throw: bool,
) -> None:
    left, top, right, bottom = inner_box(seat)
    players = position.rules.players
    x, y = left + 16, top + 16
    result = position.result
    on_turn = result is None and position.turn == seat
    if on_turn:
        canvas.rounded_rectangle((left, top, right, bottom), radius=14, outline=theme.TEXT, width=5)
    canvas.paste(sprites.piece(seat, 40), (x + 20, y + 22))
    words, size = sprites.fit(name, _NAME_SIZES, right - x - 66)
    canvas.write((x + 50, y + 22), words, size, theme.TEXT)
    y += 60
    canvas.write((x, y), f"{SEAT_NAMES[seat].capitalize()} · {_ARM_WORDS[seat]}", 20, theme.TEXT_DIM)
    status = ""
    if result is not None and result != DRAW and position.side_of(seat) == result:
        status = "★ WINS"
    elif on_turn:
        status = "▶ TO MOVE" if throw is not None else "▶ TO THROW"
    if status:
        canvas.write((right - 16, y), status, 22, theme.TEXT, "rm")
    y += 44
    _draw_row(canvas, (x, y), "Waiting", seat, position.charkoni_count(seat))
    y += 44
    _draw_row(canvas, (x, y), "Home", seat, position.home_count(seat))
    y += 44
    side = position.side_of(seat)
    if not position.rules.must_capture:
        text, colour = "No capture needed", theme.TEXT_DIM
    elif position.has_captured(side):
        text, colour = "✓ Captured: may go home", theme.CAPTURED_YES
    else:
        text, colour = "✗ No capture yet", theme.CAPTURED_NO
    words, size = sprites.fit(text, (21, 18), right - x - 16)
    canvas.write((x, y), words, size, colour)
    if players == 4:
        y += 30
        canvas.write((x, y), f"Partner of {SEAT_NAMES[(seat + 2) % 4].capitalize()}", 16, theme.TEXT_DIM)
    if show_throw and on_turn and throw is not None:
        _draw_throw(canvas, (x, bottom - 44), throw, cowries)


def _draw_throw(canvas: Canvas, at: Point, throw: int, cowries: tuple[bool, ...] | None) -> None:
    """Six cowries and the value: `cowries` as thrown, or the right number mouth up when not given."""
    if cowries is None:
        mouths = VALUE_TO_MOUTHS[throw]
        cowries = tuple(k < mouths for k in range(6))
    x, y = at
    for k, up in enumerate(cowries):
        canvas.paste(sprites.cowrie(up), (x + 13 + k * 31, y))
    canvas.write((x + 196, y), f"= {throw}", 30, theme.TEXT)
    if throw in GRACES:
        canvas.write((x, y - 34), "Grace: one more throw", 18, theme.TEXT_DIM)


def termination_word(termination: object) -> str | None:
    """`win`, `frozen`, `throw_limit` or `resignation` from a string, an enum member (its name) or
    an outcome with a `termination` (engine.game's `Outcome`); else None."""
    if termination is None:
        return None
    termination = getattr(termination, "termination", termination)
    word = str(getattr(termination, "name", termination)).strip().lower().replace("-", "_").replace(" ", "_")
    return word if word in ("win", "frozen", "throw_limit", "resignation") else None


def banner_lines(position: Position, termination: str | None) -> tuple[str, str]:
    """The banner's headline and its line of final counts (or, for a draw, why it is one)."""
    players = position.rules.players
    homes = [sum(position.home_count(s) for s in side_seats(side, players)) for side in (0, 1)]
    pieces = position.rules.pieces * len(side_seats(0, players))
    counts = " · ".join(f"{side_words(side, players)} {homes[side]}/{pieces} home" for side in (0, 1))
    result = position.result
    if result is None:
        return "", ""
    if result != DRAW:
        seats = side_seats(result, players)
        verb = "win" if len(seats) > 1 else "wins"
        how = " by resignation" if termination_word(termination) == "resignation" else ""
        return f"{side_words(result, players)} {verb}{how}", counts
    reason = termination_word(termination)
    if reason is None:
        reason = "frozen" if position.is_frozen() else "throw_limit"
    if reason == "frozen":
        return "Draw: no one can move", counts
    return f"Draw: the {MAX_THROWS:,}-throw limit", counts


def draw_banner(canvas: Canvas, position: Position, termination: str | None) -> None:
    """A band across the board with the result (see `layout.BANNER_BOX` for where)."""
    headline, counts = banner_lines(position, termination)
    top, bottom = layout.BANNER_BOX[1], layout.BANNER_BOX[3]
    canvas.rectangle(layout.BANNER_BOX, fill=theme.BANNER)
    canvas.line(((0, top + 2), (layout.WIDTH, top + 2)), fill=theme.BANNER_EDGE, width=5)
    middle = layout.WIDTH // 2
    words, size = sprites.fit(headline, (50, 44, 38), layout.WIDTH - 80)
    canvas.write((middle, top + 42), words, size, theme.TEXT, "mm")
    words, size = sprites.fit(counts, (24, 20), layout.WIDTH - 80)
    canvas.write((middle, bottom - 26), words, size, theme.TEXT_DIM, "mm")
