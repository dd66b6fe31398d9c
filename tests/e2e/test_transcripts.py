"""Golden transcripts of the Discord side: what each member reads of the answers the commands and
views compose themselves, in English and in Hindi, committed for review.

The game's own messages (the table card, the turns, the seats' news, the result) are the table
layer's, and their golden transcript is tests/table/test_transcripts.py, which plays a whole game
over the in-memory chat. Here two members, Asha and Ravi, use through the fake Discord every
command whose answer the Discord side makes (help, rules, auto, typed throws and moves, the Hint,
board, the resign and end confirmations, the daily puzzle and its buttons, stats, leaderboard, history, export, replay,
the rematch button, a refused end), around a short game the computers finish. Everything they read
is written down step by step: each message posted or changed in the channel and the game's threads
(text, embeds, attachments' names, buttons with their action), and each answer only one of them
sees, under their name. The result must equal `tests/e2e/transcripts/<language>.txt`. The start of
the table and Ravi's seat, as discord.py sends them, must also read exactly as the table layer's
golden transcript has them. After an intended change:

    PACHISI_UPDATE_GOLDEN=1 python -m pytest tests/e2e/test_transcripts.py

The script finds messages by the buttons' custom ids (`pachisi:<action>:...`), never by words, so
it plays the same whatever the sentences say. Throws come from a seeded generator, the bot's clock
is fixed (the daily puzzle is a given day's) and ids, timestamps and dates are written as names or
left out, so the transcript is the same on every run.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.client import EVENT_TASKS, PachisiBot
from bot.core.clock import Clock
from bot.core.texts import answers
from bot.core.texts.language import choose
from localdiscord.objects import Button, Json, Message
from tests.e2e.fakediscord import FakeDiscord
from tests.support.driver import TIMEOUT, Channel, Member, Reply
from tests.support.table import bot_settings

GOLDEN = Path(__file__).with_name("transcripts")
UPDATE = os.environ.get("PACHISI_UPDATE_GOLDEN") == "1"
QUIET = 0.03
"""Seconds the bot must also have sent nothing, once `settled` holds, before a step is written
down: a guard, as every write a step leads to is made inside the callbacks `settled` waits for."""
DAY = datetime.datetime(2026, 5, 14, 9, 30, tzinfo=datetime.UTC)
"""The bot's fixed today: the daily puzzle and the season are this day's on every run."""
SEED = 41
"""The throws' seed (the table layer's golden game plays from the same)."""


class FixedClock(Clock):
    """Always DAY: the daily puzzle, the season, the records' dates and a game's duration are the
    same however long a run takes (turn timers, 300 s ahead, never fire while the script runs)."""

    def now(self) -> datetime.datetime:
        return DAY


# --- writing down what members read --------------------------------------------------------------


def action_of(button: Button) -> str:
    """A button's action from its custom id (`pachisi:move:17:42:...` -> move); a confirmation's
    buttons, whose ids discord.py makes up, by their style."""
    custom = button.custom_id or ""
    if custom.startswith("pachisi:"):
        return custom.split(":")[1]
    return {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}.get(button.style, "button")


@dataclass
class Transcript:
    """The script's steps and what each member read at each, as lines of text."""

    fake: FakeDiscord
    bot: PachisiBot
    channel: Channel
    members: dict[int, Member]
    lines: list[str] = field(default_factory=list)
    shown: dict[int, Json] = field(default_factory=dict)
    """Each message as last written down, by id."""
    numbers: dict[int, int] = field(default_factory=dict)
    """Each message's number in the transcript, by id: ids differ from run to run."""
    private: dict[int, list[Message]] = field(default_factory=dict)
    """The answers only one member sees, by member id."""
    steps: int = 0

    def name(self, user_id: int) -> str:
        member = self.members.get(user_id)
        return member.name if member is not None else "someone"

    def channel_name(self, channel_id: int) -> str:
        record = self.fake.server.channels.get(channel_id)
        return record.name if record is not None else "a channel"

    def plain(self, text: str) -> str:
        """`text` with ids as names and Discord's timestamps left out."""
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.name(int(m.group(1))), text)
        text = re.sub(r"<#(\d+)>", lambda m: "#" + self.channel_name(int(m.group(1))), text)
        text = re.sub(r"<t:\d+(?::[a-zA-Z])?>", "<time>", text)
        # a date the bot writes itself, from the database's real clock (the history's "when")
        text = re.sub(r"\b[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}\b", "<date>", text)
        return re.sub(r"\b\d{1,2} \S+ \d{4} \d{2}:\d{2}\b", "<date>", text)

    def number(self, message: Message) -> int:
        return self.numbers.setdefault(message.id, len(self.numbers) + 1)

    def message_lines(self, message: Message) -> list[str]:
        lines = [f"  | {line}" for line in self.plain(message.content).splitlines()]
        for embed in message.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    lines += [f"  [embed {key}] {line}" for line in self.plain(embed[key]).splitlines()]
            for item in embed.get("fields", []):
                lines.append(f"  [embed field] {self.plain(item['name'])}")
                lines += [f"    {line}" for line in self.plain(item["value"]).splitlines()]
            if embed.get("image"):
                lines.append(f"  [embed image] {embed['image'].get('url', '').removeprefix('attachment://')}")
            if embed.get("footer", {}).get("text"):
                lines += [
                    f"  [embed footer] {line}" for line in self.plain(embed["footer"]["text"]).splitlines()
                ]
        lines += [f"  [file] {attachment.filename}" for attachment in message.attachments]
        buttons = [
            f"[{self.plain(b.label or '')} -> {action_of(b)}{', disabled' if b.disabled else ''}]"
            for b in message.buttons
        ]
        if buttons:
            lines.append("  " + " ".join(buttons))
        return lines

    def write(self, message: Message, audience: str) -> None:
        """A message, if it is new or changed since it was last written down."""
        state = message.snapshot()
        if message.deleted:
            if message.id in self.shown:
                self.lines.append(f"{audience}: message {self.number(message)} is deleted")
                del self.shown[message.id]
            return
        if self.shown.get(message.id) == state:
            return
        how = "changes to" if message.id in self.shown else "new in #" + self.channel_name(message.channel_id)
        self.shown[message.id] = state
        self.lines.append(f"{audience}: message {self.number(message)}, {how}:")
        self.lines += self.message_lines(message)

    def public(self) -> list[Message]:
        found = list(self.channel.messages)
        for thread in self.channel.threads:
            found += thread.messages
        deleted = [
            m
            for channel_id in (self.channel.id, *(t.id for t in self.channel.threads))
            for m in self.fake.server.channel_messages.get(channel_id, [])
            if m.deleted and m.id in self.shown
        ]
        return sorted([*found, *deleted], key=lambda m: m.id)

    def read(self) -> None:
        """Write down what changed: for everyone, then for each member alone."""
        for message in self.public():
            self.write(message, "everyone")
        for user_id, messages in self.private.items():
            for message in messages:
                self.write(message, f"only {self.name(user_id)}")

    async def step(
        self,
        who: Member | None,
        what: str,
        action: Callable[[], Awaitable[Reply | None]],
        until: Callable[[], object] | None = None,
    ) -> Reply | None:
        """Run `action`, wait for what it leads to (`until`, then quiet) and write down what changed."""
        self.steps += 1
        self.lines.append("")
        self.lines.append(f"== {self.steps}. {who.name + ': ' if who else ''}{what}")
        reply = await action()
        if until is not None:
            await self.fake.wait_until(until, what=what)
        await settle(self.fake, self.bot)
        if reply is not None:
            answers = [reply.message, *reply.followups] if reply.message else list(reply.followups)
            for message in answers:
                if message is not None and message.ephemeral and who is not None:
                    kept = self.private.setdefault(who.id, [])
                    if all(m.id != message.id for m in kept):
                        kept.append(message)
        self.read()
        return reply

    def text(self) -> str:
        return "\n".join(self.lines).strip() + "\n"


def events_read(bot: PachisiBot) -> int | None:
    """The number of the last event the bot's (only) shard has read from the gateway."""
    return bot._connection._get_websocket(shard_id=0).sequence


def settled(fake: FakeDiscord, bot: PachisiBot) -> bool:
    """Every interaction is answered, the bot has read every event the stand-in sent it (discord.py
    starts an event's tasks as it reads it), and none of the tasks it started for events, commands
    and clicks (where the answers, and all the table writes after them, are made) is still at work."""
    if any(not i.done.is_set() for i in fake.server.interactions.values() if i.type != 4):
        return False
    gateway = fake.server.gateway
    if gateway.sending() or (gateway.session is not None and events_read(bot) != gateway.session.seq):
        return False
    return not any(
        not task.done() and task.get_name().startswith(EVENT_TASKS) for task in asyncio.all_tasks()
    )


async def settle(fake: FakeDiscord, bot: PachisiBot) -> None:
    """Until `settled` holds and the bot has sent nothing for QUIET seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    seen, since = -1, loop.time()
    while loop.time() < deadline:
        count = len(fake.server.requests)
        if count != seen or not settled(fake, bot):
            seen, since = count, loop.time()
        elif loop.time() - since >= QUIET:
            return
        await asyncio.sleep(0.01)  # nobody announces quiet: look again shortly
    raise TimeoutError("the bot did not settle")


# --- the script ----------------------------------------------------------------------------------


def buttons(message: Message, *kinds: str) -> list[Button]:
    return [b for b in message.buttons if not b.disabled and (b.custom_id or "").startswith(kinds)]


def newest(channel: Channel, *kinds: str) -> Message | None:
    return next((m for m in reversed(channel.messages) if buttons(m, *kinds)), None)


def has_file(channel: Channel, name: str) -> bool:
    return any(a.filename == name for m in channel.messages for a in m.attachments)


@dataclass
class Game:
    """The script's table: the transcript and the members."""

    transcript: Transcript
    asha: Member
    ravi: Member

    @property
    def thread(self) -> Channel:
        """The newest table's thread."""
        return self.transcript.channel.threads[-1]

    async def say(
        self,
        member: Member,
        channel: Channel,
        command: str,
        /,
        until: Callable[[], object] | None = None,
        **options: Any,
    ) -> Reply | None:
        shown = {k: f"@{v.name}" if isinstance(v, Member) else v for k, v in options.items()}
        typed = " ".join([f"/{command}", *(f"{k}:{v}" for k, v in shown.items())])
        where = "#" + self.transcript.channel_name(channel.id)
        return await self.transcript.step(
            member, f"types {typed} in {where}", lambda: member.slash(channel, command, **options), until
        )

    async def confirm(self, member: Member, asked: Reply | None) -> None:
        """The member answers yes to the question `asked` put to them (resign, end): the answer
        says it is working on it, then the question goes or becomes what was done."""
        assert asked is not None and asked.message is not None
        question = asked.message
        yes = next(b for b in question.buttons if b.style == 4)
        waiting = (question.content, answers.working(choose(member.record.locale)))
        await self.transcript.step(
            member,
            f"clicks [{yes.label}] on message {self.transcript.number(question)}",
            lambda: member.click(question, custom_id=yes.custom_id),
            lambda: question.deleted or question.content not in waiting,
        )

    async def turns(self, member: Member) -> None:
        """The member plays: a typed `/pachisi throw` (a throw with one move plays at once), Throw
        clicked until a throw offers a choice, the Hint, and then typed `/pachisi move` and
        `/pachisi throw` (with `/pachisi move` again if that throw offers a choice). Clicks are
        answered through their interaction; a typed command writes to the thread, paced."""
        await self.say(member, self.thread, "pachisi throw")
        for _ in range(12):
            turn = newest(self.thread, "pachisi:throw:", "pachisi:move:")
            assert turn is not None, "no turn message"
            if buttons(turn, "pachisi:move:"):
                break
            await self.click(member, turn, "pachisi:throw:")
        else:
            raise AssertionError("no choice in 12 throws")
        await self.click(member, turn, "pachisi:hint:")
        await self.typed_move(member)
        await self.say(member, self.thread, "pachisi throw")
        if newest(self.thread, "pachisi:move:") is not None:
            await self.typed_move(member)

    async def typed_move(self, member: Member) -> None:
        """`/pachisi move` with the first choice the command's autocomplete offers."""
        choices = await member.autocomplete(self.thread, "pachisi move", "choice", "")
        await self.say(member, self.thread, "pachisi move", choice=choices[0][1])

    async def click(
        self, member: Member, message: Message, kind: str, until: Callable[[], object] | None = None
    ) -> Reply | None:
        button = buttons(message, kind)[0]
        what = f"clicks [{self.transcript.plain(button.label or '')}] on message {self.transcript.number(message)}"
        return await self.transcript.step(
            member, what, lambda: member.click(message, custom_id=button.custom_id), until
        )


async def play_the_script(game: Game) -> None:
    asha, ravi, channel = game.asha, game.ravi, game.transcript.channel
    say, click = game.say, game.click
    await say(asha, channel, "pachisi help")
    await say(ravi, channel, "pachisi rules", section="throws")
    await say(asha, channel, "pachisi auto", mode="off")
    await say(
        asha,
        channel,
        "pachisi start",
        until=lambda: channel.threads and newest(game.thread, "pachisi:throw:"),
        players=4,
        pieces=2,
    )
    card = newest(channel, "pachisi:join:")
    assert card is not None
    await click(ravi, card, "pachisi:join:", until=lambda: len(game.thread.messages) == 2)
    await game.turns(asha)
    await say(ravi, game.thread, "pachisi board")
    await game.confirm(ravi, await say(ravi, game.thread, "pachisi resign"))
    # the computers play the game to its end: the card offers a rematch, the result has its story
    await say(
        asha,
        game.thread,
        "pachisi leave",
        until=lambda: newest(channel, "pachisi:rematch:") and has_file(game.thread, "story.png"),
    )
    await say(asha, channel, "pachisi puzzle")
    puzzle = game.transcript.private[asha.id][-1]
    await click(asha, puzzle, "pachisi:puzzle:")
    await say(asha, channel, "pachisi puzzle-channel", post="here")
    await say(ravi, channel, "pachisi puzzle-ping", ping="on")
    await say(asha, channel, "pachisi stats")
    await say(ravi, game.thread, "pachisi stats")
    await say(ravi, channel, "pachisi leaderboard")
    await say(asha, channel, "pachisi history")
    await say(asha, game.thread, "pachisi export")
    await say(ravi, game.thread, "pachisi replay")
    card = newest(channel, "pachisi:rematch:")
    assert card is not None
    await click(
        asha,
        card,
        "pachisi:rematch:",
        until=lambda: len(channel.threads) == 2 and newest(game.thread, "pachisi:throw:"),
    )
    await say(ravi, game.thread, "pachisi end")  # refused: Asha started it
    await game.confirm(asha, await say(asha, game.thread, "pachisi end"))


TABLE_GOLDEN = Path(__file__).parents[1] / "table" / "transcripts"
SHARED_STEPS = ("Asha: types /pachisi start players:4 pieces:2 in #games", "Ravi: clicks [")
"""The steps whose every line is the table layer's: the table opened, and a seat taken on its card."""


def step_lines(text: str, title: str) -> list[str]:
    """What members read at the first step whose title starts with `title`, messages unnumbered
    (the two transcripts number them apart)."""
    found: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("== "):
            if found is not None:
                break
            if line.split(". ", 1)[1].startswith(title):
                found = []
        elif found is not None:
            found.append(re.sub(r"message \d+", "message N", line))
    assert found, f"no step {title!r}"
    return found


MESSAGE_TEXT = re.compile(r"^  (?:\| |\[embed (?:title|description|field|footer)\] |  )(.*)$")
"""A transcript line a member reads as text (not a step, a file's name or the buttons)."""


def sentences(text: str) -> int:
    """The sentences members read in a transcript: its text lines cut after . ! ? and ।."""
    count = 0
    for line in text.splitlines():
        found = MESSAGE_TEXT.match(line)
        if found and found.group(1).strip():
            count += len([part for part in re.split(r"(?<=[.!?।])\s+", found.group(1)) if part.strip()])
    return count


@pytest.mark.parametrize("locale", ["en-US", "hi"])
async def test_members_read_the_golden_transcript(fake: FakeDiscord, database_url: str, locale: str) -> None:
    guild = fake.add_guild("Pachisi club")
    channel = guild.add_text_channel("games")
    asha, ravi = guild.add_member("Asha"), guild.add_member("Ravi")
    for member in (asha, ravi):
        member.record.locale = locale
    fake.server.set_moderator(guild.record, asha.record, True)  # Asha may manage channels
    settings = bot_settings(fake, database_url, default_thread=True, default_auto_throw=True)
    bot = PachisiBot(settings, clock=FixedClock(), guild_ready_timeout=0.1)
    transcript = Transcript(fake, bot, channel, {asha.id: asha, ravi.id: ravi})
    async with fake.running(bot):
        bot.service.rng = random.Random(SEED)
        try:
            await play_the_script(Game(transcript, asha, ravi))
        except BaseException:
            print(transcript.text())  # what the members read up to the failure, in pytest's report
            raise

    text = transcript.text()
    name = f"{locale.split('-')[0]}.txt"
    table = (TABLE_GOLDEN / name).read_text(encoding="utf-8")
    for title in SHARED_STEPS:
        assert step_lines(text, title) == step_lines(table, title), (
            f"discord.py sends otherwise than the table layer wrote at {title!r} (tests/table/transcripts/{name})"
        )
    path = GOLDEN / name
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"wrote {path.name} ({sentences(text)} sentences): read it before committing")
    assert text == path.read_text(encoding="utf-8"), (
        f"members now read otherwise than {path.name}: if intended, PACHISI_UPDATE_GOLDEN=1 and review the diff"
    )
