"""Answers only the member who asked reads, and the labels of the buttons: settings, the board,
help and rules, the end-of-game question."""

from __future__ import annotations

from bot.core.texts import rules, tournament
from bot.core.texts.language import Language
from bot.core.texts.table import freezing_note


def auto_throw(lang: Language, on: bool) -> str:
    if on:
        return lang.gettext(
            "Auto-throw is on: I throw for you and ask only when a throw offers a choice. This holds in "
            "every game and server."
        )
    return lang.gettext(
        "Auto-throw is off: you get a Throw button on your turns (forced moves still play at once). This "
        "holds in every game and server."
    )


def thrown(lang: Language, throw: int) -> str:
    return lang.gettext("You threw **{throw}**: choose a move on the board's buttons.", throw=throw)


def played(lang: Language) -> str:
    return lang.gettext("Played: the game's newest message shows where it stands.")


def percent(lang: Language, chance: float) -> str:
    """A chance as a whole percent, never a false certainty: 0.996 is "more than 99 %"."""
    if 0.995 <= chance < 1.0:
        return lang.gettext("more than 99 %")
    if 0.0 < chance <= 0.005:
        return lang.gettext("less than 1 %")
    return lang.gettext("{percent} %", percent=round(100 * chance))


def chances(lang: Language, sides: list[tuple[str, float]]) -> str:
    """Each side's chance to win as the game stands."""
    listed = lang.join(
        [lang.gettext("{side} {chance}", side=name, chance=percent(lang, c)) for name, c in sides]
    )
    return lang.gettext(
        "Chance to win: {sides} (if every seat played like the normal computer from here).", sides=listed
    )


def confirm_end(lang: Language) -> tuple[str, str, str, str]:
    """The question, its two answers and what the question becomes on no."""
    return (
        lang.gettext("End this game for everyone? It can't be resumed."),
        lang.gettext("End the game"),
        lang.gettext("Keep playing"),
        lang.gettext("The game goes on."),
    )


def confirm_resign(lang: Language, players: int) -> tuple[str, str, str, str]:
    """The question before resigning (in a two-player game it concedes), its two answers and what
    the question becomes on no."""
    if players == 2:
        question = lang.gettext("Resign this game? Your opponent wins it, and it can't be undone.")
    else:
        question = lang.gettext(
            "Resign this game? The computer plays your seat to the end, and you can't take a seat in "
            "this game again."
        )
    return question, lang.gettext("Resign"), lang.gettext("Keep playing"), lang.gettext("You play on.")


def working(lang: Language) -> str:
    return lang.gettext("Working on it...")


def button(lang: Language, name: str) -> str:
    """The label of a fixed button: Throw, Take a seat, Rematch, Hint."""
    labels = {
        "throw": lang.gettext("Throw"),
        "join": lang.gettext("Take a seat"),
        "rematch": lang.gettext("Rematch"),
        "hint": lang.gettext("Hint"),
    }
    return labels[name]


def help_text(lang: Language) -> str:
    return f"{rules.help_page(lang)}\n{tournament.help_lines(lang)}"


def rules_title(lang: Language) -> str:
    return lang.gettext("Pachisi rules")


def rules_sections(lang: Language, keys: list[str]) -> list[tuple[str, str]]:
    """(title, text) of the rules' sections, the "In short" paragraphs of docs/RULES.md."""
    sections = rules.sections(lang)
    return [sections[key] for key in keys]


def rules_sources(lang: Language, url: str | None = None) -> str:
    return rules.sources(lang, url)


def rule_option(lang: Language, option: str) -> str:
    """What a rule option means, beside it in the `rules` autocomplete."""
    meanings = {
        "must_capture": lang.gettext("no piece comes home before its side has captured"),
        "escape_hatch": lang.gettext("come home without a capture when nothing else can move"),
        "last_square": lang.gettext("a piece on the last square comes home on any throw"),
        "enter_moves": lang.gettext("an entering piece moves the throw from step 1"),
        "start_on_board": lang.gettext("pieces per seat that start on the board"),
    }
    return meanings[option]


def rule_completion(lang: Language, text: str, option: str) -> str:
    """`escape_hatch=off: come home without ...` (the option that freezes games says so)."""
    name = option.partition("=")[0]
    note = freezing_note(lang) if option == "last_square=off" else rule_option(lang, name)
    return lang.gettext("{options}: {meaning}", options=text, meaning=note)
