"""A square's name inside the sentences that say it (issue 58): in Hindi a place always stands
before से or पर, so it is written in the oblique, "हरी के किले से", never "हरी का किला से"; and
the board picture's side boxes say a move in the very words of the chat's buttons.

The moves are said through the real texts (`bot.core.texts.board`), drawn by the real renderer,
with the shipped catalog."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from itertools import islice
from random import Random
from typing import Any

import pytest
from PIL import Image

from bot.core.texts.board import choice_button, choice_letter, choice_option, move_path, move_steps
from bot.core.texts.language import ENGLISH, language
from bot.core.texts.refusals import refusal
from engine import Move, Position
from engine.board import HOME
from engine.rules import Rules
from engine.throws import throw_value
from render import DrawnMove, board_png, layout, panels, sprites
from render.draw import MAX_STORY
from render.words import move_places, move_words

DIRECT = re.compile(r"(?:का|की) (?:किला|सिरा) (?:से|पर)|(?:का|की) \S+ का (?:किला|सिरा)")
"""A place left in the direct case before its postposition: "का किला पर", "की भुजा का सिरा से"."""
OBLIQUE = re.compile(r"के (?:किले|सिरे) (?:से|पर)")


def moves() -> Iterator[tuple[Position, Move]]:
    """Every step a piece can stand on, as a move's start and as its end, for all four seats:
    entering, along the route (castles and arm tips among them) and coming home."""
    position = Position.initial(Rules.preset_rules("classic"))
    for seat in range(4):
        for src in range(HOME):
            for dst in (src + 4, src + 25, HOME):
                if dst <= HOME and dst != src:
                    yield position, Move(seat, src, dst)


def said(code: str) -> list[str]:
    hindi = language(code)
    return [move_path(hindi, position, move) for position, move in moves()]


def test_every_place_reads_in_the_case_its_postposition_wants() -> None:
    texts = said("hi")
    wrong = [text for text in texts if DIRECT.search(text)]
    assert not wrong
    # castles and arm tips do stand before से and पर, both as where a move starts and where it ends
    assert any(re.search(r"के किले से .* पर$", t) for t in texts)
    assert any(re.search(r"से \S+ के किले पर$", t) for t in texts)
    assert any("की भुजा के सिरे से" in t for t in texts)
    assert any(t.endswith("की भुजा के सिरे पर") for t in texts)


@pytest.mark.parametrize(
    ("move", "english", "hindi"),
    [
        (
            Move(0, 4, 8),
            "piece from Black's arm to the tip of Black's arm",
            "गोटी काली की भुजा से काली की भुजा के सिरे पर",
        ),
        (
            Move(0, 8, 12),
            "piece from the tip of Black's arm to Black's castle",
            "गोटी काली की भुजा के सिरे से काली के किले पर",
        ),
        (
            Move(0, 12, 84),
            "piece home from Black's castle through the escape hatch",
            "गोटी काली के किले से चोर दरवाज़े के रास्ते घर",
        ),
        (
            Move(0, 0, 8),
            "piece out of the Charkoni to the tip of Black's arm",
            "गोटी चरकोनी से निकलकर काली की भुजा के सिरे पर",
        ),
        (
            Move(2, 12, 16),
            "Yellow's piece from Yellow's castle to Yellow's arm",
            "पीली की गोटी पीली के किले से पीली की भुजा पर",
        ),
    ],
)
def test_a_move_names_its_squares_in_both_languages(move: Move, english: str, hindi: str) -> None:
    position = Position.initial(Rules.preset_rules("classic"))
    assert move_path(ENGLISH, position, move) == english
    assert move_path(language("hi"), position, move) == hindi
    # the choice's button and autocomplete name the same places, after its letter and colour
    assert choice_option(language("hi"), 0, position, move).endswith(hindi.split("गोटी ", 1)[1])
    assert choice_option(ENGLISH, 0, position, move).endswith(english.split("piece ", 1)[1])


# --- the board's side boxes say a move as the chat does (issue 58, slip 10) ----------------------

STEP_ARROW = re.compile(r"\d\s*→|→\s*\d")
"""A move told in step numbers, "Black 17 → 27": the board numbers no square."""


def two_player_turns(seed: int) -> Iterator[tuple[Position, int, list[Move], list[DrawnMove]]]:
    """The turns of a random two-player game that have a choice: the position, the throw, its
    legal moves and the moves played since the seat's previous throw."""
    rng = Random(seed)
    position = Position.initial(Rules.parse("classic,players=2"))
    story: list[DrawnMove] = []
    while position.result is None:
        value = throw_value(rng)
        legal = position.legal_moves(value)
        if len(legal) > 1:
            yield position, value, legal, story
            story = []
        move = rng.choice(legal) if legal else None
        if move is not None:
            story.append(DrawnMove(move, position))
        position = position.play(value, move)


def drawn_words(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]) -> list[tuple[int, int, str]]:
    """Every text `draw` writes on its board, with where (x, y); not the panels' parts, which are
    drawn apart (and cached) and only pasted on it."""
    found: list[tuple[int, int, str]] = []
    write = sprites.write

    def record(image: Image.Image, at: tuple[int, int], words: str, *args: Any) -> tuple[int, int, int, int]:
        if image.width == layout.WIDTH:
            found.append((at[0], at[1], words))
        return write(image, at, words, *args)

    monkeypatch.setattr(sprites, "write", record)
    draw()
    monkeypatch.setattr(sprites, "write", write)
    return found


def within(box: tuple[int, int, int, int], texts: list[tuple[int, int, str]]) -> str:
    """The texts written in `box`, top to bottom, one line each joined by a space (a side box breaks
    a long entry between words)."""
    left, top, right, bottom = box
    inside = [(y, text) for x, y, text in texts if left <= x < right and top <= y < bottom]
    return " ".join(text for _, text in sorted(inside, key=lambda found: found[0]))


@pytest.mark.parametrize("code", ["en", "hi"])
def test_the_boards_side_boxes_name_moves_by_the_places_the_buttons_name(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The throw box names each choice as its button does, word for word after the letter, and the
    story box the latest moves so (as many as it holds): no step numbers, no entry cut short, in
    both languages."""
    lang = language(code)
    turns = [turn for seed in (1, 2) for turn in islice(two_player_turns(seed), 0, 120, 12)]
    assert len(turns) >= 15 and any(len(legal) >= 3 for _, _, legal, _ in turns)
    for position, throw, legal, story in turns:
        draw = partial(board_png, position, moves=story, throw=throw, choices=legal, words=lang.picture)
        texts = drawn_words(monkeypatch, draw)
        assert not [text for _, _, text in texts if STEP_ARROW.search(text)]
        assert not [text for _, _, text in texts if text.endswith("…")]
        choices = within(layout.panel_box(panels.THROW_CORNER), texts)
        for index, move in enumerate(legal[:4]):
            letter, named = choice_button(lang, index, position, move).split(": ", 1)
            assert letter == choice_letter(index)
            assert named in choices
        told = within(layout.panel_box(panels.STORY_CORNER), texts)
        said = [
            d.before is not None and move_steps(lang, d.before, d.move) in told for d in story[-MAX_STORY:]
        ]
        assert said[-1] and said == sorted(said)  # the latest moves, the last one always


def throws_with_choices(count: int, seed: int) -> Iterator[tuple[Position, list[Move]]]:
    """Positions of random four- and two-player games at throws that offer two or more moves,
    the throws whose moves are most alike first (two pieces of one seat on one arm)."""
    rng = Random(seed)
    for rules in (Rules.preset_rules("classic"), Rules.parse("classic,players=2,start_on_board=4")):
        position = Position.initial(rules)
        found = 0
        while found < count and position.result is None:
            throw = throw_value(rng)
            legal = position.legal_moves(throw)
            if len(legal) >= 2:
                found += 1
                yield position, legal
            position = position.after(throw, rng.choice(legal) if legal else None)
            if position.result is not None:
                position = Position.initial(rules)


@pytest.mark.parametrize("code", ["en", "hi"])
def test_no_two_choices_of_a_throw_read_alike(code: str) -> None:
    """Two pieces of one seat on one arm, one throw: their buttons, the board's throw box and a
    refusal that lists them never say the two alike (the square itself tells them apart)."""
    lang = language(code)
    alike = 0
    for seed in range(6):
        for position, legal in throws_with_choices(150, seed):
            named = [choice_button(lang, i, position, m).split(": ", 1)[1] for i, m in enumerate(legal)]
            assert len(set(named)) == len(named), (position.notation(), named)
            drawn = [move_words(lang.picture, m, [], position) for m in legal]
            assert len(set(drawn)) == len(drawn) and drawn == [move_places(lang, m, position) for m in legal]
            refused = refusal(
                lang,
                "not_a_choice",
                {"typed": "Z", "moves": [str(m) for m in legal], "position": position.notation()},
            )
            assert all(f"({text})" in refused for text in drawn)
            alike += len({move_places(lang, m) for m in legal}) < len(legal)
    assert alike >= 10, "positions where two moves would read alike without their squares"


def test_a_piece_on_its_way_home_is_said_to_be_there() -> None:
    """Its own middle column homeward (steps 77-83: 76 is a castle) is "Black's way home"; that
    column outward is still its arm. Never "from Black's way home, square 6 to Black's arm" for a
    piece that stays on it."""
    seen = 0
    for seed in range(6):
        for position, legal in throws_with_choices(150, seed):
            for move in legal:
                if 77 <= move.dst <= 83:
                    seen += 1
                    assert move_places(ENGLISH, move, position).endswith("'s way home"), move
    assert seen >= 5
