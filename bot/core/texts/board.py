"""The board in chat words: seats and sides, squares, moves, and the lettered choices.

The log tells moves in board words (whose arm, castle, the Charkoni); a choice is named by the
letter of its tile on the board and the places it joins (`B: Black: from Black's arm to Red's
castle`): the board numbers no square, so neither do its words. A place's name and a move's in
places (`place_words`, `move_places`) are the picture's (render/words.py), so the board's throw
box and the chat's buttons say a choice alike.
"""

from __future__ import annotations

from bot.core.texts.language import Language
from engine import SEAT_NAMES, Move, Position
from engine.board import HOME
from engine.state import side_seats
from render.words import move_places, place_words


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


def move_path(lang: Language, position: Position, move: Move) -> str:
    """`piece from Green's arm to Yellow's castle` (a partner's piece: `Yellow's piece from ...`)."""
    src, dst = place_words(lang, move.seat, move.src), place_words(lang, move.seat, move.dst)
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
    """A choice's move in the board's places (`move_places`), with `, takes Yellow` for a capture."""
    words = move_places(lang, move, position)
    victims = sorted({s for s, _ in position.captures(move)})
    if victims:
        names = lang.join([colour(lang, s) for s in victims])
        words = lang.gettext("{move}, takes {seats}", move=words, seats=names)
    return words


def choice_button(lang: Language, index: int, position: Position, move: Move) -> str:
    """`B: Black: from Black's arm to Red's castle`: a choice's button, lettered as its tile on the
    board."""
    return lang.gettext(
        "{letter}: {move}", letter=choice_letter(index), move=move_steps(lang, position, move)
    )


def choice_option(lang: Language, index: int, position: Position, move: Move) -> str:
    """`B: Black: from Red's castle to Red's arm`: a choice in autocomplete, as its button."""
    return choice_button(lang, index, position, move)
