"""SIGTERM (a deploy, `systemctl stop`) shuts the bot down in order: exit status 0, no error logged.
The bot runs on uvloop (bot/eventloop.py), whose signal handling this exercises. It serves /healthz
and /metrics on every address (METRICS_HOST=0.0.0.0; the default, this machine only, is
test_health_metrics.py's), where `python -m bot healthcheck` finds it."""

from __future__ import annotations

from tests.e2e.fakediscord import FakeDiscord
from tests.support.command_line import CommandLine
from tests.support.processes import bot_env, free_port, listens, running_bot
from tests.support.table import live_buttons, subprocess_table, turn_state, wait_for_turn_or_end


async def test_sigterm_after_game_activity_exits_cleanly(
    fake: FakeDiscord, database_url: str, cli: CommandLine
) -> None:
    table = subprocess_table(fake, database_url)
    port = free_port()
    env = bot_env(fake, database_url, METRICS_PORT=str(port), METRICS_HOST="0.0.0.0")
    async with running_bot(fake, env) as bot:
        await listens(bot, "0.0.0.0", port, cli)
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        message = await wait_for_turn_or_end(table)
        before = turn_state(table.channel)
        await table.alice.click(message, live_buttons(message)[0].label)
        await wait_for_turn_or_end(table, after=before)
        status = await bot.terminate()
        output = bot.output()
    assert status == 0, output
    assert "level=ERROR" not in output and "Traceback" not in output, output
    assert "msg=stopped" in output, output
    assert "event loop: uvloop" in output, output
