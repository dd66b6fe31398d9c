"""Every word the pictures draw, in one language: the board's panels and banner, the story's moves,
the legend, the win-chance chart and the replay's captions.

English is the source: each sentence is written whole here, with named placeholders, and a
`Words` holding a gettext catalog translates it whole. Every sentence is a literal argument of a
`gettext`/`ngettext` call, so an extractor (Babel's, xgettext) finds them all. The drawing code
holds no words of its own, so a language is a catalog handed to the public entries
(`board_png(..., words=...)`), never a change to the drawing. A cache of drawn pictures keys on the
drawn text, never on a `Words` (two `Words` of one code may hold different catalogs).
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from engine.board import HOME, IS_CASTLE, LEAD, MID, ROUTES, SEAT_NAMES, SQUARES
from engine.game import MAX_THROWS
from engine.state import DRAW, Move, Position, side_seats


class Speaker(Protocol):
    """What the words below need of a language: a picture's `Words` or the bot's `Language`, so
    the chat says a place or a move in the very words the picture draws."""

    def gettext(self, message: str, /, **params: object) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: object) -> str: ...


@dataclass(frozen=True)
class Words:
    """Turns an English sentence into this language's, placeholders filled. The same shape as the
    bot's `Language` (render does not import bot), so one catalog can serve both."""

    code: str = "en"
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations, compare=False)

    def gettext(self, message: str, /, **params: object) -> str:
        text = self.catalog.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The form for `count` (`{count}` in the sentence is the number)."""
        return self.catalog.ngettext(singular, plural, count).format(count=count, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """`message` where `context` tells it apart (a piece's one-letter mark, a place said before
        a postposition)."""
        text = self.catalog.pgettext(context, message)
        return text.format(**params) if params else text


ENGLISH = Words()


# --- seats, sides and players -------------------------------------------------------------------


def seat_name(words: Speaker, seat: int) -> str:
    """A seat's colour as players read it ("Black"); engine's `SEAT_NAMES` are the notation's."""
    name = SEAT_NAMES[seat]
    if name == "black":
        return words.gettext("Black")
    if name == "red":
        return words.gettext("Red")
    if name == "yellow":
        return words.gettext("Yellow")
    return words.gettext("Green")


def piece_marks(words: Words) -> tuple[str, str, str, str]:
    """The mark on each seat's pieces, the first letter of its colour in the table's language
    (B, R, Y, G; Hindi का, ला, पी, ह), so the mark beside a seat's name reads as that name."""
    return (
        words.pgettext("piece mark", "B"),
        words.pgettext("piece mark", "R"),
        words.pgettext("piece mark", "Y"),
        words.pgettext("piece mark", "G"),
    )


def seats_words(words: Speaker, seats: Sequence[int]) -> str:
    """Seats together: "Black", "Black + Yellow"."""
    names = [seat_name(words, seat) for seat in seats]
    text = names[0] if names else ""
    for name in names[1:]:
        text = words.gettext("{first} + {second}", first=text, second=name)
    return text


def side_words(words: Words, side: int, players: int) -> str:
    """A side by its colours: "Black + Yellow", or "Black" in a two-player game."""
    return seats_words(words, side_seats(side, players))


def computer_name(words: Words, level: str) -> str:
    """A computer player as its panel names it: "Computer · hard"."""
    if level == "easy":
        return words.gettext("Computer · easy")
    if level == "normal":
        return words.gettext("Computer · normal")
    if level == "hard":
        return words.gettext("Computer · hard")
    if level == "expert":
        return words.gettext("Computer · expert")
    return words.gettext("Computer · {level}", level=level)


def names_words(words: Words, names: Sequence[str]) -> str:
    """Several players of one seat, in the order they played it: "Ravi, Computer · normal"."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = words.gettext("{first}, {second}", first=text, second=name)
    return text


# --- moves ----------------------------------------------------------------------------------------


def place_words(words: Speaker, seat: int, step: int) -> str:
    """Where a piece of `seat` at `step` of its route stands, by what the board shows (its arms,
    castles, arm tips and the Charkoni; it numbers no square): "Red's castle". The one home of a
    place's name: the chat's buttons and log say it too (bot/core/texts/board.py).

    It is said only inside "from {src}" and "to {dst}", which its context tells a translator: a
    language that declines its nouns writes it as it stands before a postposition (Hindi: "हरी के
    किले से", not "हरी का किला से")."""
    if step == 0:
        return words.pgettext("place before from/to", "the Charkoni")
    if step >= HOME:
        return words.pgettext("place before from/to", "home")
    square = ROUTES[seat][step]
    place = SQUARES[square]
    owner = seat_name(words, place.arm)
    if place.column == MID and place.row == 8:
        return words.pgettext("place before from/to", "the tip of {owner}'s arm", owner=owner)
    if IS_CASTLE[square]:
        return words.pgettext("place before from/to", "{owner}'s castle", owner=owner)
    if place.column == MID and place.arm == seat and step > HOME // 2:  # its own column, homeward
        return words.pgettext("place before from/to", "{owner}'s way home", owner=owner)
    return words.pgettext("place before from/to", "{owner}'s arm", owner=owner)


def _place_key(seat: int, step: int) -> tuple[str, int]:
    """What `place_words` tells of a step (two steps of one key read alike)."""
    if step == 0 or step >= HOME:
        return ("charkoni" if step == 0 else "home", -1)
    square = ROUTES[seat][step]
    place = SQUARES[square]
    if place.column == MID and place.row == 8:
        return "tip", place.arm
    if IS_CASTLE[square]:
        return "castle", place.arm
    return ("way" if place.column == MID and place.arm == seat and step > HOME // 2 else "arm", place.arm)


def _lane_words(words: Speaker, arm: int, column: int) -> str:
    """A column of an arm as the picture shows it, north up: Black's (south) and Yellow's
    (north) arms stand, so their outer columns are left and right; Red's (east) and Green's
    (west) lie, so theirs are the top and bottom rows."""
    if column == MID:
        return words.pgettext("lane of an arm", "middle column")
    left = words.pgettext("lane of an arm", "left column")
    right = words.pgettext("lane of an arm", "right column")
    top = words.pgettext("lane of an arm", "top row")
    bottom = words.pgettext("lane of an arm", "bottom row")
    lead = column == LEAD
    return (  # the leading lane (the way in) is the right one of the south arm, then around
        (right, top, left, bottom) if lead else (left, bottom, right, top)
    )[arm]


def square_words(words: Speaker, seat: int, step: int) -> str:
    """The very square a piece of `seat` at `step` (1-83) stands on, as the picture shows it: the
    arm's lane and the square counted from the centre, "Black's right column, square 3"; on the
    way home up its own middle column, "Black's way home, square 3" (the squares it left by).
    Said where `place_words` would name two pieces alike, and where the Hint names a square."""
    square = ROUTES[seat][step]
    place = SQUARES[square]
    if place.column == MID and place.arm == seat and step > HOME // 2:
        return way_home_words(words, seat, place.row)
    return lane_square_words(words, square)


def way_home_words(words: Speaker, seat: int, row: int) -> str:
    """A square of a seat's middle column on its way home: "Black's way home, square 3"."""
    return words.pgettext(
        "place before from/to", "{owner}'s way home, square {row}", owner=seat_name(words, seat), row=row
    )


def lane_square_words(words: Speaker, square: int) -> str:
    """A square (engine.board's number) as the picture shows it, whoever stands there: "Red's top
    row, square 5"."""
    place = SQUARES[square]
    return words.pgettext(
        "place before from/to",
        "{owner}'s {lane}, square {row}",
        owner=seat_name(words, place.arm),
        lane=_lane_words(words, place.arm, place.column),
        row=place.row,
    )


def source_words(words: Speaker, move: Move, position: Position | None = None) -> str:
    """Where a move starts: `place_words`, or, when another piece of its seat in `position` would
    make a move read alike with the same throw, the square itself (`square_words`), so no two
    choices of a throw share their words."""
    if position is not None and 0 < move.src < HOME:
        src, dst = _place_key(move.seat, move.src), _place_key(move.seat, move.dst)
        span = move.dst - move.src
        for other in set(position.steps[move.seat]):
            end = HOME if move.dst == HOME and other + span > HOME else other + span  # the last square
            if other in (0, move.src) or other >= HOME or end > HOME:
                continue
            if _place_key(move.seat, other) == src and _place_key(move.seat, end) == dst:
                return square_words(words, move.seat, move.src)
    return place_words(words, move.seat, move.src)


def move_places(words: Speaker, move: Move, position: Position | None = None) -> str:
    """A move's piece and where it goes, in `place_words`, whatever it captures: "Black: from
    Black's arm to Red's castle", "Black: out of the Charkoni to Black's arm", "Red: home from
    Green's arm" (through the escape hatch, when `position` says it takes it); from the square
    itself where another piece would read alike (`source_words`). The picture's choices and story
    and the chat's choice buttons all say a move so."""
    seat = seat_name(words, move.seat)
    src, dst = source_words(words, move, position), place_words(words, move.seat, move.dst)
    if move.src == 0:
        return words.gettext("{seat}: out of the Charkoni to {dst}", seat=seat, dst=dst)
    if move.dst >= HOME:
        if position is not None and position.uses_escape_hatch(move):
            return words.gettext("{seat}: home from {src} through the escape hatch", seat=seat, src=src)
        return words.gettext("{seat}: home from {src}", seat=seat, src=src)
    if src == dst:
        return words.gettext("{seat}: along {src}", seat=seat, src=src)
    return words.gettext("{seat}: from {src} to {dst}", seat=seat, src=src, dst=dst)


def move_words(
    words: Words, move: Move, victims: Sequence[int] = (), position: Position | None = None
) -> str:
    """A move for the side boxes, as the chat's choice button says it (`move_places`), with whom
    it captured: "Black: from Black's arm to Red's castle, takes Red"."""
    text = move_places(words, move, position)
    if victims:
        return words.gettext("{move}, takes {seats}", move=text, seats=seats_words(words, victims))
    return text


# --- the board's panels ---------------------------------------------------------------------------


class PanelLabels(NamedTuple):
    """The panels' fixed words."""

    wins: str
    to_move: str
    to_throw: str
    waiting: str
    home: str
    no_capture_needed: str
    captured: str
    not_captured: str
    never_captured: str
    last_moves: str
    none_yet: str
    this_throw: str
    throw_lost: str
    grace: str


def panel_labels(words: Words) -> PanelLabels:
    return PanelLabels(
        wins=words.gettext("★ WINS"),
        to_move=words.gettext("▶ TO MOVE"),
        to_throw=words.gettext("▶ TO THROW"),
        waiting=words.gettext("Waiting"),
        home=words.gettext("Home"),
        no_capture_needed=words.gettext("No capture needed"),
        captured=words.gettext("✓ Captured: may go home"),
        not_captured=words.gettext("✗ No capture yet"),
        never_captured=words.gettext("✗ Captured nothing"),
        last_moves=words.gettext("Last moves"),
        none_yet=words.gettext("None yet"),
        this_throw=words.gettext("This throw"),
        throw_lost=words.gettext("No move: the throw is lost"),
        grace=words.gettext("Grace: one more throw"),
    )


def seat_line(words: Words, seat: int) -> str:
    """A seat and the arm it starts from: "Black · south"."""
    colour = seat_name(words, seat)
    if seat == 0:
        return words.gettext("{seat} · south", seat=colour)
    if seat == 1:
        return words.gettext("{seat} · east", seat=colour)
    if seat == 2:
        return words.gettext("{seat} · north", seat=colour)
    return words.gettext("{seat} · west", seat=colour)


def partner_words(words: Words, seat: int) -> str:
    """Whom a seat plays with in a four-player game: "Partner of Yellow"."""
    return words.gettext("Partner of {partner}", partner=seat_name(words, (seat + 2) % 4))


def to_throw_words(words: Words, name: str) -> str:
    """Who throws next, in the two-player throw box: "Alice to throw"."""
    return words.gettext("{name} to throw", name=name)


def more_choices_words(words: Words, count: int) -> str:
    """The choices a full throw box leaves out: "and 2 more"."""
    return words.ngettext("and {count} more", "and {count} more", count)


def throw_value_words(words: Words, throw: int) -> str:
    """The throw's value beside its cowries: "= 25"."""
    return words.gettext("= {throw}", throw=throw)


# --- the result -----------------------------------------------------------------------------------


def winner_words(words: Words, seats: Sequence[int], resigned: bool) -> str:
    """Who won: "Black wins", "Black + Yellow win by resignation"."""
    side = seats_words(words, seats)
    if resigned:
        return words.ngettext(
            "{side} wins by resignation", "{side} win by resignation", len(seats), side=side
        )
    return words.ngettext("{side} wins", "{side} win", len(seats), side=side)


def banner_lines(words: Words, position: Position, termination: str | None) -> tuple[str, str]:
    """The banner's headline and its line of final counts (or, for a draw, why it is one).

    `termination`: "win", "frozen", "throw_limit", "resignation" or None (worked out for a draw)."""
    result = position.result
    if result is None:
        return "", ""
    players = position.rules.players
    pieces = position.rules.pieces * len(side_seats(0, players))
    first, second = (
        words.gettext(
            "{side} {home}/{pieces} home",
            side=side_words(words, side, players),
            home=sum(position.home_count(seat) for seat in side_seats(side, players)),
            pieces=pieces,
        )
        for side in (0, 1)
    )
    counts = words.gettext("{first} · {second}", first=first, second=second)
    if result != DRAW:
        return winner_words(words, side_seats(result, players), termination == "resignation"), counts
    if termination not in ("frozen", "throw_limit"):
        termination = "frozen" if position.is_frozen() else "throw_limit"
    if termination == "frozen":
        return words.gettext("Draw: no one can move"), counts
    return words.gettext("Draw: the {limit}-throw limit", limit=format(MAX_THROWS, ",")), counts


# --- the legend -----------------------------------------------------------------------------------


def legend_title(words: Words) -> str:
    return words.gettext("How to read the board")


def legend_rows(words: Words) -> tuple[str, ...]:
    """The legend's rows, in the order of its pictures (render/legend.py draws them)."""
    return (
        words.gettext(
            "The seats: {black}, {red}, {yellow}, {green}",
            black=seat_name(words, 0),
            red=seat_name(words, 1),
            yellow=seat_name(words, 2),
            green=seat_name(words, 3),
        ),
        words.gettext("Private columns: only that seat's pieces go there"),
        words.gettext("Castle: a safe square, any colours may share it"),
        words.gettext("Blockade: two of one side, no enemy may pass"),
        words.gettext("Choice {letter}: that piece moves there (button {letter})", letter="A"),
        words.gettext("Moves since your last turn, numbered in order"),
        words.gettext("Captured here: that piece went back to the centre"),
        words.gettext("The throw: how many cowries land mouth up"),
    )


# --- the win-chance chart -------------------------------------------------------------------------


class ChartLabels(NamedTuple):
    """The chart's fixed words."""

    title: str
    throws: str
    capture: str


def chart_labels(words: Words) -> ChartLabels:
    return ChartLabels(
        title=words.gettext("Chance to win"),
        throws=words.gettext("throws"),
        capture=words.gettext("capture"),
    )


def percent_words(words: Words, percent: int) -> str:
    """A label of the chart's chance axis: "25 %"."""
    return words.gettext("{percent} %", percent=percent)


# --- the replay -----------------------------------------------------------------------------------


def replay_start_caption(words: Words, total: int) -> str:
    """The first frame's caption: "start: 385 throws"."""
    return words.ngettext("start: {count} throw", "start: {count} throws", total)


def replay_caption(words: Words, first: int, last: int, total: int, outcome: str | None = None) -> str:
    """A frame's caption: the throws it shows of the game's, and on the last frame the outcome
    (`outcome_words`): "throws 12-17 of 385", "throw 385 of 385: Black + Yellow win"."""
    if first == last and outcome is None:
        return words.gettext("throw {first} of {total}", first=first, total=total)
    if first == last:
        return words.gettext("throw {first} of {total}: {outcome}", first=first, total=total, outcome=outcome)
    if outcome is None:
        return words.gettext("throws {first}-{last} of {total}", first=first, last=last, total=total)
    return words.gettext(
        "throws {first}-{last} of {total}: {outcome}", first=first, last=last, total=total, outcome=outcome
    )


def outcome_words(words: Words, result: str, termination: str) -> str:
    """How a recorded game ended (engine.record's `result` and `termination`), for the replay:
    "Black + Yellow win", "drawn, frozen", "abandoned"."""
    if result == "draw":
        if termination == "frozen":
            return words.gettext("drawn, frozen")
        return words.gettext("drawn at the throw limit")
    if result == "*":
        if termination == "abandoned":
            return words.gettext("abandoned")
        if termination == "unfinished":
            return words.gettext("unfinished")
        return termination
    seats = [SEAT_NAMES.index(name) for name in result.split("+")]
    return winner_words(words, seats, termination == "resignation")


# --- a tournament's standings ---------------------------------------------------------------------


class StandingsLabels(NamedTuple):
    """The standings picture's column heads and notes."""

    rank: str
    member: str
    points: str
    buchholz: str
    opponents: str
    games: str
    tie_breaks: str
    withdrawn: str


def standings_labels(words: Words) -> StandingsLabels:
    return StandingsLabels(
        rank=words.gettext("Rank"),
        member=words.gettext("Member"),
        points=words.gettext("Points"),
        buchholz=words.gettext("Buchholz"),
        opponents=words.gettext("Opponents"),
        games=words.gettext("Games"),
        tie_breaks=words.gettext(
            "Ties: Buchholz (the points of everyone met), then the opponents' ratings added up."
        ),
        withdrawn=words.gettext("withdrawn"),
    )


def standings_title(words: Words, round_number: int, rounds: int, finished: bool) -> str:
    """The line under the tournament's name: how far it has come."""
    if finished:
        return words.gettext("Final standings")
    if round_number == 0:  # signed up, not started: no round is behind it yet
        return words.gettext("Standings before round 1 of {rounds}", rounds=rounds)
    return words.gettext("Standings after round {round} of {rounds}", round=round_number, rounds=rounds)


def pairings_title(words: Words, round_number: int) -> str:
    return words.gettext("Round {round}: who plays whom", round=round_number)


def table_words(words: Words, number: int) -> str:
    return words.gettext("Table {number}", number=number)


def partners_words(words: Words, first: str, second: str) -> str:
    """A partnership: "Asha & Ravi"."""
    return words.gettext("{first} & {second}", first=first, second=second)


def versus_words(words: Words, first: str, second: str) -> str:
    return words.gettext("{first} vs {second}", first=first, second=second)


def bye_words(words: Words, side: str) -> str:
    """A side that plays only the computer: its game counts as a win."""
    return words.gettext("{side}: bye, plays the computer", side=side)


def points_text(points: float) -> str:
    """Points as a number, a half (a draw) as ½: "2", "1½", "½"."""
    whole = int(points)
    if points == whole:
        return str(whole)
    return f"{whole}½" if whole else "½"
