"""The standings picture: golden images in English and Hindi, every word from the catalog, and
long names cut between whole letters instead of running into the numbers."""

from __future__ import annotations

import gettext
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render import sprites
from render import words as w
from render.standings import COLUMNS, NAME_RIGHT, Pairing, Standing, standings_png
from tests.render.helpers import decode, hindi

GOLDEN = Path(__file__).with_name("golden")


class Marked(gettext.NullTranslations):
    """Every sentence in brackets: a word drawn without them did not come through the catalog."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"[{msgid1 if n == 1 else msgid2}]"


MARKED = w.Words("x-marked", Marked())
ROWS = [
    Standing(1, "Asha", 2.5, 4, 3050, 3),
    Standing(2, "Ravi Shankar Prasad Srivastava", 2, 5.5, 3100, 3),
    Standing(3, "आशा", 2, 4, 2990, 3),
    Standing(3, "Meera", 2, 4, 2990, 3),
    Standing(5, "Kabir", 1, 3.5, 3010, 3),
    Standing(6, "सुरेश", 0, 4, 3000, 3, withdrawn=True),
]
PAIRINGS = [
    Pairing(1, (("Asha",), ("Ravi Shankar Prasad Srivastava",))),
    Pairing(2, (("आशा",), ("Meera",))),
    Pairing(3, (("Kabir",), (None,))),
]
PARTNERS = [Pairing(1, (("Asha", "आशा"), ("Meera", None)))]


def pictures() -> dict[str, Image.Image]:
    return {
        "standings": decode(standings_png("Winter cup", 2, 3, ROWS, PAIRINGS)),
        "hindi_standings": decode(standings_png("शीतकालीन कप", 2, 3, ROWS, PAIRINGS, words=hindi())),
    }


@pytest.mark.parametrize("name", ["standings", "hindi_standings"])
def test_matches_golden(name: str) -> None:
    image = pictures()[name]
    path = GOLDEN / f"{name}.png"
    if os.environ.get("PACHISI_UPDATE_GOLDEN"):
        image.quantize(256).save(path, optimize=True)
        pytest.skip(f"wrote {path.name}: view it before committing (comparing it with itself proves nothing)")
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size
    difference = ImageChops.difference(image, golden).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(1 for v in difference.get_flattened_data() if v)
    assert changed <= image.size[0] * image.size[1] // 500, f"{changed} pixels differ from {path.name}"


def test_every_word_drawn_comes_from_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = sprites.text

    def record(words: str, *args: object) -> object:
        drawn.append(words)
        return real(words, *args)

    monkeypatch.setattr(sprites, "text", record)
    sprites.fit.cache_clear()
    standings_png("Cup", 1, 3, ROWS, [*PAIRINGS, *PARTNERS], finished=False, words=MARKED)
    names = {row.name for row in ROWS} | {"Cup"}
    numbers = {w.points_text(v) for row in ROWS for v in (row.points, row.buchholz)}
    numbers |= {str(v) for row in ROWS for v in (row.rank, row.opponents_rating, row.games)}
    stray = {
        text
        for text in drawn
        if not text.startswith("[") and text not in names and text not in numbers and not text.endswith("…")
    }
    assert not stray, stray
    labels = w.standings_labels(MARKED)
    assert {*labels, w.standings_title(MARKED, 1, 3, False), w.pairings_title(MARKED, 2)} <= set(drawn)


def test_a_long_name_is_cut_before_the_points_column() -> None:
    row = Standing(1, "Ravi Shankar Prasad Srivastava of the Northern Hills", 3, 6, 4500, 3)
    image = decode(standings_png("Cup", 3, 3, [row]))
    top = 160 + 64  # the first row under the column heads
    gap = image.crop((NAME_RIGHT + 2, top + 4, COLUMNS["points"][0] - 40, top + 60))
    colours = gap.getcolors()
    assert colours is not None and len(colours) == 1, "nothing drawn between name and points"


def test_points_keep_a_half_as_a_sign() -> None:
    assert [w.points_text(p) for p in (0, 0.5, 2, 2.5)] == ["0", "½", "2", "2½"]
