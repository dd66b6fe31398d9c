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


WORLD = frozenset(
    {
        "os", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "socket", "ssl", "select",
        "asyncio", "threading", "multiprocessing", "concurrent", "subprocess", "signal", "sqlite3",
        "time", "datetime", "logging", "urllib", "http", "secrets", "uuid", "importlib",
    }
)  # fmt: skip
"""Modules that reach the clock, files, processes, the network or the OS's randomness."""
WORLD_CALLS = frozenset({"open", "print", "input", "exit", "quit", "breakpoint"})


def is_program(tree: ast.Module, path: Path) -> bool:
    """A module that can end the process: `__main__.py`, an `if __name__ == "__main__":` block, or
    `raise SystemExit` (engine/build.py stops a program before it runs stale code). Programs and
    their support may talk to the world; everything else in engine/ is the pure core."""
    if path.name == "__main__.py":
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "__name__":
            return True
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(raised, ast.Name) and raised.id == "SystemExit":
                return True
    return False


def impurities(tree: ast.Module) -> list[str]:
    """What makes a module impure: imports of the world, global randomness, world-touching calls.

    The only randomness allowed is a `random.Random` passed in: no `import random` (its module
    functions share one hidden generator), no `Random()` without a seed (seeded from the OS).
    """
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root in WORLD or root == "random":
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            root = node.module.split(".")[0]
            if root in WORLD:
                found.append(f"line {node.lineno}: from {node.module} import ...")
            elif root == "random":
                found += [
                    f"line {node.lineno}: from random import {a.name}"
                    for a in node.names
                    if a.name != "Random"
                ]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in WORLD_CALLS:
                found.append(f"line {node.lineno}: {node.func.id}()")
            elif node.func.id == "Random" and not node.args and not node.keywords:
                found.append(f"line {node.lineno}: Random() seeded from the OS")
    return found


def engine_modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sorted((ROOT / "engine").glob("*.py"))}


PACKAGE_DATA_READER = "weights.py"
"""The one core module allowed a reach outside: engine/weights.py reads the networks' weights, the
engine's own package data, through importlib.resources, once per network (issue #59)."""


def test_the_engine_core_does_no_io_and_keeps_no_global_randomness() -> None:
    modules = engine_modules()
    programs = {path.name for path, tree in modules.items() if is_program(tree, path)}
    assert programs == {"__main__.py", "arena.py", "build.py"}  # a new one is a decision: look again
    for path, tree in modules.items():
        if path.name in programs:
            continue
        found = impurities(tree)
        if path.name == PACKAGE_DATA_READER:
            # Exactly one reach: `from importlib.resources import files`, nothing else of the world.
            reaches = [
                node
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "importlib.resources"
            ]
            assert [[a.name for a in node.names] for node in reaches] == [["files"]]
            found = [
                f for f in found if f != f"line {reaches[0].lineno}: from importlib.resources import ..."
            ]
        assert not found, f"{path.relative_to(ROOT)}: {found}"


def test_the_purity_check_finds_what_it_looks_for() -> None:
    bad = """
import time
import random
from random import choice, Random
from datetime import datetime
x = random.random()
rng = Random()
print("hello")
with open("f") as f: pass
"""
    good = """
from random import Random
import math
def f(rng: Random) -> float:
    return rng.random() + math.pi + Random(4).random()
"""
    assert [line.split(": ")[1] for line in impurities(ast.parse(bad))] == [
        "import time",
        "import random",
        "from random import choice",
        "from datetime import ...",
        "Random() seeded from the OS",
        "print()",
        "open()",
    ]
    assert impurities(ast.parse(good)) == []
    assert is_program(ast.parse("if __name__ == '__main__':\n    pass"), Path("tool.py"))
    assert is_program(ast.parse("def f():\n    raise SystemExit(2)"), Path("tool.py"))
    assert not is_program(ast.parse(good), Path("tool.py"))


def test_render_builds_on_engine_pillow_and_a_deflate_only() -> None:
    allowed = {"render", "engine", "PIL", "isal"}
    for path, names in imported_roots("render").items():
        outside = {n for n in names if n not in allowed and n not in sys.stdlib_module_names}
        assert not outside, f"{path} imports {outside}"


def test_the_core_knows_nothing_of_discord_or_the_cogs() -> None:
    """bot/core/ is the bot without Discord: it never imports discord.py, nor the Discord side of
    bot/ (the client, the sync, the cogs), so imports run one way between the two halves."""
    for path, names in imported_roots("bot/core").items():
        assert "discord" not in names, path
        source = (ROOT / path).read_text()
        tree = ast.parse(source)
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        outside = {m for m in modules if m.startswith("bot") and not m.startswith("bot.core")}
        assert not outside, f"{path} imports {outside}"


def test_the_stand_in_imports_nothing_of_the_bot_nor_the_tests() -> None:
    """localdiscord/ talks to the bot only as Discord does (HTTP and the gateway, the bot a child
    process); the page's words come from the bot's catalog files, read as files. What drives the
    stand-in in the tests and the benchmarks is test support (tests/support/)."""
    for path, names in imported_roots("localdiscord").items():
        assert not names & {"bot", "tests"}, f"{path} imports {names & {'bot', 'tests'}}"


def test_the_bot_imports_nothing_of_the_stand_in() -> None:
    """`python -m bot play` hands over to `python -m localdiscord` by the module's name (runpy), so
    the bot ships and runs without the stand-in's code on its import path."""
    for path, names in imported_roots("bot").items():
        assert "localdiscord" not in names, f"{path} imports localdiscord"


MIGRATION_LIBRARIES = frozenset({"alembic", "sqlalchemy"})
ENV_IMPORTS = frozenset({"bot.core.store", "bot.core.config"})
"""What `migrations/env.py` takes from the bot: the models' metadata and the database URL."""


def test_a_shipped_migration_imports_nothing_of_the_project() -> None:
    """A migration is frozen once shipped: it carries its own table shapes and its own reader of
    the notation it meets, so a later change to the engine, the renderer or the store cannot change
    what it does to a database. Only env.py reaches into the bot, for what Alembic needs."""
    for path, names in imported_modules("migrations").items():
        roots = {name.split(".")[0] for name in names}
        outside = {n for n in roots if n not in MIGRATION_LIBRARIES and n not in sys.stdlib_module_names}
        if path == "migrations/env.py":
            assert outside == {"bot"}, f"{path} imports {outside}"
            bot = {name for name in names if name.split(".")[0] == "bot"}
            assert bot <= ENV_IMPORTS, f"{path} imports {bot - ENV_IMPORTS}"
        else:
            assert not outside, f"{path} imports {outside}"


PROJECT = ("engine", "render", "bot", "localdiscord")
"""The packages whose modules may not import each other in a circle."""


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports: every import counts, at the top, inside a
    function or under TYPE_CHECKING (a type-only import still ties two files together)."""
    paths = [path for package in PROJECT for path in sorted((ROOT / package).rglob("*.py"))]
    modules = {module_of(path) for path in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        me = module_of(path)
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        graph[me] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                wanted = [f"{base}.{alias.name}" for alias in node.names] or [base]
            else:
                continue
            for name in wanted:
                while name and name not in modules:  # `from a.b import c`: c, else a.b, else a
                    name = name.rpartition(".")[0]
                if name and name != me and not me.startswith(name + "."):  # a package's own parent is no tie
                    graph[me].add(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of `graph`: each group of modules that reach one another (Tarjan)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph.get(module, ()):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_import_circle_type_only_imports_included() -> None:
    assert circles(import_graph()) == []


def test_the_circle_check_finds_a_circle_through_a_type_only_import() -> None:
    graph = {"bot.client": {"bot.cogs.x"}, "bot.cogs.x": {"bot.client"}, "bot.core.a": {"engine"}}
    assert circles(graph) == [["bot.client", "bot.cogs.x"]]
    assert "bot.client" in import_graph()["bot.cogs.pachisi.commands"]  # seen under TYPE_CHECKING


TABLE_MAY_IMPORT = ("bot.core", "bot.table", "engine", "render")
"""The table layer (bot/table/) is the bot without the chat library: the core, itself, and what
the core builds on; Discord comes in through its protocols (bot/table/channel.py)."""


def test_the_table_layer_knows_neither_the_bot_class_nor_discord() -> None:
    """Not `bot.client` (not even for types), not `discord` nor `discord.ext.commands`, not the cogs."""
    for path, names in imported_modules("bot/table").items():
        project = {n for n in names if n.split(".")[0] in PROJECT}
        outside = {n for n in project if not n.startswith(TABLE_MAY_IMPORT)}
        assert not outside, f"{path} imports {outside}"
        library = {n for n in names if n.split(".")[0] not in PROJECT}
        assert not {n for n in library if n.split(".")[0] == "discord"}, f"{path} imports discord"
        assert "bot.client" not in names and "discord.ext.commands" not in names


def test_no_test_module_imports_another() -> None:
    """What tests share lives in helpers modules and conftest fixtures: importing a test module
    would collect and run its tests twice, and tie one file's tests to another's."""
    for path, names in imported_modules("tests").items():
        tests = {name for name in names if name.rsplit(".", 1)[-1].startswith("test_")}
        assert not tests, f"{path} imports {tests}"


def test_every_sleep_in_the_tests_waits_for_time_itself_and_says_so() -> None:
    """A test waits for a condition with a deadline (the fake's wait_until, or a helper of its
    kind); a sleep is only for time itself (a random moment, a late answer on purpose, the next
    look at a database), with a comment on its line that says why."""
    for path in sorted((ROOT / "tests").rglob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source, str(path))):
            if isinstance(node, ast.Call):
                name = (
                    node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                )
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                assert name != "sleep" or "  # " in lines[node.lineno - 1], (
                    f"{where}: a sleep without its reason"
                )


def imported_modules(package: str) -> dict[str, set[str]]:
    """Full module names each file of `package` imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found
