"""Database fixtures: a fresh SQLite file per test, and a real PostgreSQL server when one is reachable;
and a check that a compiled engine is no older than its source (engine/build.py).

Store and service tests take `db_url` (or `store`), which runs them once on each database. PostgreSQL
comes from PACHISI_TEST_POSTGRES_URL (`source scripts/postgres-up` starts one); without it those
tests are skipped, saying why. Each PostgreSQL test gets an empty `public` schema.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest

try:
    from _pytest.nodeid import NodeId  # pytest 9
except ImportError:  # pytest 8: `item._nodeid` is the node id itself
    NodeId = None  # type: ignore[assignment,misc]

from bot.core.store import Store
from engine import build
from tests.support import stores


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test a compiled engine older than its source: the tests would run the old code.

    The doctests of a compiled module cannot be collected from its source (Python loads the
    compiled one), so its source is left out of collection, not skipped there: they run on a plain
    copy of the engine (tests/engine/test_build.py)."""
    message = build.stale_message()
    if message:
        pytest.exit(message, returncode=2)
    engine = Path(build.__file__).resolve().parent
    sources = [str(engine / f"{name}.py") for name in build.compiled_modules()]
    config.option.ignore = [*(config.option.ignore or []), *sources]


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Generator[None]:
    """The long tests (`slow`) go first, so that under pytest-xdist they start at once and the
    short ones fill the other workers around them, rather than one of them ending the run late.
    Under `--dist loadgroup`, the tests that stop a PostgreSQL server of their own run on one
    worker, one after another, on one such server (e2e/conftest.py), as do each browser module's
    (local/conftest.py)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first
    for item in items:
        if "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("private_postgres"))
    yield  # pytest-xdist names each item's group here
    for item in items:
        keep_group(item)


def keep_group(item: pytest.Item) -> None:
    """pytest-xdist 3.8 (`--dist loadgroup`) names an item's group by writing `item._nodeid`, which
    pytest 9 no longer reads (its node ids are `item._id`): without this its groups are ignored."""
    grouped = item.__dict__.get("_nodeid")
    if NodeId is not None and isinstance(grouped, str) and grouped != item.nodeid:
        item._id = NodeId.parse(grouped)


def pytest_report_header() -> str:
    return f"engine: {build.describe()}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return stores.sqlite_url(tmp_path)


@pytest.fixture
async def postgres_url(request: pytest.FixtureRequest) -> str:
    """An empty database on the test server: the worker's own under pytest-xdist; on a server of
    the test's own when the test also takes `postgres_server` (it stops and starts it)."""
    url = stores.postgres_server_url()
    if url is None:
        pytest.skip(
            f"{stores.POSTGRES_ENV} is not set: no PostgreSQL server (run `source scripts/postgres-up`)"
        )
    try:
        if "postgres_server" in request.fixturenames:
            url = request.getfixturevalue("postgres_server").url
        elif worker := os.environ.get("PYTEST_XDIST_WORKER"):
            url = await stores.own_database(url, worker)
        await stores.empty_postgres(url)
    except OSError as exc:
        pytest.skip(f"PostgreSQL at {url} is not reachable: {exc}")
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes this runs on SQLite and on PostgreSQL."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """A store on a database migrated to head by the real migrations."""
    async for migrated in stores.migrated_store(db_url):
        yield migrated


@pytest.fixture
async def sqlite_store(sqlite_url: str) -> AsyncIterator[Store]:
    """A store on a SQLite file migrated to head: for what only SQLite needs to show."""
    async for migrated in stores.migrated_store(sqlite_url):
        yield migrated
