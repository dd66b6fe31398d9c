"""A square's name inside the sentences that say it (issue 58): in Hindi a place always stands
before से or पर, so it is written in the oblique, "हरी के किले से", never "हरी का किला से".

The moves are said through the real texts (`bot.core.texts.board`) and the shipped catalog."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.core.texts.board import choice_option, move_path
from bot.core.texts.language import ENGLISH, language
from engine import Move, Position
from engine.board import HOME
from engine.rules import Rules

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
    # the autocomplete's choice says the same path after the board's words for the move
    assert choice_option(language("hi"), 0, position, move).endswith(" · " + hindi)
