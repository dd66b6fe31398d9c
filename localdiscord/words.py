"""The page's own words (its labels, the name dialog, its notices and refusals) in every language
the bot ships, from the bot's catalogs (bot/locale, `scripts/catalogs` extracts them from here and
from commandline.py), read as files with the standard library's gettext: the stand-in imports
nothing of the bot.

The page gets them as one table when it connects and again when its member changes language;
`{name}`-style placeholders are filled on the page. What the bot itself says is the bot's.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parents[1] / "bot" / "locale"
"""The bot's compiled catalogs, `<code>/LC_MESSAGES/pachisi.mo` (installed beside this package)."""
DOMAIN = "pachisi"
SOURCE = "en"


@dataclass(frozen=True)
class Language:
    """Turns one of the page's English sentences into this language's, placeholders filled."""

    code: str = SOURCE
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations, compare=False)

    def gettext(self, message: str, /, **params: object) -> str:
        text = self.catalog.gettext(message)
        return text.format(**params) if params else text

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """A word whose English is shared by several meanings, told apart by `context`."""
        text = self.catalog.pgettext(context, message)
        return text.format(**params) if params else text


ENGLISH = Language()


def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def language(code: str) -> Language | None:
    """The language `code` if the bot ships a catalog for it (English always), read once."""
    if code == SOURCE:
        return ENGLISH
    path = catalog_path(code)
    if "/" in code or not path.is_file():
        return None
    with path.open("rb") as compiled:
        return Language(code, gettext.GNUTranslations(compiled))


def language_of(locale: str | None) -> Language:
    """The language the page speaks to a member whose Discord locale is `locale` (`hi`, `en-US`):
    the first of the locale and its language that the bot ships, else English."""
    for code in (locale, (locale or "").split("-")[0]):
        found = language(code) if code else None
        if found is not None:
            return found
    return ENGLISH


def page_words(language: Language) -> dict[str, str]:
    """Every word the page shows itself, by the key app.js and index.html use."""
    return {
        **_frame(language),
        **_dialog(language),
        **_messages(language),
        **_notices(language),
    }


def _frame(language: Language) -> dict[str, str]:
    return {
        "channels": language.gettext("Channels"),
        "you": language.gettext("You"),
        "you_are": language.gettext("You are {name}"),
        "moderator": language.gettext("Moderator"),
        "moderator_note": language.gettext("(Manage Channels)"),
        "moderator_yours": language.gettext("You run this table, so you moderate it."),
        "moderator_theirs": language.gettext("Whoever runs this table moderates it."),
        "language": language.gettext("Language"),
        "switch": language.gettext("Play as someone else"),
        "menu": language.gettext("Channels and settings"),
        "connecting": language.gettext("Pachisi: connecting…"),
        "online": language.gettext("Pachisi: online"),
        "offline": language.gettext("Pachisi: offline"),
        "messages": language.gettext("Messages"),
        "suggestions": language.gettext("Suggestions"),
        "box": language.gettext("Message or /command"),
        "box_hint": language.gettext("Type / for commands"),
        "box_channel": language.gettext("Message {channel}, or / for commands"),
        "more_below": language.gettext("More below: use the arrow keys or scroll"),
        "copy_link": language.gettext("Copy this table's link"),
        "copy_link_short": language.gettext("Copy link"),
        "link_copied": language.gettext("Link copied: {link}"),
        "table_speaks": language.gettext("This table speaks {language}"),
        "language_en": language.pgettext("a table's language", "English"),
        "language_hi": language.pgettext("a table's language", "Hindi"),
    }


def _dialog(language: Language) -> dict[str, str]:
    return {
        "join_title": language.gettext("Pick your name"),
        "join_text": language.gettext(
            "Pick the name the others see. This browser keeps it for you: nobody else can play as you."
        ),
        "your_name": language.gettext("Your name"),
        "join": language.gettext("Join"),
        "continue_as": language.gettext("Continue as {name}"),
        "name_needed": language.gettext("Type a name first: 1 to 32 characters."),
        "seat_offer": language.gettext("A seat is free at {table}."),
        "take_seat": language.gettext("Take a seat"),
        "watch": language.gettext("Just watch"),
    }


def _messages(language: Language) -> dict[str, str]:
    return {
        "used": language.gettext("{name} used {command}"),
        "app": language.gettext("APP"),
        "edited": language.gettext("(edited)"),
        "thinking": language.gettext("{name} is thinking…"),
        "open_thread": language.gettext("Thread: {name} (open it)"),
        "only_you": language.gettext("Only you can see this"),
        "dismiss": language.gettext("Dismiss message"),
        "file": language.gettext("File: {name}"),
        "unsupported": language.gettext("(a component this page cannot show)"),
        "new_messages": language.gettext("New messages: show them"),
        "welcome": language.gettext("Welcome to #{channel}!"),
        "welcome_try": language.gettext(
            "Type {start} to play a game against the computer (friends can take the other seats), "
            "or {help} to learn the rules."
        ),
        "picture": language.gettext("picture"),
        "open_picture": language.gettext("Open the picture at full size"),
    }


def _notices(language: Language) -> dict[str, str]:
    return {
        "reconnecting": language.gettext("Reconnecting to the table…"),
        "not_connected": language.gettext("Not connected to the table right now; it reconnects by itself."),
    }


def name_taken(language: Language, name: str) -> str:
    return language.gettext(
        "The name {name} belongs to someone else's browser; pick another name.", name=name
    )


def not_yours(language: Language) -> str:
    return language.gettext(
        "This browser does not hold that member, so it cannot act for them; nothing was done."
    )


def bad_name(language: Language) -> str:
    return language.gettext("Pick a name of 1 to 32 characters.")


def no_answer(language: Language, what: str) -> str:
    """Discord's client gives up on an interaction after 3 s: `what` is a command or a button."""
    return language.gettext("Pachisi did not respond to {what}.", what=what)


def button(language: Language, label: str) -> str:
    return language.gettext("the {label} button", label=label)


def channel_gone(language: Language) -> str:
    return language.gettext("That channel is gone.")


def message_gone(language: Language) -> str:
    return language.gettext("That message is gone.")


def button_gone(language: Language) -> str:
    return language.gettext("That button is not there any more.")


def bot_starting(language: Language) -> str:
    return language.gettext("Pachisi is still starting; try again in a few seconds.")


def bot_away(language: Language) -> str:
    return language.gettext("Pachisi is not connected right now; try again in a moment.")


def looks_like(language: Language, name: str) -> str:
    return language.gettext(
        "That name looks like {name}, who is already here; pick a name that looks different.", name=name
    )


def mixed_script(language: Language) -> str:
    return language.gettext(
        "That name mixes alphabets whose letters look alike (such as Latin and Cyrillic); "
        "pick a name in one of them."
    )


def moderator_refused(language: Language) -> str:
    return language.gettext(
        "Only whoever runs this table moderates it (Manage Channels); nothing was changed."
    )
