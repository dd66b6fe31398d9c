"""The bot process dies (SIGKILL) mid-game; a new process picks the game up where it was."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from sqlalchemy import make_url, select

from bot.core.store import GameRow, Store
from tests.e2e.fakediscord import FakeDiscord
from tests.support.command_line import CommandLine
from tests.support.processes import (
    bot_env,
    check_move_log,
    running_bot,
    stored_games,
    wait_for,
    wait_for_game,
)
from tests.support.table import (
    WHOLE_GAME,
    Table,
    final_message,
    subprocess_table,
    wait_for_turn_or_end,
)


async def test_killed_while_the_computers_play(
    fake: FakeDiscord, database_url: str, cli: CommandLine, tmp_path: Path
) -> None:
    """Also `restore` against the process: refused while it runs (each `python -m bot run` holds
    the database's lock for its life, bot/backup.py), done once the kill has ended it; and the
    killed bot's worker processes end with it (bot/core/workers.py)."""
    table = subprocess_table(fake, database_url)
    # The computers play up to 200 throws a step (MAX_THROWS_AT_ONCE), each after their pace: a
    # second's pace between steps is the window for the kill below. Without it the steps follow
    # at once and, on a busy machine, a poll could first look after the game had ended.
    env = bot_env(fake, database_url, COMPUTER_PACE_SECONDS="1")
    async with running_bot(fake, env) as bot:
        # Four pieces a seat: some 460 throws, three steps.
        await table.alice.slash(table.channel, "pachisi start", players=4, pieces=4, level="easy")
        await wait_for_turn_or_end(table)
        await table.alice.slash(table.channel, "pachisi leave")  # four computers play on

        # One open store and a one-column read keep the polls quick.
        store = Store(database_url)
        try:

            async def ten_throws() -> int:
                played = await throws_stored(store)
                return played if played >= 10 else 0

            played = await wait_for(ten_throws, what="ten throws stored")
            live_copy = tmp_path / "live.sqlite3"
            assert cli("backup", str(live_copy), DATABASE_URL=database_url).status == 0
            refused = cli("restore", str(live_copy), DATABASE_URL=database_url)
            database = make_url(database_url).database
            assert f"restore refused: a bot is running on {database}" in refused.err, refused.err
            workers = children(bot.pid or 0)
            assert workers, "the bot's worker pool is running"
            await bot.kill()
            killed_at = await throws_stored(store)
        finally:
            await store.close()
        assert killed_at >= played

        async def workers_gone() -> bool:
            return not any(alive(pid) for pid in workers)

        await wait_for(workers_gone, what="the killed bot's worker processes to end with it")
        [game] = await stored_games(database_url)
        assert game.snapshot.status == "active", "the computers finished before the kill"
        check_move_log(game)
        killed_copy = tmp_path / "killed.sqlite3"  # the game as the kill left it, put back as it was
        assert cli("backup", str(killed_copy), DATABASE_URL=database_url).status == 0
        restored = cli("restore", str(killed_copy), DATABASE_URL=database_url)
        assert restored.status == 0, restored.err  # the lock went with the killed process
        bot.child.env["COMPUTER_PACE_SECONDS"] = "0"  # the window was the kill's: now play on at once
        await bot.start()
        final = await fake.wait_until(  # a posted "… is playing" has the result's shape until edited
            lambda: (
                ((m := final_message(table.channel)) is not None and "Throws:" in m.content and m) or None
            ),
            timeout=WHOLE_GAME,  # the computers play the rest of the game
            what="the computers' game finished after the restart",
        )
        assert "Throws:" in final.content
    [game] = await stored_games(database_url)
    check_move_log(game)
    assert game.snapshot.status == "finished"
    assert game.snapshot.turn_number > killed_at
    assert "Throws: " + str(game.snapshot.turn_number) in final.content


def stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat's fields after the command's name (state, parent, ...); None once gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> set[int]:
    """The processes `pid` started (the bot's worker pool and multiprocessing's resource tracker)."""
    found = {int(entry) for entry in os.listdir("/proc") if entry.isdigit()}
    return {child for child in found if (fields := stat_fields(child)) and fields[1] == str(pid)}


def alive(pid: int) -> bool:
    """Running, neither gone nor a zombie waiting to be reaped."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


async def throws_stored(store: Store) -> int:
    """The stored throw count of the only game."""
    async with store.transaction() as session:
        return (await session.execute(select(GameRow.turn_number))).scalar_one()


async def test_a_resumed_game_draws_the_members_names_as_before(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    """Display names were kept in memory only: after a restart the board's panels read "Player
    5823" until the member acted again, and the card "Player 5823's table". They are stored with
    the seats (and the starter's with the game), so a resumed game draws the same names. A new bot
    in this process starts with nothing in memory as a new process does."""
    async with start_table() as table:
        carol = table.guild.add_member("Carol")  # an onlooker: asking for the board tells nobody's name
        await table.alice.slash(table.channel, "pachisi start", players=4, pieces=4, level="easy")
        await wait_for_turn_or_end(table)  # Alice to throw: nothing moves until she does
        await table.bob.slash(table.channel, "pachisi join", seat="red")
        await wait_for_game(
            table.database_url, lambda g: g.snapshot.seats[1].user_id == table.bob.id, what="Bob's seat"
        )
        [before] = (await carol.slash(table.channel, "pachisi board")).attachments

    async with start_table() as table:
        [after] = (await carol.slash(table.channel, "pachisi board")).attachments
        assert after.data == before.data  # the same picture: the same names on the same panels

        card = table.channel.messages[0]
        await table.bob.slash(table.channel, "pachisi leave")  # the card shows the seats anew
        await table.fake.wait_until(lambda: "Red: Computer" in card.content, what="the card after Bob left")
        assert card.content.startswith("**Pachisi: Alice's table**"), card.content
