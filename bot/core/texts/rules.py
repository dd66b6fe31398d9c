"""Fixed texts the bot shows: the rules by section (with their sources) and the help page.

Each is a literal sentence passed through the `Language`, so the catalog extractor finds it and a
catalog translates it; `RULES` and `SOURCES` are the English, which docs/RULES.md's "In short"
paragraphs hold word for word (tests/bot/test_texts.py).
"""

from __future__ import annotations

from bot.core.texts.language import ENGLISH, Language


def sources(lang: Language, url: str | None = None) -> str:
    """The rules embed's footer; `url`: the project's page (PROJECT_URL), where the full rules are."""
    text = lang.gettext(
        "Sources: a player's guide to Pachisi (classic) and the Pachisi (Standard) variant card "
        '(standard), drawing on Wikipedia "Pachisi" (CC BY-SA), jkc33/senior-project (MIT), '
        "edm00se/awesome-board-games and labforadvancedstudy/books."
    )
    if url:
        text += " " + lang.gettext(
            "The full rules, and the choices made where the sources disagree: {url}", url=url
        )
    return text


def sections(lang: Language) -> dict[str, tuple[str, str]]:
    """key -> (title, text): one entry per section of docs/RULES.md, its "In short" paragraph, in
    the document's order. Discord shows them as the fields of one embed."""
    return {**_setting_out(lang), **_playing(lang), **_finishing(lang)}


def _setting_out(lang: Language) -> dict[str, tuple[str, str]]:
    """The board, its route, the throws and how pieces enter and move."""
    return {
        "board": (
            lang.gettext("The board"),
            lang.gettext(
                "A cross of four arms around the **Charkoni**, the centre where pieces start and finish. "
                "Each arm is 3 columns of 8 squares: 96 squares in all. Black sits at the south arm, Red "
                "east, Yellow north, Green west. An arm's middle column is private to its own seat, "
                "except its tip. Twelve squares are **castles**: the four arm tips, and the fourth square "
                "in from the tip of every outer column."
            ),
        ),
        "route": (
            lang.gettext("The route"),
            lang.gettext(
                "Every piece walks 84 steps, counter-clockwise: out along its own middle column (steps "
                "1-8), back in along the leading column (9-16), out, across the tip and back in on each "
                "of the next three arms (17-67), out along its own trailing column (68-75), and in again "
                "along its middle column (76-83) to home in the Charkoni (84). Castles fall at steps 8, "
                "12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72 and 76: spaced 4 - 9 - 4, and no throw is a "
                "9."
            ),
        ),
        "throws": (
            lang.gettext("Throws"),
            lang.gettext(
                "Six cowries are thrown; the number landing mouth up gives the move: 0 -> 25, 1 -> 10, 2 "
                "-> 2, 3 -> 3, 4 -> 4, 5 -> 5, 6 -> 6, with chances 1, 6, 15, 20, 15, 6 and 1 in 64. "
                "There is no 1, 7, 8 or 9. **Graces** are 6, 10 and 25 (8 in 64): another throw, and the "
                "only way to bring out a further piece. A throw moves exactly one piece by its whole "
                "value; it is never split."
            ),
        ),
        "moves": (
            lang.gettext("Entering and moving"),
            lang.gettext(
                "**Entering**: a piece leaves the Charkoni for step 1; that uses up the throw. Any throw "
                "enters one when none of your pieces is on the board, otherwise only a grace does. "
                "**Advancing**: a piece moves exactly the throw; it may not overshoot home, nor land on "
                "or pass an enemy blockade. A throw with no move is lost; a throw with a move must be "
                "played: there is no passing."
            ),
        ),
    }


def _playing(lang: Language) -> dict[str, tuple[str, str]]:
    """Captures, blockades and castles; coming home; turns and partners."""
    return {
        "fight": (
            lang.gettext("Captures and blockades"),
            lang.gettext(
                "**Capture**: ending a move on a square that is not a castle and holds an enemy piece "
                "sends that piece back to the Charkoni, and earns you another throw. **Blockade**: two or "
                "more pieces of one side (partners count as one side) on a square that is not a castle. "
                "Enemy pieces can neither land on it nor pass over it; your side's pieces pass freely. "
                "**Castles** are safe: no capture and no blockade there, and any colours may share one."
            ),
        ),
        "home": (
            lang.gettext("Coming home"),
            lang.gettext(
                "A piece comes home (step 84) with the exact throw. **Last square**: a piece on step 83 "
                "comes home on any throw, since no throw is a 1. **Capture condition**: no piece of a "
                "side comes home until that side has captured at least once. **Escape hatch**: when every "
                "move your pieces could make, on every throw, would come home, you may come home without "
                "a capture (never while a piece of yours is still in the Charkoni)."
            ),
        ),
        "turns": (
            lang.gettext("Turns"),
            lang.gettext(
                "Turns go counter-clockwise from Black: Black, Red, Yellow, Green. A two-player game uses "
                "Black and Yellow (opposite arms), Black first, each with its own pieces and no partner. "
                "A **grace** or a **capture** earns one more throw: one, not two, when a grace captures, "
                "and a grace earns it even when it has no move. Otherwise the turn passes to the next "
                "seat."
            ),
        ),
        "partners": (
            lang.gettext("Partners"),
            lang.gettext(
                "In a four-player game partners sit opposite: Black + Yellow against Red + Green, and win "
                "or draw together. A side's pieces form blockades together, and a capture by either "
                "partner opens home for both. When all of a seat's own pieces are home, it keeps its "
                "turns and plays its partner's pieces with its throws, under the partner's rules."
            ),
        ),
    }


def _finishing(lang: Language) -> dict[str, tuple[str, str]]:
    """The end of the game, the rule options, the notation and the strategy."""
    return {
        "end": (
            lang.gettext("The end of the game"),
            lang.gettext(
                "A side wins when all its pieces are home: 8 in a four-player game, 4 in a two-player "
                "game (fewer with the `pieces` option). A **frozen** game, where no seat can ever move "
                "again (in practice only with `last_square` or `escape_hatch` off), ends at once as a "
                "draw, and so does a game that reaches 10,000 throws."
            ),
        ),
        "options": (
            lang.gettext("Rule options and presets"),
            lang.gettext(
                "Presets: `classic` (the default): every piece starts in the Charkoni, capture condition "
                "on. `standard`: one piece per seat starts on step 1, no capture condition. Options, each "
                "set on its own when a game starts: `players` (2 or 4), `pieces` (1-4 per seat), "
                "`start_on_board` (pieces that begin on step 1), `must_capture`, `escape_hatch`, "
                "`last_square` (both on in either preset) and `enter_moves` (off in both; on, an entering "
                "piece also moves the throw)."
            ),
        ),
        "notation": (
            lang.gettext("Notation"),
            lang.gettext(
                "A move is written `seat:from-to`, in steps: `black:12-16`; 0 is entering (`red:0-1`) and "
                "84 is coming home; a lost throw is `pass`. A position is one line: `black:0,0,12,84 "
                "red:0,0,0,0 yellow:5,5,0,0 green:0,0,0,0 turn:black captured:- rules:classic`: each "
                "seat's steps (0 Charkoni, 84 home), who throws next, which sides have captured, the "
                "rules, and `result:` once the game is over."
            ),
        ),
        "strategy": (
            lang.gettext("Strategy"),
            lang.gettext(
                "Castles are 4 - 9 - 4 steps apart and no throw is a 9: a piece in a **nine-gap** stands "
                "in the open for a round, so leave a castle when no enemy is in range. After a **grace**, "
                "bring out a new piece early in the game and move the pieces you have later on. "
                "**Capture** early: home stays shut until your side has. A **blockade** costs the enemy "
                "every turn it stands, and is strongest with your partner's piece. In the **endgame** aim "
                "for steps 78-83, from where one throw finishes, never 75-77. **Play the side**: your "
                "partner's pieces and captures count as your own."
            ),
        ),
    }


def help_page(lang: Language) -> str:
    """`/pachisi help`: the commands and how a turn goes."""
    return lang.gettext(
        "**Pachisi**: the ancestor of Ludo and Parcheesi, for 2 or 4 players in partnerships.\n"
        "`/pachisi start`: start a game here; the computer fills every empty seat at once.\n"
        "`/pachisi join` (or the **Take a seat** button): take a computer's seat, even mid-game.\n"
        "`/pachisi leave` / `/pachisi resign`: hand your seat back to the computer (resign: for "
        "good).\n"
        "`/pachisi throw` and `/pachisi move` (or the buttons): play your turn; move choices are "
        "the legal moves, lettered as on the board.\n"
        "The **Hint** button on your turn: the computer's advice and each choice's chance to win "
        "(only you see it).\n"
        "`/pachisi board`: see the board again (only you). `/pachisi rules`: the rules by "
        "section.\n"
        "`/pachisi stats` and `/pachisi leaderboard`: records and this month's season in this "
        "server.\n"
        "`/pachisi puzzle`: the daily puzzle, one answer a day; solve it day after day for a "
        "streak.\n"
        "`/pachisi end`: the starter or a member with Manage Channels ends the game.\n"
        "Turns time out after a while: the computer then plays for you, and after three missed "
        "turns in a row it takes the seat back."
    )


RULES = sections(ENGLISH)
SOURCES = sources(ENGLISH)
