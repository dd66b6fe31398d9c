"""The compiled engine: it plays exactly as its source does, and a stale build is caught."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from engine import build

ENGINE = Path(build.__file__).resolve().parent

# Prints, for seeded games `normal` plays against itself, the evaluation for both sides (exact
# floats) and the network's value of each position whose throw offers a move, and `hard`'s choice at
# two, three and four layers and `expert`'s ranking with its values and its choice where there is a
# choice, in two- and four-player games, first saying which build runs.
PROBE = """
from random import Random
import engine.evaluate, engine.players, engine.state
from engine.evaluate import evaluate
from engine.game import Game, play_out
from engine.network import network
from engine.players import ExpertPlayer, HardPlayer, NormalPlayer
from engine.rules import Rules

sources = [m.__file__.endswith(".py") for m in (engine.evaluate, engine.players, engine.state)]
print("source" if all(sources) else "compiled" if not any(sources) else "mixed")
normal = NormalPlayer()
depths = (2, 3, 4)
hard = {depth: HardPlayer(depth=depth) for depth in depths}
expert = ExpertPlayer()
for players in (2, 4):
    dice, rng, asked = Random(players), Random(7), []

    def choose(position, throw, moves):
        print(repr(evaluate(position, 0)), repr(evaluate(position, 1)), repr(network(players).value(position)))
        if len(moves) > 1:
            asked.append(throw)
            print(*(hard[depth].choose(position, throw, moves, Random(len(asked))) for depth in depths))
            print(expert.rank(position, throw, moves))
            print(expert.choose(position, throw, moves, Random(len(asked))))
        return normal.choose(position, throw, moves, rng)

    while len(asked) < 25:
        game = Game.new(Rules(players=players))
        while len(asked) < 25 and play_out(game, choose, dice, throws=1) is None:
            pass
"""


def _probe(cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=cwd, capture_output=True, text=True, check=True, timeout=600
    )
    return done.stdout.splitlines()


@pytest.mark.skipif(not build.compiled_modules(), reason="the engine is not compiled here (no C compiler?)")
def test_the_compiled_engine_plays_exactly_as_its_source(tmp_path: Path) -> None:
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    compiled = _probe(ENGINE.parent)
    source = _probe(tmp_path)
    assert compiled[0] == "compiled" and source[0] == "source"
    assert len(compiled) > 100
    assert compiled[1:] == source[1:]


DOCTESTS = """
import doctest, importlib, sys
failed = tried = 0
for name in sys.argv[1:]:
    module = importlib.import_module(f"engine.{name}")
    assert module.__file__.endswith(".py"), module.__file__
    result = doctest.testmod(module)
    failed, tried = failed + result.failed, tried + result.attempted
print(failed, tried)
"""


@pytest.mark.skipif(not build.compiled_modules(), reason="the engine is not compiled here (no C compiler?)")
def test_the_compiled_modules_doctests_pass_on_their_source(tmp_path: Path) -> None:
    """pytest collects no doctests from a compiled module's source (tests/conftest.py): here they
    run on a plain copy of the engine."""
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    done = subprocess.run(
        [sys.executable, "-c", DOCTESTS, *build.compiled_modules()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    failed, tried = map(int, done.stdout.split())
    assert (failed, tried > 0) == (0, True), done.stdout


def _touch(path: Path, mtime: int) -> None:
    path.write_text("")
    os.utime(path, (mtime, mtime))


def test_a_compiled_module_older_than_its_source_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suffix = EXTENSION_SUFFIXES[0]
    monkeypatch.setattr(build, "_PACKAGE", tmp_path)
    assert build.compiled_modules() == [] and build.describe() == "pure Python"
    _touch(tmp_path / "state.py", 100)
    _touch(tmp_path / f"state{suffix}", 200)
    _touch(tmp_path / "rules.py", 300)  # not compiled: never stale
    _touch(tmp_path / f"hot__mypyc{suffix}", 50)  # the shared library: no source of its own
    assert build.compiled_modules() == ["state"]
    assert build.describe() == "compiled with mypyc (state)"
    assert build.stale_message() is None
    _touch(tmp_path / "state.py", 250)
    assert build.stale_modules() == ["state"]
    message = build.stale_message()
    assert message is not None and "engine/state.py" in message and "pip install -e ." in message


def test_the_command_line_refuses_a_stale_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.__main__ import main
    from engine.arena import main as arena_main

    monkeypatch.setattr(build, "_PACKAGE", tmp_path)
    _touch(tmp_path / f"players{EXTENSION_SUFFIXES[0]}", 100)
    _touch(tmp_path / "players.py", 200)
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--games", "1"])
    assert stopped.value.code == 2
    assert "engine/players.py changed after the engine was compiled" in capsys.readouterr().err
    # The arena (`python -m engine arena` or `python -m engine.arena`) checks for itself.
    with pytest.raises(SystemExit) as stopped:
        arena_main(["--side-a", "easy", "--side-b", "random", "--games", "1"])
    assert stopped.value.code == 2
    assert "engine/players.py changed after the engine was compiled" in capsys.readouterr().err
