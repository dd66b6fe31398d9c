"""Missing permissions and deleted channels: clear words for the user, nothing lost, nothing crashes."""

from __future__ import annotations

from collections.abc import Callable

from localdiscord.server import Message
from tests.e2e.helpers import (
    Table,
    check_move_log,
    stored_games,
    turn_message,
    wait_for_game,
    wait_for_turn_or_end,
)


async def test_start_without_attach_files_says_what_is_missing_and_starts_nothing(table: Table) -> None:
    table.fake.deny_bot(table.channel, "attach_files")
    reply = await table.alice.slash(table.channel, "pachisi start")
    assert reply.ephemeral
    assert "attach files" in reply.content
    assert await stored_games(table.database_url) == []


def changed_from(table: Table, before: Message) -> Callable[[], Message | None]:
    """A wait condition: the turn message now offers moves, or it was updated, or a newer one is up."""
    edits = len(before.edits)

    def check() -> Message | None:
        m = turn_message(table.channel)
        changed = m is not None and (m.id != before.id or len(m.edits) != edits)
        return m if m is not None and (changed or m.buttons[0].label != "Throw") else None

    return check


async def test_a_refused_post_mid_game_is_explained_and_the_move_is_kept(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy")
    message = await wait_for_turn_or_end(table)
    # Throw until a throw offers a choice (a throw with no move passes and posts the next turn).
    while [b.label for b in message.buttons if b.label != "Take a seat"] == ["Throw"]:
        await table.alice.click(message, "Throw", wait=False)
        message = await table.fake.wait_until(changed_from(table, message), what="the next state")
    # The next turn's post is refused, as when Send Messages is taken away mid-game.
    table.fake.fail_next("POST", "/channels/{id}/messages", status=403, code=50013, times=20)
    table.fake.fail_next("PATCH", "/channels/{id}/messages/{m}", status=403, code=50013, times=20)
    choice = next(b.label for b in message.buttons if b.label and b.label.startswith("A:"))
    reply = await table.alice.click(message, choice)
    said = await table.fake.wait_until(
        lambda: next((f.content for f in reply.followups if "Send Messages" in f.content), None),
        what="the explanation",
    )
    assert "/pachisi throw" in said
    assert all(f.ephemeral for f in reply.followups)
    (game,) = await stored_games(table.database_url)
    assert game.view.status == "active" and game.view.turn_number >= 1  # the move was kept
    check_move_log(game)
    table.fake.server.faults.clear()
    board = await table.alice.slash(table.channel, "pachisi board")
    assert board.ephemeral and board.attachments


async def test_a_deleted_channel_abandons_its_game(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy")
    await wait_for_turn_or_end(table)
    table.fake.delete_channel(table.channel)
    await wait_for_game(table.database_url, lambda g: g.view.status == "abandoned", what="the game abandoned")
