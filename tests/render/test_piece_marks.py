"""The marks on a seat's pieces read in the picture's language: B R Y G in English, का ला पी ह in
Hindi, the same on the board, the panels and the legend (issue 41). A Hindi board draws no Latin
letter but the choices' letters, which are the buttons' and `/पच्चीसी चलें`'s."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from engine import Move, Position
from render import DrawnMove, board_png, legend, legend_png, panels, sprites
from render import words as w
from render.draw import _palette
from render.words import ENGLISH
from tests.render.helpers import hindi

LATIN = re.compile(r"[A-Za-z]")
CHOICE_LETTER = re.compile(r"(?<![A-Za-z])[A-E](?![A-Za-z])")
"""A choice's letter, as its tile, its button and the legend's line about them name it."""


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn from here on, but a choice tile's letter; caches emptied so all is drawn."""
    _palette()  # the palette is built once from English pictures: not part of what is looked at
    texts: list[str] = []
    in_tile: list[str] = []
    centred, text, tile = sprites.centred_text, sprites.text, sprites.tile

    def record_centred(draw: object, centre: object, words: str, *args: object) -> None:
        if not in_tile:
            texts.append(words)
        centred(draw, centre, words, *args)  # type: ignore[arg-type]

    def record_text(words: str, *args: object) -> object:
        texts.append(words)
        return text(words, *args)

    def untracked_tile(label: str, size: int) -> object:
        in_tile.append(label)
        try:
            return tile.__wrapped__(label, size)
        finally:
            in_tile.pop()

    monkeypatch.setattr(sprites, "centred_text", record_centred)
    monkeypatch.setattr(sprites, "text", record_text)
    monkeypatch.setattr(sprites, "tile", untracked_tile)
    clear: list[Callable[[], None]] = [
        sprites.piece.cache_clear,
        sprites.struck_piece.cache_clear,
        panels._patch.cache_clear,
        legend._legend_image.cache_clear,
    ]
    for empty in clear:
        empty()
    yield texts
    for empty in clear:
        empty()


def test_the_marks_are_each_colours_first_letter_in_the_language() -> None:
    assert w.piece_marks(ENGLISH) == ("B", "R", "Y", "G")
    marks = w.piece_marks(hindi())
    assert marks == ("का", "ला", "पी", "ह")
    names = [w.seat_name(hindi(), seat) for seat in range(4)]
    assert all(name.startswith(mark) for name, mark in zip(names, marks, strict=True))


def test_a_hindi_board_draws_no_latin_letter(drawn: list[str]) -> None:
    before = Position.parse("black:0,0,26,40 yellow:0,0,0,66 turn:black captured:- rules:classic")
    capture = Move(0, 26, 32)
    after = before.after(6, capture)
    names = {0: "आशा", 2: "रवि"}
    board_png(before, names=names, throw=6, choices=before.legal_moves(6), words=hindi())
    board_png(after, names=names, moves=[DrawnMove(capture, before)], throw=6, words=hindi())
    four = Position.parse(
        "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84 turn:red captured:black+yellow "
        "rules:classic"
    )
    board_png(four, throw=10, choices=four.legal_moves(10), words=hindi())
    legend_png(words=hindi())
    marks = set(w.piece_marks(hindi()))
    assert marks <= set(drawn)  # the pieces were drawn, with their marks
    assert [text for text in drawn if LATIN.search(CHOICE_LETTER.sub("", text))] == []


def test_an_english_board_marks_its_pieces_with_english_letters(drawn: list[str]) -> None:
    legend_png(words=ENGLISH)
    assert {"B", "R", "Y", "G"} <= set(drawn)
