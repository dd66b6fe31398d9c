"""The command box reads typed lines against the synced commands as Discord's client does."""

from __future__ import annotations

from typing import Any

import pytest

from localdiscord.commandline import Refused, autocomplete_data, localized, read, suggest
from localdiscord.words import language_of

CHOICES_2_4 = [{"name": "4", "value": 4}, {"name": "2", "value": 2}]
SECTIONS = [{"name": "The board", "value": "board"}, {"name": "Throws", "value": "throws"}]
COMMANDS: list[dict[str, Any]] = [
    {
        "id": "77",
        "name": "pachisi",
        "description": "Pachisi",
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Start a game",
                "options": [
                    {"type": 4, "name": "players", "description": "2 or 4", "choices": CHOICES_2_4},
                    {"type": 4, "name": "pieces", "description": "1-4", "min_value": 1, "max_value": 4},
                    {"type": 5, "name": "thread", "description": "a thread"},
                    {
                        "type": 3,
                        "name": "rules",
                        "description": "options",
                        "max_length": 200,
                        "autocomplete": True,
                    },
                ],
            },
            {
                "type": 1,
                "name": "stats",
                "description": "Stats",
                "options": [{"type": 6, "name": "member", "description": "who"}],
            },
            {
                "type": 1,
                "name": "rules",
                "description": "Rules",
                "options": [{"type": 3, "name": "section", "description": "which", "choices": SECTIONS}],
            },
            {
                "type": 1,
                "name": "move",
                "description": "Move",
                "options": [
                    {
                        "type": 3,
                        "name": "choice",
                        "description": "which",
                        "required": True,
                        "autocomplete": True,
                    }
                ],
            },
        ],
    }
]
MEMBERS = {"asha": {"user": {"id": "5", "username": "Asha"}, "roles": [], "joined_at": "x"}}


def options_of(data: dict[str, Any]) -> dict[str, Any]:
    assert data["id"] == "77" and data["name"] == "pachisi"
    (sub,) = data["options"]
    return {o["name"]: o["value"] for o in sub.get("options", [])}


def test_a_typed_line_becomes_the_interaction_data_with_typed_values() -> None:
    data = read(
        "/pachisi start players:2 pieces: 3 thread:false rules:escape_hatch=off, enter_moves=on",
        COMMANDS,
        MEMBERS,
    )
    assert data["options"][0]["name"] == "start"
    assert options_of(data) == {
        "players": 2,
        "pieces": 3,
        "thread": False,
        "rules": "escape_hatch=off, enter_moves=on",
    }
    assert options_of(read("/pachisi rules section:the board", COMMANDS, MEMBERS)) == {"section": "board"}
    stats = read("/pachisi stats member:@Asha", COMMANDS, MEMBERS)
    assert options_of(stats) == {"member": "5"}
    assert stats["resolved"]["users"]["5"]["username"] == "Asha"
    assert options_of(read("/pachisi start", COMMANDS, MEMBERS)) == {}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("pachisi start", "Commands start with /"),
        ("/chess", "no command /chess"),
        ("/pachisi", "Choose what /pachisi should do: start, stats, rules, move"),
        ("/pachisi begin", "no sub-command begin"),
        ("/pachisi start players:3", "players must be 2 or 4."),
        ("/pachisi start pieces:0", "pieces must be from 1 to 4"),
        ("/pachisi start pieces:1.5", "pieces must be a whole number"),
        ("/pachisi start thread:yes", "thread must be True or False"),
        ("/pachisi start rules:" + "x" * 201, "rules takes 0 to 200 characters"),
        ("/pachisi start colour:red", "has no option colour; it has players, pieces, thread, rules"),
        ("/pachisi start 2", "Give options as name:value"),
        ("/pachisi start players:2 players:4", "given twice"),
        ("/pachisi start players:", "players needs a value"),
        ("/pachisi move", "needs the option choice"),
        ("/pachisi stats member:Bala", "nobody here is called Bala"),
    ],
)
def test_a_line_discords_client_would_not_send_is_refused_with_the_reason(line: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason.replace("(", r"\(").replace("?", r"\?")):
        read(line, COMMANDS, MEMBERS)


def labels(text: str) -> list[str]:
    return [s.label for s in suggest(text, COMMANDS, ["Asha", "Bala"]).items]


def test_suggestions_follow_the_line_as_it_is_typed() -> None:
    assert labels("/") == ["/pachisi"]
    assert labels("/pachisi ") == ["/pachisi start", "/pachisi stats", "/pachisi rules", "/pachisi move"]
    assert labels("/pachisi st") == ["/pachisi start", "/pachisi stats"]
    assert labels("/pachisi start ") == ["players:", "pieces:", "thread:", "rules:"]
    assert labels("/pachisi start players:2 p") == ["pieces:"]
    assert labels("/pachisi start players:") == ["4", "2"]
    assert labels("/pachisi start pieces:") == ["1", "2", "3", "4"]
    assert labels("/pachisi start thread:f") == ["False"]
    assert labels("/pachisi rules section:the b") == ["The board"]
    assert labels("/pachisi stats member:B") == ["Bala"]
    assert labels("/pachisi move ") == ["choice:"]  # required options first
    taken = suggest("/pachisi rules section:Th", COMMANDS).items
    assert [s.text for s in taken] == ["/pachisi rules section:The board ", "/pachisi rules section:Throws "]


def test_an_option_the_bot_completes_asks_the_bot() -> None:
    assert suggest("/pachisi start players:2 rules:esc", COMMANDS).autocomplete
    data = autocomplete_data("/pachisi start players:2 rules:esc", COMMANDS)
    assert data is not None
    assert data["options"][0]["options"] == [
        {"name": "players", "type": 4, "value": 2},
        {"name": "rules", "type": 3, "value": "esc", "focused": True},
    ]
    assert autocomplete_data("/pachisi start players:2 ", COMMANDS) is None
    assert autocomplete_data("/pachisi start players:2", COMMANDS) is None


def hindi_commands() -> list[dict[str, Any]]:
    """COMMANDS as the bot syncs them with Hindi names (Discord's `name_localizations`)."""
    import copy

    synced = copy.deepcopy(COMMANDS)
    synced[0]["name_localizations"] = {"hi": "पच्चीसी"}
    start = synced[0]["options"][0]
    start["name_localizations"] = {"hi": "शुरू"}
    start["description_localizations"] = {"hi": "खेल शुरू करें"}
    start["options"][0]["name_localizations"] = {"hi": "खिलाड़ी"}
    start["options"][2]["choices"] = [{"name": "yes", "name_localizations": {"hi": "हाँ"}, "value": "y"}]
    start["options"][2]["type"] = 3
    return synced


def test_a_hindi_member_types_and_is_suggested_the_hindi_names_and_english_still_works() -> None:
    hindi = localized(hindi_commands(), "hi")
    sent = read("/पच्चीसी शुरू खिलाड़ी:2 thread:हाँ", hindi, {})
    assert sent["name"] == "pachisi"  # the interaction carries the command's own names
    assert sent["options"][0]["name"] == "start"
    assert sent["options"][0]["options"] == [
        {"name": "players", "type": 4, "value": 2},
        {"name": "thread", "type": 3, "value": "y"},
    ]
    assert read("/pachisi start players:2", hindi, {}) == read("/पच्चीसी शुरू खिलाड़ी:2", hindi, {})
    assert [s.label for s in suggest("/प", hindi).items] == ["/पच्चीसी"]
    assert [s.label for s in suggest("/पच्चीसी शु", hindi).items] == ["/पच्चीसी शुरू"]
    assert suggest("/pachisi st", hindi).items[0].detail == "खेल शुरू करें"
    assert [s.label for s in suggest("/पच्चीसी शुरू खि", hindi).items] == ["खिलाड़ी:"]
    with pytest.raises(Refused, match="no command /पच्चीस"):
        read("/पच्चीस शुरू", hindi, {})
    with pytest.raises(Refused, match=r"^खिलाड़ी के लिए 2 या 4 चुनें।$"):  # in her language
        read("/पच्चीसी शुरू खिलाड़ी:3", hindi, {}, language_of("hi"))
    english = localized(hindi_commands(), "en-US")
    with pytest.raises(Refused, match="no command /पच्चीसी"):
        read("/पच्चीसी शुरू", english, {})  # Hindi names are for Hindi members, as on Discord
