"""The Hint button, end to end: only the member to move may use it, the answer is ephemeral, and it
names the move `hard` would play by its letter on the board."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from random import Random

from PIL import Image

from bot.cogs.pachisi.hints import chances_line
from bot.core.texts import ENGLISH
from bot.core.texts.board import move_steps
from engine import Position, parse_move
from engine.players import HardPlayer
from engine.winchance import story
from render import choice_label
from render.chart import line_colours, point
from tests.support.driver import Reply
from tests.support.processes import stored_games
from tests.support.table import (
    HINT_BUTTON,
    Table,
    final_message,
    is_final,
    live_buttons,
    turn_state,
    wait_for_turn_or_end,
)

ON_BOARD = "start_on_board=4"
"""Every piece on the board from the start: Alice's first throw offers a choice, almost always."""


async def _alice_has_a_choice(table: Table) -> None:
    """Play Alice's turns until she has thrown and has a move to play (the dice are not seeded)."""
    rng = random.Random(11)
    for _ in range(200):
        message = await wait_for_turn_or_end(table)
        assert not is_final(message)
        labels = [b.label or "" for b in live_buttons(message)]
        if labels != ["Throw"]:
            return
        before = turn_state(table.channel)
        await table.alice.click(message, "Throw" if labels == ["Throw"] else rng.choice(labels))
        await wait_for_turn_or_end(table, after=before)
    raise AssertionError("Alice never had a choice")


async def test_the_hint_answers_the_member_to_move_alone_with_hards_letter(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, level="easy", rules=ON_BOARD)
    await _alice_has_a_choice(table)
    message = await wait_for_turn_or_end(table)
    assert HINT_BUTTON in [b.label for b in message.buttons]
    seen = len(table.channel.messages)

    refused = await table.bob.click(message, HINT_BUTTON)
    assert refused.ephemeral and refused.content == "Only the player to move can ask for a hint."

    reply = await table.alice.click(message, HINT_BUTTON)
    assert reply.ephemeral
    [game] = await stored_games(table.database_url)
    snapshot = game.snapshot
    assert snapshot.pending_throw is not None
    moves = snapshot.legal_moves()
    best = HardPlayer().choose(snapshot.position, snapshot.pending_throw, moves, Random(0))
    text = reply.followups[-1].content if reply.followups else reply.content
    assert text.startswith(f"**Hint**: play **{choice_label(moves.index(best))}**,"), text
    assert "chance to win" in text
    for index in range(len(moves)):
        assert f"\n**{choice_label(index)}** {move_steps(ENGLISH, snapshot.position, moves[index])}, " in text
    assert len(table.channel.messages) == seen  # nothing posted for the channel to see
    [game] = await stored_games(table.database_url)
    assert (
        game.snapshot.seats[0].hints_used == 1 and game.snapshot.seats[1].hints_used == 0
    )  # Bob's not counted

    # The hint changed nothing: Alice still plays her turn, and the Hint goes with it.
    before = turn_state(table.channel)
    hint = message.button(HINT_BUTTON)
    await table.alice.click(message, live_buttons(message)[0].label)
    await wait_for_turn_or_end(table, after=before)
    # The message was updated for the next turn (or closed); a client still showing the old Hint
    # clicks it.
    data = {"custom_id": hint.custom_id, "component_type": 2}
    channel = table.fake.server.channels[message.channel_id]
    sent = await table.fake.server.send_interaction(
        3, table.alice.record, channel, data, message, forged=True
    )
    stale = await Reply(sent).wait()
    assert stale.ephemeral and "already played" in (
        stale.followups[-1].content if stale.followups else stale.content
    )


async def test_the_board_shows_the_chances_under_the_picture(table: Table) -> None:
    await table.alice.slash(table.channel, "pachisi start", players=4, pieces=2, level="easy")
    await wait_for_turn_or_end(table)
    reply = await table.alice.slash(table.channel, "pachisi board")
    assert reply.ephemeral and reply.attachments[0].filename == "board.png"
    [embed] = reply.embeds
    assert embed["image"]["url"] == "attachment://board.png"
    [game] = await stored_games(table.database_url)
    assert embed["footer"]["text"] == chances_line(ENGLISH, game.snapshot)
    assert embed["footer"]["text"].startswith("Chance to win: Black + Yellow ")


async def test_the_result_carries_the_games_story(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    async with start_table() as table:
        await table.alice.slash(table.channel, "pachisi start", players=2, pieces=1, level="easy")
        await table.alice.slash(table.channel, "pachisi leave")  # the computers play it to its end
        final = await table.fake.wait_until(lambda: final_message(table.channel), what="the result")
        [game] = await stored_games(table.database_url)
    names = [a.filename for a in final.attachments]
    assert names == ["board.png", "story.png"]
    chart = Image.open(io.BytesIO(final.attachments[1].data)).convert("RGB")
    record = [(row.throw, parse_move(row.move or "pass")) for row in game.moves]
    chances, _ = story(Position.initial(game.snapshot.rules), record)
    assert chances[-1] in (0.0, 1.0)  # the game is over: the line ends at 0 or 100 %
    winner_inner = line_colours(0, 2)[1]
    x, y = point(len(chances) - 1, chances[-1], len(chances))
    assert chart.getpixel((x - 1, y)) == winner_inner


async def test_a_game_without_hints_offers_neither_the_button_nor_the_chances(table: Table) -> None:
    await table.alice.slash(
        table.channel, "pachisi start", players=4, level="easy", hints=False, rules=ON_BOARD
    )
    await _alice_has_a_choice(table)
    message = await wait_for_turn_or_end(table)
    assert HINT_BUTTON not in [b.label for b in message.buttons]
    reply = await table.alice.slash(table.channel, "pachisi board")
    assert reply.attachments and "footer" not in reply.embeds[0]
    [game] = await stored_games(table.database_url)
    assert not game.snapshot.hints
