"""The one error handler: an unexpected failure in a command or a button is logged under a short
reference, and the member is answered with that reference; the game stays as stored."""

from __future__ import annotations

import logging
import re

import pytest

from bot.core import stats
from tests.support.processes import stored_games
from tests.support.table import Table, seat_button_id, seat_offer, wait_for_turn_or_end

ANSWER = re.compile(r"^Something went wrong \(ref ([0-9a-f]{6})\)\. The game is saved\.$")


def broken(*_: object, **__: object) -> None:
    raise RuntimeError("the database went away")


async def test_a_failing_command_answers_with_a_reference_that_is_in_the_log(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats, "member_stats", broken)
    with caplog.at_level(logging.ERROR):
        reply = await table.alice.slash(table.channel, "pachisi stats")
    found = ANSWER.match(reply.content)
    assert reply.ephemeral and found is not None, reply.content
    logged = [r for r in caplog.records if f"ref={found[1]}" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None


async def test_a_failing_button_answers_with_a_reference_and_changes_nothing(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy")
    await wait_for_turn_or_end(table)
    (before,) = await stored_games(table.database_url)
    monkeypatch.setattr(table.bot.service, "join", broken)
    with caplog.at_level(logging.ERROR):
        card = seat_offer(table.channel)
        assert card is not None
        reply = await table.bob.click(card, custom_id=seat_button_id(card))
    found = ANSWER.match(reply.followups[0].content if reply.followups else reply.content)
    assert found is not None, reply.content
    assert any(f"ref={found[1]}" in r.getMessage() for r in caplog.records)
    (after,) = await stored_games(table.database_url)
    assert after.snapshot == before.snapshot
