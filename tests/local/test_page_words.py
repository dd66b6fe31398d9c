"""The page's own words, read from the bot's catalogs by localdiscord's reader alone."""

from __future__ import annotations

import pytest

from localdiscord import words


@pytest.mark.parametrize("code", ["en", "hi"])
def test_every_page_word_is_there_in_each_language(code: str) -> None:
    said = words.page_words(words.language_of(code))
    assert all(isinstance(text, str) and text for text in said.values())
    assert said["language_hi"] == ("Hindi" if code == "en" else "हिन्दी")
