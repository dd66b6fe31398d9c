"""The bot's texts, from stored games and events, without Discord."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.cogs.pachisi import messages
from bot.service import Event, GameView, SeatInfo, SeatTally
from engine import Move, Position, Rules

ALICE = 111
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def new_game(**changes: object) -> GameView:
    rules = Rules.preset_rules("classic", players=2)
    view = GameView(
        id=1,
        guild_id=2,
        channel_id=3,
        started_by=ALICE,
        rules=rules,
        status="active",
        position=Position.initial(rules),
        pending_throw=None,
        pending_cowries=None,
        turn_number=0,
        version=0,
        seats={0: SeatInfo(0, ALICE, "easy", 0), 2: SeatInfo(2, None, "hard", 0)},
        deadline=NOW,
        message_id=None,
        last_move=None,
        last_position=None,
        created_at=NOW,
    )
    return GameView(**{**view.__dict__, **changes})  # type: ignore[arg-type]


def test_a_turn_message_names_who_throws_and_when_time_runs_out() -> None:
    text = messages.turn_content(new_game(), [])
    assert text.splitlines() == [
        f"<@{ALICE}> (Black), your throw.",
        f"Time runs out <t:{int(NOW.timestamp())}:R>.",
    ]


def test_the_throws_since_the_last_turn_are_listed_first_and_long_runs_summarised() -> None:
    event = Event(0, 2, None, 25, (False,) * 6, Move(2, 0, 25), "Yellow brings a piece out", False)
    text = messages.turn_content(new_game(), [event] * 20)
    lines = text.splitlines()
    assert lines[0] == "... 8 earlier throws"
    assert lines[1] == "`25` Yellow brings a piece out (Computer)"
    assert messages.log_lines(text) == lines[:13]


def test_only_the_member_to_move_is_pinged_and_every_player_at_the_end() -> None:
    game = new_game()
    assert messages.pinged(game) == [ALICE]
    yellow_to_throw = game.position.play(2, game.position.legal_moves(2)[0])
    assert yellow_to_throw.turn == 2
    assert messages.pinged(new_game(position=yellow_to_throw)) == []
    assert messages.pinged(new_game(status="abandoned")) == [ALICE]


def test_the_summary_counts_throws_turns_and_captures_per_seat() -> None:
    tallies = {0: SeatTally(0, 30, 20, 2), 2: SeatTally(2, 28, 19, 1)}
    summary = messages.final_summary(new_game(status="finished", turn_number=58), tallies)
    assert "Throws: 58 in 39 turns. Captures: Black 2, Yellow 1." in summary
    assert summary.endswith(f"<@{ALICE}>")
