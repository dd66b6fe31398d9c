"""The slash commands in the member's language: discord.py's `Translator` over the bot's catalogs,
and the extractor that puts the commands' words into them.

discord.py hands every name, description and choice of the command tree to the translator once
per Discord locale when it builds the sync payload; Discord then shows each client its own
language's. The words are the English ones written in the cogs' decorators, looked up in the
catalog under a context (`command name`, `command description`, `command choice`), since a name
(`board`) follows Discord's name rules and may read apart from the same word in a sentence.

`extract` is the Babel extraction method for the cogs (babel.cfg): the module's gettext calls, as
Babel's Python extractor finds them, and the words of the commands its cogs define, read from the
cog classes themselves rather than from their source text.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from babel.messages.extract import extract_python
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.core.texts.language import SOURCE, spoken

NAME, DESCRIPTION, CHOICE = "command name", "command description", "command choice"
"""The catalog contexts of the commands' words."""
CONTEXTS = {
    Where.command_name: NAME,
    Where.group_name: NAME,
    Where.parameter_name: NAME,
    Where.command_description: DESCRIPTION,
    Where.group_description: DESCRIPTION,
    Where.parameter_description: DESCRIPTION,
    Where.choice_name: CHOICE,
}
PLACEHOLDER = "…"
"""discord.py's description of an option nobody described: not a word to translate."""


class CatalogTranslator(app_commands.Translator):
    """Each command word in the language of the Discord locale asked for, when the bot speaks it."""

    async def translate(
        self, string: app_commands.locale_str, locale: Any, context: app_commands.TranslationContext[Any, Any]
    ) -> str | None:
        language = spoken(locale.value)
        where = CONTEXTS.get(context.location)
        if language is None or language.code == SOURCE or where is None:
            return None
        text = language.pgettext(where, string.message)
        return None if text == string.message else text


# --- extraction -----------------------------------------------------------------------------------

Extracted = tuple[int, str, tuple[str, str] | str, list[str]]


def extract(fileobj: Any, keywords: Any, comment_tags: Collection[str], options: Any) -> Iterator[Any]:
    """Babel's extraction method for a cog module: its gettext calls, then its commands' words as
    `pgettext(context, word)` (the extract command needs the keyword `pgettext:1c,2`)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    module = importlib.import_module(_module_name(Path(fileobj.name)))
    if hasattr(module, "GROUP_DESCRIPTION"):
        line = inspect.getsourcelines(module)[1]
        yield line, "pgettext", (NAME, module.GROUP_NAME), []
        yield line, "pgettext", (DESCRIPTION, module.GROUP_DESCRIPTION), []
    for cog in vars(module).values():
        if inspect.isclass(cog) and issubclass(cog, commands.Cog) and cog.__module__ == module.__name__:
            for command in cog.__cog_app_commands__:
                yield from command_words(command)


def command_words(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Iterator[Extracted]:
    """(line, "pgettext", (context, word), []) for a command's name, description, options, choices."""
    callback = getattr(command, "callback", None)
    line = callback.__code__.co_firstlineno if callback is not None else 1
    yield line, "pgettext", (NAME, command.name), []
    yield line, "pgettext", (DESCRIPTION, command.description), []
    if isinstance(command, app_commands.Command):
        for parameter in command.parameters:
            yield line, "pgettext", (NAME, parameter.display_name), []
            if parameter.description != PLACEHOLDER:
                yield line, "pgettext", (DESCRIPTION, parameter.description), []
            for choice in parameter.choices:
                yield line, "pgettext", (CHOICE, choice.name), []
    else:  # a subgroup (`/pachisi tournament`): its commands' words too
        for sub in command.commands:
            yield from command_words(sub)


def _module_name(path: Path) -> str:
    """`bot/cogs/stats.py` -> `bot.cogs.stats` (paths as the extract command gives them, from the root)."""
    root = Path(__file__).resolve().parents[1]
    parts = path.resolve().relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
