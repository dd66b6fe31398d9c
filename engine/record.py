"""Game records (docs/RULES.md, "Game records"): a plain-text account of a whole game, like PGN.

A record is tag lines, then one line per throw::

    [Rules "classic"]
    [Players "4"]
    [Pieces "4"]
    [Black "Asha (user 1234)"]
    [Result "black+yellow"]
    [Termination "win"]

    1. black 3 black:0-1
    2. red 2 red:0-1 {timer}

Reading replays every throw against the rules, so a record that reads is a legal game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.board import SEAT_NAMES
from engine.errors import PachisiError
from engine.game import MAX_THROWS, Game
from engine.rules import Rules
from engine.state import Move, Position, parse_move, result_text
from engine.throws import check_throw

TERMINATIONS = ("win", "frozen", "throw_limit", "resignation", "abandoned", "unfinished")
"""Why a record ends: the first three end the game under the rules, a resignation concedes it (the
Result names the side that wins), the last two stop it early."""
STOPPED = ("abandoned", "unfinished")

REQUIRED_TAGS = ("Rules", "Players", "Pieces", "Result", "Termination")
TAG_ORDER = ("Event", "Site", "Game", "Date", "Time", "Rules", "Players", "Pieces")
"""Tags written first, in this order; then the seats, Result, Termination, and any others."""
SEAT_TAGS = tuple(name.capitalize() for name in SEAT_NAMES)

_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
_THROW_LINE = re.compile(r"(\d+)\. ([a-z]+) (\d+) (\S+)(?: \{([^{}]*)\})?")


class RecordError(PachisiError):
    """A record that cannot be read or does not follow the rules; `line` is 1-based (0: no line)."""

    def __init__(self, message: str, line: int = 0) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass(frozen=True)
class Throw:
    """One throw of a record: the seat that threw, the value, the move (None: lost), a note."""

    seat: int
    throw: int
    move: Move | None
    note: str = ""

    def text(self, number: int) -> str:
        move = "pass" if self.move is None else str(self.move)
        note = f" {{{self.note}}}" if self.note else ""
        return f"{number}. {SEAT_NAMES[self.seat]} {self.throw} {move}{note}"


@dataclass(frozen=True)
class Record:
    """A checked game: its rules, throws, the position before the first and after each throw.

    `tags` holds the descriptive tags (Event, Game, Date, the seats, ...); the rules, result and
    termination are fields, since they are checked against the throws.
    """

    rules: Rules
    throws: tuple[Throw, ...]
    positions: tuple[Position, ...]
    termination: str
    tags: dict[str, str] = field(default_factory=dict)

    @classmethod
    def play(
        cls,
        rules: Rules,
        throws: Iterable[Throw],
        tags: Mapping[str, str] | None = None,
        *,
        stopped: str = "unfinished",
        resigned: int | None = None,
    ) -> Record:
        """Replay `throws` from the start, checking each; `stopped` names why a game still on ended,
        or `resigned` the seat that conceded it after the last throw.

        Raises RecordError naming the throw (its number as `line`) that breaks the rules.
        """
        if stopped not in STOPPED:
            raise ValueError(f"stopped must be one of {', '.join(STOPPED)}")
        tags = dict(tags or {})
        _check_tags(tags, rules, {})
        played = list(throws)
        try:
            positions, termination = _replay(rules, played, range(1, len(played) + 1))
        except RecordError as exc:
            raise RecordError(f"throw {exc.line}: {exc.reason}") from None
        if resigned is not None:
            if termination is not None:
                raise RecordError(f"a game that ended by {termination} cannot be resigned")
            game = Game(positions[-1], throws=len(played))
            try:
                game.resign(resigned)
            except PachisiError as exc:
                raise RecordError(str(exc)) from None
            positions[-1], termination = game.position, "resignation"
        return cls(rules, tuple(played), tuple(positions), termination or stopped, tags)

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def result(self) -> str:
        """The winning side (`black+yellow`), `draw`, or `*` for a game stopped before its end."""
        result = self.final.result
        return "*" if result is None else result_text(result, self.rules.players)

    def text(self) -> str:
        """The record as text: tags, a blank line, one line per throw, a final newline."""
        tags = dict(self.tags)
        tags.update(Rules=self.rules.token(), Players=str(self.rules.players), Pieces=str(self.rules.pieces))
        lines = [_tag(name, tags.pop(name)) for name in (*TAG_ORDER, *SEAT_TAGS) if name in tags]
        lines += [_tag("Result", self.result), _tag("Termination", self.termination)]
        lines += [_tag(name, value) for name, value in tags.items()]
        lines.append("")
        lines += [throw.text(number) for number, throw in enumerate(self.throws, start=1)]
        return "\n".join(lines) + "\n"


def read_record(text: str) -> Record:
    """Read and check a record; raise RecordError naming the first line that is wrong."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    throws: list[Throw] = []
    throw_lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if throws:
                raise RecordError("tag lines come before the throws", number)
            match = _TAG_LINE.fullmatch(line)
            if not match:
                raise RecordError('a tag line is written [Name "value"]', number)
            name, value = match[1], re.sub(r"\\(.)", r"\1", match[2])
            if name in tags:
                raise RecordError(f"tag {name} given twice", number)
            tags[name] = value
            tag_lines[name] = number
            continue
        throws.append(_parse_throw(" ".join(line.split()), number, len(throws) + 1))
        throw_lines.append(number)
    for name in REQUIRED_TAGS:
        if name not in tags:
            raise RecordError(f"the record has no {name} tag", 1)
    rules = _rules(tags, tag_lines)
    described = {k: v for k, v in tags.items() if k not in REQUIRED_TAGS}
    _check_tags(described, rules, tag_lines)
    positions, termination = _replay(rules, throws, throw_lines)
    final = positions[-1]
    claimed = tags["Termination"]
    if claimed not in TERMINATIONS:
        raise RecordError(f"Termination is one of {', '.join(TERMINATIONS)}", tag_lines["Termination"])
    if claimed == "resignation" and termination is None:
        sides = [side for side in (0, 1) if result_text(side, rules.players) == tags["Result"]]
        if not sides:
            raise RecordError("a resigned game's Result names the side that wins", tag_lines["Result"])
        final = positions[-1] = final.with_result(sides[0])
        termination = claimed
    result = "*" if final.result is None else result_text(final.result, rules.players)
    if tags["Result"] != result:
        raise RecordError(
            f"Result says {tags['Result']} but the throws end with {_describe(result)}", tag_lines["Result"]
        )
    if termination is None and claimed not in STOPPED:
        raise RecordError(
            f"Termination says {claimed} but the game is not over after throw {len(throws)}",
            tag_lines["Termination"],
        )
    if termination is not None and claimed != termination:
        raise RecordError(
            f"Termination says {claimed} but the game ended by {termination}", tag_lines["Termination"]
        )
    return Record(rules, tuple(throws), tuple(positions), termination or claimed, described)


def _describe(result: str) -> str:
    if result == "*":
        return "the game still going (Result *)"
    return "a draw" if result == "draw" else f"{result} winning"


def _parse_throw(line: str, number: int, expected: int) -> Throw:
    match = _THROW_LINE.fullmatch(line)
    if not match:
        raise RecordError(
            "a throw is written: number. seat throw move (like 12. red 4 red:5-9), or pass", number
        )
    if int(match[1]) != expected:
        raise RecordError(f"expected throw number {expected}, found {match[1]}", number)
    if match[2] not in SEAT_NAMES:
        raise RecordError(f"{match[2]!r} is not a seat (black, red, yellow, green)", number)
    try:
        value = check_throw(int(match[3]))
        move = parse_move(match[4])
    except ValueError as exc:  # a bad throw value, or a PachisiError
        raise RecordError(str(exc), number) from None
    return Throw(SEAT_NAMES.index(match[2]), value, move, match[5] or "")


def _rules(tags: dict[str, str], lines: dict[str, int]) -> Rules:
    shape = {}
    for name in ("Players", "Pieces"):
        if not tags[name].isdigit():
            raise RecordError(f"{name} is a number", lines[name])
        shape[name.lower()] = int(tags[name])
    try:
        rules = Rules.parse(tags["Rules"], allow_shape=False)
    except PachisiError as exc:
        raise RecordError(str(exc), lines["Rules"]) from None
    try:
        return rules.with_options(**shape)
    except ValueError as exc:
        raise RecordError(str(exc), lines["Players"]) from None


def _check_tags(tags: Mapping[str, str], rules: Rules, lines: Mapping[str, int]) -> None:
    for name, value in tags.items():
        if name in REQUIRED_TAGS:
            raise RecordError(f"{name} is set by the record itself, not a tag", lines.get(name, 0))
        if not _TAG_LINE.fullmatch(_tag(name, value)) or "\n" in value:
            raise RecordError(f"tag {name!r} has a bad name or value", lines.get(name, 0))
        if name in SEAT_TAGS and SEAT_TAGS.index(name) not in rules.seats:
            raise RecordError(f"{name} is not a seat in a {rules.players}-player game", lines.get(name, 0))


def _replay(rules: Rules, throws: Sequence[Throw], lines: Sequence[int]) -> tuple[list[Position], str | None]:
    """Play `throws` through a `Game`, checking each: the seat to throw, the game not over, the
    move legal. Returns the start and the position after each throw, and the game's termination
    (None while it goes on); a RecordError names the line of the throw that is wrong."""
    game = Game(Position.initial(rules), max_throws=MAX_THROWS)
    positions = [game.position]
    for throw, line in zip(throws, lines, strict=True):
        if game.outcome() is not None:
            raise RecordError(f"the game is already over ({_describe(_result(game))})", line)
        if throw.seat != game.turn:
            raise RecordError(f"it is {SEAT_NAMES[game.turn]}'s throw, not {SEAT_NAMES[throw.seat]}'s", line)
        if "{" in throw.note or "}" in throw.note or "\n" in throw.note:
            raise RecordError("a note may not hold braces or line breaks", line)
        try:
            game.set_throw(throw.throw)
            game.play(throw.move)
        except ValueError as exc:  # a bad throw value, or a PachisiError
            raise RecordError(str(exc), line) from None
        positions.append(game.position)
    outcome = game.outcome()
    return positions, None if outcome is None else outcome.termination.value


def _result(game: Game) -> str:
    result = game.position.result
    return "*" if result is None else result_text(result, game.position.rules.players)


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'
