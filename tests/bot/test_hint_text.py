"""The Hint's words: hard's move by its letter, every choice with its chance and reasons, and the
button only on a member's turn with a throw to play."""

from __future__ import annotations

from dataclasses import replace

from bot.cogs.pachisi import messages
from bot.cogs.pachisi.hints import hint_button, hint_text, percent
from bot.core.service import SeatTally
from engine import Position
from engine.analysis import analyse
from tests.bot.helpers import ALICE
from tests.bot.helpers import game as new_game

# Two players: Black (Alice) threw a 4; her piece on 26 can capture Yellow's on its 64 (Black's 30).
POSITION = Position.parse("black:0,0,26,40 yellow:0,0,0,64 turn:black captured:- rules:classic")


def test_the_hint_names_hards_move_by_its_letter_and_explains_every_choice() -> None:
    view = new_game(position=POSITION, pending_throw=4)
    analysis = analyse(POSITION, 4)
    text = hint_text(view, analysis)
    lines = text.splitlines()
    moves = view.legal_moves()
    letter = "AB"[moves.index(analysis.choices[0].move)]
    assert lines[0].startswith(f"**Hint**: play **{letter}**, the piece on ")
    assert lines[1].startswith("Your side's chance to win: ")
    assert len(lines) == 2 + len(moves)
    capture = next(line for line in lines[2:] if "26 to 30" in line)
    assert "captures Yellow's piece and throws again, and opens home for your side" in capture


def test_chances_are_whole_percents_never_falsely_certain() -> None:
    assert percent(0.5) == "50 %"
    assert percent(0.996) == "more than 99 %" and percent(1.0) == "100 %"
    assert percent(0.004) == "less than 1 %" and percent(0.0) == "0 %"


def test_the_button_shows_only_on_a_members_turn_with_a_throw_to_play() -> None:
    assert hint_button(new_game(position=POSITION, pending_throw=4)) is not None
    assert hint_button(new_game(position=POSITION)) is None  # not thrown yet
    computer = Position.parse("black:0,0,26,40 yellow:0,0,0,64 turn:yellow captured:- rules:classic")
    assert hint_button(new_game(position=computer, pending_throw=4)) is None  # the computer's turn
    assert new_game().seats[0].user_id == ALICE


def test_the_summary_counts_the_hints_each_seat_used() -> None:
    tallies = {0: SeatTally(0, 30, 20, 2), 2: SeatTally(2, 28, 19, 1)}
    quiet = messages.final_summary(new_game(status="finished", turn_number=58), tallies)
    assert "Hints used" not in quiet
    game = new_game(status="finished", turn_number=58)
    helped = replace(game, seats={**game.seats, 0: replace(game.seats[0], hints_used=3)})
    assert "Captures: Black 2, Red 0, Yellow 1, Green 0. Hints used: Black 3.\n" in messages.final_summary(
        helped, tallies
    )


def test_hints_off_hides_the_button() -> None:
    assert hint_button(new_game(position=POSITION, pending_throw=4, hints=False)) is None


def test_the_hint_fits_in_one_discord_message() -> None:
    view = new_game(position=POSITION, pending_throw=4)
    analysis = analyse(POSITION, 4)
    wordy = replace(
        analysis, choices=tuple(replace(c, reasons=("a reason " * 80,)) for c in analysis.choices)
    )
    text = hint_text(view, wordy)
    assert len(text) < 2000 and text.count("…") == len(analysis.choices)
