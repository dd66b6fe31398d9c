"""Fixed texts the bot shows: the rules by section (with their sources) and the help page."""

from __future__ import annotations

SOURCES = (
    "Sources: the player's guide and the Standard variant card this game is built from, settled "
    "point by point in the project's rule specification (RULES.md)."
)

RULES: dict[str, tuple[str, str]] = {
    "board": (
        "The board",
        "A cross of four arms, each 3 columns x 8 squares, around the Charkoni (the centre). "
        "Black sits at the south arm, Red east, Yellow north, Green west; partners sit opposite "
        "(Black + Yellow against Red + Green). An arm's middle column is private to its own seat, "
        "except its tip. Twelve squares marked with a cross are **castles**: the four tips and "
        "row 5 of every outer column.",
    ),
    "route": (
        "The route",
        "Every piece walks 84 steps: out down its own middle column (1-8), back in along the "
        "leading column (9-16), out, across the tip and back in on each of the next three arms "
        "counter-clockwise (17-67), out along its own trailing column (68-75), and in again down "
        "its middle column (76-83) to home (84). Castles fall at steps 8, 12, 21, 25, 29, 38, 42, "
        "46, 55, 59, 63, 72 and 76: spaced 4 - 9 - 4. There is no throw of 9.",
    ),
    "throws": (
        "Throws",
        "Six cowries are thrown; mouths up give the move: 0 -> 25, 1 -> 10, 2, 3, 4, 5, 6 -> 6. "
        "Chances in 64: 1, 6, 15, 20, 15, 6, 1. **Graces** are 6, 10 and 25: another throw, and "
        "the only way to bring out a further piece. A throw moves exactly one piece by its whole "
        "value; it is never split.",
    ),
    "moves": (
        "Moves",
        "Enter: a piece leaves the Charkoni to step 1 (using the throw) on any throw when none of "
        "your pieces is on the board, otherwise only on a grace. Advance: a piece moves exactly "
        "the throw, never past 83 except by an exact throw home; a piece on 83 comes home on any "
        "throw (the last-square rule). A throw with no move is lost; one with a move must be "
        "played.",
    ),
    "fight": (
        "Captures and blockades",
        "Ending on a non-castle square that holds an enemy piece sends it back to the Charkoni "
        "and earns one more throw (one, even after a grace). Two pieces of one side on a square "
        "that is not a castle form a **blockade**: enemies can neither land on it nor pass it. "
        "Castles are safe and shared.",
    ),
    "home": (
        "Coming home",
        "No piece of a side comes home until that side has captured at least once (the capture "
        "condition). The escape hatch: when every move you could make on every throw would come "
        "home, you may come home without the capture.",
    ),
    "end": (
        "Partners and the end",
        "A seat whose pieces are all home plays its partner's pieces with its throws. A side "
        "wins when all its pieces are home (8 in a four-player game, 4 in a two-player game). "
        "A position where no seat can ever move again is a draw, as is a game of 10,000 throws.",
    ),
    "variants": (
        "Variants and options",
        "`classic` (default): all pieces start in the Charkoni; the capture condition is on. "
        "`standard`: one piece per seat starts on the board; no capture condition. Options: "
        "players (2 or 4), pieces (1-4), start_on_board, must_capture, escape_hatch, last_square, "
        "enter_moves (an entering piece moves the throw from step 1).",
    ),
}

HELP = """**Pachisi**: the ancestor of Ludo and Parcheesi, for 2 or 4 players in partnerships.
`/pachisi start`: start a game here; the computer fills every empty seat at once.
`/pachisi join` (or the **Take a seat** button): take a computer's seat, even mid-game.
`/pachisi leave` / `/pachisi resign`: hand your seat back to the computer (resign: for good).
`/pachisi throw` and `/pachisi move` (or the buttons): play your turn; move choices are the legal \
moves, lettered as on the board.
`/pachisi board`: see the board again (only you). `/pachisi rules`: the rules by section.
`/pachisi stats` and `/pachisi leaderboard`: records in this server.
`/pachisi end`: the starter or a member with Manage Channels ends the game.
Turns time out after a while: the computer then plays for you, and after three missed turns in \
a row it takes the seat back."""
