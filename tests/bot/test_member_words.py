"""Sentences as a member reads them (issue 41): counts that agree with their own nouns, capitals
after a full stop, and the Hindi reader's corrections, each checked on the words the bot sends."""

from __future__ import annotations

import re
from datetime import date

from bot.core.puzzles import Answer, Daily, Streak
from bot.core.records import SeatTally
from bot.core.stats import MemberStats
from bot.core.store import RatingRow
from bot.core.texts import ENGLISH, board, hints, puzzles, records, refusals, table, turns
from bot.core.texts.language import language
from engine import Position, Rules
from engine.analysis import analyse
from engine.puzzles import Puzzle
from tests.support.snapshots import ALICE, game

HINDI = language("hi")
BUSY = Position.parse("black:0,0,26,40 yellow:0,0,0,66 turn:black captured:- rules:classic")
"""Two players, Black to play a 6: enter a piece, or move one of two (26 → 32 captures Yellow)."""
TWO = BUSY.rules

LOWER_AFTER_STOP = re.compile(r"[.!?] +[a-z]")


def rating_row(**counts: int) -> RatingRow:
    return RatingRow(user_id=ALICE, guild_id=1, mu=25.0, sigma=8.0, **counts)


# --- slip 4: every number takes its plural from its own number ---------------------------------


def test_stats_count_games_and_wins_each_in_its_own_plural() -> None:
    row = rating_row(games_people=2, wins_people=1, games_computers=1, wins_computers=0)
    text = records.stats(ENGLISH, "Asha", MemberStats(games=3, wins=1), row)
    assert "against people: 2 games, 1 win" in text
    assert "against computers: 1 game, 0 wins" in text
    hindi = records.stats(HINDI, "Asha", MemberStats(games=3, wins=1), row)
    assert "लोगों के ख़िलाफ़: 2 खेल, 1 जीत" in hindi and "के साथ" not in hindi


def test_the_leaderboard_counts_games_and_wins_apart() -> None:
    row = rating_row(games_people=1, wins_people=1, games_computers=0, wins_computers=0)
    assert records.board_lines(ENGLISH, [row])[0].endswith(", 1 game, 1 win")


def test_the_final_summary_counts_turns_in_their_own_plural() -> None:
    tallies = {0: SeatTally(0, 3, 1, 0)}
    snapshot = game(TWO, status="finished", turn_number=3)
    assert "Throws: 3 in 1 turn. " in turns.final_summary(ENGLISH, snapshot, tallies)
    assert "दाँव: 3, 1 बारी में।" in turns.final_summary(HINDI, snapshot, tallies)
    tallies = {0: SeatTally(0, 2, 2, 0), 2: SeatTally(2, 1, 2, 0)}
    assert "Throws: 3 in 4 turns. " in turns.final_summary(ENGLISH, snapshot, tallies)
    assert "दाँव: 3, 4 बारियों में।" in turns.final_summary(HINDI, snapshot, tallies)


def test_the_puzzle_record_says_one_answer_in_the_singular() -> None:
    line = puzzles.stats_line(HINDI, Streak(current=0, best=0, answered=1, solved=0))
    assert "1 जवाब में से 0 सही" in line
    assert "2 जवाबों में से" in puzzles.stats_line(HINDI, Streak(answered=2, solved=1))


def test_the_rules_line_and_history_shape_count_players_and_pieces_apart() -> None:
    assert table.rules_words(ENGLISH, Rules.parse("classic,players=2,pieces=1")) == (
        "classic, 2 players, 1 piece each"
    )
    assert table.rules_words(HINDI, Rules.parse("classic,players=2,pieces=1")).endswith("हर रंग की 1 गोटी")


# --- slip 7: a sentence after a full stop starts with a capital -------------------------------


def test_a_hints_choices_never_start_a_sentence_in_lower_case() -> None:
    snapshot = game(TWO, position=BUSY, pending=6)
    text = hints.hint(ENGLISH, snapshot, analyse(BUSY, 6))
    assert len(text.splitlines()) == 2 + len(snapshot.legal_moves())
    assert not LOWER_AFTER_STOP.findall(text), text


def test_the_puzzle_verdict_never_starts_a_sentence_in_lower_case() -> None:
    moves = BUSY.legal_moves(6)
    puzzle = Puzzle(BUSY, 6, moves[0], 0.1, "capture", 0.4, 0.2, 1.0)
    daily = Daily(date(2026, 1, 2), 7, puzzle, Answer(moves[-1], False), Streak(answered=1))
    text = puzzles.verdict(ENGLISH, daily, analyse(BUSY, 6))
    assert "%: " in text
    assert not LOWER_AFTER_STOP.findall(text), text


# --- the Hindi reader's corrections -----------------------------------------------------------


def test_hindi_choice_labels_are_tense_neutral() -> None:
    """A choice is a move not yet made: "पीली: चरकोनी से निकलकर …", "…को काटकर", never "निकली", "काटा"."""
    snapshot = game(TWO, position=BUSY, pending=6)
    labels = [board.choice_button(HINDI, i, BUSY, move) for i, move in enumerate(snapshot.legal_moves())]
    assert any("चरकोनी से निकलकर" in label for label in labels)
    assert any("को काटकर" in label for label in labels)
    assert not any(re.search(r"निकली|काटा\b|काटी\b", label) for label in labels), labels


def test_hindi_permissions_stand_in_the_oblique_before_anumati() -> None:
    text = refusals.refusal(HINDI, "missing_permissions", {"permissions": ["view_channel", "attach_files"]})
    assert "चैनल देखने (View Channel) और फ़ाइलें जोड़ने (Attach Files) की अनुमति" in text


def test_a_hindi_partnership_wins_in_the_plural() -> None:
    assert records.won(HINDI, 0, 4) == "काली + पीली जीतीं"
    assert records.won(HINDI, 0, 2) == "काली जीती"
    assert records.won(HINDI, 1, 4, resigned=True).endswith("जीतीं")


def test_a_member_giving_up_their_seat_is_not_read_as_the_computers_own() -> None:
    text = table.seat_given_up(HINDI, ALICE, None, resign=False)
    assert "अपनी" not in text and "उनके रंग से कंप्यूटर" in text
