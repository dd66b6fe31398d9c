"""Refusals said once, in the member's words (issue 58, item 11): the choices of a throw as its
buttons name them, one to pick ("or"); a rules option's fault named once; a number's choices in
order, as a sentence; ending a game without the right to, said to the member as it is for them.

Through the real texts and the shipped catalogs; the service's side is tests/test_service.py."""

from __future__ import annotations

import pytest

from bot.core.texts.board import choice_button
from bot.core.texts.language import ENGLISH, language
from bot.core.texts.refusals import one_of, refusal
from engine import Move, Position
from engine.rules import Rules
from tests.bot.catalogs import kept_names, latin_left

HINDI = language("hi")


def test_a_numbers_choices_are_said_in_order_as_a_sentence() -> None:
    assert one_of(ENGLISH, "players", ["4", "2"]) == "players must be 2 or 4."
    assert one_of(ENGLISH, "mode", ["on", "off"]) == "mode must be on or off."
    assert one_of(ENGLISH, "pieces", ["3", "1", "4", "2"]) == "pieces must be 1, 2, 3 or 4."
    assert one_of(HINDI, "players", ["4", "2"]) == "players के लिए 2 या 4 चुनें।"


def test_a_wrong_choice_is_told_the_throws_choices_as_its_buttons_name_them() -> None:
    moves = ["red:4-9", "red:5-10"]
    said = refusal(ENGLISH, "not_a_choice", {"typed": "A A", "moves": moves})
    assert said == (
        "`A A` is not a move of this throw: choose A (Red: along Red's arm) or B (Red: along Red's arm)."
    )
    hindi = refusal(HINDI, "not_a_choice", {"typed": "A A", "moves": moves})
    assert hindi == "`A A` इस दाँव की चाल नहीं है: A (लाल: लाल की भुजा पर आगे) या B (लाल: लाल की भुजा पर आगे) चुनें।"
    # each choice reads as its button does (a move that captures nothing)
    position = Position.initial(Rules.preset_rules("classic"))
    for lang, text in ((ENGLISH, said), (HINDI, hindi)):
        for index, move in enumerate(moves):
            letter, named = choice_button(lang, index, position, Move.parse(move)).split(": ", 1)
            assert f"{letter} ({named})" in text
        assert "red:" not in text


def refused_rules(code: str, rules: str, pieces: int = 4) -> str:
    """The refusal of /pachisi start's `rules`, with the reason the engine gives (as the cog reads it)."""
    try:
        Rules.parse(f"classic,{rules}", allow_shape=False).with_options(pieces=pieces)
    except ValueError as exc:
        reason = str(exc).rsplit(" (in ", 1)[0][:80]
    else:
        raise AssertionError(f"{rules} is a valid rule set")
    return refusal(language(code), "unknown_rules", {"typed": rules, "reason": reason})


@pytest.mark.parametrize(
    ("rules", "english", "hindi"),
    [
        (
            "bogus=yes",
            "I know no rule option `bogus=yes`: pick the options from the list.",
            "मैं `bogus=yes` नाम का कोई नियम-विकल्प नहीं जानता: सूची से विकल्प चुनें।",
        ),
        (
            "escape_hatch=off,bogus",
            "I know no rule option `bogus`: pick the options from the list.",
            "मैं `bogus` नाम का कोई नियम-विकल्प नहीं जानता: सूची से विकल्प चुनें।",
        ),
        (
            "escape_hatch=maybe",
            "`escape_hatch` takes `on` or `off`, not `maybe`.",
            "`escape_hatch` के लिए `on` (चालू) या `off` (बंद) लिखें, `maybe` नहीं।",
        ),
        (
            "start_on_board=9",
            "`start_on_board` takes a number from 0 to 4, not `9`.",
            "`start_on_board` के लिए 0 से 4 तक की संख्या लिखें, `9` नहीं।",
        ),
        (
            "last_square=off,last_square=on",
            "`last_square` is given twice: give each rule option once.",
            "`last_square` दो बार दिया गया है: हर नियम-विकल्प एक ही बार दें।",
        ),
        (
            "players=2",
            "`players` has an option of its own in /pachisi start: set it there, not in `rules`.",
            "`players` का /पच्चीसी शुरू में अपना अलग विकल्प है: उसे वहीं चुनें, `नियम` में नहीं।",
        ),
        (
            "standard",
            "`standard` is a rule set: choose it with the `variant` option, and give `rules` only options.",
            "`standard` एक तैयार सेट है: उसे `प्रकार` विकल्प में चुनें, और `नियम` में सिर्फ़ विकल्प दें।",
        ),
    ],
)
def test_a_rules_fault_is_named_once_in_the_members_words(rules: str, english: str, hindi: str) -> None:
    assert refused_rules("en", rules) == english
    assert refused_rules("hi", rules) == hindi


def test_rules_that_cannot_go_together_are_said_without_the_engines_english() -> None:
    english = refused_rules("en", "start_on_board=3", pieces=2)
    assert english == "`start_on_board` can't be more than the pieces per seat: choose fewer."
    hindi = refused_rules("hi", "start_on_board=3", pieces=2)
    assert not latin_left(hindi, kept_names()) and "must be" not in hindi


def test_ending_without_the_right_never_sends_a_seatless_member_to_leave() -> None:
    anyone = refusal(ENGLISH, "only_starter_ends", {})
    assert anyone == "Only the member who started this game, or one with Manage Channels, can end it."
    unseated = refusal(ENGLISH, "only_starter_ends_unseated", {})
    assert unseated.startswith("You have no seat in this game") and "leave" not in unseated
    seated = refusal(ENGLISH, "only_starter_ends_seated", {"seat": 1})
    assert seated.endswith("To stop playing Red, give your seat back with `/pachisi leave`.")
    assert "छोड़ें" not in refusal(HINDI, "only_starter_ends_unseated", {})
    assert "`/पच्चीसी छोड़ें`" in refusal(HINDI, "only_starter_ends_seated", {"seat": 1})
