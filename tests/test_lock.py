"""requirements.txt, the application's pinned and hashed dependencies (the image installs exactly
these), and requirements-build.txt, the build tools the image builds the wheel with, in step with
pyproject.toml: `scripts/lock` made them, and making them again changes nothing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.processes import REPO_ROOT

LOCKS = {
    "requirements.txt": ("project", "dependencies"),
    "requirements-build.txt": ("build-system", "requires"),
}
"""Each lock file and the list of pyproject.toml it pins."""
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==(\S+)(?: ; (.+?))? \\$")


def pins(lock: str) -> dict[str, tuple[str, str | None, int]]:
    """Each package of `lock`: (version, marker, number of hashes)."""
    found: dict[str, tuple[str, str | None, int]] = {}
    name = ""
    for line in (REPO_ROOT / lock).read_text().splitlines():
        if match := PIN.match(line):
            name = canonicalize_name(match[1])
            found[name] = (match[2], match[3], 0)
        elif line.strip().startswith("--hash=sha256:"):
            version, marker, hashes = found[name]
            found[name] = (version, marker, hashes + 1)
    return found


def requirements(lock: str) -> list[Requirement]:
    table, key = LOCKS[lock]
    listed = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())[table][key]
    return [Requirement(text) for text in listed]


@pytest.mark.parametrize("lock", LOCKS)
def test_every_requirement_is_pinned_within_its_bounds_with_hashes(lock: str) -> None:
    locked = pins(lock)
    assert locked, f"{lock} holds no pins: run scripts/lock"
    for requirement in requirements(lock):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is missing from {lock}: run scripts/lock"
        version, _, _ = locked[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{name}=={version} in {lock} is outside pyproject.toml's {requirement.specifier}: run scripts/lock"
        )
    assert all(hashes >= 1 for _, _, hashes in locked.values()), "every pin has its hashes"


def uv() -> str | None:
    return shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


@pytest.mark.skipif(uv() is None, reason="uv is a dev dependency (PyPI uv): pip install -e '.[dev]'")
def test_scripts_lock_makes_the_same_file_again(tmp_path: Path) -> None:
    """The lock's own command, run on a copy, keeps every pin: nothing in pyproject.toml was added,
    dropped or re-bounded since. (It asks the package index, as any resolution does.)"""
    for name in ("pyproject.toml", *LOCKS, "scripts/lock"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(REPO_ROOT / name, tmp_path / name)
    done = subprocess.run(
        ["bash", "scripts/lock"],
        cwd=tmp_path,
        env=os.environ | {"PATH": f"{Path(str(uv())).parent}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for lock in LOCKS:
        again = (tmp_path / lock).read_text()
        assert again == (REPO_ROOT / lock).read_text(), (
            f"{lock} is out of step with pyproject.toml: run scripts/lock"
        )
