"""The board in chat words: seats and sides, squares, moves, and the lettered choices.

The log tells moves in board words (whose arm, castle, the Charkoni); a choice is named as the
board's panel names it (`Black 21 → 23`), so two choices never read alike.
"""

from __future__ import annotations

from bot.core.texts.language import Language
from engine import SEAT_NAMES, Move, Position
from engine.board import HOME, IS_CASTLE, MID, ROUTES, SQUARES
from engine.state import side_seats


def colour(lang: Language, seat: int) -> str:
    """A seat's name as members read it, `Black` (engine.SEAT_NAMES are the notation's)."""
    name = SEAT_NAMES[seat]
    if name == "black":
        return lang.gettext("Black")
    if name == "red":
        return lang.gettext("Red")
    if name == "yellow":
        return lang.gettext("Yellow")
    return lang.gettext("Green")


def level_name(lang: Language, level: str) -> str:
    """A computer level as members read it (`hard`)."""
    if level == "easy":
        return lang.gettext("easy")
    if level == "normal":
        return lang.gettext("normal")
    if level == "hard":
        return lang.gettext("hard")
    if level == "expert":
        return lang.gettext("expert")
    return level


def side(lang: Language, side_index: int, players: int) -> str:
    """A side by its colours: `Black + Yellow`, or `Black` in a two-player game."""
    seats = side_seats(side_index, players)
    if len(seats) == 1:
        return colour(lang, seats[0])
    return lang.gettext("{first} + {second}", first=colour(lang, seats[0]), second=colour(lang, seats[1]))


def choice_letter(index: int) -> str:
    """A, B, C...: the letters of the board's choice tiles, its buttons and autocomplete."""
    return chr(ord("A") + index)


def square(lang: Language, seat: int, step: int) -> str:
    """Where a piece of `seat` at `step` of its route stands, as players see the board. It is said
    only as the place of `move_path`'s "from {src}" and "to {dst}", which its context tells a
    translator: a language that declines its nouns writes it as it stands before a postposition
    (Hindi: "हरी के किले से", not "हरी का किला से")."""
    if step == 0:
        return lang.pgettext("place before from/to", "the Charkoni")
    if step >= HOME:
        return lang.pgettext("place before from/to", "home")
    place = SQUARES[ROUTES[seat][step]]
    owner = colour(lang, place.arm)
    if place.column == MID and place.row == 8:
        return lang.pgettext("place before from/to", "the tip of {owner}'s arm", owner=owner)
    if IS_CASTLE[ROUTES[seat][step]]:
        return lang.pgettext("place before from/to", "{owner}'s castle", owner=owner)
    return lang.pgettext("place before from/to", "{owner}'s arm", owner=owner)


def move_path(lang: Language, position: Position, move: Move) -> str:
    """`piece from Green's arm to Yellow's castle` (a partner's piece: `Yellow's piece from ...`)."""
    src, dst = square(lang, move.seat, move.src), square(lang, move.seat, move.dst)
    own = move.seat == position.turn
    whose = colour(lang, move.seat)
    if move.dst >= HOME:
        if position.uses_escape_hatch(move):
            if own:
                return lang.gettext("piece home from {src} through the escape hatch", src=src)
            return lang.gettext(
                "{whose}'s piece home from {src} through the escape hatch", whose=whose, src=src
            )
        if own:
            return lang.gettext("piece home from {src}", src=src)
        return lang.gettext("{whose}'s piece home from {src}", whose=whose, src=src)
    if move.src == 0:
        if own:
            return lang.gettext("piece out of the Charkoni to {dst}", dst=dst)
        return lang.gettext("{whose}'s piece out of the Charkoni to {dst}", whose=whose, dst=dst)
    if src == dst:
        if own:
            return lang.gettext("piece along {src}", src=src)
        return lang.gettext("{whose}'s piece along {src}", whose=whose, src=src)
    if own:
        return lang.gettext("piece from {src} to {dst}", src=src, dst=dst)
    return lang.gettext("{whose}'s piece from {src} to {dst}", whose=whose, src=src, dst=dst)


def captures(lang: Language, position: Position, move: Move, owners: dict[int, int | None]) -> list[str]:
    """`captures 2 of <@B>'s Yellow pieces: back to the Charkoni`, one clause per seat hit;
    `owners`: seat -> the member who plays it (None: the computer)."""
    victims = [seat for seat, _ in position.captures(move)]
    clauses = []
    for seat in dict.fromkeys(victims):
        count, name = victims.count(seat), colour(lang, seat)
        owner = owners.get(seat)
        if owner is not None:
            clauses.append(
                lang.ngettext(
                    "captures **<@{owner}>**'s {colour} piece: back to the Charkoni",
                    "captures {count} of **<@{owner}>**'s {colour} pieces: back to the Charkoni",
                    count,
                    owner=owner,
                    colour=name,
                )
            )
        else:
            clauses.append(
                lang.ngettext(
                    "captures {colour}'s piece: back to the Charkoni",
                    "captures {count} of {colour}'s pieces: back to the Charkoni",
                    count,
                    colour=name,
                )
            )
    return clauses


def move_words(lang: Language, position: Position, move: Move, owners: dict[int, int | None]) -> str:
    """A move and what it captured, for the log."""
    return ", ".join([move_path(lang, position, move), *captures(lang, position, move, owners)])


def move_steps(lang: Language, position: Position, move: Move) -> str:
    """A move as the board's panel writes it: `Black 21 → 23`, `Black enters`, `Red 80 → home`,
    with `, takes Yellow` for a capture."""
    words = steps(lang, move)
    victims = sorted({s for s, _ in position.captures(move)})
    if victims:
        names = lang.join([colour(lang, s) for s in victims])
        words = lang.gettext("{move}, takes {seats}", move=words, seats=names)
    return words


def steps(lang: Language, move: Move) -> str:
    """A move's piece and squares as the board's panel and buttons write them, whatever it
    captures: `Black 21 → 23`, `Black enters`, `Red 80 → home`."""
    seat = colour(lang, move.seat)
    if move.src == 0 and move.dst == 1:
        return lang.gettext("{seat} enters", seat=seat)
    if move.src == 0:
        return lang.gettext("{seat} enters to {dst}", seat=seat, dst=move.dst)
    if move.dst >= HOME:
        return lang.gettext("{seat} {src} → home", seat=seat, src=move.src)
    return lang.gettext("{seat} {src} → {dst}", seat=seat, src=move.src, dst=move.dst)


def choice_button(lang: Language, index: int, position: Position, move: Move) -> str:
    """`B: Black 21 → 23`: a choice's button, named as the board's panel names it."""
    return lang.gettext(
        "{letter}: {move}", letter=choice_letter(index), move=move_steps(lang, position, move)
    )


def choice_option(lang: Language, index: int, position: Position, move: Move) -> str:
    """`B: Black 21 → 23 · piece from Red's castle to Red's arm`: a choice in autocomplete."""
    return lang.gettext(
        "{button} · {path}",
        button=choice_button(lang, index, position, move),
        path=move_path(lang, position, move),
    )
