"""The animated replay: rounds cut right, a frame each, about a minute for a long game, under 10 MB."""

from __future__ import annotations

import io
import itertools
from functools import cache

from PIL import Image, ImageSequence

from engine.board import NUM_SQUARES
from engine.record import Record
from render import layout, sprites
from render.draw import _palette
from render.panels import name_lines
from render.replay import (
    END_MS,
    START_MS,
    board_image,
    frame_count,
    replay_gif,
    seat_names,
    stretches,
)
from render.words import ENGLISH
from tests.render.helpers import hindi, random_record


@cache
def game(rules_text: str = "classic", seed: int = 0) -> Record:
    return random_record(
        rules_text, seed, {"Black": "Asha (user 1)", "Yellow": "Ravi (user 2); computer (normal)"}
    )


def test_stretches_are_the_rounds_in_order_covering_every_throw() -> None:
    for rules_text in ("classic", "classic,players=2"):
        record = game(rules_text)
        parts = stretches(record)
        assert parts[0].first == 1 and parts[-1].last == len(record.throws)
        for before, after in itertools.pairwise(parts):
            assert after.first == before.last + 1
            assert record.throws[after.first - 1].seat == 0  # a round starts with Black's throw
            assert record.throws[after.first - 2].seat != 0
        for part in parts:
            assert part.position == record.positions[part.last]
            played = [
                (t, record.positions[k - 1])
                for k, t in enumerate(record.throws, start=1)
                if part.first <= k <= part.last and t.move is not None
            ]
            assert [d.move for d in part.story] == [t.move for t, _ in played]
            for drawn, (throw, start) in zip(part.story, played, strict=True):
                assert drawn.before == start
                assert drawn.move in start.legal_moves(throw.throw)
        seats = len(record.rules.seats)
        assert len(record.throws) / len(parts) >= seats  # a round is every seat's turn, graces more


def test_a_long_game_is_merged_into_at_most_max_frames() -> None:
    record = game()
    parts = stretches(record, max_frames=10)
    assert len(parts) <= 10
    assert parts[0].first == 1 and parts[-1].last == len(record.throws)
    assert all(b.first == a.last + 1 for a, b in itertools.pairwise(parts))


def test_the_replay_is_a_looping_gif_of_about_a_minute_per_420_throws() -> None:
    record = game()
    data = replay_gif(record)
    assert len(data) < 10 * 1024 * 1024
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(image)]
    assert len(durations) == frame_count(record) == 1 + len(stretches(record))
    assert durations[0] == START_MS and durations[-1] == END_MS
    middle = sum(durations[1:-1]) / 1000
    expected = 60 * len(record.throws) / 420
    assert 0.8 * expected < middle < 1.2 * expected, (middle, expected)


def test_frames_change_and_the_last_shows_the_final_position() -> None:
    record = game("classic,players=2", seed=3)
    frames = [
        frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(replay_gif(record))))
    ]
    first, last = frames[0], frames[-1]
    assert first.size == last.size
    assert first.tobytes() != last.tobytes()
    # Below the caption, the last frame is the final position's board, colour for colour.
    final = board_image(stretches(record)[-1], seat_names(record), record.termination)
    final = final.quantize(palette=_palette(), dither=Image.Dither.NONE).convert("RGB")
    board = (0, layout.MARGIN, layout.WIDTH, layout.HEIGHT)
    assert last.crop(board).tobytes() == final.crop(board).tobytes()


def test_seat_names_come_from_the_seat_tags() -> None:
    assert seat_names(game()) == {0: "Asha", 2: "Ravi, Computer · normal"}


def test_a_seat_of_several_players_is_named_whole() -> None:
    """The replay named a seat Ravi then the computer played "Ravi, Computer · no…": a name too
    long for one line at the smallest size is drawn on two, whole."""
    width = layout.panel_inner_box(0)[2] - layout.panel_inner_box(0)[0] - 16 - 66
    for words in (ENGLISH, hindi()):
        names = seat_names(game(), words)
        for name in names.values():
            lines = name_lines(name, width)
            assert " ".join(line for line, _ in lines) == name, lines
            assert all(sprites.text_width(line, size) <= width for line, size in lines)
    long = seat_names(game(), ENGLISH)[2]
    assert sprites.fit(long, (30, 26, 22), width)[0].endswith("…")  # one line would cut it
    assert len(name_lines(long, width)) == 2
    assert name_lines("Asha", width) == [("Asha", 30)]


def test_the_final_frame_shows_every_square_under_its_banner() -> None:
    """The winner's band is under the board: no square lies beneath it, in a picture or a replay."""
    assert all(layout.square_box(square)[3] <= layout.BANNER_BOX[1] for square in range(NUM_SQUARES))
    record = game("classic,players=2", seed=3)
    frames = list(ImageSequence.Iterator(Image.open(io.BytesIO(replay_gif(record)))))
    assert frames[-1].size == (layout.WIDTH, layout.FINISHED_HEIGHT) == frames[0].size
