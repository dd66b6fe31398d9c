"""The pseudo-language of the language tests (`en-XA`): every literal piece of every catalog
sentence in ⟦brackets⟧ with its letters accented, and what finds words a member reads that did not
come from the catalog."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.core.texts import language as languages
from tests.support.table import Table

PSEUDO = "en-XA"
ACCENTED = str.maketrans("AEIOUYaeiouycnsz", "ÀÉÎÕÜÝàéîõüýçñšž")
PIECE = re.compile(r"(\{[a-z_]+\}|<[@#]\{[a-z_]+\}>|<t:[^>]*>)")
"""What a pseudo sentence leaves outside its brackets: the placeholders (and mentions of them)."""


def pseudo(text: str) -> str:
    """`{player}, your throw.` -> `{player}⟦, ýõür thròw.⟧`: each literal piece marked."""
    parts = []
    for part in PIECE.split(text):
        if part and not PIECE.fullmatch(part) and re.search("[A-Za-z]", part):
            part = "⟦" + part.translate(ACCENTED) + "⟧"
        parts.append(part)
    return "".join(parts)


@pytest.fixture
def pseudo_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bot ships the pseudo-language too: its catalog made from the template, compiled, and
    loaded like Hindi's (the shipped catalogs are copied beside it)."""
    with (languages.LOCALE_DIR / f"{languages.DOMAIN}.pot").open("rb") as source:
        template = read_po(source)
    catalog = Catalog(locale="en", domain=languages.DOMAIN)
    for message in template:
        if message.id:
            marked = (
                tuple(pseudo(f) for f in message.id) if isinstance(message.id, tuple) else pseudo(message.id)
            )
            catalog.add(message.id, marked, context=message.context)
    for code in [*languages.SHIPPED, PSEUDO]:
        (tmp_path / code / "LC_MESSAGES").mkdir(parents=True)
    for code in languages.SHIPPED:
        if code != languages.SOURCE:
            name = f"{code}/LC_MESSAGES/{languages.DOMAIN}.mo"
            (tmp_path / name).write_bytes((languages.LOCALE_DIR / name).read_bytes())
    with (tmp_path / PSEUDO / "LC_MESSAGES" / f"{languages.DOMAIN}.mo").open("wb") as compiled:
        write_mo(compiled, catalog)
    monkeypatch.setattr(languages, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(languages, "SHIPPED", (*languages.SHIPPED, PSEUDO))
    languages.language.cache_clear()
    yield
    languages.language.cache_clear()


def seen_texts(table: Table) -> Iterator[str]:
    """Every text of every message the bot sent, in every version it had: contents, embeds, button
    labels; and the threads' names."""
    bot_id = table.fake.server.bot_user.id
    for messages in table.fake.server.channel_messages.values():
        for message in messages:
            if message.author.id != bot_id:
                continue
            versions = [*message.edits, message.snapshot()]
            for version in versions:
                yield version["content"]
                for embed in version["embeds"]:
                    yield from _embed_texts(embed)
                for row in version["components"]:
                    for item in row.get("components", []):
                        yield item.get("label", "")
    yield from (thread.name for thread in table.channel.threads)


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    yield embed.get("title", "")
    yield embed.get("description", "")
    yield embed.get("footer", {}).get("text", "")
    for field in embed.get("fields", []):
        yield field["name"]
        yield field["value"]


ASIDE = re.compile(r"<[@#]!?\d+>|<t:\d+:\w>|`[^`]*`|[a-z_]+=[a-z0-9]+|\d+")
"""Mentions, Discord's timestamps, code, rule options in the notation and numbers: the same in
every language."""


def foreign(text: str, names: set[str]) -> list[str]:
    """The Latin words left in `text` once the marked pieces, the names, mentions, code, numbers
    and single letters (the choices' A, B) are taken out; a piece a label's limit cut short ends
    in "…" instead of its mark."""
    text = re.sub("⟦[^⟦⟧]*(?:⟧|…$)", " ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = ASIDE.sub(" ", text)
    return re.findall(r"[A-Za-z][A-Za-z'_]+", text)
