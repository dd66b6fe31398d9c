"""The board picture: `board_png(position, ...)` gives the PNG the bot posts after every turn.

Pure: no I/O besides reading the bundled font. Imports only `engine` and Pillow.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.state import Move, Position
from render.draw import canvas_png, encode_png, render
from render.legend import legend_image
from render.moves import DrawnMove, choice_label
from render.panels import termination_word
from render.words import ENGLISH, Words


def board_png(
    position: Position,
    *,
    names: dict[int, str] | None = None,
    moves: Sequence[DrawnMove | Move] | None = None,
    throw: int | None = None,
    cowries: tuple[bool, ...] | None = None,
    choices: Sequence[Move] | None = None,
    termination: object = None,
    last_move: Move | None = None,
    last_position: Position | None = None,
    words: Words = ENGLISH,
) -> bytes:
    """The position as a PNG.

    `names`: seat -> display name (default: the seat's colour), e.g. "Computer · hard".
    `moves`: the story since the viewer's previous turn, oldest first; each a `DrawnMove` (the move
    and the position it was played from, so a capture is marked where it happened) or a bare `Move`.
    They are numbered 1, 2, ... in the piece's colour, the last one drawn heaviest; only the last 8
    are drawn (numbered from 1), as more would bury the board. `last_move` (and
    `last_position`) is the older one-move form of the same. `throw` and `cowries` show the current
    throw in the panel of the seat to move (two-player games: in the empty East corner, with the
    choices in words); `choices` (its legal moves) get an arrow each and their
    letter, A, B, C... in list order as `choice_label` names them, on the landing square, or beside
    it where it would cover a piece or another label (render/labels.py places every label). A
    finished position (its `result` set) draws no throw, no choices and nobody to move, whatever
    is passed.
    `termination` of a finished game: "win", "frozen", "throw_limit" or "resignation", an enum
    member with such a name, or an outcome carrying one (`engine.game.Outcome`); a draw without it
    is called frozen when the position is frozen, else the throw limit. "abandoned": a game
    stopped without a result (ended, its channel gone): drawn as over, nobody to move, no throw
    and no choices, but with no result's band. `words`: the language of
    every word drawn (render/words.py).
    """
    if moves is None:
        moves = [DrawnMove(last_move, last_position)] if last_move is not None else []
    story = [m if isinstance(m, DrawnMove) else DrawnMove(m) for m in moves]
    canvas = render(
        position,
        names=names,
        story=story,
        throw=throw,
        cowries=cowries,
        choices=choices,
        termination=termination_word(termination),
        words=words,
    )
    return canvas_png(canvas)


def legend_png(words: Words = ENGLISH) -> bytes:
    """A small key to the board's marks, for `/pachisi help`."""
    return encode_png(legend_image(words))


__all__ = ["ENGLISH", "DrawnMove", "Words", "board_png", "choice_label", "legend_png"]
