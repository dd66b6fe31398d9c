"""Hindi on the pictures: the bundled Devanagari font, shaped by raqm, drawn in runs beside the
Latin font, and cut (when it must be) only between whole letters."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from render import sprites, theme


def test_pillow_can_shape_devanagari() -> None:
    """Pillow's wheels ship raqm; without it conjuncts would be drawn as separate letters."""
    assert features.check("raqm")


def test_conjuncts_are_shaped_not_laid_side_by_side() -> None:
    # क्ष is one conjunct: shaped, it is narrower than क, the virama and ष in a row.
    shaped = theme.devanagari_font(40)
    plain = ImageFont.truetype(str(theme.DEVANAGARI_FONT_PATH), 40, layout_engine=ImageFont.Layout.BASIC)
    assert shaped.getlength("क्ष") < plain.getlength("क्ष") - 5
    # The short i's sign is written before its consonant: the shaped drawing differs from the plain.
    assert shaped.getmask("कि").getbbox() != plain.getmask("कि").getbbox()


def test_a_line_is_drawn_in_runs_of_one_script() -> None:
    assert sprites.runs("पीली 5 → 15") == [("पीली ", True), ("5 → 15", False)]
    assert sprites.runs("★ जीत") == [("★ ", False), ("जीत", True)]
    assert sprites.runs("Ravi की साथी") == [("Ravi ", False), ("की साथी", True)]
    assert sprites.runs("Black wins") == [("Black wins", False)]


def test_a_mixed_line_sits_where_the_latin_one_would() -> None:
    """The anchor places a Hindi label as it places an English one: same left edge, same middle."""
    latin, (lx, ly) = sprites.text("Waiting", 22, theme.TEXT, "lm")
    hindi, (hx, hy) = sprites.text("इंतज़ार", 22, theme.TEXT, "lm")
    assert abs(hx - lx) <= 2
    assert abs((hy + hindi.size[1] / 2) - (ly + latin.size[1] / 2)) <= 6
    right, (rx, _) = sprites.text("▶ चाल", 22, theme.TEXT, "rm")
    assert abs(rx + right.size[0]) <= 3  # ends at the anchor


def test_a_cut_keeps_whole_letters() -> None:
    assert sprites.clusters("पश्चिम") == ["प", "श्चि", "म"]
    assert sprites.clusters("मुँह") == ["मुँ", "ह"]
    assert sprites.clusters("Home") == ["H", "o", "m", "e"]
    words = "कंप्यूटर · सामान्य"
    for width in range(20, 200, 7):
        shown, _ = sprites.fit(words, (22,), width)
        kept = shown.removesuffix("…")
        assert words.startswith(kept)
        assert not kept.endswith("्")  # never half a conjunct
        rest = words[len(kept) :]
        assert not rest or not ("\u093e" <= rest[0] <= "\u094d" or rest[0] in "\u0901\u0902")


def test_a_line_of_two_scripts_keeps_one_weight() -> None:
    """ "आप Chitra हैं" is drawn in one weight: a line's two fonts are both the bold cut."""
    for size in (14, 22, 50):
        assert theme.font(size).getname() == ("DejaVu Sans", "Bold")
        assert theme.devanagari_font(size).getname() == ("Noto Sans Devanagari", "Bold")


def test_a_centred_mixed_text_draws_each_script_in_its_own_font() -> None:
    """A sprite's centred text of two scripts (a mark, a count) draws like a line of the picture:
    Latin in DejaVu, not as missing-glyph boxes of the Devanagari font."""
    words = "आप Chitra हैं"
    centred = Image.new("RGBA", (600, 100), (0, 0, 0, 0))
    sprites.centred_text(ImageDraw.Draw(centred), (300, 50), words, 40, (255, 255, 255))
    line = Image.new("RGBA", (600, 100), (0, 0, 0, 0))
    sprite, (dx, dy) = sprites.text(words, 40, (255, 255, 255), "mm")
    line.paste(sprite, (300 + dx, 50 + dy), sprite)
    drawn, expected = centred.getchannel("A"), line.getchannel("A")
    assert drawn.getbbox() == expected.getbbox()
    difference = ImageChops.difference(drawn, expected).point(lambda v: 255 if v > 64 else 0)
    assert difference.getbbox() is None  # the same letters, up to the edges' blending
