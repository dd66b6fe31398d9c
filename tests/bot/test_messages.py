"""The bot's texts, from stored games and events, without Discord."""

from __future__ import annotations

from datetime import timedelta

from bot.cogs.pachisi import messages
from bot.core.service import Event, SeatTally
from engine import DRAW, MAX_THROWS, Move, Position, Rules
from tests.bot.helpers import ALICE, BOB, FOUR, NOW, game


def event(before: Position, throw: int, move: Move | None, actor: int | None = None, **flags: bool) -> Event:
    return Event(0, before.turn, actor, throw, (False,) * 6, move, before, False, **flags)


def test_squares_are_named_as_the_board_shows_them() -> None:
    assert messages.square_words(0, 0) == "the Charkoni"
    assert messages.square_words(0, 84) == "home"
    assert messages.square_words(0, 8) == "the tip of Black's arm"
    assert messages.square_words(0, 12) == "Black's castle"
    assert messages.square_words(0, 21) == "Red's castle"
    assert messages.square_words(1, 20) == "Yellow's arm"


def test_moves_are_told_in_board_words_with_who_made_them() -> None:
    start = Position.initial(FOUR)
    line = messages.event_line(event(start, 25, Move(0, 0, 1), ALICE), game())
    assert line == f"`25` <@{ALICE}>, Black: piece out of the Charkoni to Black's arm"
    red = Position.parse(
        "black:0,0,0,0 red:0,0,0,5 yellow:0,0,0,0 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    line = messages.event_line(event(red, 4, Move(1, 5, 9)), game())
    assert line == "` 4` Computer (hard), Red: piece along Red's arm"
    assert messages.event_line(event(red, 2, None), game()) == "` 2` Computer (hard), Red: threw 2, no move"
    forced = messages.event_line(event(start, 3, Move(0, 0, 1), ALICE, forced=True), game())
    assert (
        forced == f"` 3` <@{ALICE}>, Black: threw 3, the only move: piece out of the Charkoni to Black's arm"
    )


def green_to_move(black_step: int) -> Position:
    return Position.parse(
        f"black:0,0,0,{black_step} red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,17 turn:green captured:- rules:classic"
    )


def test_a_capture_names_the_member_whose_piece_goes_back() -> None:
    before, throw, move = next(
        (green_to_move(b), throw, m)
        for b in range(2, 60)
        for throw in (2, 3, 4, 6, 10, 25)
        for m in green_to_move(b).legal_moves(throw)
        if green_to_move(b).captures(m)
    )
    line = messages.event_line(event(before, throw, move), game())
    assert line.endswith(f", captures **<@{ALICE}>**'s Black piece: back to the Charkoni"), line
    assert messages.captured_members([event(before, throw, move)], game()) == [ALICE]


def test_a_turn_message_names_who_throws_and_when_time_runs_out() -> None:
    text = messages.turn_content(game(), [])
    assert text.splitlines() == [
        f"<@{ALICE}> (Black), your throw.",
        f"Time runs out <t:{int(NOW.timestamp())}:R>.",
    ]


def test_long_logs_are_summarised_and_keep_counting_across_updates() -> None:
    start = Position.initial(FOUR)
    computer = event(Position.parse(start.notation().replace("turn:black", "turn:red")), 2, None)
    text = messages.turn_content(game(), [computer] * 20)
    assert text.splitlines()[0] == "... 8 earlier throws"
    again = messages.turn_content(game(), [computer] * 3, earlier=messages.log_lines(text))
    assert again.splitlines()[0] == "... 11 earlier throws"
    assert len(messages.log_lines(again)) == messages.LOG_LINES + 1


def test_only_the_member_to_move_is_pinged_and_every_player_at_the_end() -> None:
    assert messages.pinged(game()) == [ALICE]
    red_to_move = game(
        position=Position.parse(Position.initial(FOUR).notation().replace("turn:black", "turn:red"))
    )
    assert messages.pinged(red_to_move) == []
    assert messages.pinged(game(status="abandoned")) == [ALICE]


def test_the_card_states_the_options_and_marks_the_freezing_rule() -> None:
    frozen = Rules.parse("classic,last_square=off")
    card = messages.card_content(game(frozen), "Alice", 999)
    assert card.startswith("**Pachisi: Alice's table** (classic,last_square=off, 4 players, 4 pieces each")
    assert messages.FREEZING_NOTE in card and "<#999>" in card
    done = game(status="finished", turn_number=58)
    tallies = {0: SeatTally(0, 30, 20, 2)}
    card = messages.card_content(done, "Alice", 999, tallies, {ALICE: 0, BOB: 1}, NOW + timedelta(minutes=12))
    assert "Throws: 58. Captures: Black 2, Red 0, Yellow 0, Green 0." in card
    assert "Duration: 12 min." in card and f"<@{BOB}> (Red)" in card


def test_typed_input_is_cut_short_when_quoted() -> None:
    assert messages.quoted("x" * 500) == "`" + "x" * messages.INPUT_SHOWN + "...`"
    assert messages.quoted("a`b") == "`a'b`"


def test_a_draw_is_told_by_its_cause_from_the_engine_outcome() -> None:
    frozen_rules = Rules.parse("classic,last_square=off")
    frozen = Position.parse(
        "black:83,84,84,84 red:83,84,84,84 yellow:84,84,84,84 green:84,84,84,84 "
        "turn:black captured:black+yellow,red+green rules:classic,last_square=off"
    )
    stuck = game(frozen_rules, status="finished", position=frozen, turn_number=40)
    assert messages.result_head(stuck) == "The game is a draw: no piece can move."
    limit = Position.initial(FOUR).with_result(DRAW)
    drawn = game(status="finished", position=limit, turn_number=MAX_THROWS)
    assert messages.result_head(drawn) == "The game is a draw: the throw limit was reached."
