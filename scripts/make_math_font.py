"""Rebuild RagMetricsLatinModernMath-Regular.otf, the math font embedded in the offline handouts.

Not imported by the package. ``scripts/export_handouts.py`` writes the formulas as MathML, which
Chromium, Firefox and Safari draw natively; a stretchy brace, a big sum or a tall fraction bar
needs a font with an OpenType ``MATH`` table, which most machines lack (Chromium then draws
``{`` one line high next to a two-line ``cases``). The handouts embed this subset of Latin Modern
Math (the look of LaTeX and of MathJax's TeX fonts). A maintainer runs it once, and again only when
a formula uses a character outside the ranges below (``tests/test_handouts.py`` names it). It
needs Debian's ``fonts-lmodern`` (``apt-get install fonts-lmodern``) and fontTools (pinned)::

    .venv/bin/python scripts/make_math_font.py

The subset keeps the code points of ``RANGES``, every glyph the ``MATH`` table reaches from them
(size variants and the pieces a stretchy brace is assembled from: fontTools' MATH closure) and
the ``ssty`` feature (script-size forms); the family is renamed, as the GUST Font License asks of a
modified version. The same source gives the same file, byte for byte.
"""
from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_font import set_family_name  # noqa: E402  (the sibling script)
from repo_files import replace_file  # noqa: E402

SOURCE = "/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"
ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "ragmetrics_lite" / "course" / "fonts" / "RagMetricsLatinModernMath-Regular.otf"
FAMILY = "RagMetrics Latin Modern Math"
POSTSCRIPT_NAME = "RagMetricsLatinModernMath-Regular"

RANGES = [  # inclusive code point ranges
    (0x0020, 0x007E), (0x00A0, 0x00FF),  # ASCII, Latin-1 (× ÷ ± · ¬)
    (0x0131, 0x0131), (0x0237, 0x0237),  # dotless i and j
    (0x0300, 0x036F),  # combining accents (\bar, \hat, \tilde)
    (0x0391, 0x03C9), (0x03D1, 0x03D6), (0x03F0, 0x03F5),  # Greek and its variant forms
    (0x2000, 0x206F),  # general punctuation: spaces, dashes, primes, ellipsis, invisible operators
    (0x2100, 0x214F),  # letterlike symbols: ℓ ℕ ℝ ...
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x2308, 0x230B), (0x2329, 0x232A),  # ceiling, floor, angle brackets
    (0x239B, 0x23B3), (0x23DC, 0x23E1),  # bracket pieces, over and under braces
    (0x27E8, 0x27EF),  # mathematical angle and white brackets
    (0x2A7D, 0x2A7E),  # slanted less- and greater-than or equal: ⩽ ⩾
    (0x1D400, 0x1D467),  # mathematical bold and italic Latin: <mi>x</mi> is drawn as italic U+1D465
    (0x1D6A4, 0x1D6A5),  # italic dotless i and j
    (0x1D6E2, 0x1D71B),  # mathematical italic Greek
]


def codepoints() -> list[int]:
    return sorted({cp for low, high in RANGES for cp in range(low, high + 1)})


def rename(font: TTFont) -> None:
    """The family name of the subset, in the name table and in the CFF table's own names."""
    set_family_name(font, FAMILY, POSTSCRIPT_NAME, "Latin Modern Math")
    font["CFF "].cff.fontNames = [POSTSCRIPT_NAME]
    top = font["CFF "].cff.topDictIndex[0]
    top.FullName, top.FamilyName = FAMILY, FAMILY


def build(target: Path = TARGET) -> TTFont:
    with tempfile.TemporaryDirectory() as work:
        subsetted = Path(work, "subset.otf")
        subset.main([SOURCE, "--unicodes=" + ",".join(f"{cp:04X}" for cp in codepoints()),
                     "--layout-features=*", "--no-hinting", "--name-IDs=*", "--notdef-outline",
                     f"--output-file={subsetted}"])
        font = TTFont(subsetted, recalcTimestamp=False)
        rename(font)
        saved = io.BytesIO()
        font.save(saved)
        replace_file(target, saved.getvalue())  # a new file renamed over the old: never through a link
    return font


def main() -> int:
    if not Path(SOURCE).is_file():
        print(f"{SOURCE} is missing: install Debian's fonts-lmodern "
              "(apt-get install fonts-lmodern) and rerun.", file=sys.stderr)
        return 1
    font = build()
    print(f"wrote {TARGET.relative_to(ROOT)}: {TARGET.stat().st_size} bytes, "
          f"{len(font.getBestCmap())} characters, {len(font.getGlyphOrder())} glyphs, "
          f"MATH table: {'MATH' in font}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
