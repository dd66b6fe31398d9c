"""Missing permissions and deleted channels: clear words for the user, nothing lost, nothing crashes."""

from __future__ import annotations

from collections.abc import Callable

from localdiscord.objects import Message
from tests.support.driver import Reply
from tests.support.processes import check_move_log, stored_games, wait_for_game
from tests.support.table import (
    Table,
    live_buttons,
    player_to_move,
    turn_message,
    turn_state,
    wait_for_turn_or_end,
)


async def test_start_without_attach_files_says_what_is_missing_and_starts_nothing(table: Table) -> None:
    table.fake.deny_bot(table.channel, "attach_files")
    reply = await table.alice.slash(table.channel, "pachisi start")
    assert reply.ephemeral
    assert "Attach Files" in reply.content
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
    """A click is answered through its own interaction, and the message that asks the next member to
    play is its followup; when Discord refuses the followup (its token no longer valid), the bot
    posts through the channel, which may be refused too (Send Messages taken away mid-game)."""
    # Every piece on the board from the start: a choice comes with almost every throw.
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy", rules="start_on_board=4")
    message = await wait_for_turn_or_end(table)
    edits = len(message.edits)
    await table.bob.slash(table.channel, "pachisi join", seat="yellow")  # both throw for themselves
    # Alice's turn stays on its message, redrawn with Bob's name after the news is told
    await table.fake.wait_until(lambda: len(message.edits) > edits, what="the turn message redrawn")
    # Play on until Alice has a choice to make; then her move hands the turn to Bob, in a new post.
    while True:
        labels = [b.label or "" for b in live_buttons(message)]
        member = await player_to_move(table, message, [table.alice, table.bob])
        if member is table.alice and labels != ["Throw"]:
            break
        before = turn_state(table.channel)
        await member.click(message, labels[0])
        message = await wait_for_turn_or_end(table, after=before)
    turns = "custom_id"  # a turn message has buttons; the explanation has none
    table.fake.fail_next("POST", "/webhooks/{a}/{t}", status=404, code=10015, times=20, body_contains=turns)
    table.fake.fail_next("POST", "/channels/{id}/messages", status=403, code=50013, times=20)
    table.fake.fail_next("PATCH", "/channels/{id}/messages/{m}", status=403, code=50013, times=20)
    said = None
    while said is None:  # Alice plays (her graces on the same message) until the turn is Bob's
        edits = len(message.edits)
        reply = await table.alice.click(message, (live_buttons(message)[0].label or ""))

        def explained_or_updated(reply: Reply = reply, edits: int = edits) -> object:
            return next((f.content for f in reply.followups if "Send Messages" in f.content), None) or (
                len(message.edits) > edits and live_buttons(message) and "again"
            )

        outcome = await table.fake.wait_until(
            explained_or_updated, what="the explanation or Alice's next choice"
        )
        said = None if outcome == "again" else str(outcome)
    assert "/pachisi throw" in said
    assert all(f.ephemeral for f in reply.followups)
    (game,) = await stored_games(table.database_url)
    assert (
        game.snapshot.status == "active" and game.snapshot.user_to_move() == table.bob.id
    )  # the move was kept
    check_move_log(game)
    table.fake.server.faults.clear()
    board = await table.bob.slash(table.channel, "pachisi board")
    assert board.ephemeral and board.attachments
    thrown = await table.bob.slash(table.channel, "pachisi throw")  # the game goes on by command
    assert thrown.ephemeral


async def test_a_deleted_channel_abandons_its_game(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy")
    await wait_for_turn_or_end(table)
    table.fake.delete_channel(table.channel)
    await wait_for_game(
        table.database_url, lambda g: g.snapshot.status == "abandoned", what="the game abandoned"
    )
