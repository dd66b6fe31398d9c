"""The message catalogs (bot/locale): made from the code, complete in every shipped language,
compiled from their sources, and each translation keeps what the bot fills in or Discord reads.

The words themselves: tests/e2e/test_languages.py plays games in Hindi and in a pseudo-language.
"""

from __future__ import annotations

import ast
import gettext
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.core.texts.language import DOMAIN, LOCALE_DIR, SHIPPED, SOURCE, choose, language, native_name, spoken
from bot.translator import NAME
from tests.bot.catalogs import forms, strings, template, translations

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in SHIPPED if code != SOURCE]


def test_the_template_holds_what_the_code_says_now(tmp_path: Path) -> None:
    """scripts/catalogs extract, run again, finds the same sentences: none added to the code and
    left out of the catalogs, none left behind."""
    fresh = tmp_path / "fresh.pot"
    env = {**os.environ, "POT": str(fresh), "PYBABEL": str(Path(sys.executable).with_name("pybabel"))}
    subprocess.run([str(ROOT / "scripts" / "catalogs"), "extract"], check=True, env=env, timeout=300)
    with fresh.open("rb") as source:
        extracted = {(m.context, m.id) for m in read_po(source) if m.id}
    assert extracted == {(m.context, m.id) for m in template() if m.id}


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_sentence_has_a_translation(code: str) -> None:
    wanted = {(m.context, m.id) for m in template() if m.id}
    catalog = translations(code)
    have = {(m.context, m.id) for m in catalog if m.id}
    assert have == wanted, "run scripts/catalogs update"
    untranslated = [m.id for m in catalog if m.id and (not all(strings(m)) or m.fuzzy)]
    assert not untranslated
    assert not catalog.obsolete


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_is_the_source_compiled(code: str) -> None:
    """The .mo the bot loads says what the .po says (scripts/catalogs compile after an edit)."""
    compiled = io.BytesIO()
    write_mo(compiled, translations(code))
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as shipped:
        loaded = gettext.GNUTranslations(shipped)
    assert loaded._catalog == fresh._catalog  # type: ignore[attr-defined]


PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
KEPT = ("<@", "<#", "\n")
"""What Discord reads (mentions, lines) and must come through a translation as often; bold and
code are counted below."""
CODE_SPAN = re.compile(r"`[^`]*`")
BUTTONS = ("Throw", "Take a seat", "Rematch", "Hint", "Join", "Leave")
"""The buttons' labels (bot/core/texts/answers.py and tournament.py). A translation may set a
button's name in bold where the English says it plainly, so that a bare verb (फेंकें, जुड़ें) reads
as the button and not as part of the sentence (docs/HINDI.md)."""


def without_bold_buttons(text: str, labels: list[str]) -> str:
    """`text` with every bold button name (`**Join**`, `**जुड़ें**`) taken out."""
    return re.sub("|".join(rf"\*\*{re.escape(label)}\*\*" for label in labels), "", text)


def code_spans(text: str) -> tuple[int, int]:
    """(a backtick left open, how many different code spans): a translation may name an option
    twice (`escape_hatch` और `last_square` …) where the English lists it once, but keeps every
    span and closes each."""
    return text.count("`") % 2, len(set(CODE_SPAN.findall(text)))


def test_the_markup_count_leaves_out_bold_buttons_and_repeated_code() -> None:
    assert (
        without_bold_buttons("click **Join** or **Leave**: **{name}**", ["Join", "Leave"])
        == "click  or : **{name}**"
    )
    assert code_spans("`a`, `b` (`b` on)") == code_spans("`a`, `b` (on)") == (0, 2)
    assert code_spans("`a`, `b` (`b on)") != code_spans("`a`, `b` (on)")


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_placeholders_and_markup(code: str) -> None:
    catalog = translations(code)
    labels = [str(button.string) for label in BUTTONS if (button := catalog.get(label))]
    assert len(labels) == len(BUTTONS)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        english = forms(message)[-1]
        wanted = sorted(PLACEHOLDER.findall(english))
        for text in strings(message):
            found = sorted(PLACEHOLDER.findall(text))
            # A plural form may leave out `{count}` where the language says the number in words.
            if found != wanted and sorted(set(wanted) - {"{count}"}) != sorted(set(found) - {"{count}"}):
                wrong.append((message.id, text))
            if any(text.count(mark) != english.count(mark) for mark in KEPT):
                wrong.append((message.id, text))
            if code_spans(text) != code_spans(english):
                wrong.append((message.id, text))
            bold = without_bold_buttons(text, labels).count("**")
            if bold != without_bold_buttons(english, list(BUTTONS)).count("**"):
                wrong.append((message.id, text))
    assert not wrong


DISCORD_NAME = re.compile(r"[-_\w\u0900-\u097f]{1,32}")
"""Discord's pattern for command and option names, `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`,
for the scripts the bot ships (Python's `\\w` is letters, digits and `_`; Devanagari's signs are
marks, which `\\w` leaves out, so the block is named)."""


@pytest.mark.parametrize("code", TRANSLATED)
def test_command_names_follow_discords_rules(code: str) -> None:
    catalog = translations(code)
    names = [m for m in catalog if m.context == NAME]
    assert names
    for message in names:
        assert DISCORD_NAME.fullmatch(message.string), message.string
        assert message.string == message.string.lower()


@pytest.mark.parametrize("code", TRANSLATED)
def test_commands_named_in_a_translation_are_that_languages_commands(code: str) -> None:
    """A Hindi member types the Hindi names Discord shows them: `/पच्चीसी शुरू`, not `/pachisi start`."""
    catalog = translations(code)
    group = catalog.get("pachisi", context=NAME).string
    commands = {m.string for m in catalog if m.context == NAME}
    named = []
    for message in catalog:
        for text in strings(message):
            named += re.findall(rf"/({re.escape(group)}|pachisi) (\S+?)[`.,:;)।\s]", text + " ")
    assert named
    wrong = [(name, command) for name, command in named if name != group or command not in commands]
    assert not wrong


def test_every_sentence_is_a_literal_the_extractor_can_find() -> None:
    """gettext and ngettext are called with the English sentence itself: a sentence held in a
    variable would never reach the catalog (only the Language's own wrappers pass one on)."""
    passing_on = {
        ("bot/core/texts/language.py", "catalog"),
        ("render/words.py", "catalog"),
        ("bot/translator.py", "language"),  # the commands' words, which bot.translator.extract finds
    }
    found = []
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("render/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            count = {"gettext": 1, "ngettext": 2, "pgettext": 2}.get(node.func.attr, 0)
            if all(isinstance(arg, ast.Constant) for arg in node.args[:count]):
                continue
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            where = (str(path.relative_to(ROOT)), name)
            if where not in passing_on:
                found.append(f"{where[0]}:{node.lineno}")
    assert not found


def test_a_member_is_answered_in_their_language_when_the_bot_speaks_it() -> None:
    assert spoken("hi") is language("hi")
    assert spoken("en-US") is spoken("en-GB") is language("en")
    assert spoken("fr") is None and spoken(None) is None
    # a table: the option, else the starter's, else the server's, else English
    assert choose(None, "hi", "en-US").code == "hi"
    assert choose(None, "fr", "hi").code == "hi"
    assert choose(None, "fr", "de").code == "en"
    assert [native_name(code) for code in SHIPPED] == ["English", "हिन्दी"]


def test_numbers_and_dates_are_written_as_the_language_writes_them() -> None:
    from datetime import UTC, datetime

    hindi, english = language("hi"), language("en")
    assert english.number(100000) == "100,000" and hindi.number(100000) == "1,00,000"
    moment = datetime(2026, 1, 2, 13, 5, tzinfo=UTC)
    assert english.moment(moment) == "Jan 2, 2026 13:05"
    assert hindi.moment(moment) == "2 जन॰ 2026 13:05"
    assert hindi.ngettext("{count} game", "{count} games", 1500) == "1,500 खेल"
