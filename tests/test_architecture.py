"""The direction of imports: engine is pure, render builds on it, only bot talks to the world."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_roots(package: str) -> dict[str, set[str]]:
    """Top-level module names each file of `package` imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_uses_only_the_standard_library() -> None:
    for path, names in imported_roots("engine").items():
        outside = {n for n in names if n != "engine" and n not in sys.stdlib_module_names}
        assert not outside, f"{path} imports {outside}"


def test_engine_does_no_io_and_keeps_no_global_randomness() -> None:
    forbidden = {"os", "socket", "asyncio", "sqlite3", "subprocess", "time", "datetime"}
    for path, names in imported_roots("engine").items():
        if path.endswith(("__main__.py", "simulate.py", "arena.py")):
            continue  # the command line and the timing of simulations, outside the core
        assert not names & forbidden, f"{path} imports {names & forbidden}"
    source = "\n".join(p.read_text() for p in (ROOT / "engine").glob("*.py"))
    assert "random.seed(" not in source and "random.random()" not in source


def test_render_builds_on_engine_and_pillow_only() -> None:
    allowed = {"render", "engine", "PIL"}
    for path, names in imported_roots("render").items():
        outside = {n for n in names if n not in allowed and n not in sys.stdlib_module_names}
        assert not outside, f"{path} imports {outside}"


def test_game_flow_service_and_store_know_nothing_of_discord() -> None:
    for module in ("bot/service.py", "bot/store.py"):
        names = imported_roots("bot")[module]
        assert "discord" not in names, module
