"""Text forms (RULES.md 9): positions, moves, the JSON storage form, and moves described for chat."""

from __future__ import annotations

from typing import Any

from engine.board import CASTLES, HOME, ROUTES, SEAT_NAMES
from engine.errors import NotationError, number
from engine.rules import Rules
from engine.state import DRAW, Move, Position, side_name, side_seats

JSON_SCHEMA_VERSION = 1

_SEAT_INDEX = {name: i for i, name in enumerate(SEAT_NAMES)}


def format_position(position: Position) -> str:
    rules = position.rules
    tokens = [f"{SEAT_NAMES[seat]}:{','.join(map(str, position.steps[seat]))}" for seat in rules.seats]
    tokens.append(f"turn:{SEAT_NAMES[position.turn]}")
    sides = [side_name(side, rules.players) for side in position.captured_sides()]
    tokens.append(f"captured:{','.join(sides) or '-'}")
    tokens.append(f"rules:{rules.token()}")
    if position.result is not None:
        tokens.append(f"result:{result_text(position.result, rules.players)}")
    return " ".join(tokens)


def result_text(result: int, players: int) -> str:
    return "draw" if result == DRAW else side_name(result, players)


def parse_position(text: str) -> Position:
    """Read a position; raise NotationError naming the first bad token."""
    tokens = text.split(" ")
    if not text or any(not t for t in tokens):
        raise NotationError("tokens must be separated by single spaces", text)
    seat_tokens: list[tuple[int, tuple[int, ...]]] = []
    index = 0
    while index < len(tokens) and tokens[index].partition(":")[0] in _SEAT_INDEX:
        seat_tokens.append(_parse_seat(tokens[index]))
        index += 1
    seats = tuple(seat for seat, _ in seat_tokens)
    if seats not in ((0, 1, 2, 3), (0, 2)):
        raise NotationError(
            "seat tokens must be black red yellow green, or black yellow, in turn order", text
        )
    counts = {len(steps) for _, steps in seat_tokens}
    if len(counts) != 1:
        raise NotationError("every seat must have the same number of pieces", text)
    pieces = counts.pop()
    players = len(seats)
    rest = tokens[index:]
    keys = ["turn", "captured", "rules"]
    if len(rest) == 4:
        keys.append("result")
    if len(rest) not in (3, 4):
        raise NotationError(
            "expected turn:, captured:, rules: and an optional result:", " ".join(rest) or text
        )
    values: dict[str, str] = {}
    for key, token in zip(keys, rest, strict=True):
        name, sep, value = token.partition(":")
        if name != key or not sep or not value:
            raise NotationError(f"expected a {key}: token", token)
        values[key] = value
    turn = _SEAT_INDEX.get(values["turn"], -1)
    if turn not in seats:
        raise NotationError("turn must name a seat in play", rest[0])
    captured = _parse_captured(values["captured"], players, rest[1])
    if "players=" in values["rules"] or "pieces=" in values["rules"]:
        raise NotationError("players and pieces are given by the seat tokens", rest[2])
    rules = Rules.parse(values["rules"], allow_shape=False)
    try:
        rules = rules.with_options(players=players, pieces=pieces)
    except ValueError as exc:
        raise NotationError(str(exc), rest[2]) from exc
    result = _parse_result(values["result"], players, rest[3]) if "result" in values else None
    steps = tuple(dict(seat_tokens)[seat] if seat in seats else () for seat in range(4))
    _check_result(steps, players, result, rest[3] if result is not None else text)
    return Position(rules, steps, turn, captured, result)


def _check_result(steps: tuple[tuple[int, ...], ...], players: int, result: int | None, token: str) -> None:
    """A side with every piece home has won, and only then may `result:` name it.

    `result:draw` is taken on any position where nobody has won: the throw limit ends a game the
    position alone cannot see (RULES.md 6).
    """
    won = [side for side in (0, 1) if all(steps[seat][0] == HOME for seat in side_seats(side, players))]
    if len(won) == 2:
        raise NotationError("both sides cannot have brought every piece home", token)
    if won and result != won[0]:
        name = side_name(won[0], players)
        raise NotationError(f"{name} has every piece home: the position must end result:{name}", token)
    if result is not None and result != DRAW and not won:
        name = side_name(result, players)
        raise NotationError(f"result:{name}, but {name} has not brought every piece home", token)


def _parse_seat(token: str) -> tuple[int, tuple[int, ...]]:
    name, _, value = token.partition(":")
    parts = value.split(",")
    if not value or not all(p.isascii() and p.isdigit() and (p == "0" or p[0] != "0") for p in parts):
        raise NotationError("seat steps must be comma-separated numbers", token)
    found = [number(p, HOME) for p in parts]
    if None in found:
        raise NotationError(f"steps run from 0 to {HOME}", token)
    steps = tuple(sorted(s for s in found if s is not None))  # canonical order is ascending; any is read
    if not 1 <= len(steps) <= 4:
        raise NotationError("a seat has 1 to 4 pieces", token)
    return _SEAT_INDEX[name], steps


def _side_names(players: int) -> dict[str, int]:
    return {side_name(side, players): side for side in (0, 1)}


def _parse_captured(value: str, players: int, token: str) -> int:
    if value == "-":
        return 0
    names = _side_names(players)
    sides = [names.get(part, -1) for part in value.split(",")]
    if -1 in sides or sides != sorted(set(sides)):
        raise NotationError(f"captured: takes -, or sides among {', '.join(names)} in turn order", token)
    return sum(1 << side for side in sides)


def _parse_result(value: str, players: int, token: str) -> int:
    if value == "draw":
        return DRAW
    names = _side_names(players)
    if value not in names:
        raise NotationError(f"result: takes draw or one of {', '.join(names)}", token)
    return names[value]


def parse_move(text: str) -> Move | None:
    """Read `seat:from-to`, or `pass` (returned as None)."""
    if text == "pass":
        return None
    name, sep, span = text.partition(":")
    src_text, dash, dst_text = span.partition("-")
    src, dst = number(src_text, HOME), number(dst_text, HOME)
    if not sep or name not in _SEAT_INDEX or not dash or src is None or dst is None:
        raise NotationError(
            f"a move is written seat:from-to with steps 0 to {HOME} (like black:12-16) or pass", text
        )
    return Move(_SEAT_INDEX[name], src, dst)


def format_move(move: Move | None) -> str:
    return "pass" if move is None else str(move)


# --- JSON ---------------------------------------------------------------------------------


def position_to_json(position: Position) -> dict[str, Any]:
    """A JSON-ready dict with a schema version, for storage."""
    rules = position.rules
    return {
        "schema": JSON_SCHEMA_VERSION,
        "rules": rules.as_dict(),
        "seats": {SEAT_NAMES[s]: list(position.steps[s]) for s in rules.seats},
        "turn": SEAT_NAMES[position.turn],
        "captured": [side_name(side, rules.players) for side in position.captured_sides()],
        "result": None if position.result is None else result_text(position.result, rules.players),
    }


def position_from_json(data: dict[str, Any]) -> Position:
    if data.get("schema") != JSON_SCHEMA_VERSION:
        raise NotationError(f"unknown position schema {data.get('schema')!r}")
    try:
        rules = Rules(**data["rules"])
        steps = tuple(tuple(data["seats"][SEAT_NAMES[s]]) if s in rules.seats else () for s in range(4))
        names = _side_names(rules.players)
        captured = sum(1 << names[name] for name in data["captured"])
        result = None if data["result"] is None else _parse_result(data["result"], rules.players, "")
        position = Position(rules, steps, _SEAT_INDEX[data["turn"]], captured, result)
    except (KeyError, TypeError, ValueError) as exc:
        raise NotationError(f"malformed position JSON: {exc}") from exc
    return parse_position(format_position(position))  # validates every field once more


# --- descriptions for chat ----------------------------------------------------------------


def describe_move(position: Position, throw: int, move: Move | None) -> str:
    """One sentence for the chat: who moved what, and what happened (castle, capture, home)."""
    mover = SEAT_NAMES[position.turn].capitalize()
    if move is None:
        return f"{mover} throws {throw}: no move, the throw is lost"
    owner = SEAT_NAMES[move.seat].capitalize()
    whose = "" if move.seat == position.turn else f"{owner}'s "
    if move.dst == HOME:
        via = " through the escape hatch" if position.uses_escape_hatch(move) else ""
        text = f"{mover} comes home{via}" if not whose else f"{mover} brings {whose}piece home"
        return text
    if move.src == 0:
        if move.dst == 1:
            return f"{mover} brings {whose or 'a '}piece out"
        text = f"{mover} brings {whose or 'a '}piece out to {move.dst}"
    else:
        text = f"{mover}: {whose}piece on {move.src} to {move.dst}"
    details = []
    if ROUTES[move.seat][move.dst] in CASTLES:
        details.append("castle")
    victims = position.captures(move)
    if victims:
        seats = sorted({seat for seat, _ in victims})
        details.append("captures " + " and ".join(SEAT_NAMES[s].capitalize() for s in seats))
    return ", ".join([text, *details])


def describe_side(side: int, players: int) -> str:
    return " + ".join(SEAT_NAMES[s].capitalize() for s in side_seats(side, players))
