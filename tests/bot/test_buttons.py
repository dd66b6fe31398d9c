"""The buttons' custom ids: each action's id is built and read by its own dynamic item, ids posted
by earlier versions still read, and an id that fits no template is refused, never half-read."""

from __future__ import annotations

import pytest

from bot.cogs.pachisi import buttons
from bot.cogs.pachisi.buttons import BUTTONS, MoveButton, PuzzleButton, Unreadable, item_of, read
from bot.core import present
from bot.core.texts import ENGLISH
from bot.table.tournament import TOURNAMENT_JOIN, TOURNAMENT_LEAVE
from engine import Move, Position
from tests.support.snapshots import ALICE, FOUR, game

POSTED = {
    "pachisi:throw:17:42": (buttons.ThrowButton, 17, 42),
    "pachisi:move:17:42:black:12-16": (MoveButton, 17, 42),
    "pachisi:move:3:0:green:0-84": (MoveButton, 3, 0),
    "pachisi:join:5:7": (buttons.JoinButton, 5, 7),
    "pachisi:rematch:5:310": (buttons.RematchButton, 5, 310),
    "pachisi:hint:999999999:9": (buttons.HintButton, 999999999, 9),
}
"""Ids as the bot posted them before the buttons were one item per action (the format is kept)."""


def matching(custom_id: str) -> list[type]:
    """The registered items whose template takes this id: discord.py calls each of them."""
    return [item for item in BUTTONS if item.__discord_ui_compiled_template__.fullmatch(custom_id)]


@pytest.mark.parametrize("custom_id", sorted(POSTED))
def test_an_id_posted_before_reads_into_its_items_fields_and_back(custom_id: str) -> None:
    kind, game_id, turn = POSTED[custom_id]
    button = read(custom_id)
    assert button is not None and type(button) is kind
    assert (button.game_id, button.turn) == (game_id, turn)
    assert button.custom_id == custom_id
    assert matching(custom_id) == [kind]


def test_a_move_button_carries_the_move_itself() -> None:
    button = read("pachisi:move:17:42:black:12-16")
    assert isinstance(button, MoveButton) and button.move == Move(0, 12, 16)


def test_a_puzzle_choice_names_its_puzzle_day_member_and_move() -> None:
    custom_id = f"pachisi:puzzle:12:739000:{ALICE}:red:0-4"
    [kind] = matching(custom_id)
    assert kind is PuzzleButton
    made = PuzzleButton(12, 739000, ALICE, Move(1, 0, 4), label="A")
    assert made.custom_id == custom_id


FORGED = (
    "pachisi:throw:" + "9" * 40 + ":1",
    "pachisi:throw:2147483648:1",  # past PostgreSQL's INTEGER: never reaches the database
    "pachisi:throw:0:1",
    "pachisi:throw:1:" + "9" * 10,
    "pachisi:move:1:2:purple:1-5",
    "pachisi:move:1:2:black:85-86",  # steps run to 84
    "pachisi:move:1:2:black:05-9",
    "pachisi:move:1:2",
    "pachisi:move:1:2:pass",
    "pachisi:join:1",
    "pachisi:nosuch:1:2",
    "pachisi:",
    "pachisi:throw:1:2:" + "x" * 80,
    "pachisi:throw:1:2\n",
    "pachisi:puzzle:1:739000:5:pass",
)


@pytest.mark.parametrize("custom_id", FORGED)
def test_an_id_that_fits_no_template_is_only_the_refusals(custom_id: str) -> None:
    assert read(custom_id) is None
    assert matching(custom_id) == [Unreadable]


def test_every_button_the_presenter_plans_is_one_items_and_reads_back() -> None:
    thrown = game(position=Position.initial(FOUR), turn_number=4, pending=25, seats={0: ALICE})
    waiting = game(turn_number=4)
    planned = [
        *present.turn_buttons(ENGLISH, thrown),
        *present.turn_buttons(ENGLISH, waiting),
        *present.card_buttons(ENGLISH, waiting),
    ]
    assert {b.action for b in planned} >= {present.MOVE, present.THROW, present.JOIN}
    for button in planned:
        item = item_of(button)
        assert matching(item.custom_id) == [type(item)]
        again = read(item.custom_id)
        assert again is not None and (again.game_id, again.turn) == (button.game_id, button.turn)
        assert getattr(again, "move", None) == button.move


@pytest.mark.parametrize(
    ("custom_id", "kind"),
    [
        ("pachisi:tournament-join:7", buttons.TournamentJoinButton),
        ("pachisi:tournament-leave:123456789", buttons.TournamentLeaveButton),
    ],
)
def test_a_sign_up_cards_buttons_name_their_tournament(custom_id: str, kind: type) -> None:
    """The card's ids, kept once posted: the card outlives a restart."""
    assert matching(custom_id) == [kind]
    tournament = int(custom_id.rsplit(":", 1)[1])
    assert kind(tournament, label="Join").custom_id == custom_id
    assert read(custom_id) is None  # not a game's button: the table reads no turn from it


@pytest.mark.parametrize(
    "custom_id", ["pachisi:tournament-join:0", "pachisi:tournament-join:1:2", "pachisi:tournament-join:x"]
)
def test_a_forged_sign_up_id_is_refused(custom_id: str) -> None:
    assert matching(custom_id) == [Unreadable]


def test_the_desks_card_buttons_become_the_cards_items() -> None:
    join = present.Button(TOURNAMENT_JOIN, 7, 0, "Join", style="success")
    leave = present.Button(TOURNAMENT_LEAVE, 7, 0, "Leave")
    assert [type(item_of(b)) for b in (join, leave)] == [
        buttons.TournamentJoinButton,
        buttons.TournamentLeaveButton,
    ]
    assert item_of(join).custom_id == "pachisi:tournament-join:7"


def test_a_label_longer_than_discord_takes_ends_in_an_ellipsis() -> None:
    """Discord takes 80 characters of a label: a longer one (a move's label in a longer language)
    is cut with "…", so it does not read as if it were whole."""
    words = "A: Black: home from Black's way home, square 2 through the escape hatch, then more"
    label = buttons.face(words)["label"]
    assert len(label) == 80 and label.endswith("…") and words.startswith(label[:-1])
    assert buttons.face("A: Black 6 -> 16")["label"] == "A: Black 6 -> 16"
