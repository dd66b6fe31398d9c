"""The Hint's answer: the computer's pick with its letter, the chances before and after each
choice, and why, in words (engine/analysis.py finds the reasons, as kinds and parameters)."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.snapshot import GameSnapshot
from bot.core.texts.answers import percent
from bot.core.texts.board import choice_letter, colour, move_steps
from bot.core.texts.language import Language, clip
from engine import Move, Position
from engine import analysis as why
from engine.analysis import Analysis, Choice, Reason
from engine.board import HOME
from render.words import lane_square_words, square_words

REASONS_LENGTH = 280
"""At least this many characters of reasons per choice: five choices and the head stay under 2,000."""
REASONS_ROOM = 5 * REASONS_LENGTH
"""The reasons of all choices together: fewer choices may each say more."""


def reasons_room(choices: int) -> int:
    """How many characters of reasons each of `choices` choices may have."""
    return max(REASONS_LENGTH, REASONS_ROOM // max(choices, 1))


def hint(lang: Language, game: GameSnapshot, analysis: Analysis) -> str:
    """The ephemeral answer: the pick and its letter, the chances before and after, the reasons."""
    best = analysis.best
    if best is None:
        return lang.gettext("This throw has no move to play.")
    letters = {move: choice_letter(i) for i, move in enumerate(game.legal_moves())}
    position = game.position
    before = percent(lang, analysis.win_chance[analysis.side])
    lines = [
        lang.gettext(
            "**Hint**: play **{letter}**, {move}.",
            letter=letters[best.move],
            move=move_steps(lang, position, best.move),
        ),
        lang.gettext(
            "Your side's chance to win: {chance} before the choice (if every seat played like the normal "
            "computer from here). After each choice:",
            chance=before,
        )
        if game.rules.players == 4
        else lang.gettext(
            "Your chance to win: {chance} before the choice (if every seat played like the normal computer "
            "from here). After each choice:",
            chance=before,
        ),
    ]
    room = reasons_room(len(analysis.choices))
    for choice in analysis.choices:
        lines.append(choice_line(lang, choice, position, letters, room))
    return "\n".join(lines)


def choice_line(
    lang: Language, choice: Choice, position: Position, letters: dict[Move, str], room: int = REASONS_LENGTH
) -> str:
    """`**B** Black: from Black's arm to Red's castle, 48 %: lands on Red's castle, ...`: a choice,
    its chance and why (the daily puzzle's verdict lists its choices the same way). The reasons
    follow a colon, not a full stop: they begin in lower case."""
    said = [reason(lang, r, position, letters, choice.move.seat) for r in choice.reasons]
    why_text = _fitting(lang, said, room) or lang.gettext("no capture, castle, danger or blockade changes")
    return lang.gettext(
        "**{letter}** {move}, {chance}: {why}.",
        letter=letters[choice.move],
        move=move_steps(lang, position, choice.move),
        chance=percent(lang, choice.win_chance),
        why=why_text,
    )


def _fitting(lang: Language, said: list[str], room: int) -> str:
    """The reasons in at most `room` characters (Discord refuses a message over 2,000): whole ones
    from the first, then "…" for those left out; only a first reason longer than that is cut."""
    text = reasons_text(lang, said)
    while len(text) > room and len(said) > 1:
        said = said[:-1]
        text = lang.gettext("{first}; {second}", first=reasons_text(lang, said), second="…")
    return clip(text, room)


def reasons_text(lang: Language, said: list[str]) -> str:
    """Reasons one after the other: `a; b; c`."""
    text = said[0] if said else ""
    for more in said[1:]:
        text = lang.gettext("{first}; {second}", first=text, second=more)
    return text


def reason(
    lang: Language, said: Reason, position: Position, letters: dict[Move, str], seat: int | None = None
) -> str:
    """One reason in words, for the seat to move in `position` (`letters`: each choice's letter;
    `seat`: whose piece the choice moves, the seat to move unless said). Squares are named as the
    board shows them (render.words), never by a step number."""
    if said.kind in (why.FINISHING_SQUARE, why.DEAD_SQUARE):
        return _endgame(lang, said, position.turn if seat is None else seat)
    if said.kind == why.SEARCH_PREFERS:
        assert said.move is not None and said.depth is not None
        return lang.ngettext(
            "looking {count} throw ahead, the search prefers it to {letter}, {move}, which looks better "
            "for now",
            "looking {count} throws ahead, the search prefers it to {letter}, {move}, which looks better "
            "for now",
            said.depth,
            letter=letters.get(said.move, "?"),
            move=move_steps(lang, position, said.move),
        )
    return _SAYINGS[said.kind](lang, said)


def _wins(lang: Language, said: Reason) -> str:
    return lang.gettext("wins the game")


def _captures(lang: Language, said: Reason) -> str:
    seats = lang.join([colour(lang, s) for s in said.seats])
    if said.opens_home:
        return lang.ngettext(
            "captures {seats}'s piece and throws again, and opens home for your side",
            "captures {seats}'s pieces and throws again, and opens home for your side",
            said.pieces,
            seats=seats,
        )
    return lang.ngettext(
        "captures {seats}'s piece and throws again",
        "captures {seats}'s pieces and throws again",
        said.pieces,
        seats=seats,
    )


def _home(lang: Language, said: Reason) -> str:
    if said.escape_hatch:
        return lang.gettext("brings a piece home through the escape hatch, where it is safe for good")
    return lang.gettext("brings a piece home, where it is safe for good")


def _enters(lang: Language, said: Reason) -> str:
    return lang.gettext("brings a new piece onto the board")


def _castle(lang: Language, said: Reason) -> str:
    assert said.arm is not None
    owner = colour(lang, said.arm)
    if said.kind == why.CASTLE_SAFE:
        return lang.gettext("lands on {owner}'s castle, safe for as long as it stays", owner=owner)
    seats = lang.join([colour(lang, s) for s in said.seats])
    return lang.gettext(
        "lands on {owner}'s castle, out of reach of {seats}'s next throw", owner=owner, seats=seats
    )


def threats_text(lang: Language, threats: tuple[tuple[int, int], ...]) -> str:
    """The enemy throws that reach a piece: `Red's 4 and 25 and Green's 10`."""
    by_seat: dict[int, list[int]] = {}
    for enemy, throw in threats:
        by_seat.setdefault(enemy, []).append(throw)
    return lang.join(
        [
            lang.gettext(
                "{seat}'s {throws}", seat=colour(lang, e), throws=lang.join([str(t) for t in sorted(ts)])
            )
            for e, ts in sorted(by_seat.items())
        ]
    )


def _range(lang: Language, said: Reason) -> str:
    threats = threats_text(lang, said.threats)
    if said.kind == why.LEAVES_RANGE:
        return lang.gettext("moves out of reach of {threats}", threats=threats)
    if said.kind == why.STAYS_IN_RANGE:
        if said.chance is None:
            return lang.gettext("stays in range of {threats}", threats=threats)
        return lang.gettext(
            "stays in range of {threats} ({chance} in 64)", threats=threats, chance=said.chance
        )
    if said.chance is None:
        return lang.gettext("moves into range of {threats}", threats=threats)
    return lang.gettext("moves into range of {threats} ({chance} in 64)", threats=threats, chance=said.chance)


def _blockade(lang: Language, said: Reason) -> str:
    assert said.square is not None
    place = lane_square_words(lang, said.square)
    if said.kind == why.FORMS_BLOCKADE:
        return lang.gettext("forms a blockade on {place}", place=place)
    if said.kind == why.BREAKS_BLOCKADE:
        return lang.gettext("breaks your blockade on {place}", place=place)
    return lang.gettext("keeps your blockade on {place}", place=place)


def _last_square(lang: Language, said: Reason) -> str:
    return lang.gettext("reaches the last square, from where any throw brings it home")


def _endgame(lang: Language, said: Reason, seat: int) -> str:
    assert said.step is not None
    place = square_words(lang, seat, said.step)
    if said.kind == why.FINISHING_SQUARE:
        return lang.gettext(
            "reaches {place}, from where a {throw} brings it home ({chance} in 64)",
            place=place,
            throw=said.throw,
            chance=said.chance,
        )
    assert said.aim is not None
    return lang.gettext(
        "stops on {place}, from where no single throw brings it home (aim for squares {first} to {last} of "
        "its way home)",
        place=place,
        first=HOME - said.aim[1],
        last=HOME - said.aim[0],
    )


def _threatens(lang: Language, said: Reason) -> str:
    targets = lang.join(
        [
            lang.ngettext(
                "{seat}'s piece {count} step ahead",
                "{seat}'s piece {count} steps ahead",
                distance,
                seat=colour(lang, enemy),
            )
            for enemy, distance in said.targets
        ]
    )
    if said.opens_home:
        return lang.gettext("threatens {targets}: its capture would open home for your side", targets=targets)
    return lang.gettext("threatens {targets}", targets=targets)


def _search_finds_worse(lang: Language, said: Reason) -> str:
    assert said.depth is not None
    return lang.ngettext(
        "looks best for now, but the search finds it worse {count} throw ahead",
        "looks best for now, but the search finds it worse {count} throws ahead",
        said.depth,
    )


_SAYINGS: dict[str, Callable[[Language, Reason], str]] = {
    why.WINS: _wins,
    why.CAPTURES: _captures,
    why.HOME_SAFE: _home,
    why.ENTERS: _enters,
    why.CASTLE_OUT_OF_REACH: _castle,
    why.CASTLE_SAFE: _castle,
    why.LEAVES_RANGE: _range,
    why.ENTERS_RANGE: _range,
    why.STAYS_IN_RANGE: _range,
    why.FORMS_BLOCKADE: _blockade,
    why.BREAKS_BLOCKADE: _blockade,
    why.KEEPS_BLOCKADE: _blockade,
    why.LAST_SQUARE: _last_square,
    why.THREATENS: _threatens,
    why.SEARCH_FINDS_WORSE: _search_finds_worse,
}
"""Each kind of reason in words but the search's preference (which names a choice by its letter)
and the endgame's squares (which name the moved piece's way home)."""
