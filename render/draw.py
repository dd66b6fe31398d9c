"""Drawing the board: a cached static board, cached piece sprites, and one composite per position.

The static board (squares, tints, castles, the Charkoni) and every sprite are drawn once, at four
times the size and scaled down so their edges are smooth. A render copies the board, pastes sprites
and writes a few lines of text, then encodes a palette PNG: flat colours compress to a few dozen KB
in a couple of milliseconds.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.board import HOME, IS_CASTLE, MID, NUM_SQUARES, ROUTES, SEAT_NAMES, SQUARES
from engine.state import DRAW, Move, Position, side_name
from engine.throws import GRACES, VALUE_TO_MOUTHS
from render import layout, theme
from render.layout import Box, Point

PIECE = 40
"""Piece diameter on a square holding one seat's pieces."""
SMALL_PIECE = 24
"""Piece diameter when two or more seats share a (castle) square."""
PANEL_PIECE = 30
_SCALE = 4
"""Supersampling factor for the cached artwork."""

_ARM_WORDS = ("south", "east", "north", "west")


def choice_label(index: int) -> str:
    """The label of the `index`-th legal move: A, B, C... (the bot's buttons use the same)."""
    if not 0 <= index < 26:
        raise ValueError(f"no label for choice {index}")
    return chr(ord("A") + index)


# --- cached artwork -------------------------------------------------------------------------


def _smooth(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


_FREETYPE = threading.Lock()
"""FreeType faces are not thread-safe: every use of a font (all in cached sprite makers) holds this."""


def _letter(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: tuple[int, ...]
) -> None:
    """Centred text on a sprite, holding the FreeType lock only while the font is used."""
    with _FREETYPE:
        draw.text(centre, text, font=theme.font(size), fill=fill, anchor="mm")


@cache
def piece_sprite(seat: int, size: int) -> Image.Image:
    """An RGBA piece: the seat's colour and shape with its letter, so colour is never the only cue."""
    big = size * _SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(2, big // 16)
    centre = big / 2
    radius = big / 2 - 1
    sides = theme.SEAT_SIDES[seat]
    fill, outline = theme.SEAT_COLOURS[seat], theme.SEAT_EDGE[seat]
    if sides == 0:
        draw.ellipse((1, 1, big - 2, big - 2), fill=fill, outline=outline, width=edge)
    else:
        # Polygons reach the circle only at their corners; enlarge them to look as heavy as the disc.
        reach = radius * (1.0 if sides >= 6 else 1.06)
        circle = (centre, centre, reach)
        draw.regular_polygon(circle, sides, rotation=theme.SEAT_ROTATION[seat], fill=outline)
        inner = (centre, centre, reach - edge * 1.6)
        draw.regular_polygon(inner, sides, rotation=theme.SEAT_ROTATION[seat], fill=fill)
    _letter(draw, (centre, centre), theme.SEAT_LETTERS[seat], int(big * 0.55), theme.SEAT_INK[seat])
    return _smooth(image, (size, size))


@cache
def cowrie_sprite(mouth_up: bool) -> Image.Image:
    """One cowrie shell, 26 x 40: mouth up shows the toothed slit, mouth down the plain back."""
    width, height = 26 * _SCALE, 40 * _SCALE
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    shell = (250, 243, 224) if mouth_up else (205, 170, 120)
    draw.ellipse((2, 2, width - 3, height - 3), fill=shell, outline=(60, 40, 25), width=2 * _SCALE)
    if mouth_up:
        cx = width // 2
        draw.line((cx, height * 0.18, cx, height * 0.82), fill=(60, 40, 25), width=3 * _SCALE)
        for k in range(1, 6):
            y = height * (0.18 + 0.64 * k / 6)
            draw.line((cx - 4 * _SCALE, y, cx + 4 * _SCALE, y), fill=(60, 40, 25), width=_SCALE)
    else:
        draw.ellipse(
            (width * 0.3, height * 0.25, width * 0.7, height * 0.75), fill=(180, 140, 95), outline=None
        )
    return _smooth(image, (26, 40))


def _scaled(box: Box | tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return tuple(int(v * _SCALE) for v in box)  # type: ignore[return-value]


@cache
def base_board() -> Image.Image:
    """The static board: squares, private-column tints, castle crosses, the Charkoni, empty panels."""
    size = layout.WIDTH * _SCALE
    image = Image.new("RGB", (size, size), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    for seat in range(4):
        draw.rounded_rectangle(_scaled(_panel_inner(seat)), radius=14 * _SCALE, fill=theme.PANEL)
    line = 2 * _SCALE
    for square in range(NUM_SQUARES):
        arm, column, row = SQUARES[square]
        fill = theme.SEAT_TINTS[arm] if column == MID and row < 8 else theme.SQUARE
        box = _scaled(layout.square_box(square))
        draw.rectangle(box, fill=fill, outline=theme.GRID_LINE, width=line)
        if IS_CASTLE[square]:
            inset = 9 * _SCALE
            left, top, right, bottom = box
            for a, b in (((left, top), (right, bottom)), ((right, top), (left, bottom))):
                draw.line(
                    (
                        a[0] + inset * (1 if a[0] == left else -1),
                        a[1] + inset * (1 if a[1] == top else -1),
                        b[0] + inset * (1 if b[0] == left else -1),
                        b[1] + inset * (1 if b[1] == top else -1),
                    ),
                    fill=theme.CASTLE_MARK,
                    width=5 * _SCALE,
                )
    left, top, right, bottom = _scaled(layout.CHARKONI_BOX)
    middle = ((left + right) // 2, (top + bottom) // 2)
    corners = {
        0: ((left, bottom), (right, bottom)),
        1: ((right, bottom), (right, top)),
        2: ((right, top), (left, top)),
        3: ((left, top), (left, bottom)),
    }
    for arm, (a, b) in corners.items():
        draw.polygon([a, b, middle], fill=theme.SEAT_TINTS[arm], outline=theme.GRID_LINE, width=line)
    draw.rectangle((left, top, right, bottom), outline=theme.GRID_LINE, width=2 * line)
    return _smooth(image, (layout.WIDTH, layout.HEIGHT))


def _panel_inner(seat: int) -> Box:
    left, top, right, bottom = layout.panel_box(seat)
    gap = 10
    return left + gap, top + gap, right - gap, bottom - gap


_SAMPLE = (
    "black:0,13,13,84 red:0,38,71,84 yellow:8,25,30,84 green:0,8,25,84"
    " turn:red captured:black+yellow rules:classic"
)
"""A busy position whose picture shows every colour the renderer uses, to build the palette from."""


@cache
def _palette() -> Image.Image:
    """A fixed palette: the theme's exact colours, then the commonest blends of a busy picture.

    Quantizing to a given palette is a lookup, not a search, and keeps flat areas exactly right.
    """
    position = Position.parse(_SAMPLE)
    before = Position.parse(_SAMPLE.replace("turn:red", "turn:black").replace("0,13,13", "0,13,16"))
    capture = Move(0, 16, 20)
    sample = Image.new("RGB", (layout.WIDTH * 2, layout.HEIGHT))
    sample.paste(
        render(position, names={0: "Alice", 1: "Computer (hard)"}, throw=25, choices=position.legal_moves(25))
    )
    sample.paste(
        render(before.after(4, capture), last_move=capture, last_position=before, throw=6), (layout.WIDTH, 0)
    )
    exact = [
        theme.BACKGROUND,
        theme.PANEL,
        theme.SQUARE,
        theme.GRID_LINE,
        theme.CASTLE_MARK,
        theme.TEXT,
        theme.TEXT_DIM,
        theme.PATH,
        theme.PATH_HALO,
        theme.CAPTURE,
        theme.BLOCKADE,
        theme.CHOICE_FILL,
        theme.CHOICE_EDGE,
        theme.CAPTURED_YES,
        theme.CAPTURED_NO,
        (20, 20, 20),
        (255, 255, 255),
        *theme.SEAT_COLOURS,
        *theme.SEAT_TINTS,
        *theme.SEAT_EDGE,
        *theme.SEAT_INK,
    ]
    exact = list(dict.fromkeys(exact))
    blends = sample.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat_blends = blends.getpalette() or []
    colours = list(exact)
    for k in range(0, len(flat_blends), 3):
        colour = (flat_blends[k], flat_blends[k + 1], flat_blends[k + 2])
        # Pillow maps pixels through a coarse colour cache: a blend next to an exact colour could
        # capture its flat areas, so keep only blends clearly apart from every exact colour.
        if all(sum(abs(a - b) for a, b in zip(colour, e, strict=True)) > 24 for e in exact):
            colours.append(colour)
    flat = [channel for colour in colours[:256] for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


# --- one position ---------------------------------------------------------------------------


def _paste(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    w, h = sprite.size
    image.paste(sprite, (centre[0] - w // 2, centre[1] - h // 2), sprite)


@cache
def badge_sprite(text: str, size: int) -> Image.Image:
    """A small white disc with a number: how many pieces stand in a stack."""
    big = size * _SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, big - 2, big - 2), fill=(255, 255, 255), outline=(20, 20, 20), width=2 * _SCALE)
    _letter(draw, (big / 2, big / 2), text, int(big * 0.7), (20, 20, 20))
    return _smooth(image, (size, size))


@cache
def tag_sprite(label: str, size: int) -> Image.Image:
    """A choice's letter on a white tile with a blue edge, the hue no seat uses."""
    big = size * _SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (1, 1, big - 2, big - 2),
        radius=big // 5,
        fill=theme.CHOICE_FILL,
        outline=theme.CHOICE_EDGE,
        width=3 * _SCALE,
    )
    _letter(draw, (big / 2, big / 2 + _SCALE), label, int(big * 0.72), theme.CHOICE_EDGE)
    return _smooth(image, (size, size))


@lru_cache(maxsize=1024)
def text_sprite(text: str, size: int, colour: tuple[int, int, int], anchor: str) -> tuple[Image.Image, Point]:
    """Rendered text and its offset from the anchor point: FreeType is the slowest step, so reuse it."""
    with _FREETYPE:
        font = theme.font(size)
        left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
        image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
        ImageDraw.Draw(image).text((-left, -top), text, font=font, fill=colour, anchor=anchor)
        return image, (left, top)


def _text(
    image: Image.Image, at: Point, text: str, size: int, colour: tuple[int, int, int], anchor: str = "lm"
) -> None:
    sprite, (dx, dy) = text_sprite(text, size, colour, anchor)
    image.paste(sprite, (at[0] + dx, at[1] + dy), sprite)


def _stacks(position: Position) -> dict[int, list[tuple[int, int]]]:
    """square -> [(seat, count)] for every occupied board square, seats in seat order."""
    counts: dict[int, dict[int, int]] = {}
    for seat in position.rules.seats:
        route = ROUTES[seat]
        for step in position.steps[seat]:
            if 0 < step < HOME:
                per_seat = counts.setdefault(route[step], {})
                per_seat[seat] = per_seat.get(seat, 0) + 1
    return {square: sorted(per_seat.items()) for square, per_seat in counts.items()}


def _draw_stack(
    image: Image.Image, draw: ImageDraw.ImageDraw, centre: Point, groups: list[tuple[int, int]]
) -> None:
    x, y = centre
    if len(groups) == 1:
        seat, count = groups[0]
        _paste(image, piece_sprite(seat, PIECE), centre)
        if count > 1:
            _paste(image, badge_sprite(str(count), 20), (x + 14, y + 14))
        return
    offsets = ((-11, -11), (11, -11), (-11, 11), (11, 11))
    for (seat, count), (dx, dy) in zip(groups, offsets, strict=False):
        _paste(image, piece_sprite(seat, SMALL_PIECE), (x + dx, y + dy))
        if count > 1:
            _paste(image, badge_sprite(str(count), 14), (x + dx + 9, y + dy + 9))


def _draw_blockade(draw: ImageDraw.ImageDraw, square: int) -> None:
    """A heavy double frame: the square is shut to the other side."""
    left, top, right, bottom = layout.square_box(square)
    draw.rectangle((left, top, right - 1, bottom - 1), outline=theme.BLOCKADE, width=5)
    draw.rectangle((left + 5, top + 5, right - 6, bottom - 6), outline=(255, 255, 255), width=2)


def _arrow_head(
    draw: ImageDraw.ImageDraw, tail: Point, tip: Point, colour: tuple[int, int, int], size: int
) -> None:
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * size, tip[1] - uy * size)
    draw.polygon(
        [
            tip,
            (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6),
            (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6),
        ],
        fill=colour,
    )


def _draw_path(draw: ImageDraw.ImageDraw, move: Move) -> None:
    """The last move as a line through every square it crossed, from a ring to an arrow head."""
    points = layout.path_points(move.seat, move.src, move.dst)
    end = points[-1]
    draw.line(points, fill=theme.PATH_HALO, width=11, joint="curve")
    draw.line(points, fill=theme.PATH, width=5, joint="curve")
    sx, sy = points[0]
    draw.ellipse((sx - 9, sy - 9, sx + 9, sy + 9), fill=theme.PATH_HALO, outline=theme.PATH, width=4)
    if len(points) > 1:
        # Stop the head short of the centre so the piece standing there stays visible.
        px, py = points[-2]
        tip = (int(px + (end[0] - px) * 0.55), int(py + (end[1] - py) * 0.55))
        _arrow_head(draw, (px, py), tip, theme.PATH_HALO, 16)
        _arrow_head(draw, (px, py), tip, theme.PATH, 11)


def _draw_capture(
    image: Image.Image, draw: ImageDraw.ImageDraw, move: Move, victims: Sequence[tuple[int, int]]
) -> None:
    """A struck-out ghost of each captured seat at the square where the capture happened."""
    left, top, right, bottom = layout.square_box(ROUTES[move.seat][move.dst])
    draw.rectangle((left, top, right - 1, bottom - 1), outline=theme.CAPTURE, width=4)
    for index, seat in enumerate(sorted({seat for seat, _ in victims})):
        x, y = left + 12 + index * 18, top + 12
        _paste(image, piece_sprite(seat, SMALL_PIECE), (x, y))
        # A "no entry" ring and bar over the ghost: struck out, yet its letter stays readable.
        draw.ellipse((x - 14, y - 14, x + 14, y + 14), outline=theme.CAPTURE, width=3)
        draw.line((x - 9, y - 9, x + 9, y + 9), fill=theme.CAPTURE, width=3)


def _draw_choices(image: Image.Image, choices: Sequence[Move]) -> None:
    """Each legal move's letter at its landing square (large) and on the piece that would move (small)."""
    used: dict[Point, int] = {}
    for index, move in enumerate(choices):
        label = choice_label(index)
        x, y = layout.step_point(move.seat, move.dst)
        spot = (x + 13, y - 13)
        shift = used.get(spot, 0)
        used[spot] = shift + 1
        _paste(image, tag_sprite(label, 26), (spot[0] - 24 * shift, spot[1]))
        sx, sy = layout.step_point(move.seat, move.src)
        _paste(image, tag_sprite(label, 18), (sx - 15, sy + 15))


@lru_cache(maxsize=256)
def _fit(text: str, size: int, width: int) -> str:
    """`text` cut with an ellipsis so it fits `width` pixels at font `size`."""
    with _FREETYPE:
        font = theme.font(size)
        if font.getlength(text) <= width:
            return text
        while text and font.getlength(text + "…") > width:
            text = text[:-1]
        return text + "…"


def _draw_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, at: Point, label: str, seat: int, count: int
) -> None:
    x, y = at
    _text(image, (x, y), label, 22, theme.TEXT_DIM)
    x += 120
    for k in range(count):
        _paste(image, piece_sprite(seat, PANEL_PIECE), (x + 15 + k * 34, y))
    _text(image, (x + 15 + count * 34 - 6, y), str(count), 24, theme.TEXT)


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    position: Position,
    seat: int,
    name: str,
    throw: int | None,
    cowries: tuple[bool, ...] | None,
) -> None:
    left, top, right, bottom = _panel_inner(seat)
    players = position.rules.players
    x, y = left + 16, top + 16
    result = position.result
    to_throw = result is None and position.turn == seat
    if to_throw:
        draw.rounded_rectangle((left, top, right, bottom), radius=14, outline=theme.TEXT, width=5)
    _paste(image, piece_sprite(seat, PIECE), (x + 20, y + 22))
    _text(image, (x + 50, y + 22), _fit(name, 30, right - x - 66), 30, theme.TEXT)
    y += 60
    role = f"{SEAT_NAMES[seat].capitalize()} · {_ARM_WORDS[seat]}"
    _text(image, (x, y), role, 20, theme.TEXT_DIM)
    status = ""
    if result is not None:
        status = "draw" if result == DRAW else ("WINS ★" if position.side_of(seat) == result else "")
    elif to_throw:
        status = "▶ TO THROW"
    if status:
        _text(image, (right - 16, y), status, 22, theme.TEXT, "rm")
    y += 44
    _draw_row(image, draw, (x, y), "Waiting", seat, position.charkoni_count(seat))
    y += 44
    _draw_row(image, draw, (x, y), "Home", seat, position.home_count(seat))
    y += 44
    side = position.side_of(seat)
    if not position.rules.must_capture:
        text, colour = "No capture needed", theme.TEXT_DIM
    elif position.has_captured(side):
        text, colour = "✓ Captured: may go home", theme.CAPTURED_YES
    else:
        text, colour = "✗ No capture yet", theme.CAPTURED_NO
    _text(image, (x, y), _fit(text, 21, right - x - 16), 21, colour)
    if players == 4:
        y += 30
        _text(image, (x, y), f"side {side_name(side, players)}", 16, theme.TEXT_DIM)
    if to_throw and throw is not None:
        _draw_throw(image, draw, (x, bottom - 44), throw, cowries)


def _draw_throw(
    image: Image.Image, draw: ImageDraw.ImageDraw, at: Point, throw: int, cowries: tuple[bool, ...] | None
) -> None:
    """Six cowries and the value: `cowries` as thrown, or the right number mouth up when not given."""
    if cowries is None:
        mouths = VALUE_TO_MOUTHS[throw]
        cowries = tuple(k < mouths for k in range(6))
    x, y = at
    for k, up in enumerate(cowries):
        _paste(image, cowrie_sprite(up), (x + 13 + k * 31, y))
    _text(image, (x + 196, y), f"= {throw}", 30, theme.TEXT)
    if throw in GRACES:
        _text(image, (x, y - 34), "Grace: one more throw", 18, theme.TEXT_DIM)


def _draw_waiting(image: Image.Image, draw: ImageDraw.ImageDraw, position: Position) -> None:
    """Pieces not yet out (or captured) stand in the Charkoni, beside their own arm."""
    for seat in position.rules.seats:
        count = position.charkoni_count(seat)
        if count:
            x, y = layout.charkoni_point(seat)
            _paste(image, piece_sprite(seat, 34), (x, y))
            if count > 1:
                _paste(image, badge_sprite(str(count), 18), (x + 13, y + 13))


def render(
    position: Position,
    *,
    names: dict[int, str] | None = None,
    last_move: Move | None = None,
    last_position: Position | None = None,
    throw: int | None = None,
    cowries: tuple[bool, ...] | None = None,
    choices: Sequence[Move] | None = None,
) -> Image.Image:
    """The board picture as an RGB image (see `board_png` for the arguments)."""
    image = base_board().copy()
    draw = ImageDraw.Draw(image)
    names = names or {}
    for seat in position.rules.seats:
        _draw_panel(
            image, draw, position, seat, names.get(seat, SEAT_NAMES[seat].capitalize()), throw, cowries
        )
    stacks = _stacks(position)
    for square in position.blockades():
        _draw_blockade(draw, square)
    if last_move is not None:
        _draw_path(draw, last_move)
    for square, groups in stacks.items():
        _draw_stack(image, draw, layout.square_centre(square), groups)
    _draw_waiting(image, draw, position)
    if last_move is not None and last_position is not None:
        victims = last_position.captures(last_move)
        if victims:
            _draw_capture(image, draw, last_move, victims)
    if choices:
        _draw_choices(image, choices)
    return image


def encode_png(image: Image.Image) -> bytes:
    """A palette PNG with fast settings: the board is flat colour, so this is small and quick."""
    paletted = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
