"""What members read about a game, and how a change is shown: texts and the presenter, no Discord."""

from __future__ import annotations

from datetime import timedelta

from bot.core import present
from bot.core.records import GameSummary, SeatTally
from bot.core.snapshot import Played
from bot.core.texts import ENGLISH, board, records, table, turns
from bot.core.texts.refusals import INPUT_SHOWN, quoted
from bot.core.turns import Event
from engine import DRAW, MAX_THROWS, Move, Position, Rules
from render.words import place_words
from tests.support.snapshots import ALICE, BOB, FOUR, NOW, game

EN = ENGLISH


def event(before: Position, throw: int, move: Move | None, actor: int | None = None, **flags: bool) -> Event:
    return Event(0, before.turn, actor, throw, (False,) * 6, move, before, **flags)


def test_squares_are_named_as_the_board_shows_them() -> None:
    assert place_words(EN, 0, 0) == "the Charkoni"
    assert place_words(EN, 0, 84) == "home"
    assert place_words(EN, 0, 8) == "the tip of Black's arm"
    assert place_words(EN, 0, 12) == "Black's castle"
    assert place_words(EN, 0, 21) == "Red's castle"
    assert place_words(EN, 1, 20) == "Yellow's arm"


def test_moves_are_told_in_board_words_with_who_made_them() -> None:
    start = Position.initial(FOUR)
    line = turns.event_line(EN, event(start, 25, Move(0, 0, 1), ALICE), game())
    assert line == f"`25` <@{ALICE}>, Black: piece out of the Charkoni to Black's arm"
    red = Position.parse(
        "black:0,0,0,0 red:0,0,0,5 yellow:0,0,0,0 green:0,0,0,0 turn:red captured:- rules:classic"
    )
    assert (
        turns.event_line(EN, event(red, 4, Move(1, 5, 9)), game())
        == "` 4` Computer (hard), Red: piece along Red's arm"
    )
    assert turns.event_line(EN, event(red, 2, None), game()) == "` 2` Computer (hard), Red: threw 2, no move"
    forced = turns.event_line(EN, event(start, 3, Move(0, 0, 1), ALICE, forced=True), game())
    assert forced == f"` 3` <@{ALICE}>, Black: the only move: piece out of the Charkoni to Black's arm"


def green_to_move(black_step: int) -> Position:
    return Position.parse(
        f"black:0,0,0,{black_step} red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,17 turn:green captured:- rules:classic"
    )


def test_a_capture_names_the_member_whose_piece_goes_back_and_pings_them() -> None:
    before, throw, move = next(
        (green_to_move(b), throw, m)
        for b in range(2, 60)
        for throw in (2, 3, 4, 6, 10, 25)
        for m in green_to_move(b).legal_moves(throw)
        if green_to_move(b).captures(m)
    )
    line = turns.event_line(EN, event(before, throw, move), game())
    assert line.endswith(f", captures **<@{ALICE}>**'s Black piece: back to the Charkoni"), line
    assert present.captured_members(game(), [event(before, throw, move)]) == [ALICE]


def test_every_choice_button_names_its_move_by_its_tile_and_the_boards_places() -> None:
    """A choice is named by the letter of its tile on the board and the places it joins; two moves
    between the same places start from squares told apart by their lane and their square counted
    from the centre, as the board shows them, never by a step number."""
    position = Position.parse(
        "black:21,29,0,0 red:0,0,0,0 yellow:0,0,0,0 green:0,0,0,0 turn:black captured:- rules:classic"
    )
    moves = position.legal_moves(2)
    paths = [board.move_path(EN, position, m) for m in moves]
    assert len(set(paths)) < len(paths)  # the arm words alone repeat
    snapshot = game(position=position, pending=2)
    labels = [b.label for b in present.turn_buttons(EN, snapshot) if b.action == present.MOVE]
    assert len(set(labels)) == len(labels) == len(moves)
    assert labels[0] == "A: Black: from Red's bottom row, square 5 to Red's arm"
    assert labels[1] == "B: Black: from Red's top row, square 5 to Red's arm"


def test_a_turn_message_names_who_throws_and_when_time_runs_out() -> None:
    text = turns.turn_content(EN, game(), [])
    assert text.splitlines() == [
        f"<@{ALICE}> (Black), your throw.",
        f"Time runs out <t:{int(NOW.timestamp())}:R>.",
    ]


def test_long_logs_are_summarised_and_keep_counting_across_updates() -> None:
    start = Position.initial(FOUR)
    computer = event(Position.parse(start.notation().replace("turn:black", "turn:red")), 2, None)
    text = turns.turn_content(EN, game(), [computer] * 20)
    assert text.splitlines()[0] == "… 8 earlier lines"
    again = turns.turn_content(EN, game(), [computer] * 3, earlier=turns.log_lines(text))
    assert again.splitlines()[0] == "… 11 earlier lines"
    assert len(turns.log_lines(again)) == turns.LOG_LINES + 1
    one = turns.turn_content(EN, game(), [computer] * 13)
    assert one.splitlines()[0] == "… 1 earlier line"


def test_a_win_is_told_for_one_seat_and_for_partners() -> None:
    two = Rules.parse("classic,players=2,pieces=1")
    won = Position.parse(
        "black:84 yellow:5 turn:yellow captured:black rules:classic,result:black".replace(
            ",result", " result"
        )
    )
    solo = game(two, position=won, status="finished", turn_number=30)
    assert turns.result_head(EN, solo) == f"**Black wins!** <@{ALICE}> (Black)"
    four = Position.parse(
        "black:84,84,84,84 red:0,0,0,0 yellow:84,84,84,84 green:0,0,0,0 turn:red captured:black+yellow "
        "rules:classic result:black+yellow"
    )
    both = game(position=four, status="finished", turn_number=300)
    assert (
        turns.result_head(EN, both)
        == f"**Black + Yellow win!** <@{ALICE}> (Black) and Computer (hard, Yellow)"
    )


def test_the_card_states_the_options_and_marks_the_freezing_rule() -> None:
    frozen = Rules.parse("classic,last_square=off")
    card = table.card(EN, game(frozen), "Alice")
    assert card.startswith("**Pachisi: Alice's table** (classic,last_square=off, 4 players, 4 pieces each")
    assert table.freezing_note(EN) in card
    won = Position.initial(FOUR).with_result(DRAW)
    done = game(status="finished", turn_number=MAX_THROWS, position=won)
    tallies = {0: SeatTally(0, 30, 20, 2)}
    card = table.card(
        EN, done, "Alice", tallies=tallies, players={ALICE: 0, BOB: 1}, ended_at=NOW + timedelta(minutes=12)
    )
    assert f"Throws: {MAX_THROWS}. Captures: Black 2, Red 0, Yellow 0 and Green 0." in card
    assert "Duration: 12 minutes." in card and f"<@{BOB}> (Red)" in card
    one = table.card(EN, done, "Alice", ended_at=NOW + timedelta(seconds=20))
    assert "Duration: 1 minute." in one
    assert "1 pieces" not in table.rules_words(EN, Rules.parse("classic,players=2,pieces=1"))


def test_typed_input_is_cut_short_when_quoted() -> None:
    assert quoted("x" * 500) == "`" + "x" * INPUT_SHOWN + "...`"
    assert quoted("a`b") == "`a'b`"


def test_a_draw_is_told_by_its_cause_from_the_engine_outcome() -> None:
    frozen_rules = Rules.parse("classic,last_square=off")
    frozen = Position.parse(
        "black:83,84,84,84 red:83,84,84,84 yellow:84,84,84,84 green:84,84,84,84 "
        "turn:black captured:black+yellow,red+green rules:classic,last_square=off"
    )
    stuck = game(frozen_rules, status="finished", position=frozen, turn_number=40)
    assert turns.result_head(EN, stuck) == "The game is a draw: no piece can move."
    limit = Position.initial(FOUR).with_result(DRAW)
    drawn = game(status="finished", position=limit, turn_number=MAX_THROWS)
    assert turns.result_head(EN, drawn) == "The game is a draw: the throw limit was reached."


# --- the presenter's plans -------------------------------------------------------------------------

NAMES = {ALICE: "Alice", BOB: "Bob"}


def test_a_click_answered_on_its_own_message_when_the_member_chooses_again() -> None:
    start = Position.initial(FOUR)
    grace = event(start, 10, Move(0, 0, 1), ALICE, forced=True)
    after = game(position=start.after(10, Move(0, 0, 1)), turn_number=1, pending=6)
    plan = present.after_click(EN, Played(after, (grace,)), 0, [], NAMES)
    assert plan.later is None and plan.post is None and not plan.paced
    assert plan.now is not None and plan.now.board is not None
    assert [b.action for b in plan.now.buttons if b.action == present.MOVE]
    assert plan.now.board.choices == tuple(after.legal_moves()) and plan.now.board.throw == 6


def test_computers_turns_wait_for_their_pace_then_the_member_chooses_on_the_same_message() -> None:
    start = Position.initial(FOUR)
    mine = event(start, 3, Move(0, 0, 1), ALICE)
    red_at = start.after(3, Move(0, 0, 1))
    theirs, position = [], red_at
    for _ in range(3):  # Red, Yellow and Green lose their throws: Black again
        theirs.append(event(position, 2, None))
        position = position.after(2, None)
    assert position.turn == 0
    now = game(position=position, turn_number=4, pending=25)
    plan = present.after_click(EN, Played(now, (mine, *theirs)), 0, [], NAMES)
    assert plan.paced and plan.post is None
    assert plan.now is not None and plan.now.buttons == () and plan.now.board is not None
    assert plan.now.board.position == red_at and plan.now.board.choices == ()
    assert plan.later is not None and plan.later.buttons
    assert plan.later.content.count("\n`") >= 1 and "Computer (hard), Red" in plan.later.content


def test_when_another_member_decides_the_clicked_message_closes_and_a_post_pings_them() -> None:
    two = Rules.parse("classic,players=2,pieces=2")
    start = Position.initial(two)
    mine = event(start, 3, Move(0, 0, 1), ALICE)
    snapshot = game(two, position=start.after(3, Move(0, 0, 1)), turn_number=1, seats={0: ALICE, 2: BOB})
    plan = present.after_click(EN, Played(snapshot, (mine,)), 0, ["` 6` earlier"], NAMES)
    assert plan.now is not None and plan.now.buttons == () and plan.now.board is None
    assert plan.now.content.startswith("` 6` earlier\n` 3`")
    assert plan.post is not None and plan.post.pings == (BOB,) and not plan.paced
    assert plan.post.buttons[0].label == "Throw"


def test_the_result_is_a_new_message_that_pings_every_player() -> None:
    two = Rules.parse("classic,players=2,pieces=1")
    before = Position.parse("black:80 yellow:5 turn:black captured:black rules:classic")
    move = Move(0, 80, 84)
    after = before.after(4, move)
    assert after.result == 0
    snapshot = game(two, position=after, turn_number=50, status="finished", seats={0: ALICE, 2: BOB})
    plan = present.after_click(EN, Played(snapshot, (event(before, 4, move, ALICE),)), 0, [], NAMES, {})
    assert plan.post is not None and plan.post.result and set(plan.post.pings) == {ALICE, BOB}
    assert plan.post.content.startswith("**Black wins!**") and plan.post.buttons == ()


def test_history_groups_the_sides_by_partnership_and_results_have_one_pair_of_brackets() -> None:
    """Black + Yellow against Red + Green, each seat's holders in turn; a computer's colour inside
    its one pair of brackets (not "Computer (normal) (Green)")."""
    seats = {0: [ALICE], 1: ["computer:normal"], 2: ["computer:normal"], 3: [BOB, "computer:normal"]}
    summary = GameSummary(7, NOW, "finished", FOUR, 120, "red+green", seats)  # type: ignore[arg-type]
    line = records.history_line(EN, summary)
    assert (
        f" · <@{ALICE}> + computer (normal) vs computer (normal) + <@{BOB}> → computer (normal) · " in line
    ), line
    assert "Red + Green won" in line
    snapshot = game(status="finished")
    assert turns.seat_label(EN, snapshot, 1) == "Computer (hard, Red)"
    assert turns.seat_label(EN, snapshot, 0) == f"<@{ALICE}> (Black)"
