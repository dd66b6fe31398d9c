"""The text around the board: each seat's panel, the throw with its cowries, the end-of-game banner."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.state import DRAW, Move, Position
from engine.throws import GRACES, VALUE_TO_MOUTHS
from render import layout, sprites, theme
from render import words as w
from render.board import base_board
from render.canvas import Canvas, Patch
from render.layout import Box
from render.moves import DrawnMove, choice_label
from render.words import Words

PANEL_PIECE = 30
_NAME_SIZES = (30, 26, 22)
"""A long name is first drawn smaller, then on two lines (`name_lines`), and cut with an ellipsis
only when two lines do not hold it."""
_TWO_LINE_SIZE = 19


Part = Callable[..., None]
"""Draws one part of a seat's panel, given the panel's inner box and the part's own arguments.

A part's arguments hold every text it draws, so its cached picture is keyed by the language too."""


def seat_parts(
    words: Words, position: Position, seat: int, name: str, throw: int | None, *, over: bool = False
) -> list[tuple[Part, tuple[Hashable, ...]]]:
    """A seat's panel (but the throw) as parts that do not overlap, each with its arguments.

    A part depends on little (a name, a count, a status), so it looks the same in many positions
    and its picture can be cached by its arguments.
    """
    labels = w.panel_labels(words)
    mark = w.piece_marks(words)[seat]
    result = position.result
    over = over or result is not None
    on_turn = not over and position.turn == seat
    status = ""
    if result is not None and result != DRAW and position.side_of(seat) == result:
        status = labels.wins
    elif on_turn:
        status = labels.to_move if throw is not None else labels.to_throw
    capture: tuple[str, theme.RGB]
    if not position.rules.must_capture:
        capture = labels.no_capture_needed, theme.TEXT_DIM
    elif position.has_captured(position.side_of(seat)):
        capture = labels.captured, theme.CAPTURED_YES
    elif over:
        capture = labels.never_captured, theme.CAPTURED_NO
    else:
        capture = labels.not_captured, theme.CAPTURED_NO
    parts: list[tuple[Part, tuple[Hashable, ...]]] = [(_frame, ())] if on_turn else []
    parts += [
        (_name_line, (seat, mark, name)),
        (_seat_line, (w.seat_line(words, seat), status)),
        (_count_row, (seat, mark, 104, labels.waiting, position.charkoni_count(seat))),
        (_count_row, (seat, mark, 148, labels.home, position.home_count(seat))),
        (_capture_line, capture),
    ]
    if position.rules.players == 4:
        parts.append((_partner_line, (w.partner_words(words, seat),)))
    return parts


def _frame(canvas: Canvas, box: Box) -> None:
    """The seat to move: a light frame around its panel."""
    canvas.rounded_rectangle(box, radius=14, outline=theme.TEXT, width=5)


def _name_line(canvas: Canvas, box: Box, seat: int, mark: str, name: str) -> None:
    left, top, right, _ = box
    x, y = left + 16, top + 16
    canvas.paste(sprites.piece(seat, 40, mark), (x + 20, y + 22))
    lines = name_lines(name, right - x - 66)
    for k, (line, size) in enumerate(lines):
        canvas.write((x + 50, y + 22 + (22 * k - 11) * (len(lines) - 1)), line, size, theme.TEXT)


def name_lines(name: str, width: int) -> list[tuple[str, int]]:
    """A seat's name as drawn in `width` px: one line at the largest size that fits, else two
    smaller lines broken between words ("Ravi, Computer · normal", a replay's seat of several
    players), cut with an ellipsis only when even those do not hold it."""
    shown, size = sprites.fit(name, _NAME_SIZES, width)
    if shown == name:
        return [(name, size)]
    words = name.split(" ")
    cuts = range(len(words) - 1, 0, -1)
    after_comma = [cut for cut in cuts if words[cut - 1].endswith(",")]  # between two players first
    for cut in [*after_comma, *cuts]:
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if sprites.text_width(first, _TWO_LINE_SIZE) <= width:
            return [(first, _TWO_LINE_SIZE), sprites.fit(second, (_TWO_LINE_SIZE,), width)]
    return [(shown, size)]


def _seat_line(canvas: Canvas, box: Box, seat_arm: str, status: str) -> None:
    """The seat and its arm, and the status (to move, wins) at the right, which the seat's words
    never reach."""
    left, top, right, _ = box
    x, y = left + 16, top + 16 + 60
    width = right - 16 - x
    if status:
        shown, size = sprites.fit(status, (22, 18), width // 2)
        canvas.write((right - 16, y), shown, size, theme.TEXT, "rm")
        width -= round(sprites.text_width(shown, size)) + 12
    canvas.write_within((x, y), seat_arm, (20, 17), width, theme.TEXT_DIM)


def _count_row(canvas: Canvas, box: Box, seat: int, mark: str, dy: int, label: str, count: int) -> None:
    """A label, `count` of the seat's pieces and the number, `dy` px below the panel's top."""
    x, y = box[0] + 16, box[1] + 16 + dy
    canvas.write_within((x, y), label, (22, 18), 112, theme.TEXT_DIM)
    x += 120
    for k in range(count):
        canvas.paste(sprites.piece(seat, PANEL_PIECE, mark), (x + 15 + k * 34, y))
    canvas.write((x + 15 + count * 34 - 6, y), str(count), 24, theme.TEXT)


def _capture_line(canvas: Canvas, box: Box, text: str, colour: theme.RGB) -> None:
    left, top, right, _ = box
    x = left + 16
    canvas.write_within((x, top + 16 + 192), text, (21, 18), right - x - 16, colour)


def _partner_line(canvas: Canvas, box: Box, partner: str) -> None:
    left, top, right, _ = box
    x = left + 16
    canvas.write_within((x, top + 16 + 222), partner, (16, 14), right - x - 16, theme.TEXT_DIM)


def draw_panels(
    canvas: Canvas,
    words: Words,
    position: Position,
    names: dict[int, str],
    throw: int | None,
    cowries: tuple[bool, ...] | None,
    story: Sequence[DrawnMove],
    choices: Sequence[Move],
    *,
    over: bool = False,
) -> None:
    """Each seat's panel and the throw in the panel of the seat to move; in two-player games the
    empty seats' corners hold the story and the throw instead. A game `over` (won, drawn or
    stopped) has nobody to move and no throw."""
    over = over or position.result is not None
    for seat in position.rules.seats:
        name = names.get(seat) or w.seat_name(words, seat)
        for part, args in seat_parts(words, position, seat, name, throw, over=over):
            canvas.place(_patch(seat, part, args))
    if position.rules.players == 2:
        _draw_story_box(canvas, words, story)
        if not over:
            name = names.get(position.turn) or w.seat_name(words, position.turn)
            _draw_throw_box(canvas, words, position, name, throw, cowries, choices)
    elif not over and throw is not None:
        _, top, _, bottom = layout.panel_inner_box(position.turn)
        _draw_throw(canvas, words, position.turn, bottom - top - 44, throw, cowries)


@lru_cache(maxsize=256)
def _patch(seat: int, part: Part, args: tuple[Hashable, ...]) -> Patch:
    """A part of the seat's panel drawn over the static board, cropped to what it drew.

    The patch is pasted whole, so parts must not overlap: a part's background would hide another's.
    A name line is about 60 KB, the frame 0.7 MB, the others 10-30 KB; 20 four-player games with
    the same names make 150 of them (4.6 MB).
    """
    left, top, right, bottom = layout.panel_box(seat)
    canvas = Canvas(base_board().crop((left, top, right, bottom)))
    inner = layout.panel_inner_box(seat)
    part(canvas, (inner[0] - left, inner[1] - top, inner[2] - left, inner[3] - top), *args)
    box = canvas.bounds()
    return Patch(canvas.image.crop(box), (left + box[0], top + box[1]))


STORY_CORNER = 3
"""In two-player games: the corner (of the empty West seat) that lists the story in words."""
THROW_CORNER = 1
"""In two-player games: the corner (of the empty East seat) with the throw and the choices."""


def _draw_story_box(canvas: Canvas, words: Words, story: Sequence[DrawnMove]) -> None:
    labels = w.panel_labels(words)
    left, top, right, bottom = layout.panel_inner_box(STORY_CORNER)
    x = left + 16
    canvas.write_within((x, top + 30), labels.last_moves, (24, 20), right - x - 16, theme.TEXT)
    if not story:
        canvas.write_within((x, top + 76), labels.none_yet, (21, 18), right - x - 16, theme.TEXT_DIM)
    texts = [_move_entry(words, d.move, d.victims(), d.before) for d in story]
    width = right - x - 52
    first, entries, size = _latest_entries(texts, width, bottom - top - 76 - BOX_MARGIN)
    y = top + 76
    for index, shown in enumerate(entries, start=first):  # the latest moves, if not all fit
        seat = story[index].move.seat
        disc = sprites.disc(
            str(index + 1), 28, theme.SEAT_COLOURS[seat], theme.SEAT_EDGE[seat], theme.SEAT_INK[seat]
        )
        canvas.paste(disc, (x + 14, y))
        colour = theme.TEXT if index == len(story) - 1 else theme.TEXT_DIM
        y = _write_entry(canvas, (x + 36, y), shown, size, width, colour)


class Entry(NamedTuple):
    """A side box's entry: its text and the phrases a line must not break (a move's places)."""

    text: str
    keep: tuple[str, ...] = ()


def _move_entry(words: Words, move: Move, victims: Sequence[int], position: Position | None) -> Entry:
    places = (w.source_words(words, move, position), w.place_words(words, move.seat, move.dst))
    return Entry(w.move_words(words, move, victims, position), places)


ENTRY_SIZES = (22, 20, 18, 16)
"""The sizes of a side box's entries (a move, a choice), all of a box's at one size."""
ENTRY_GAP = 10
"""Space between two entries of a side box, besides their lines."""
ENTRY_LINES = 3
"""The most lines of one entry: a move from a square told apart by its lane may need three."""


def line_height(size: int) -> int:
    """From one line's middle to the next's, at `size`."""
    return size + 5


def entry_lines(texts: Sequence[Entry], width: int, room: int) -> tuple[list[list[str]], int] | None:
    """Each text on at most three lines of `width` px (a move named by its places is longer than a
    line), all at the largest of `ENTRY_SIZES` at which they reach no further than `room` px below
    the first line's middle, a smaller size rather than a place's name broken; None when they fit
    at none."""
    for whole_places in (True, False):
        for size in ENTRY_SIZES:
            wrapped = [sprites.lines(text, size, width, keep) for text, keep in texts]
            fits = all(len(shown) <= ENTRY_LINES for shown in wrapped) and all(
                sprites.text_width(line, size) <= width for shown in wrapped for line in shown
            )
            kept = all(
                any(phrase in line for line in shown)
                for (text, keep), shown in zip(texts, wrapped, strict=True)
                for phrase in keep
                if phrase in text
            )
            count = sum(len(shown) for shown in wrapped)
            reach = (count - 1) * line_height(size) + (len(wrapped) - 1) * ENTRY_GAP + size // 2
            if fits and (kept or not whole_places) and reach <= room:
                return wrapped, size
    return None


def _latest_entries(texts: Sequence[Entry], width: int, room: int) -> tuple[int, list[list[str]], int]:
    """The latest texts that fit (`entry_lines`), as many as can: the first one's index, their
    lines and the size. A text that fits no way is cut to one line at the smallest size."""
    for first in range(len(texts)):
        found = entry_lines(texts[first:], width, room)
        if found is not None:
            return first, *found
    return max(len(texts) - 1, 0), [[text] for text, _ in texts[-1:]], ENTRY_SIZES[-1]


def _leading_entries(texts: Sequence[Entry], width: int, room: int) -> tuple[list[list[str]], int]:
    """The first texts that fit (`entry_lines`), as many as can, with room left for "and 2 more"
    when not all do. A text that fits no way is cut to one line at the smallest size."""
    for count in range(len(texts), 0, -1):
        more = line_height(18) + ENTRY_GAP if count < len(texts) else 0
        found = entry_lines(texts[:count], width, room - more)
        if found is not None:
            return found
    return [[text] for text, _ in texts[:1]], ENTRY_SIZES[-1]


def _write_entry(
    canvas: Canvas, at: tuple[int, int], shown: Sequence[str], size: int, width: int, colour: theme.RGB
) -> int:
    """An entry's lines from `at` (the first line's left middle) down; returns where the next
    entry's first line goes."""
    x, y = at
    for line in shown:
        canvas.write_within((x, y), line, (size,), width, colour)
        y += line_height(size)
    return y + ENTRY_GAP


def _draw_throw_box(
    canvas: Canvas,
    words: Words,
    position: Position,
    name: str,
    throw: int | None,
    cowries: tuple[bool, ...] | None,
    choices: Sequence[Move],
) -> None:
    """The throw's cowries and its choices in words, with the letters of the board's tiles."""
    labels = w.panel_labels(words)
    left, top, right, bottom = layout.panel_inner_box(THROW_CORNER)
    x = left + 16
    canvas.write_within((x, top + 30), labels.this_throw, (24, 20), right - x - 16, theme.TEXT)
    if throw is None:
        to_throw = w.to_throw_words(words, name)
        canvas.write_within((x, top + 76), to_throw, (21, 18), right - x - 16, theme.TEXT_DIM)
        return
    _draw_throw(canvas, words, THROW_CORNER, 112, throw, cowries)
    y = top + CHOICES_TOP
    if not choices:
        canvas.write_within((x, y), labels.throw_lost, (21, 18), right - x - 16, theme.TEXT_DIM)
    texts = [_move_entry(words, move, _victims(position, move), position) for move in choices]
    width = right - x - 52
    entries, size = _leading_entries(texts, width, bottom - top - CHOICES_TOP - BOX_MARGIN)
    for index, lines in enumerate(entries):
        canvas.paste(sprites.tile(choice_label(index), 28), (x + 14, y))
        y = _write_entry(canvas, (x + 36, y), lines, size, width, theme.TEXT)
    if len(entries) < len(choices):
        more_words = w.more_choices_words(words, len(choices) - len(entries))
        canvas.write_within((x + 36, y), more_words, (21, 18), width, theme.TEXT_DIM)


CHOICES_TOP = 154
"""How far below the throw box's top its first choice's first line is (under the cowries)."""
BOX_MARGIN = 8
"""The least space under a side box's last line."""


def _victims(position: Position, move: Move) -> list[int]:
    return sorted({seat for seat, _ in position.captures(move)})


def _draw_throw(
    canvas: Canvas, words: Words, seat: int, dy: int, throw: int, cowries: tuple[bool, ...] | None
) -> None:
    """Six cowries and the value, `dy` px below the top of the seat's panel: `cowries` as thrown,
    or the right number mouth up when not given. Each is a cached part: only the throw changes."""
    if cowries is None:
        mouths = VALUE_TO_MOUTHS[throw]
        cowries = tuple(k < mouths for k in range(6))
    for k, up in enumerate(cowries):
        canvas.place(_patch(seat, _cowrie, (dy, k, up)))
    canvas.place(_patch(seat, _throw_value, (dy, w.throw_value_words(words, throw))))
    if throw in GRACES:
        canvas.place(_patch(seat, _grace, (dy, w.panel_labels(words).grace)))


def _cowrie(canvas: Canvas, box: Box, dy: int, k: int, up: bool) -> None:
    canvas.paste(sprites.cowrie(up), (box[0] + 16 + 13 + k * 31, box[1] + dy))


def _throw_value(canvas: Canvas, box: Box, dy: int, value: str) -> None:
    left, top, right, _ = box
    x = left + 16 + 196
    canvas.write_within((x, top + dy), value, (30, 24), right - x - 16, theme.TEXT)


def _grace(canvas: Canvas, box: Box, dy: int, grace: str) -> None:
    left, top, right, _ = box
    canvas.write_within((left + 16, top + dy - 34), grace, (18, 15), right - left - 32, theme.TEXT_DIM)


def termination_word(termination: object) -> str | None:
    """`win`, `frozen`, `throw_limit`, `resignation` or `abandoned` (a game stopped without a
    result) from a string, an enum member (its name) or an outcome with a `termination`
    (engine.game's `Outcome`); else None."""
    if termination is None:
        return None
    termination = getattr(termination, "termination", termination)
    word = str(getattr(termination, "name", termination)).strip().lower().replace("-", "_").replace(" ", "_")
    return word if word in ("win", "frozen", "throw_limit", "resignation", "abandoned") else None


def draw_banner(canvas: Canvas, words: Words, position: Position, termination: str | None) -> None:
    """A band under the board with the result (see `layout.BANNER_BOX` for where)."""
    headline, counts = w.banner_lines(words, position, termination)
    top, bottom = layout.BANNER_BOX[1], layout.BANNER_BOX[3]
    canvas.rectangle(layout.BANNER_BOX, fill=theme.BANNER)
    canvas.line(((0, top + 2), (layout.WIDTH, top + 2)), fill=theme.BANNER_EDGE, width=5)
    middle = layout.WIDTH // 2
    canvas.write_within((middle, top + 42), headline, (50, 44, 38), layout.WIDTH - 80, theme.TEXT, "mm")
    canvas.write_within((middle, bottom - 26), counts, (24, 20), layout.WIDTH - 80, theme.TEXT_DIM, "mm")
