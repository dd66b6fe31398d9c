"""Rule options and presets (RULES.md section 7), and their text form `classic,last_square=off`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.errors import NotationError, number, shown

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"must_capture": True, "start_on_board": 0},
    "standard": {"must_capture": False, "start_on_board": 1},
}

OVERRIDE_ORDER: tuple[str, ...] = (
    "must_capture",
    "escape_hatch",
    "last_square",
    "enter_moves",
    "start_on_board",
)
"""Options written after the preset name, in this order, when they differ from the preset."""

SWITCHES = frozenset({"must_capture", "escape_hatch", "last_square", "enter_moves"})
NUMBERS = frozenset({"players", "pieces", "start_on_board"})


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rule options. `preset` is kept so that the notation round-trips exactly."""

    preset: str = "classic"
    players: int = 4
    pieces: int = 4
    start_on_board: int = 0
    must_capture: bool = True
    escape_hatch: bool = True
    last_square: bool = True
    enter_moves: bool = False

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r} (classic or standard)")
        if self.players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, not {self.players}")
        if not 1 <= self.pieces <= 4:
            raise ValueError(f"pieces must be 1-4, not {self.pieces}")
        if not 0 <= self.start_on_board <= self.pieces:
            raise ValueError(f"start_on_board must be 0-{self.pieces}, not {self.start_on_board}")

    @classmethod
    def preset_rules(cls, name: str, **overrides: Any) -> Rules:
        """The named preset with any options changed."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} (classic or standard)")
        return cls(preset=name, **{**PRESETS[name], **overrides})

    @classmethod
    def parse(cls, text: str, *, allow_shape: bool = True) -> Rules:
        """Read `preset[,option=value...]`; a text that starts with an option means classic.

        `allow_shape=False` refuses `players` and `pieces`, which the position notation never writes.
        """
        items = [item.strip() for item in text.split(",") if item.strip()]
        preset = "classic"
        if items and "=" not in items[0]:
            preset = items.pop(0)
            if preset not in PRESETS:
                raise NotationError(f"unknown rules preset {shown(preset)} (classic or standard)", text)
        overrides: dict[str, Any] = {}
        for item in items:
            name, sep, value = item.partition("=")
            name = name.strip()
            value = value.strip()
            allowed = SWITCHES | NUMBERS if allow_shape else SWITCHES | {"start_on_board"}
            if not sep or name not in allowed:
                raise NotationError(f"unknown rule option {shown(item)}", text)
            if name in overrides:
                raise NotationError(f"rule option {name!r} given twice", text)
            if name in SWITCHES:
                if value not in ("on", "off"):
                    raise NotationError(f"rule option {name} takes on or off, not {shown(value)}", text)
                overrides[name] = value == "on"
            else:
                count = number(value, 4)
                if count is None:
                    raise NotationError(
                        f"rule option {name} takes a number from 0 to 4, not {shown(value)}", text
                    )
                overrides[name] = count
        try:
            return cls.preset_rules(preset, **overrides)
        except ValueError as exc:
            raise NotationError(str(exc), text) from exc

    def token(self) -> str:
        """The canonical text: preset, then each option that differs from it."""
        base = Rules.preset_rules(self.preset)
        parts = [self.preset]
        for name in OVERRIDE_ORDER:
            value = getattr(self, name)
            if value != getattr(base, name):
                parts.append(f"{name}={_value_text(value)}")
        return ",".join(parts)

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats in play, in turn order: all four, or Black and Yellow."""
        return (0, 1, 2, 3) if self.players == 4 else (0, 2)

    def __str__(self) -> str:
        return self.token()


def _value_text(value: bool | int) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
