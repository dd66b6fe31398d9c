"""One hand-built position per rule sentence of RULES.md sections 2-6."""

from __future__ import annotations

import pytest

from engine import DRAW, Game, IllegalMoveError, Move, Outcome, Position, Rules, Termination
from engine.board import BLACK, GREEN, RED, ROUTES, YELLOW

P = Position.parse


def moves(position: Position, throw: int) -> list[str]:
    return [str(m) for m in position.legal_moves(throw)]


def four(black: str, red: str, yellow: str, green: str, rest: str = "turn:black captured:- rules:classic"):
    return P(f"black:{black} red:{red} yellow:{yellow} green:{green} {rest}")


def step_of(seat: int, other: int, other_step: int) -> int:
    """The step on `seat`'s route of the square where `other`'s piece stands at `other_step`."""
    square = ROUTES[other][other_step]
    return next(s for s in range(1, 84) if ROUTES[seat][s] == square)


# --- entering ----------------------------------------------------------------------------


def test_any_throw_enters_when_no_piece_is_on_the_board() -> None:
    p = four("0,0,0,84", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    for throw in (2, 3, 4, 5, 6, 10, 25):
        assert moves(p, throw) == ["black:0-1"]  # listed once for three pieces in the Charkoni


def test_further_pieces_enter_only_on_a_grace() -> None:
    p = four("0,0,0,20", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    assert moves(p, 3) == ["black:20-23"]
    assert moves(p, 6) == ["black:0-1", "black:20-26"]
    assert moves(p, 10) == ["black:0-1", "black:20-30"]
    assert moves(p, 25) == ["black:0-1", "black:20-45"]


def test_entering_uses_up_the_throw() -> None:
    p = four("0,0,0,0", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    after = p.play(25, Move(BLACK, 0, 1))
    assert after.steps[BLACK] == (0, 0, 0, 1)
    assert after.turn == BLACK  # 25 is a grace


def test_start_on_board_puts_pieces_on_step_one() -> None:
    p = Position.initial(Rules.preset_rules("standard"))
    assert p.steps[BLACK] == (0, 0, 0, 1)
    assert str(p) == (
        "black:0,0,0,1 red:0,0,0,1 yellow:0,0,0,1 green:0,0,0,1 turn:black captured:- rules:standard"
    )
    assert moves(p, 3) == ["black:1-4"]


def test_enter_moves_option_enters_to_one_plus_throw() -> None:
    rest = "turn:black captured:- rules:classic,enter_moves=on"
    p = four("0,0,0,0", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 4) == ["black:0-5"]
    assert p.play(4, Move(BLACK, 0, 5)).steps[BLACK] == (0, 0, 0, 5)


def test_enter_moves_entry_is_blocked_and_captures_like_an_advance() -> None:
    rest = "turn:black captured:- rules:classic,enter_moves=on"
    # Red blockade on Black's step 11 (S leading column, row 6): entering with 10 would pass it.
    red_step = next(s for s in range(1, 84) if ROUTES[RED][s] == ROUTES[BLACK][11])
    p = four("0,0,0,0", f"0,0,{red_step},{red_step}", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 10) == []
    assert moves(p, 6) == ["black:0-7"]
    # A lone Red piece on Black's step 11 is captured by an entry of 10.
    p = four("0,0,0,0", f"0,0,0,{red_step}", "0,0,0,0", "0,0,0,0", rest)
    after = p.play(10, Move(BLACK, 0, 11))
    assert after.steps[RED] == (0, 0, 0, 0)
    assert after.has_captured(0)


# --- advancing and coming home ------------------------------------------------------------


def test_no_overshoot_and_exact_home() -> None:
    rest = "turn:black captured:black+yellow rules:classic"
    p = four("80,84,84,84", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 4) == ["black:80-84"]
    assert moves(p, 5) == []
    assert moves(p, 3) == ["black:80-83"]


def test_last_square_comes_home_on_any_throw() -> None:
    rest = "turn:black captured:black+yellow rules:classic"
    p = four("83,84,84,84", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest)
    for throw in (2, 3, 4, 5, 6, 10, 25):
        assert moves(p, throw) == ["black:83-84"]


def test_without_last_square_rule_step_83_is_a_dead_end() -> None:
    rest = "turn:black captured:black+yellow rules:classic,last_square=off"
    p = four("20,83,84,84", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 2) == ["black:20-22"]
    assert all(m.src != 83 for t in (2, 3, 4, 5, 6, 10, 25) for m in p.legal_moves(t))


def test_steps_1_and_83_are_different_moves_but_same_steps_are_listed_once() -> None:
    rest = "turn:black captured:black+yellow rules:classic"
    p = four("1,1,83,83", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 3) == ["black:1-4", "black:83-84"]


# --- blockades ----------------------------------------------------------------------------


def test_enemy_blockade_can_be_neither_passed_nor_landed_on() -> None:
    red = step_of(RED, BLACK, 30)  # Red pair on the square of Black's step 30 (not a castle)
    p = four("0,0,0,27", f"0,0,{red},{red}", "0,0,0,0", "0,0,0,0")
    assert moves(p, 2) == ["black:27-29"]
    assert moves(p, 3) == []  # would land on it
    assert moves(p, 5) == []  # would pass it
    assert moves(p, 10) == ["black:0-1"]  # only the entry is left


def test_own_side_passes_its_blockade_including_the_partners_pieces() -> None:
    # Black + Yellow pieces on one square form one blockade; Yellow and Black pass it, Red can't.
    yellow = step_of(YELLOW, BLACK, 30)
    p = four(
        "0,0,0,30", "0,0,0,0", f"0,0,{yellow - 3},{yellow}", "0,0,0,0", "turn:yellow captured:- rules:classic"
    )
    assert moves(p, 5) == [f"yellow:{yellow - 3}-{yellow + 2}", f"yellow:{yellow}-{yellow + 5}"]
    red_before = step_of(RED, BLACK, 28)
    q = four(
        "0,0,0,30", f"0,0,0,{red_before}", f"0,0,0,{yellow}", "0,0,0,0", "turn:red captured:- rules:classic"
    )
    assert q.blockades() == [ROUTES[BLACK][30]]
    assert moves(q, 4) == []
    black_before = four("0,0,26,30", "0,0,0,0", f"0,0,0,{yellow}", "0,0,0,0")
    assert "black:26-31" in moves(black_before, 5)


def test_a_castle_never_blocks() -> None:
    red = step_of(RED, BLACK, 29)  # Black's step 29 is a castle
    p = four("0,0,0,27", f"0,0,{red},{red}", "0,0,0,0", "0,0,0,0")
    assert moves(p, 2) == ["black:27-29"]  # lands beside both Red pieces
    assert moves(p, 4) == ["black:27-31"]  # and passes them
    assert p.blockades() == []


def test_blockade_on_the_last_stretch_blocks_coming_home() -> None:
    red = step_of(RED, BLACK, 70)
    rest = "turn:black captured:black+yellow rules:classic"
    p = four("66,84,84,84", f"0,0,{red},{red}", "0,0,0,0", "0,0,0,0", rest)
    assert moves(p, 3) == ["black:66-69"]
    assert moves(p, 4) == []


# --- captures and castles -----------------------------------------------------------------


def test_capture_sends_the_enemy_piece_back_and_earns_a_throw() -> None:
    red = step_of(RED, BLACK, 30)
    p = four("0,0,0,27", f"0,0,0,{red}", "0,0,0,0", "0,0,0,0")
    after = p.play(3, Move(BLACK, 27, 30))
    assert after.steps[RED] == (0, 0, 0, 0)
    assert after.turn == BLACK
    assert after.has_captured(0) and not after.has_captured(1)
    assert str(after).endswith("turn:black captured:black+yellow rules:classic")


def test_castles_are_shared_and_safe() -> None:
    red = step_of(RED, BLACK, 29)
    p = four("0,0,0,27", f"0,0,0,{red}", "0,0,0,0", "0,0,0,0")
    after = p.play(2, Move(BLACK, 27, 29))
    assert after.steps[RED] == (0, 0, 0, red)
    assert after.turn == RED
    assert after.captured == 0


def test_a_piece_never_captures_its_own_side() -> None:
    yellow = step_of(YELLOW, BLACK, 30)
    p = four("0,0,0,27", "0,0,0,0", f"0,0,0,{yellow}", "0,0,0,0")
    after = p.play(3, Move(BLACK, 27, 30))
    assert after.steps[YELLOW] == (0, 0, 0, yellow)
    assert after.turn == RED and after.captured == 0


def test_middle_columns_are_private_except_their_tips() -> None:
    for seat in range(4):
        for other in range(4):
            if other == seat:
                continue
            own_middle = {ROUTES[other][s] for s in range(1, 8)}
            assert own_middle.isdisjoint(ROUTES[seat][1:84])
            assert ROUTES[other][8] in ROUTES[seat][1:84]  # the tip is on everyone's route


# --- the capture condition and its escape hatch ---------------------------------------------


def test_no_piece_comes_home_before_its_side_has_captured() -> None:
    p = four("0,0,0,80", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    assert moves(p, 4) == []
    p = four("0,0,0,80", "0,0,0,0", "0,0,0,0", "0,0,0,0", "turn:black captured:red+green rules:classic")
    assert moves(p, 4) == []


def test_a_partners_capture_opens_home_for_the_whole_side() -> None:
    p = four("0,0,0,80", "0,0,0,0", "0,0,0,0", "0,0,0,0", "turn:black captured:black+yellow rules:classic")
    assert moves(p, 4) == ["black:80-84"]


def test_without_must_capture_home_is_open() -> None:
    p = four("0,0,0,80", "0,0,0,0", "0,0,0,0", "0,0,0,0", "turn:black captured:- rules:standard")
    assert moves(p, 4) == ["black:80-84"]


def test_escape_hatch_when_every_move_would_come_home() -> None:
    p = four("82,83,84,84", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    assert moves(p, 2) == ["black:82-84", "black:83-84"]
    assert moves(p, 3) == ["black:83-84"]
    assert p.uses_escape_hatch(Move(BLACK, 83, 84))


def test_escape_hatch_closed_by_a_piece_in_the_charkoni_or_a_free_piece() -> None:
    assert moves(four("0,82,83,84", "0,0,0,0", "0,0,0,0", "0,0,0,0"), 2) == []
    assert moves(four("40,82,83,84", "0,0,0,0", "0,0,0,0", "0,0,0,0"), 2) == ["black:40-42"]


def test_escape_hatch_open_when_other_pieces_are_blocked_on_every_throw() -> None:
    red = step_of(RED, BLACK, 50)  # a Red blockade right in front of Black's piece on 49
    p = four("49,83,84,84", f"0,0,{red},{red}", "0,0,0,0", "0,0,0,0")
    assert moves(p, 3) == ["black:83-84"]


def test_escape_hatch_option_off_keeps_home_closed() -> None:
    rest = "turn:black captured:- rules:classic,escape_hatch=off"
    assert moves(four("82,83,84,84", "0,0,0,0", "0,0,0,0", "0,0,0,0", rest), 2) == []


# --- turns --------------------------------------------------------------------------------


def test_one_further_throw_for_a_grace_capture_not_two() -> None:
    red = step_of(RED, BLACK, 30)
    p = four("0,0,0,24", f"0,0,0,{red}", "0,0,0,0", "0,0,0,0")
    after = p.play(6, Move(BLACK, 24, 30))  # a grace that captures
    assert after.turn == BLACK
    again = after.play(3, Move(BLACK, 30, 33))  # the one further throw, plain
    assert again.turn == RED


def test_a_lost_grace_still_earns_the_further_throw() -> None:
    red = step_of(RED, BLACK, 30)
    p = four("28,28,28,28", f"0,0,{red},{red}", "0,0,0,0", "0,0,0,0")  # all stuck behind Red
    assert p.legal_moves(6) == [] and p.legal_moves(3) == []
    assert p.play(6, None).turn == BLACK
    assert p.play(3, None).turn == RED


def test_a_lost_plain_throw_passes_the_turn() -> None:
    p = four("0,0,0,80", "0,0,0,0", "0,0,0,0", "0,0,0,0")
    assert p.legal_moves(4) == []
    assert p.play(4, None).turn == RED
    with pytest.raises(IllegalMoveError):
        p.play(2, None)  # a throw with a move can't be passed


def test_turn_order_four_and_two_players() -> None:
    p = Position.initial()
    seats = []
    for _ in range(4):
        seats.append(p.turn)
        p = p.play(3, p.legal_moves(3)[0])
    assert seats == [BLACK, RED, YELLOW, GREEN]
    q = Position.initial(Rules(players=2))
    assert str(q) == "black:0,0,0,0 yellow:0,0,0,0 turn:black captured:- rules:classic"
    q = q.play(3, q.legal_moves(3)[0])
    assert q.turn == YELLOW
    q = q.play(3, q.legal_moves(3)[0])
    assert q.turn == BLACK


def test_a_finished_seat_plays_its_partners_pieces() -> None:
    rest = "turn:black captured:black+yellow rules:classic"
    p = four("84,84,84,84", "0,0,0,0", "0,0,30,40", "0,0,0,0", rest)
    assert moves(p, 3) == ["yellow:30-33", "yellow:40-43"]
    after = p.play(3, Move(YELLOW, 30, 33))
    assert after.steps[YELLOW] == (0, 0, 33, 40)
    assert after.turn == RED


# --- end of the game ----------------------------------------------------------------------


def test_a_side_wins_when_all_its_pieces_are_home() -> None:
    rest = "turn:yellow captured:black+yellow rules:classic"
    p = four("84,84,84,84", "0,0,0,0", "80,84,84,84", "0,0,0,0", rest)
    after = p.play(4, Move(YELLOW, 80, 84))
    assert after.result == 0
    assert str(after).endswith("result:black+yellow")
    assert after.legal_moves(3) == []


def test_two_player_side_is_one_seat() -> None:
    p = P("black:80,84,84,84 yellow:0,0,0,0 turn:black captured:black rules:classic")
    after = p.play(4, Move(BLACK, 80, 84))
    assert after.result == 0
    assert str(after) == (
        "black:84,84,84,84 yellow:0,0,0,0 turn:yellow captured:black rules:classic result:black"
    )


def test_frozen_game_is_a_draw_at_once() -> None:
    rest = "turn:black captured:black+yellow rules:classic,last_square=off"
    p = four("80,83,83,83", "83,83,83,83", "83,83,83,84", "83,83,83,84", rest)
    after = p.play(3, Move(BLACK, 80, 83))
    assert after.result == DRAW
    assert str(after).endswith("result:draw")


def test_not_frozen_while_one_seat_can_still_move() -> None:
    rest = "turn:red captured:black+yellow rules:classic,last_square=off"
    p = four("83,83,83,83", "83,83,83,83", "83,83,83,84", "70,83,83,84", rest)
    assert p.result is None
    assert p.legal_moves(3) == []  # Red is stuck, Green is not


def test_game_ends_as_a_draw_at_the_throw_cap() -> None:
    game = Game(Position.initial(Rules(players=2)), max_throws=5)
    for _ in range(5):
        assert game.outcome() is None
        game.set_throw(3)
        moves_ = game.legal_moves()
        game.play(moves_[0] if moves_ else None)
    assert game.position.result == DRAW
    assert game.outcome() == Outcome(Termination.THROW_LIMIT, None)
