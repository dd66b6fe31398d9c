"""Make the local page's font for full-width Latin (U+FF01-FF5E, "Ａsha"): DejaVu Sans's printable
ASCII glyphs, each centred on a full em, under those code points only.

A name typed with a full-width letter is refused as a look-alike, and the name box must show the
letter, not an empty box, on a computer without a CJK font (this one has none). The page serves
the result (localdiscord/static/fonts/PachisiFullwidth.woff2, DejaVu's licence beside it: a
changed DejaVu font may not keep DejaVu's name, hence "Pachisi Fullwidth").

    pip install fonttools brotli   # this script's own tools, not the project's
    python scripts/fullwidth_font.py [/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf]
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # Debian's fonts-dejavu-core
OUT = Path(__file__).resolve().parents[1] / "localdiscord" / "static" / "fonts" / "PachisiFullwidth.woff2"
FULLWIDTH = 0xFEE0  # U+FF01 is "!" (U+0021) plus this
FAMILY = "Pachisi Fullwidth"


def make(source: Path, out: Path) -> None:
    font = TTFont(source)
    options = Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.layout_features = []
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=range(0x21, 0x7F))
    subsetter.subset(font)
    cmap = font.getBestCmap()
    em = font["head"].unitsPerEm
    glyphs, metrics = font["glyf"], font["hmtx"]
    drawn = {}  # every outline, components resolved, before any is moved
    for name in sorted(set(cmap.values())):
        drawn[name] = DecomposingRecordingPen(font.getGlyphSet())
        font.getGlyphSet()[name].draw(drawn[name])
    for name, recorded in drawn.items():
        width, _ = metrics[name]
        pen = TTGlyphPen(None)
        recorded.replay(TransformPen(pen, (1, 0, 0, 1, (em - width) // 2, 0)))
        glyphs[name] = pen.glyph()
        glyphs[name].recalcBounds(glyphs)
        metrics[name] = (em, getattr(glyphs[name], "xMin", 0))
    for table in font["cmap"].tables:
        table.cmap = {code + FULLWIDTH: name for code, name in cmap.items()}
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = FAMILY
        elif record.nameID == 6:
            record.string = FAMILY.replace(" ", "-")
        elif record.nameID == 3:
            record.string = FAMILY + " (from DejaVu Sans)"
    font["OS/2"].usFirstCharIndex, font["OS/2"].usLastCharIndex = 0xFF01, 0xFF5E
    font.flavor = "woff2"
    font.save(out)


if __name__ == "__main__":
    make(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE, OUT)
