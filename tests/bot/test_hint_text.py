"""The Hint's answer and button, and the hints counted in a game's summary: texts, no Discord."""

from __future__ import annotations

from dataclasses import replace

from bot.core import present
from bot.core.records import SeatTally
from bot.core.texts import ENGLISH, answers, hints, turns
from engine import Position
from engine.analysis import analyse
from tests.bot.helpers import ALICE, game

# Two players: Black (Alice) threw a 4; her piece on 26 can capture Yellow's on its 64 (Black's 30).
POSITION = Position.parse("black:0,0,26,40 yellow:0,0,0,64 turn:black captured:- rules:classic")
TWO = POSITION.rules


def hint_buttons(view: object) -> list[present.Button]:
    return [b for b in present.turn_buttons(ENGLISH, view) if b.action == present.HINT]  # type: ignore[arg-type]


def test_the_hint_names_hards_move_by_its_letter_and_explains_every_choice() -> None:
    view = game(TWO, position=POSITION, pending=4)
    analysis = analyse(POSITION, 4)
    lines = hints.hint(ENGLISH, view, analysis).splitlines()
    moves = view.legal_moves()
    letter = "AB"[moves.index(analysis.choices[0].move)]
    assert lines[0].startswith(f"**Hint**: play **{letter}**, Black ")
    assert lines[1].startswith("Your chance to win: ")
    assert len(lines) == 2 + len(moves)
    capture = next(line for line in lines[2:] if "Black 26 → 30" in line)
    assert "captures Yellow's piece and throws again, and opens home for your side" in capture


def test_chances_are_whole_percents_never_falsely_certain() -> None:
    assert answers.percent(ENGLISH, 0.5) == "50 %"
    assert answers.percent(ENGLISH, 0.996) == "more than 99 %" and answers.percent(ENGLISH, 1.0) == "100 %"
    assert answers.percent(ENGLISH, 0.004) == "less than 1 %" and answers.percent(ENGLISH, 0.0) == "0 %"


def test_the_button_shows_only_on_a_members_turn_with_a_throw_to_play() -> None:
    assert hint_buttons(game(TWO, position=POSITION, pending=4))
    assert not hint_buttons(game(TWO, position=POSITION))  # not thrown yet
    computer = Position.parse("black:0,0,26,40 yellow:0,0,0,64 turn:yellow captured:- rules:classic")
    assert not hint_buttons(game(TWO, position=computer, pending=4))  # the computer's turn
    assert game().seats[0].user_id == ALICE


def test_the_summary_counts_the_hints_each_seat_used() -> None:
    tallies = {0: SeatTally(0, 30, 20, 2), 2: SeatTally(2, 28, 19, 1)}
    quiet = turns.final_summary(ENGLISH, game(status="finished", turn_number=58), tallies)
    assert "Hints used" not in quiet
    helped = game(status="finished", turn_number=58, hints_used={0: 3})
    summary = turns.final_summary(ENGLISH, helped, tallies)
    assert "Captures: Black 2, Red 0, Yellow 1 and Green 0.\nHints used: Black 3.\n" in summary


def test_hints_off_hides_the_button() -> None:
    assert not hint_buttons(replace(game(TWO, position=POSITION, pending=4), hints=False))


def test_the_hint_fits_in_one_discord_message() -> None:
    view = game(TWO, position=POSITION, pending=4)
    analysis = analyse(POSITION, 4)
    wordy = replace(
        analysis, choices=tuple(replace(c, reasons=("a reason " * 80,)) for c in analysis.choices)
    )
    text = hints.hint(ENGLISH, view, wordy)
    assert len(text) < 2000 and text.count("…") == len(analysis.choices)
