"""`python -m bot` with METRICS_PORT: /healthz follows the gateway and the database, and /metrics
counts a played game (bot/health.py, bot/core/metrics.py): what an operator watches, and every
metric the dashboard and the alert examples in deploy/ name. Where it listens, and the metrics of a
game, are read from the bot as a process (METRICS_HOST=0.0.0.0 in test_shutdown.py's); /healthz following the database and the gateway from the
same server (`health.serving`) in front of a bot in this process."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import health as health_server
from bot.client import PachisiBot
from bot.core.store import StoreUnavailable
from bot.health import action_of, command_of
from localdiscord.objects import Message
from tests.e2e.fakediscord import FakeDiscord
from tests.promql import alert_exprs, dashboard_exprs, exposed, metric_names
from tests.support.command_line import CommandLine
from tests.support.processes import (
    PostgresServer,
    bot_env,
    free_port,
    listens,
    running_bot,
    sqlite_locked,
    wait_for,
)
from tests.support.table import (
    WHOLE_GAME,
    Table,
    bot_settings,
    final_message,
    live_buttons,
    play_out,
    play_turns,
    subprocess_table,
    turn_state,
    wait_for_turn_or_end,
)

SAVED = str(StoreUnavailable())

COMMAND, COMPONENT = 2, 3
"""Discord's interaction types of a slash command and a button click."""


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def health(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
        return answer.status, await answer.json()


async def families(port: int) -> list[Any]:
    """/metrics, parsed: its metric families."""
    status, text = await get(port, "/metrics")
    assert status == 200, text
    return list(text_string_to_metric_families(text))


async def scrape(port: int) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of /metrics: (name, labels) -> value."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in await families(port)
        for sample in family.samples
    }


def by_label(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, label: str
) -> Counter[str]:
    """`name`'s samples by the value of `label` (those above 0)."""
    return Counter(
        {dict(have)[label]: int(value) for (found, have), value in samples.items() if found == name and value}
    )


def total(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(value for (found, have), value in samples.items() if found == name and wanted <= have)


async def health_becomes(port: int, status: int) -> dict[str, Any]:
    async def answer() -> dict[str, Any] | None:
        code, body = await health(port)
        return body if code == status else None

    found: dict[str, Any] = await wait_for(answer, what=f"/healthz to answer {status}")
    return found


async def test_metrics_after_a_played_game(fake: FakeDiscord, database_url: str, cli: CommandLine) -> None:
    """Alice plays by commands and buttons until she has clicked a move, then leaves the game to the
    computer, which plays it out (its decisions counted in the worker processes)."""
    table = subprocess_table(fake, database_url)
    # Discord says 429 to two posts through the channel (discord.py waits and posts again).
    fake.fail_next("POST", "/channels/{c}/messages", status=429, retry_after=0.2, times=2, bucket="f00d")
    port = free_port()
    async with running_bot(fake, bot_env(fake, database_url, METRICS_PORT=str(port))) as bot:
        await listens(bot, "127.0.0.1", port, cli)  # this machine only, unless METRICS_HOST says otherwise
        assert await health(port) == (200, {"status": "ok", "gateway": True, "database": True})
        # Four pieces, all on the board: with two, the computer never chose between two moves in
        # about 3 % of games; with none on the board, 40 of Alice's throws could bring no choice.
        await table.alice.slash(
            table.channel, "pachisi start", players=2, pieces=4, level="easy", rules="start_on_board=4"
        )
        await wait_for_turn_or_end(table)
        playing = await scrape(port)
        assert total(playing, "pachisi_games_open") == 1
        await play_by_commands(table, 3)  # shown through the channel
        for _ in range(MOVE_TURNS):  # by buttons, until Alice has clicked a Throw and a move
            if clicked(fake)["throw"] and clicked(fake)["move"]:
                break
            await play_turns(table, 1)
        await table.alice.slash(table.channel, "pachisi leave")  # the computer plays the rest
        final = await fake.wait_until(
            lambda: (m := final_message(table.channel)) is not None and "Throws:" in m.content and m,
            timeout=WHOLE_GAME,
            what="the computers' game finished",
        )
        assert isinstance(final, Message)
        await table.bob.slash(table.channel, "pachisi throw")  # not seated: refused
        clicks = clicked(fake)
        commands = Counter(command_of(i.payload["data"]) for i in fake.interactions if i.type == COMMAND)
        exposes = exposed(await families(port))
        after = await scrape(port)
    assert total(after, "pachisi_games_open") == 0
    assert by_label(after, "pachisi_clicks_total", "action") == clicks
    assert clicks["throw"] > 0 and clicks["move"] > 0
    assert by_label(after, "pachisi_commands_total", "command") == commands
    assert {"pachisi start", "pachisi throw", "pachisi leave"} <= set(
        commands
    )  # a typed move only where a choice came
    assert total(after, "pachisi_interaction_errors_total", kind="refused") >= 1  # Bob's throw
    assert total(after, "pachisi_interaction_errors_total", kind="unexpected") == 0
    assert total(after, "pachisi_gateway_connected") == 1
    assert total(after, "pachisi_guilds") == 1
    [latency] = [v for (name, labels), v in after.items() if name == "pachisi_gateway_latency_seconds"]
    assert math.isnan(latency) or 0 <= latency < 5  # NaN until the first heartbeat's answer
    assert total(after, "pachisi_gateway_disconnects_total") == 0
    for expr in dashboard_exprs() + alert_exprs():  # deploy/ names only metrics the bot has
        assert metric_names(expr) <= exposes, expr
    answered = total(after, "pachisi_click_to_answer_seconds_count")
    assert 0 < answered <= clicks.total()
    assert 0 < total(after, "pachisi_click_to_answer_seconds_sum") / answered < 3  # Discord's limit
    assert total(after, "pachisi_click_to_answer_seconds_bucket", le="+Inf") == answered
    decisions = total(after, "pachisi_computer_decision_seconds_count", level="easy")
    assert decisions > 0 and total(after, "pachisi_computer_decision_seconds_sum") / decisions < 1
    assert total(after, "pachisi_discord_rate_limited_total", bucket="f00d", scope="user") == 2
    assert total(after, "pachisi_discord_rate_limited_total") == 2
    assert total(after, "pachisi_database_errors_total") == 0


MOVE_TURNS = 40
"""Alice's turns by buttons at most until she has clicked a Throw and a move (with four pieces on
the board, a choice of moves comes within a few turns; her commands may leave a throw pending,
played by a move's button first)."""


def clicked(fake: FakeDiscord) -> Counter[str]:
    """The members' clicks so far, by the action of the button."""
    return Counter(
        action_of(i.payload["data"]["custom_id"]) for i in fake.interactions if i.type == COMPONENT
    )


async def play_by_commands(table: Table, turns: int) -> None:
    """Alice plays `turns` turns with /pachisi throw and /pachisi move, shown through the channel."""
    for _ in range(turns):
        message = await wait_for_turn_or_end(table)
        before = turn_state(table.channel)
        if [b.label for b in live_buttons(message)] == ["Throw"]:
            await table.alice.slash(table.channel, "pachisi throw")
        else:
            [(_, value), *_] = await table.alice.autocomplete(table.channel, "pachisi move", "choice", "")
            await table.alice.slash(table.channel, "pachisi move", choice=value)
        await wait_for_turn_or_end(table, after=before)


async def test_healthz_follows_postgres_stopped_and_back(
    fake: FakeDiscord,
    postgres_url: str,
    postgres_server: PostgresServer,
) -> None:
    table = subprocess_table(fake, postgres_url)
    port = free_port()
    bot = PachisiBot(bot_settings(fake, postgres_url), guild_ready_timeout=0.1)
    async with fake.running(bot), health_server.serving(bot, "127.0.0.1", port):
        assert (await health(port))[0] == 200
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        message = await wait_for_turn_or_end(table)
        errors = total(await scrape(port), "pachisi_database_errors_total")
        await postgres_server.stop()
        try:
            body = await health_becomes(port, 503)
            assert body == {"status": "unhealthy", "gateway": True, "database": False}
            await refused(table, message)
            assert total(await scrape(port), "pachisi_database_errors_total") > errors  # scrapes while down
        finally:
            await postgres_server.start()
        assert await health_becomes(port, 200) == {"status": "ok", "gateway": True, "database": True}
        await play_out(table, [table.alice], by="buttons")


async def refused(table: Table, message: Any) -> None:
    reply = await table.alice.click(message, live_buttons(message)[0].label, wait=False)
    answer = await table.fake.wait_until(
        lambda: reply.followups[-1] if reply.followups else reply.message, what="the answer to the click"
    )
    assert answer.ephemeral and answer.content == SAVED, answer.content


async def test_healthz_unhealthy_while_sqlite_is_locked(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The probe waits 2 s for the write lock; a third of a second here: what is checked is the
    # answer after the wait, not its length.
    monkeypatch.setattr(health_server, "PROBE_SECONDS", 0.3)
    port = free_port()
    async with start_table() as table, health_server.serving(table.bot, "127.0.0.1", port):
        assert (await health(port))[0] == 200
        async with sqlite_locked(database_url):
            assert await health(port) == (503, {"status": "unhealthy", "gateway": True, "database": False})
        assert await health_becomes(port, 200) == {"status": "ok", "gateway": True, "database": True}


async def test_healthz_says_when_the_gateway_is_closed(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    port = free_port()
    async with start_table() as table, health_server.serving(table.bot, "127.0.0.1", port):
        assert await health(port) == (200, {"status": "ok", "gateway": True, "database": True})
        await table.bot.close()  # what a bot that lost Discord for good looks like
        assert await health(port) == (503, {"status": "unhealthy", "gateway": False, "database": True})
