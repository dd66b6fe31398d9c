"""The board picture: `board_png(position, ...)` gives the PNG the bot posts after every turn.

Pure: no I/O besides reading the bundled font. Imports only `engine` and Pillow.
"""

from __future__ import annotations

from engine.state import Move, Position
from render.draw import choice_label, encode_png, render


def board_png(
    position: Position,
    *,
    names: dict[int, str] | None = None,
    last_move: Move | None = None,
    last_position: Position | None = None,
    throw: int | None = None,
    cowries: tuple[bool, ...] | None = None,
    choices: list[Move] | None = None,
) -> bytes:
    """The position as a PNG.

    `names`: seat -> display name (default: the seat's colour). `last_move` is drawn as a path;
    with `last_position` (the position before it) a capture it made is marked too. `throw` and
    `cowries` show the current throw in the panel of the seat to throw; `choices` (the legal moves
    of that throw) are labelled A, B, C... in list order, as `choice_label` names them.
    """
    image = render(
        position,
        names=names,
        last_move=last_move,
        last_position=last_position,
        throw=throw,
        cowries=cowries,
        choices=choices,
    )
    return encode_png(image)


__all__ = ["board_png", "choice_label"]
