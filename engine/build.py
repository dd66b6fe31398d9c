"""Which build of the engine runs: setup.py compiles the hot modules with mypyc when it can.

Python loads a compiled module in preference to its source, even after the source is edited, so a
compiled module older than its source is stale: the tests, the command line, the engine and AI
benchmarks and the bot refuse to run on one (`pip install -e .` rebuilds). Outside the pure core:
it reads file times.
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _extensions() -> dict[str, Path]:
    """Engine module name -> the compiled file this interpreter would load for it."""
    found: dict[str, Path] = {}
    for suffix in EXTENSION_SUFFIXES:
        for path in _PACKAGE.glob(f"*{suffix}"):
            name = path.name.removesuffix(suffix)
            if (_PACKAGE / f"{name}.py").exists():  # not the shared library the modules link to
                found.setdefault(name, path)
    return found


def compiled_modules() -> list[str]:
    """The engine modules that run compiled."""
    return sorted(_extensions())


def installed_from_a_wheel() -> bool:
    """The package sits beside its dist-info (`pip install .`, the container image): pip unpacks
    every file at install time in no set order, so file times tell nothing there, and the source
    is not edited in place."""
    return any(_PACKAGE.parent.glob("pachisi_discord-*.dist-info"))


def stale_modules() -> list[str]:
    """Compiled modules whose source changed after they were built (in a checkout)."""
    if installed_from_a_wheel():
        return []
    return sorted(
        name
        for name, path in _extensions().items()
        if (_PACKAGE / f"{name}.py").stat().st_mtime > path.stat().st_mtime
    )


def describe() -> str:
    """One line for reports and logs, since every timing depends on it."""
    names = compiled_modules()
    return f"compiled with mypyc ({', '.join(names)})" if names else "pure Python"


def exit_if_stale() -> None:
    """Stop a program before it runs (or times) stale code: the reason on stderr, exit status 2."""
    message = stale_message()
    if message:
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def stale_message() -> str | None:
    """What to tell the user when some compiled module is stale, else None."""
    stale = stale_modules()
    if not stale:
        return None
    names = ", ".join(f"engine/{name}.py" for name in stale)
    return f"{names} changed after the engine was compiled: rebuild it with `pip install -e .`"
