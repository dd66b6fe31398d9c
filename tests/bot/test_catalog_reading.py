"""Checks on every catalog that read the sentences as a member does (issue 41): every counted
number through its own plural form, a capital after a full stop, no repository path or Python
command, and in Hindi no Latin word but the glossary's kept names (docs/HINDI.md).

They look at every entry of the English source (the template, `bot/locale/pachisi.pot`) and of
each shipped translation; `entries()` lists them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from babel.messages.catalog import Message

from bot.core.texts.language import SHIPPED, SOURCE
from tests.bot.catalogs import (
    CODE,
    forms,
    kept_names,
    latin_left,
    strings,
    template,
    translations,
)

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in SHIPPED if code != SOURCE]

COUNTED = "game|win|throw|piece|player|turn|step|minute|day|capture|line|answer|move|seat|point|puzzle"
"""The nouns a number counts in the bot's sentences (singular; `s` makes the plural)."""
NAMES = {"side", "seat", "colour", "owner", "whose", "player", "name", "typed", "move", "seats"}
"""Placeholders that hold names, not numbers: `{side} wins` is a verb, `{colour} pieces` a colour."""
COUNT_BEFORE_NOUN = re.compile(rf"\{{(\w+)\}}(?: (?!of\b|in\b)[a-z]+)? ((?:{COUNTED})s?)\b")
"""A placeholder followed by a counted noun, maybe after one word (`{count} rated games`; not
`{share} of games`, a share)."""

STARTS_A_SENTENCE = {"letter", "news", "player", "players", "name", "colour", "side", "seat"}
"""Placeholders whose text may open a sentence: a choice's capital letter, a whole sentence, names
and mentions."""
AFTER_STOP = re.compile(r"[.!?।]\**\s+\**(?:([a-z])|\{(\w+)\})")
ABBREVIATIONS = re.compile(r"\b(?:e\.g\.|i\.e\.|vs\.)")

PATH_OR_COMMAND = re.compile(
    r"(?<![\w/])(?:docs|bot|engine|render|scripts|tests|localdiscord)/|\b\w+\.(?:md|py|po|toml|cfg)\b"
    r"|\bpython3?\b|\bpip\b|\.venv\b"
)

PERMISSIONS = (
    "Send Messages in Threads",
    "View Channel",
    "Send Messages",
    "Attach Files",
    "Embed Links",
    "Read Message History",
    "Create Public Threads",
    "Manage Channels",
)
"""Discord's names for its permissions, which a translation keeps in parentheses after its own."""
PLACEHOLDER = re.compile(r"\{\w+\}")


def entries() -> Iterator[tuple[str, Message]]:
    """Every entry of the English source and of every translation: (language, entry)."""
    for message in template():
        if message.id:
            yield SOURCE, message
    for code in TRANSLATED:
        for message in translations(code):
            if message.id:
                yield code, message


def texts(code: str, message: Message) -> list[str]:
    """What a member of `code` may read of an entry: the English forms, or the translation's."""
    return forms(message) if code == SOURCE else strings(message)


def test_the_checks_look_at_every_entry_of_every_catalog() -> None:
    counted = {code: sum(1 for c, _ in entries() if c == code) for code in SHIPPED}
    assert counted[SOURCE] == len([m for m in template() if m.id]) > 400
    assert all(counted[code] == counted[SOURCE] for code in TRANSLATED)


# --- numbers and their plural forms -----------------------------------------------------------


def test_a_counted_number_is_the_count_of_an_ngettext_entry() -> None:
    """`{wins} wins in {count} games` takes its plural from the games: "1 wins in 2 games"."""
    wrong = []
    for message in template():
        if not message.id:
            continue
        plural = isinstance(message.id, tuple)
        for form, text in enumerate(forms(message)):
            for name, noun in COUNT_BEFORE_NOUN.findall(text):
                if name in NAMES:
                    continue
                if not plural or name != "count":
                    wrong.append((text, f"{{{name}}} {noun}: not the count of a plural entry"))
                elif noun.endswith("s") != (form == 1):
                    wrong.append((text, f"{noun} in the {'plural' if form else 'singular'} form"))
    assert not wrong


HINDI_PLURAL = re.compile(r"\{count\}(?: \S+)? (\S+(?:ों|याँ|यों))(?=[\s।,:]|$)")
"""A Hindi plural noun (oblique -ों, direct -याँ) after the count: "2 जवाबों", "2 गोटियाँ"."""


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translations_singular_form_says_no_plural_noun(code: str) -> None:
    """The form for 1 never counts in the plural: "1 जवाब में से", not "1 जवाबों में से"."""
    wrong = []
    for message in translations(code):
        if message.id and isinstance(message.id, tuple):
            singular = strings(message)[0]
            wrong += [(singular, noun) for noun in HINDI_PLURAL.findall(singular)]
    assert not wrong


# --- capitals ---------------------------------------------------------------------------------


def test_a_sentence_after_a_full_stop_starts_with_a_capital() -> None:
    """ "53 %. brings a new piece onto the board" starts its second sentence in lower case; a
    placeholder there must be one whose text opens a sentence."""
    wrong = []
    for code, message in entries():
        for text in texts(code, message):
            plain = ABBREVIATIONS.sub("", CODE.sub("X", text))
            for letter, name in AFTER_STOP.findall(plain):
                if letter or name not in STARTS_A_SENTENCE:
                    wrong.append((code, text))
    assert not wrong


# --- what a member can open -------------------------------------------------------------------


def test_no_member_is_sent_to_a_path_or_a_python_command() -> None:
    """A member in Discord cannot open `docs/RULES.md` nor run `python -m bot play`."""
    wrong = [
        (code, text)
        for code, message in entries()
        for text in texts(code, message)
        if PATH_OR_COMMAND.search(CODE.sub("", text) if message.context else text)
    ]
    assert not wrong


# --- Hindi: no Latin word but the kept names ---------------------------------------------------


def test_the_kept_names_are_read_from_the_glossary() -> None:
    kept = kept_names()
    assert "Manage Channels" in kept and "UTC" in kept and "A" in kept
    assert latin_left("आपका दाँव **{throw}** आया: `black:12-16`, बटन A", kept) == ""
    assert latin_left("कुछ गड़बड़ हो गई (ref {ref})।", kept) == "ref"


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_hindi_sentence_has_no_latin_word_but_the_kept_names(code: str) -> None:
    kept = kept_names()
    wrong = [
        (text, left)
        for message in translations(code)
        if message.id
        for text in strings(message)
        if (left := latin_left(text, kept))
    ]
    assert not wrong


@pytest.mark.parametrize("code", TRANSLATED)
def test_discords_names_stand_in_parentheses_after_their_translation(code: str) -> None:
    """ "Manage Channels" bare in a Hindi sentence reads as an untranslated word: it opens the
    parentheses right after its translation, "चैनल प्रबंधन (Manage Channels)"."""
    wrong = []
    for message in translations(code):
        for text in strings(message) if message.id else []:
            plain = text
            for name in PERMISSIONS:  # the longest first: "Send Messages in Threads" is one name
                beside = len(re.findall(rf"(?<=[\u0900-\u097f] \(){re.escape(name)}", plain))
                if plain.count(name) != beside:
                    wrong.append((name, text))
                plain = plain.replace(name, "#")
    assert not wrong


# --- the Hindi reader's corrections, entry by entry --------------------------------------------


def hindi_of(english: str) -> list[str]:
    """The Hindi of every entry whose English holds `english`."""
    found = [
        text
        for message in translations("hi")
        if message.id and any(english in form for form in forms(message))
        for text in strings(message)
    ]
    assert found, english
    return found


def test_jagah_is_said_only_in_take_a_seat() -> None:
    """जगह reads as "place" ("हर जगह" is "everywhere"): a seat is its colour (रंग) or its player."""
    wrong = [
        text
        for message in translations("hi")
        if message.id
        for text in strings(message)
        if "जगह" in text.replace("जगह लें", "")
    ]
    assert not wrong
    assert any("जगह लें" in text for text in hindi_of("Take a seat"))


def test_a_default_is_what_is_taken_if_nothing_is_chosen() -> None:
    """ "(default on)" as पहले से reads "already on", and अपने आप clashes with `/पच्चीसी अपनेआप`,
    the auto-throw command: a default is "अगर न चुनें" (the glossary's test below checks every one)."""
    assert not [t for m in translations("hi") if m.id for t in strings(m) if "अपने आप" in t]
    assert all("अगर न चुनें" in text and "पहले से" not in text for text in hindi_of("(default on)"))


# --- Hindi: the glossary's words ---------------------------------------------------------------


class Term(NamedTuple):
    """A row of docs/HINDI.md's glossary: the English words it covers, the Hindi that says them,
    and the variants a Hindi entry must not use for them."""

    english: tuple[str, ...]
    hindi: tuple[str, ...]
    never: tuple[str, ...]


def glossary() -> list[Term]:
    """The rows of docs/HINDI.md's "The game's words" whose English is in backticks."""
    text = (ROOT / "docs" / "HINDI.md").read_text(encoding="utf-8")
    section = text.split("## The game's words", 1)[1].split("\n## ", 1)[0]
    terms = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if len(cells) == 4 and (english := re.findall(r"`([^`]+)`", cells[0])):
            terms.append(
                Term(
                    tuple(english),
                    tuple(re.findall(r"`([^`]+)`", cells[1])),
                    tuple(re.findall(r"`([^`]+)`", cells[2])),
                )
            )
    return terms


def english_words(message: Message) -> str:
    """An entry's English as a member reads it, without code and placeholders."""
    return " ".join(PLACEHOLDER.sub(" ", CODE.sub(" ", form)) for form in forms(message))


def says(hindi: str, variant: str) -> bool:
    """Whether a Hindi text (code left out) says `variant`: a word that begins with it, or the
    phrase (मार is in मारना, not in हमारे)."""
    plain = CODE.sub(" ", hindi)
    return re.search(rf"(?<![\u0900-\u097f]){re.escape(variant)}", plain) is not None


def matches(term: Term, english: str) -> list[str]:
    return [
        w for w in term.english if re.search(rf"(?<![\w-]){re.escape(w)}s?(?![\w-])", english, re.IGNORECASE)
    ]


def test_the_glossary_is_read_from_the_docs() -> None:
    terms = {t.english[0]: t for t in glossary()}
    assert terms["enemy"] == Term(("enemy",), ("विरोधी",), ("दुश्मन",))
    assert "घर" not in terms["square"].never and "बीच का वह घर" in terms["Charkoni"].never
    assert terms["Manage Channels"].hindi == ("चैनल प्रबंधन (Manage Channels)",)
    assert len(terms) > 30
    assert says("विरोधी मारता है", "मार") and not says("हमारे साथ", "मार")
    assert not says("`/पच्चीसी लीडरबोर्ड`", "बोर्ड")


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_says_the_glossarys_words(code: str) -> None:
    """enemy is विरोधी (not दुश्मन), a square खाना, a default "अगर न चुनें" (पहले से reads
    "already"), the export रिकॉर्ड and a member's record आँकड़े: in every entry whose English
    holds the term; where two terms match, the longer English is the one that counts."""
    terms = glossary()
    wrong = []
    for message in translations(code):
        if not message.id or message.context in ("command name", "piece mark"):
            continue
        english = english_words(message)
        found = [(term, word) for term in terms for word in matches(term, english)]
        for term, word in found:
            if any(word != other and word.lower() in other.lower() for _, other in found):
                continue  # a longer term says this one's word: it counts instead
            for text in strings(message):
                if term.hindi and not any(says(text, h) or h in text for h in term.hindi):
                    wrong.append((word, "missing", term.hindi, text))
                wrong += [(word, "never", bad, text) for bad in term.never if says(text, bad)]
    assert not wrong


@pytest.mark.parametrize(
    ("english", "wrong", "right"),
    [
        ("The game is restarting", "खेल फिर से शुरू", "बॉट"),
        ("against people", "के साथ", "के ख़िलाफ़"),
        ("against computers", "के साथ", "के ख़िलाफ़"),
        ("Played: the game's newest message", "चल दिया", "चाल हो गई"),
        ("legal moves", "सही चाल", "मुमकिन चाल"),
        ("the normal computer misses it", "इसे चूक", "छूट जाता"),
        ("Castle: a safe square, any colours may share it", "कोई भी रंग", "सभी रंग"),
        ("View Channel", "देखना", "देखने"),
        ("{side} won", "", "जीतीं"),
        ("stands in the open for a round", "चक्कर", "सबकी एक-एक बारी"),
        ("the only way to bring out a further piece", "दूसरी गोटी", "बिसात पर गोटी हो तो नई गोटी"),
        ("(both on in either preset)", "", "(`escape_hatch` और `last_square` दोनों सेट में चालू)"),
        ("rated game in", "{count} रेटिंग", "रेटिंग वाला {count} खेल भी"),
        ("Resign this game?", "यह खेल हार", "इस खेल में हार"),
        ("Only the player to move can ask", "जिसकी चाल", "जिसकी बारी"),
        ("(edited)", "बदला", "(संपादित)"),
        ("Waiting", "", "इंतज़ार में"),
        ("Rank", "क्रम", "स्थान"),
        ("Only whoever runs this table moderates it", "मॉडरेटर (", "उसी के पास"),
    ],
)
def test_the_hindi_says_what_the_english_means(english: str, wrong: str, right: str) -> None:
    said = hindi_of(english)
    assert not wrong or not any(wrong in text for text in said)
    assert any(right in text for text in said)


# --- Hindi: the second reader's classes of mistakes ---------------------------------------------


def hindi_texts() -> Iterator[tuple[Message, str]]:
    """Every Hindi text with its entry."""
    for message in translations("hi"):
        if message.id:
            for text in strings(message):
                yield message, text


DANGLING_OWNER = re.compile(r"\((?:उसका|उसकी|उसके|इसका|इसकी|इसके) [^)]*\)")
"""An aside that opens with a possessive: "(उसका आयोजक)" says "its organizer" with nothing it
belongs to; who may use a command is "(सिर्फ़ आयोजक)"."""


def test_an_aside_does_not_open_with_a_dangling_owner() -> None:
    assert DANGLING_OWNER.search("इस चैनल का टूर्नामेंट रद्द करें (उसका आयोजक)")
    assert not DANGLING_OWNER.search("इस चैनल का टूर्नामेंट रद्द करें (सिर्फ़ आयोजक)")
    assert not [text for _, text in hindi_texts() if DANGLING_OWNER.search(text)]
    assert all("(सिर्फ़ आयोजक)" in text for text in hindi_of("(its organizer)"))


OUT_OF = re.compile(r"\b(?:round|throws?) \{\w+\}(?:-\{\w+\})? of \{(\w+)\}", re.IGNORECASE)
"""English "round {round} of {rounds}", "throws {first}-{last} of {total}" (not a share: "{count}
of {colour}'s pieces", "{solved} of {count}", which Hindi says "में से")."""


def test_x_of_y_is_x_with_the_total_in_parentheses() -> None:
    """ "3 में से दौर 2" copies the English order; Hindi says "दौर 2 (कुल 3)"."""
    wrong = [text for _, text in hindi_texts() if re.search(r"में से (?:दौर|दाँव)(?![\u0900-\u097f])", text)]
    assert not wrong
    counted = 0
    for message in translations("hi"):
        for total in OUT_OF.findall(" ".join(forms(message)) if message.id else ""):
            assert all(f"(कुल {{{total}}})" in text for text in strings(message)), message.id
            counted += 1
    assert counted >= 7


MASCULINE_VERB = r"(?:दिखाता|बताता|देता|करता|चलता|दिखाते|बताते|देते|करते|चलते)(?![\u0900-\u097f])"
COMMAND_DOES = re.compile(
    rf"`/[^`]+`(?: और `/[^`]+`)?(?! (?:से|में|पर|के|की|का|को)(?![\u0900-\u097f]))(?: [^\s`।:;,()]+){{0,4}} {MASCULINE_VERB}"
)
"""A command in backticks as the subject of a masculine verb: कमांड is feminine, and a command
that "shows" reads better turned round: "सर्वर के खेल `/पच्चीसी इतिहास` से देखें"."""


def test_a_command_is_not_the_subject_of_a_masculine_verb() -> None:
    assert COMMAND_DOES.search("इस चैनल में कोई खेल नहीं खेला गया। `/पच्चीसी इतिहास` सर्वर के खेल दिखाता है।")
    assert COMMAND_DOES.search("खेल सहेजा हुआ है: `/पच्चीसी फेंकें` और `/पच्चीसी चलें` अब भी काम करते हैं।")
    assert not COMMAND_DOES.search("इस चैनल में कोई खेल नहीं खेला गया। सर्वर के खेल `/पच्चीसी इतिहास` से देखें।")
    assert not COMMAND_DOES.search("`/पच्चीसी बिसात`: बिसात फिर से देखें")
    assert not [text for _, text in hindi_texts() if COMMAND_DOES.search(text)]


def test_a_thread_mention_before_a_postposition_is_called_a_thread() -> None:
    """A game's thread is named "पच्चीसी: Asha का खेल": "<#thread> में" reads "Asha का खेल में"."""
    bare = re.compile(r"<#\{thread\}> (?:में|से|पर|का|की|के)(?![\u0900-\u097f])")
    assert bare.search("<#{thread}> में खेल चल रहा है।")
    assert not bare.search("खेल <#{thread}> थ्रेड में चल रहा है।")
    assert not [text for _, text in hindi_texts() if bare.search(text)]
    assert all("“{table}” में" in text for text in hindi_of("A seat is free at {table}."))


def test_an_option_name_is_not_the_subject_of_must_be() -> None:
    """ "{name} पूरी संख्या होनी चाहिए": an option's name cannot agree with the verb; "{name} के
    लिए पूरी संख्या दें"."""
    for text in hindi_of("{name} must be"):
        assert re.match(r"\{name\} (?:के लिए|में) ", text) and "चाहिए" not in text, text


NAMED_BUTTON = re.compile(r"\bclick (Throw|Join)\b|\b(?:a|the) (Throw|Join) button\b|\*\*(Throw|Join)\*\*")
"""An English sentence that names a button."""


def test_a_sentence_names_a_button_in_bold() -> None:
    """ "खेलने के लिए जुड़ें दबाएँ" reads the label as part of the sentence: **जुड़ें**. A command's
    description shows no markdown: there the label stands in quotes."""
    catalog = translations("hi")
    wrong = []
    for message in catalog:
        english = " ".join(forms(message)) if message.id else ""
        for label in {name for names in NAMED_BUTTON.findall(english) for name in names if name}:
            button = catalog.get(label)
            assert button is not None, label
            hindi = button.string
            marked = f"“{hindi}”" if message.context == "command description" else f"**{hindi}**"
            wrong += [text for text in strings(message) if marked not in text]
    assert not wrong
    assert len([m for m in catalog if m.id and NAMED_BUTTON.search(" ".join(forms(m)))]) >= 6
