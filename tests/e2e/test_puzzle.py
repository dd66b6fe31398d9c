"""The daily puzzle end to end: a member answers as days go by (the bot's clock moved, not slept
through), keeps and loses a streak, is refused kindly, and a server gets its daily post."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

import pytest

from bot.core.puzzles import day_of, number_on, the_set
from bot.core.texts import ENGLISH
from bot.core.texts.board import choice_button
from engine.puzzles import Puzzle
from localdiscord.objects import Message
from tests.e2e.pseudolanguage import PSEUDO, foreign, seen_texts
from tests.support.driver import Member, Reply
from tests.support.table import MovableClock, Table

DAY = 24 * 3600


@pytest.fixture
async def clock() -> MovableClock:
    """The bot's clock at the next noon (UTC), so no test day ends while the test runs."""
    clock = MovableClock()
    now = clock.now()
    noon = datetime.datetime.combine(now.date(), datetime.time(12), datetime.UTC)
    clock.advance(((noon - now).total_seconds()) % DAY)
    return clock


@pytest.fixture
async def puzzle_table(
    start_table: Callable[..., AbstractAsyncContextManager[Table]], clock: MovableClock
) -> AsyncIterator[Table]:
    async with start_table(clock=clock) as table:
        yield table


def todays(clock: MovableClock) -> tuple[int, Puzzle]:
    number = number_on(day_of(clock.now()))
    return number, the_set()[number - 1]


def label(puzzle: Puzzle, *, right: bool) -> str:
    """The button of the best move, or of another one."""
    moves = puzzle.moves()
    move = puzzle.best if right else next(m for m in moves if m != puzzle.best)
    return choice_button(ENGLISH, moves.index(move), puzzle.position, move)


def text(reply: Reply) -> str:
    return reply.followups[-1].content if reply.followups else reply.content


async def ask(table: Table, member: Member) -> Message:
    reply = await member.slash(table.channel, "pachisi puzzle")
    assert reply.ephemeral and reply.message is not None
    assert [a.filename for a in reply.attachments] == ["puzzle.png"]
    return reply.message


async def answer(table: Table, member: Member, clock: MovableClock, *, right: bool) -> str:
    """Ask for today's puzzle, click a choice; the verdict that replaced the question."""
    message = await ask(table, member)
    number, puzzle = todays(clock)
    assert message.content.startswith(f"**Daily puzzle #{number}** ({day_of(clock.now()).isoformat()}): ")
    labels = [b.label for b in message.buttons]
    assert labels == [choice_button(ENGLISH, i, puzzle.position, m) for i, m in enumerate(puzzle.moves())]
    reply = await member.click(message, label(puzzle, right=right))
    assert reply.message is message and not message.buttons  # the question became the verdict
    assert message.content.startswith("✅ **Right!**" if right else "❌ **Not this time.**"), message.content
    assert "`/pachisi rules section:Strategy`" in message.content
    return message.content


async def stats_line(table: Table, member: Member) -> str:
    reply = await member.slash(table.channel, "pachisi stats")
    return next(line for line in reply.content.splitlines() if line.startswith("Daily puzzle"))


async def test_a_member_keeps_a_streak_loses_it_to_a_missed_day_and_to_a_wrong_answer(
    puzzle_table: Table, clock: MovableClock
) -> None:
    table, alice = puzzle_table, puzzle_table.alice
    assert await stats_line(table, alice) == "Daily puzzle: none answered yet (`/pachisi puzzle`)."
    verdict = await answer(table, alice, clock, right=True)
    assert "Your streak: 1 day in a row (best 1)." in verdict

    # Asking again the same day shows the result, not a second try.
    again = await ask(table, alice)
    assert not again.buttons and again.content == verdict

    clock.advance(DAY)
    assert "Your streak: 2 days in a row (best 2)." in await answer(table, alice, clock, right=True)
    assert await stats_line(table, alice) == "Daily puzzle: streak 2 (best 2), 2 solved of 2 answered."

    clock.advance(2 * DAY)  # a day without an answer: the streak is over, the best is kept
    assert await stats_line(table, alice) == "Daily puzzle: streak 0 (best 2), 2 solved of 2 answered."
    assert "Your streak: 1 day in a row (best 2)." in await answer(table, alice, clock, right=True)

    clock.advance(DAY)
    assert "Your streak: 0 days in a row (best 2)." in await answer(table, alice, clock, right=False)
    assert await stats_line(table, alice) == "Daily puzzle: streak 0 (best 2), 3 solved of 4 answered."


async def test_a_second_answer_an_old_button_a_forged_one_and_anothers_puzzle_are_refused(
    puzzle_table: Table, clock: MovableClock
) -> None:
    table, alice, bob = puzzle_table, puzzle_table.alice, puzzle_table.bob
    number, puzzle = todays(clock)
    first, second = await ask(table, alice), await ask(table, alice)  # two copies of today's question
    right = first.button(label(puzzle, right=True)).custom_id

    mine = await bob.click(first, label(puzzle, right=True))  # not his: nothing counts
    assert mine.ephemeral and text(mine).startswith("That puzzle was sent to another member")
    assert first.buttons

    for forged in (
        right.replace(f":{number}:", f":{number % len(the_set()) + 1}:", 1),  # another puzzle's number
        right.replace(str(puzzle.best), "black:1-99"),  # no such move
        f"pachisi:puzzle:{number}:0:{alice.id}:{puzzle.best}",  # no such day
        f"pachisi:puzzle:{number}:{day_of(clock.now()).toordinal()}:{alice.id}:pass",
    ):
        refused = await alice.press(first, forged)
        assert text(refused).startswith("That is not a button of today's puzzle"), forged

    await alice.click(first, label(puzzle, right=True))
    refused = await alice.click(second, label(puzzle, right=False))  # the other copy: one answer counts
    assert refused.ephemeral and text(refused).startswith("You have answered today's puzzle already")
    assert second.buttons  # the refused copy stays as it was
    assert await stats_line(table, alice) == "Daily puzzle: streak 1 (best 1), 1 solved of 1 answered."

    clock.advance(DAY)
    old = await alice.press(second, right)
    assert text(old) == "That was an earlier day's puzzle: `/pachisi puzzle` shows today's."
    assert await stats_line(table, alice) == "Daily puzzle: streak 1 (best 1), 1 solved of 1 answered."


async def test_the_daily_post_goes_where_an_admin_chose_and_pings_only_who_asked(
    puzzle_table: Table, clock: MovableClock
) -> None:
    table, alice, bob = puzzle_table, puzzle_table.alice, puzzle_table.bob
    refused = await bob.slash(table.channel, "pachisi puzzle-channel")
    assert text(refused).startswith("Only a member with Manage Channels")

    table.fake.server.set_moderator(table.guild.record, alice.record, True)
    posts = table.guild.add_text_channel("puzzles")
    reply = await alice.slash(posts, "pachisi puzzle-channel")
    assert reply.ephemeral and f"<#{posts.id}>" in text(reply)
    number, _ = todays(clock)
    first = await table.fake.wait_until(lambda: next(iter(posts.messages), None), what="today's post")
    assert first.content.startswith(f"🧩 The daily Pachisi puzzle #{number} ")
    assert first.pinged == []

    reply = await bob.slash(table.channel, "pachisi puzzle-ping", ping="on")
    assert text(reply) == "The daily puzzle post in this server will ping you."
    clock.advance(DAY)
    second = await table.fake.wait_until(
        lambda: posts.messages[1:2] and posts.messages[1], what="the next post"
    )
    assert second.pinged == [bob.id] and f"<@{bob.id}>" in second.content
    assert second.content.startswith(f"🧩 The daily Pachisi puzzle #{todays(clock)[0]} ")

    await alice.slash(posts, "pachisi puzzle-channel", post="off")
    clock.advance(DAY)
    cog = table.bot.get_cog("Puzzle")
    await cog.post_due([table.guild.id])  # what the bot does at midnight, done here to wait for it
    assert len(posts.messages) == 2


async def test_the_puzzle_and_its_verdict_are_all_the_catalogs_words(
    pseudo_language: None, puzzle_table: Table, clock: MovableClock
) -> None:
    """A member whose Discord speaks the pseudo-language: the question, the verdict, a refusal, the
    stats and the season's leaderboard all come from the catalog (tests/e2e/test_languages.py)."""
    table, alice = puzzle_table, puzzle_table.alice
    alice.record.locale = PSEUDO
    message = await ask(table, alice)
    assert "⟦" in message.content
    _, puzzle = todays(clock)
    [right] = [b for b in message.buttons if b.custom_id and b.custom_id.endswith(f":{puzzle.best}")]
    await alice.click(message, custom_id=right.custom_id)
    assert "✅" in message.content and not message.buttons
    refused = await alice.press(message, right.custom_id or "")
    assert "⟦" in text(refused)
    for command in ("pachisi stats", "pachisi leaderboard", "pachisi puzzle"):
        assert "⟦" in text(await alice.slash(table.channel, command))
    texts = [text for text in seen_texts(table) if text]
    assert message.content in texts  # the answers only she sees are read too
    stray = {t: words for t in texts if (words := foreign(t, {alice.name, table.bob.name}))}
    assert not stray, "\n".join(f"{words}: {t!r}" for t, words in stray.items())
