"""The animated replay of a whole game: `replay_gif(record)` gives a GIF the bot can post.

One frame per round (from one throw of the first seat in turn order to the next), so a 420-throw
four-player game makes about 90 frames and lasts about a minute; each frame is the board after the
round with the round's moves drawn and numbered (captures marked), captioned with its throws. The
first frame is the start, the last the final position with the result's banner, held. Frames share
the board's fixed palette, so the GIF needs no per-frame colour search. Pure: engine records in,
bytes out.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from engine.record import SEAT_TAGS, Record
from engine.state import Position
from render import layout, sprites, theme
from render.draw import DrawnMove, _palette, render
from render.words import (
    ENGLISH,
    Words,
    computer_name,
    names_words,
    outcome_words,
    replay_caption,
    replay_start_caption,
)

MS_PER_THROW = 60_000 / 420
"""A 420-throw game lasts about a minute."""
FRAME_MS = (300, 1500)
"""Shortest and longest time a round stays on screen."""
START_MS = 1500
END_MS = 6000
MAX_FRAMES = 240
"""Rounds are merged beyond this many frames, which keeps a 10,000-throw game under 10 MB."""


class Stretch(NamedTuple):
    """The throws one frame shows: numbers `first`..`last` (1-based), and the position after them."""

    first: int
    last: int
    position: Position
    story: tuple[DrawnMove, ...]
    """The stretch's moves (lost throws left out), each with the position it was played from; the
    board draws the latest of them (render.draw.MAX_STORY)."""


def stretches(record: Record, max_frames: int = MAX_FRAMES) -> list[Stretch]:
    """The record's throws cut into rounds, merged pairwise until at most `max_frames` remain."""
    first_seat = record.rules.seats[0]
    bounds: list[tuple[int, int]] = []
    start = 1
    for number, throw in enumerate(record.throws, start=1):
        if number > start and throw.seat == first_seat and record.throws[number - 2].seat != first_seat:
            bounds.append((start, number - 1))
            start = number
    if record.throws:
        bounds.append((start, len(record.throws)))
    while len(bounds) > max_frames:
        bounds = [(bounds[k][0], bounds[min(k + 1, len(bounds) - 1)][1]) for k in range(0, len(bounds), 2)]
    found = []
    for first, last in bounds:
        story = [
            DrawnMove(move, record.positions[k - 1])
            for k in range(first, last + 1)
            if (move := record.throws[k - 1].move) is not None
        ]
        found.append(Stretch(first, last, record.positions[last], tuple(story)))
    return found


def seat_names(record: Record, words: Words = ENGLISH) -> dict[int, str]:
    """Panel names from the seat tags: `Ravi (user 7730); computer (normal)` -> `Ravi, Computer · normal`."""
    names = {}
    for seat in record.rules.seats:
        tag = record.tags.get(SEAT_TAGS[seat])
        if tag:
            names[seat] = names_words(words, [_player_name(words, part.strip()) for part in tag.split(";")])
    return names


def _player_name(words: Words, text: str) -> str:
    name, _, rest = text.partition(" (")
    return computer_name(words, rest.removesuffix(")")) if name == "computer" and rest else name


def board_image(
    part: Stretch, names: dict[int, str], termination: str | None = None, words: Words = ENGLISH
) -> Image.Image:
    """The board after a stretch, its moves drawn and numbered, captures marked; a result's banner."""
    return render(part.position, names=names, story=part.story, termination=termination, words=words).image


def _frame(image: Image.Image, caption: str, palette: Image.Image, height: int) -> Image.Image:
    """The image captioned in the top margin, `height` px tall (every frame as tall as the final
    board with its band), mapped onto the board's palette."""
    if image.height < height:
        taller = Image.new("RGB", (image.width, height), theme.BACKGROUND)
        taller.paste(image)
        image = taller
    sprites.write(image, (layout.WIDTH // 2, layout.MARGIN // 2), caption, 16, theme.TEXT, "mm")
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def replay_gif(record: Record, names: dict[int, str] | None = None, words: Words = ENGLISH) -> bytes:
    """The whole game as an animated GIF (looping), from its start to its final position."""
    names = seat_names(record, words) if names is None else names
    palette = _palette()
    total = len(record.throws)
    height = layout.FINISHED_HEIGHT if record.positions[-1].result is not None else layout.HEIGHT
    start = render(record.positions[0], names=names, words=words).image
    frames = [_frame(start, replay_start_caption(words, total), palette, height)]
    durations = [START_MS]
    parts = stretches(record)
    outcome = outcome_words(words, record.result, record.termination)
    for index, part in enumerate(parts):
        final = index == len(parts) - 1
        caption = replay_caption(words, part.first, part.last, total, outcome if final else None)
        image = board_image(part, names, record.termination if final else None, words)
        frames.append(_frame(image, caption, palette, height))
        shown = MS_PER_THROW * (part.last - part.first + 1)
        durations.append(END_MS if final else round(min(max(shown, FRAME_MS[0]), FRAME_MS[1])))
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return buffer.getvalue()


def frame_count(record: Record) -> int:
    """Frames `replay_gif` makes: the start, then one per stretch."""
    return 1 + len(stretches(record))


__all__: Sequence[str] = ("board_image", "frame_count", "replay_gif", "seat_names", "stretches")
