"""Build hook: compile the engine's hot modules with mypyc, which makes the search about twice as fast.

`pip install -e .` (both README commands run it) compiles them into `engine/*.so`, next to their
source. Without a C compiler, or with PACHISI_PURE_PYTHON=1 set (and no engine/*.so left from an
earlier build), the engine stays plain Python and plays exactly the same moves, only slower.
Everything else about the package is in pyproject.toml.
"""

import os

from setuptools import setup

HOT_MODULES = [
    f"engine/{name}.py"
    for name in ("board", "throws", "state", "evaluate", "features", "winchance", "network", "players")
]
"""The modules a search spends its time in (`expert`'s leaves: network.py and the win chance's
features). rules.py stays plain: a compiled frozen dataclass cannot be unpickled, and the arena
sends Rules to its worker processes."""


def compiled_extensions() -> list:
    if os.environ.get("PACHISI_PURE_PYTHON"):
        return []
    from mypyc.build import mypycify

    extensions = mypycify(HOT_MODULES, opt_level="3", group_name="engine.hot")
    for extension in extensions:
        extension.optional = True  # no compiler: keep the plain modules instead of failing
    return extensions


setup(ext_modules=compiled_extensions())
