"""The bot in the member's language, end to end through the fake Discord.

- A pseudo-language (`en-XA`: every literal piece of every catalog sentence in ⟦brackets⟧ with its
  letters accented, the placeholders left outside) plays a whole game with the help, rules, stats,
  history, board and Hint answers; any word a member sees outside the brackets did not come from
  the catalog, or came into a sentence from somewhere else: it fails the test (names, numbers,
  notation and code aside).
- The same in Hindi (`hi`): every sentence a member reads is Hindi.
- The synced slash commands are valid in every locale: Discord's name pattern, lengths and each
  command's 4,000-character budget counted with the longest localisation of each field.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any

import discord
import pytest

from bot.core.snapshot import GameSnapshot
from bot.core.store import Status
from bot.core.texts import language as languages
from bot.core.texts import turns
from localdiscord.objects import Message
from tests.e2e.pseudolanguage import PSEUDO, foreign, seen_texts
from tests.support.driver import Channel, Member
from tests.support.processes import stored_games
from tests.support.table import Table, waits_for_the_starter

QUICK = {"players": 2, "pieces": 2, "level": "easy"}


@pytest.fixture
async def tables(start_table: Callable[..., AbstractAsyncContextManager[Table]]) -> AsyncIterator[Table]:
    async with start_table(default_thread=True, default_auto_throw=True) as table_:
        yield table_


# --- playing a game whatever its language ----------------------------------------------------------

PLAYING = ("pachisi:move:", "pachisi:throw:")


def buttons_of(message: Message, *kinds: str) -> list[Any]:
    return [b for b in message.buttons if not b.disabled and (b.custom_id or "").startswith(kinds)]


def asking(thread: Channel) -> Message | None:
    """The message offering the member a move or a throw (found by the buttons' ids, not words)."""
    return next((m for m in reversed(thread.messages) if buttons_of(m, *PLAYING)), None)


def over(table: Table) -> bool:
    """The game is over and told: the table card offers the rematch (the result is posted first)."""
    return any(buttons_of(m, "pachisi:rematch:") for m in table.channel.messages)


async def the_thread(table: Table) -> Channel:
    return await table.fake.wait_until(lambda: next(iter(table.channel.threads), None), what="a thread")


async def play_alone(table: Table, thread: Channel, member: Member, rng: random.Random) -> list[str]:
    """Play every choice offered until the game is over and told. At the first choice the member
    asks for a Hint and opens `/pachisi move`'s list: returns the list's texts."""
    offered: list[str] = []
    seen = None
    for _ in range(2000):

        def ready(seen: object = seen) -> Message | bool | None:
            message = asking(thread)
            if message is not None and (message.id, len(message.edits)) != seen:
                return message
            return over(table)

        found = await table.fake.wait_until(ready, what="a choice or the result")
        if not isinstance(found, Message):
            return offered
        seen = (found.id, len(found.edits))
        if not offered:
            [hint] = buttons_of(found, "pachisi:hint:")
            await member.click(found, custom_id=hint.custom_id)
            choices = await member.autocomplete(thread, "pachisi move", "choice", "")
            offered = [name for name, _ in choices]
            assert offered
        choice = rng.choice(buttons_of(found, *PLAYING))
        await member.click(found, custom_id=choice.custom_id, wait=False)
    raise AssertionError("the game did not end")


async def visit(table: Table, member: Member, channel: Channel) -> list[str]:
    """What a member asks after a game: help, the rules, stats, history, the leaderboard, the
    rules' autocomplete; returns the autocomplete's texts (the answers are messages)."""
    for command in (
        "pachisi help",
        "pachisi rules",
        "pachisi stats",
        "pachisi history",
        "pachisi leaderboard",
    ):
        reply = await member.slash(channel, command)
        assert reply.ephemeral, command
    offered = await member.autocomplete(channel, "pachisi start", "rules", "")
    return [name for name, _ in offered]


def names_aside(table: Table, game: GameSnapshot) -> set[str]:
    """Names and notation a member reads as they are in any language."""
    lang = languages.choose(game.language)
    return {
        table.alice.name,
        table.bob.name,
        lang.name,
        *game.rules.token().replace("=", ",").split(","),
    }


# --- the tests -------------------------------------------------------------------------------------


async def test_a_pseudo_language_game_shows_only_the_catalogs_sentences(
    pseudo_language: None, tables: Table
) -> None:
    table = tables
    table.alice.record.locale = PSEUDO
    reply = await table.alice.slash(table.channel, "pachisi start", **QUICK)
    assert reply.ephemeral and "⟦" in reply.content
    thread = await the_thread(table)
    offered = await play_alone(table, thread, table.alice, random.Random(3))
    offered += await visit(table, table.alice, thread)
    [stored] = await stored_games(table.database_url)
    game = stored.snapshot
    assert game.status == Status.FINISHED and game.language == PSEUDO
    aside = names_aside(table, game) | {languages.language(PSEUDO).moment(game.created_at)}
    texts = [*seen_texts(table), *offered]
    assert sum("⟦" in text for text in texts) > 30  # a whole game of texts, however long the game
    stray = {text: words for text in texts if (words := foreign(text, aside))}
    assert not stray, "\n".join(f"{words}: {text!r}" for text, words in stray.items())


async def test_a_game_in_hindi_speaks_hindi_throughout(tables: Table) -> None:
    """A four-player game (partners' words too) of a member whose Discord speaks Hindi."""
    table = tables
    table.alice.record.locale = "hi"
    reply = await table.alice.slash(table.channel, "pachisi start", players=4, pieces=2, level="easy")
    assert reply.content.startswith("आपका खेल <#")
    thread = await the_thread(table)
    assert thread.name == "पच्चीसी: Alice का खेल"
    [card] = table.channel.messages
    assert (
        "भाषा: हिन्दी" in card.content and "काली: <@" in card.content and "हरी: कंप्यूटर (आसान)" in card.content
    )
    offered = await play_alone(table, thread, table.alice, random.Random(5))
    [stored] = await stored_games(table.database_url)
    game = stored.snapshot
    assert game.language == "hi" and game.status == Status.FINISHED
    hindi = languages.language("hi")
    result = turns.result_head(hindi, game)
    await table.fake.wait_until(  # the card shows the result first, the thread's message follows
        lambda: next((m for m in thread.messages if result in m.content), None), what="the result"
    )
    offered += await visit(table, table.alice, thread)
    aside = names_aside(table, game) | SOURCES | {hindi.moment(game.created_at)}
    texts = [*seen_texts(table), *offered]
    stray = {text: words for text in texts if (words := foreign(text, aside))}
    assert not stray, "\n".join(f"{words}: {text!r}" for text, words in stray.items())
    unhindi = [t for t in texts if re.search("[A-Za-z]{3}", t) and not _devanagari(t) and t.strip()]
    assert not unhindi


SOURCES = {
    "Pachisi (Standard)",
    '"Pachisi" (CC BY-SA)',
    "jkc33/senior-project (MIT)",
    "edm00se/awesome-board-games",
    "labforadvancedstudy/books",
    "docs/RULES.md",
    "Manage Channels",
    "Manage Server",
    "Manage Events",
    "UTC",
}
"""Names the Hindi texts keep as they are: the sources' titles, a file, a Discord setting, the time
zone."""


def _devanagari(text: str) -> bool:
    return any(unicodedata.name(c, "").startswith("DEVANAGARI") for c in text)


# --- the slash commands in every locale ------------------------------------------------------------

NAME_PATTERN = re.compile(r"[-_\w\u0900-\u097f\u0e00-\u0e7f]{1,32}")
"""Discord's `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` (`\\w`: letters, digits and `_`; the
two scripts' signs are marks, so their blocks are named)."""
LOCALES = {locale.value for locale in discord.Locale}


def longest(field: dict[str, Any], key: str) -> int:
    """A field's length as Discord counts it for the budget: its longest localisation."""
    texts = [str(field.get(key, "")), *(field.get(f"{key}_localizations") or {}).values()]
    return max(len(text) for text in texts)


def budget(command: dict[str, Any]) -> int:
    """Characters of names, descriptions and choice names and values, options and subcommands
    included, each field counted at its longest localisation."""
    total = longest(command, "name") + longest(command, "description")
    for choice in command.get("choices", []):
        total += longest(choice, "name") + len(str(choice["value"]))
    return total + sum(budget(option) for option in command.get("options", []))


def problems(command: dict[str, Any], path: str = "") -> Iterator[str]:
    """What Discord would refuse in `command` and its options, in any locale."""
    where = f"{path}/{command['name']}"
    names = {None: command["name"], **(command.get("name_localizations") or {})}
    descriptions = {None: command["description"], **(command.get("description_localizations") or {})}
    for locale, name in names.items():
        if not NAME_PATTERN.fullmatch(name) or name != name.lower():
            yield f"{where}: name {name!r} ({locale})"
    for locale, text in descriptions.items():
        if not 1 <= len(text) <= 100:
            yield f"{where}: description of {len(text)} characters ({locale})"
    unknown = (set(names) | set(descriptions)) - LOCALES - {None}
    if unknown:
        yield f"{where}: unknown locales {unknown}"
    if "hi" not in names or "hi" not in descriptions:
        yield f"{where}: no Hindi"
    for choice in command.get("choices", []):
        for locale, text in {None: choice["name"], **(choice.get("name_localizations") or {})}.items():
            if not 1 <= len(text) <= 100:
                yield f"{where}: choice {text!r} ({locale})"
        as_is = str(choice["value"]).isdigit() or choice["name"] == languages.native_name(
            str(choice["value"])
        )
        if (
            "hi" not in (choice.get("name_localizations") or {}) and not as_is
        ):  # numbers, languages' own names
            yield f"{where}: choice {choice['name']!r} has no Hindi"
    options = command.get("options", [])
    for locale in LOCALES:
        shown = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
        if len(shown) != len(set(shown)):
            yield f"{where}: two options named alike in {locale}"
    for option in options:
        yield from problems(option, where)


async def test_the_synced_commands_are_valid_in_every_locale(tables: Table) -> None:
    """What the bot synced, as Discord received it: names by Discord's pattern, lengths, and each
    command's 4,000-character budget; Hindi for every name, description and choice."""
    synced = await tables.fake.wait_until(lambda: tables.fake.server.commands[None] or None, what="the sync")
    command = synced["pachisi"]
    assert command["name_localizations"]["hi"] == "पच्चीसी"
    starts = next(o for o in command["options"] if o["name"] == "start")
    assert starts["name_localizations"]["hi"] == "शुरू"
    assert not list(problems(command))
    assert budget(command) <= 4000
    # The budget counts the longest localisation: Hindi's longer descriptions count, not English's.
    english = sum(len(o["description"]) for o in command["options"])
    assert budget(command) > english


async def test_the_table_speaks_its_language_and_each_member_their_own(tables: Table) -> None:
    """The `language` option sets the table's language; what one member alone reads follows their
    Discord's language."""
    table = tables
    table.bob.record.locale = "hi"
    await waits_for_the_starter(table)
    reply = await table.alice.slash(table.channel, "pachisi start", language="hi", **QUICK)
    assert reply.content.startswith("Your game has started in <#")  # Alice's own answer: English
    thread = await the_thread(table)
    [card] = table.channel.messages
    assert card.content.startswith("**पच्चीसी: Alice का खेल**") and "[जगह लें]" not in card.content
    assert [b.label for b in card.buttons] == ["जगह लें"]
    refused = await table.bob.slash(thread, "pachisi start", **QUICK)
    assert refused.content.startswith("यहाँ एक खेल पहले से चल रहा है")  # Bob's own answer: Hindi
    await table.bob.click(card, custom_id=card.buttons[0].custom_id)
    await table.fake.wait_until(lambda: f"पीली: <@{table.bob.id}>" in card.content, what="Bob's seat")
    taken = await table.fake.wait_until(
        lambda: next((m for m in thread.messages if m.content.startswith(f"<@{table.bob.id}>")), None),
        what="the news",
    )
    assert taken.content == f"<@{table.bob.id}> अब **पीली** से खेलते हैं।"
    unknown = await table.alice.slash(table.channel, "pachisi start", language="fr", **QUICK)
    assert unknown.content == "I don't speak `fr` yet: choose English and हिन्दी."
    [stored] = await stored_games(table.database_url)
    assert stored.snapshot.language == "hi"


async def test_one_language_per_message_for_a_member_of_another_language(tables: Table) -> None:
    """An English member takes a seat at a Hindi table from the channel: the thread is told in
    Hindi, the member alone in English, whole (not Hindi news with an English tail); the card's
    rule preset is in the table's language."""
    table = tables
    table.alice.record.locale = "hi"
    await waits_for_the_starter(table)
    await table.alice.slash(table.channel, "pachisi start", language="hi", **QUICK)
    thread = await the_thread(table)
    [card] = table.channel.messages
    hindi = languages.language("hi")
    assert hindi.pgettext("command choice", "classic") in card.content
    assert "classic" not in card.content
    [join] = buttons_of(card, "pachisi:join:")
    reply = await table.bob.click(card, custom_id=join.custom_id)
    assert reply.ephemeral
    assert reply.content == (f"<@{table.bob.id}> takes **Yellow**. The game plays in <#{thread.id}>.")
    news = await table.fake.wait_until(
        lambda: next((m for m in thread.messages if f"<@{table.bob.id}>" in m.content), None),
        what="the news in the thread",
    )
    assert not re.search(r"[A-Za-z]{3,}", news.content.replace(f"<@{table.bob.id}>", "")), news.content
