"""The Hint's answer and button, and the hints counted in a game's summary: texts, no Discord."""

from __future__ import annotations

import re
from dataclasses import replace
from random import Random

import pytest

from bot.core import present
from bot.core.records import SeatTally
from bot.core.texts import ENGLISH, answers, hints, turns
from bot.core.texts.hints import reason
from bot.core.texts.language import language
from engine import Position, parse_move
from engine import analysis as why
from engine.analysis import Reason, analyse
from engine.rules import Rules
from engine.throws import throw_value
from tests.support.snapshots import ALICE, game

# Two players: Black (Alice) threw a 4; her piece on 26 can capture Yellow's on its 64 (Black's 30).
POSITION = Position.parse("black:0,0,26,40 yellow:0,0,0,64 turn:black captured:- rules:classic")
TWO = POSITION.rules


def hint_buttons(snapshot: object) -> list[present.Button]:
    return [b for b in present.turn_buttons(ENGLISH, snapshot) if b.action == present.HINT]  # type: ignore[arg-type]


def test_the_hint_names_hards_move_by_its_letter_and_explains_every_choice() -> None:
    snapshot = game(TWO, position=POSITION, pending=4)
    analysis = analyse(POSITION, 4)
    lines = hints.hint(ENGLISH, snapshot, analysis).splitlines()
    moves = snapshot.legal_moves()
    letter = "AB"[moves.index(analysis.choices[0].move)]
    assert lines[0].startswith(f"**Hint**: play **{letter}**, Black: ")
    assert lines[1].startswith("Your chance to win: ")
    assert len(lines) == 2 + len(moves)
    capture = next(line for line in lines[2:] if "takes Yellow" in line)
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
    snapshot = game(TWO, position=POSITION, pending=4)
    analysis = analyse(POSITION, 4)
    many = Reason(why.THREATENS, targets=tuple((seat, steps) for seat in (1, 3) for steps in range(2, 12)))
    wordy = replace(analysis, choices=tuple(replace(c, reasons=(many,) * 6) for c in analysis.choices))
    text = hints.hint(ENGLISH, snapshot, wordy)
    assert len(text) < 2000 and text.count("…") == len(analysis.choices)


SEARCH = Position.parse(
    "black:0,1,1,19 red:0,0,0,16 yellow:0,0,0,14 green:0,0,7,8 turn:yellow captured:- rules:classic"
)
LETTERS = {parse_move("yellow:14-39"): "C"}

SAYINGS = [
    (Reason(why.WINS), "wins the game"),
    (Reason(why.CAPTURES, seats=(1,), pieces=1), "captures Red's piece and throws again"),
    (
        Reason(why.CAPTURES, seats=(1, 3), pieces=2, opens_home=True),
        "captures Red and Green's pieces and throws again, and opens home for your side",
    ),
    (Reason(why.HOME_SAFE), "brings a piece home, where it is safe for good"),
    (
        Reason(why.HOME_SAFE, escape_hatch=True),
        "brings a piece home through the escape hatch, where it is safe for good",
    ),
    (Reason(why.ENTERS), "brings a new piece onto the board"),
    (
        Reason(why.CASTLE_OUT_OF_REACH, arm=1, seats=(3,)),
        "lands on Red's castle, out of reach of Green's next throw",
    ),
    (Reason(why.CASTLE_SAFE, arm=1), "lands on Red's castle, safe for as long as it stays"),
    (Reason(why.LEAVES_RANGE, threats=((3, 3),)), "moves out of reach of Green's 3"),
    (Reason(why.ENTERS_RANGE, threats=((3, 3),), chance=20), "moves into range of Green's 3 (20 in 64)"),
    (
        Reason(why.STAYS_IN_RANGE, threats=((1, 4), (1, 25), (3, 10))),
        "stays in range of Red's 4 and 25 and Green's 10",
    ),
    (Reason(why.FORMS_BLOCKADE, step=30, square=44), "forms a blockade on Red's bottom row, square 5"),
    (Reason(why.BREAKS_BLOCKADE, step=30, square=44), "breaks your blockade on Red's bottom row, square 5"),
    (Reason(why.KEEPS_BLOCKADE, step=30, square=44), "keeps your blockade on Red's bottom row, square 5"),
    (Reason(why.LAST_SQUARE), "reaches the last square, from where any throw brings it home"),
    (
        Reason(why.FINISHING_SQUARE, step=80, throw=4, chance=15),
        "reaches Yellow's way home, square 4, from where a 4 brings it home (15 in 64)",
    ),
    (
        Reason(why.DEAD_SQUARE, step=77, aim=(78, 83)),
        "stops on Yellow's way home, square 7, from where no single throw brings it home (aim for squares 1 "
        "to 6 of its way home)",
    ),
    (
        Reason(why.THREATENS, targets=((1, 3),), opens_home=True),
        "threatens Red's piece 3 steps ahead: its capture would open home for your side",
    ),
    (
        Reason(why.THREATENS, targets=((1, 3), (3, 10))),
        "threatens Red's piece 3 steps ahead and Green's piece 10 steps ahead",
    ),
    (
        Reason(why.SEARCH_PREFERS, move=parse_move("yellow:14-39"), depth=3),
        "looking 3 throws ahead, the search prefers it to C, Yellow: from Yellow's arm to Black's arm, "
        "which looks better for now",
    ),
    (
        Reason(why.SEARCH_FINDS_WORSE, depth=3),
        "looks best for now, but the search finds it worse 3 throws ahead",
    ),
]


@pytest.mark.parametrize(("said", "words"), SAYINGS, ids=[s.kind for s, _ in SAYINGS])
def test_each_kind_of_reason_reads_as_an_english_sentence(said: Reason, words: str) -> None:
    assert hints.reason(ENGLISH, said, SEARCH, LETTERS) == words


def test_every_kind_of_reason_has_its_words() -> None:
    kinds = {value for name, value in vars(why).items() if name.isupper() and isinstance(value, str)}
    assert kinds == {said.kind for said, _ in SAYINGS}


def test_the_hint_says_why_the_search_differs_naming_the_choice_by_its_letter() -> None:
    position = Position.parse(
        "black:1,1,15,37 red:0,1,1,26 yellow:0,0,31,40 green:0,0,0,26 turn:black captured:- rules:classic"
    )
    snapshot = game(position=position, pending=2, seats={0: ALICE})
    text = hints.hint(ENGLISH, snapshot, analyse(position, 2))
    letters = {move: "ABCDEFGH"[i] for i, move in enumerate(snapshot.legal_moves())}
    plain = letters[parse_move("black:37-39")]
    named = "Black: along Yellow's arm"
    assert f"the search prefers it to {plain}, {named}, which looks better for now" in text
    line = next(line for line in text.splitlines() if line.startswith(f"**{plain}** {named}"))
    assert "63 %" in line and "the search finds it worse 3 throws ahead" in line


STEP_KINDS = (
    why.FORMS_BLOCKADE,
    why.BREAKS_BLOCKADE,
    why.KEEPS_BLOCKADE,
    why.FINISHING_SQUARE,
    why.DEAD_SQUARE,
)


@pytest.mark.parametrize("code", ["en", "hi"])
def test_no_hint_names_a_square_by_its_step_number(code: str) -> None:
    """A blockade's square and an endgame piece's square are named as the board shows them (its
    lane and the square counted from the centre), never "on 15" or "कदम 75 पर", in both languages."""
    lang = language(code)
    rng = Random(5)
    said = 0
    for rules in (Rules.preset_rules("classic"), Rules.parse("classic,players=2,start_on_board=4")):
        position = Position.initial(rules)
        for _ in range(1500):
            throw = throw_value(rng)
            legal = position.legal_moves(throw)
            for move in legal if len(legal) > 1 else []:
                for found in why.reasons(position, throw, move, legal):
                    if found.kind not in STEP_KINDS:
                        continue
                    text = reason(lang, found, position, {}, move.seat)
                    said += 1
                    numbers = {int(n) for n in re.findall(r"\d+", text)}
                    assert numbers <= {1, 2, 3, 4, 5, 6, 7, 8, found.throw, found.chance, 64}, text
                    assert "कदम" not in text and "step" not in text
            position = position.after(throw, rng.choice(legal) if legal else None)
            if position.result is not None:
                position = Position.initial(rules)
    assert said >= 20


def test_two_choices_say_their_reasons_whole_where_five_would_be_cut() -> None:
    """The reasons' room is shared by the choices: a reason of 400 characters is cut among five
    choices but said whole between two (a cut in mid-sentence was what a member read)."""
    snapshot = game(TWO, position=POSITION, pending=4)
    analysis = analyse(POSITION, 4)
    long = Reason(why.THREATENS, targets=tuple((seat, steps) for seat in (1, 3) for steps in range(2, 9)))
    two = replace(analysis, choices=tuple(replace(c, reasons=(long,)) for c in analysis.choices[:2]))
    said = hints.reasons_text(ENGLISH, [hints.reason(ENGLISH, long, POSITION, {}, two.choices[0].move.seat)])
    assert hints.REASONS_LENGTH < len(said) < hints.reasons_room(2)
    text = hints.hint(ENGLISH, snapshot, two)
    assert "…" not in text and len(text) < 2000
    assert hints.reasons_room(5) == hints.REASONS_LENGTH


def test_reasons_too_long_for_the_room_leave_out_whole_ones_from_the_end() -> None:
    """The search's reason comes first and is said whole; reasons that do not fit are left out
    whole, with "…" (a fifth look met the search's reason cut before its verb)."""
    analysis = analyse(POSITION, 4)
    pick = analysis.choices[0]
    other = analysis.choices[1].move
    prefers = Reason(why.SEARCH_PREFERS, move=other, depth=3)
    long = Reason(why.THREATENS, targets=tuple((seat, steps) for seat in (1, 3) for steps in range(2, 9)))
    letters = {pick.move: "A", other: "B"}
    first = hints.reason(ENGLISH, prefers, POSITION, letters)
    line = hints.choice_line(ENGLISH, replace(pick, reasons=(prefers, long, long)), POSITION, letters, 300)
    assert f": {first}; …." in line
    alone = hints.choice_line(ENGLISH, replace(pick, reasons=(long,)), POSITION, letters, 100)
    assert alone.endswith("….") and len(alone) < 200  # one reason over the room: cut
