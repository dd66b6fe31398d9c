"""The fake Discord refuses, as Discord would, every request its official OpenAPI spec rejects."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from localdiscord.objects import API
from tests.e2e import openapi
from tests.e2e.fakediscord import FakeDiscord


async def send(fake: FakeDiscord, method: str, path: str, **kwargs: object) -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.url + API + path, headers=headers, **kwargs) as response,  # type: ignore[arg-type]
    ):
        return response.status, await response.json()


async def test_requests_outside_the_spec_are_refused_and_fail_the_test() -> None:
    with pytest.raises(AssertionError, match="requests real Discord would reject") as failed:
        async with FakeDiscord.start() as fake:
            channel = fake.add_guild().add_text_channel("games")
            status, body = await send(fake, "POST", f"/channels/{channel.id}/messages", json={"content": 5})
            assert (status, body["code"]) == (400, 50035)
            status, _ = await send(fake, "GET", f"/channels/{channel.id}/messages", params={"limit": "500"})
            assert status == 400
            status, _ = await send(fake, "POST", f"/channels/{channel.id}/pins/1")
            assert status == 400
            status, _ = await send(fake, "POST", f"/channels/{channel.id}/messages", json={"content": "fine"})
            assert status == 200
    report = str(failed.value)
    assert "content: 5 is not of type" in report
    assert "query limit='500'" in report
    assert "no such path and method" in report
    assert report.count("\n") == 3  # the valid request is not in it


async def test_the_fake_keeps_its_stricter_limits_where_the_spec_is_laxer() -> None:
    async with FakeDiscord.start() as fake:
        channel = fake.add_guild().add_text_channel("games")
        status, body = await send(
            fake, "POST", f"/channels/{channel.id}/messages", json={"content": "x" * 2001}
        )
        assert (status, body["code"]) == (400, 50035)  # Discord's 2,000; the spec allows 4,000
        assert fake.server.spec_violations == []


def test_a_missing_spec_file_is_an_error_that_says_where_it_belongs(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="ships with the tests"):
        openapi.read(tmp_path / "openapi.json")


def test_the_spec_ships_with_the_tests_with_its_licence() -> None:
    assert openapi.SPEC.is_file() and (openapi.SPEC.parent / "LICENSE").is_file()
    spec = openapi.load()
    assert spec.document["info"]["version"] == "10"
    assert spec.document["info"]["license"]["identifier"] == "MIT"
