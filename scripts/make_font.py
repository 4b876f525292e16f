"""Rebuild RagMetricsNotoSansSC-Regular.ttf, the Chinese font bundled for plots.

Not imported by the package: a maintainer runs it after adding characters to
``EXTRA_CHARACTERS`` (``tests/test_plotting.py`` names any that a notebook needs).
Needs Debian's ``fonts-noto-cjk`` (``apt-get install fonts-noto-cjk``) and fontTools::

    python scripts/make_font.py

Three steps, each reproducible byte for byte:

1. write the code points to keep (``codepoints.txt``, in a temporary folder);
2. ``pyftsubset`` the Simplified Chinese face of the Noto Sans CJK collection;
3. redraw the cubic CFF outlines as quadratic TrueType ``glyf`` outlines (every
   matplotlib backend, PDF Type 42 included, accepts TrueType) and rename the
   family, so that it never collides with a full Noto Sans CJK SC installed on
   the machine (and avoids the Reserved Font Name "Source" of the licence).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SOURCE_FACE = 2  # 0 JP, 1 KR, 2 SC, 3 TC, 4 HK in Debian's NotoSansCJK-Regular.ttc
TARGET = Path(__file__).resolve().parents[1] / "ragmetrics_lite" / "data" / "fonts" / "RagMetricsNotoSansSC-Regular.ttf"
FAMILY = "RagMetrics Noto Sans SC"
POSTSCRIPT_NAME = "RagMetricsNotoSansSC-Regular"
MAX_ERROR = 1.0  # font units (1/1000 em) allowed between a cubic curve and its quadratic copy

RANGES = [  # besides GB2312, inclusive code point ranges
    (0x0020, 0x007E), (0x00A0, 0x00FF),  # ASCII, Latin-1 (DejaVu Sans covers the rest)
    (0x2010, 0x2027), (0x2030, 0x203B),  # dashes, quotes, bullet, ellipsis, per mille, primes
    (0x2103, 0x2103), (0x2116, 0x2116), (0x2122, 0x2122),  # ℃ № ™
    (0x2190, 0x2199), (0x21D2, 0x21D4),  # arrows ← ↑ → ↓ ⇒ ⇔
    (0x2200, 0x22FF),  # mathematical operators: − ≤ ≥ ≠ ≈ ∑ √ ∞ ...
    (0x2460, 0x2473), (0x25A0, 0x25FF), (0x2605, 0x2606), (0x2713, 0x2713),  # ① ■ ● ★ ✓
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF01, 0xFF65), (0xFFE0, 0xFFE6),  # full-width forms, half-width CJK punctuation
]
# Characters outside GB2312 that the suite needs (none yet): add them here and rerun.
EXTRA_CHARACTERS = ""


def gb2312_characters(first_lead: int, last_lead: int) -> list[str]:
    """Characters of GB2312 whose lead byte is in [first_lead, last_lead].

    >>> len(gb2312_characters(0xB0, 0xD7)), len(gb2312_characters(0xD8, 0xF7))  # hanzi levels 1, 2
    (3755, 3008)
    """
    found = []
    for lead in range(first_lead, last_lead + 1):
        for trail in range(0xA1, 0xFF):
            try:
                found.append(bytes([lead, trail]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return found


def codepoints() -> list[int]:
    """GB2312 (6763 hanzi, the symbol rows but kana), RANGES and EXTRA_CHARACTERS."""
    rows = gb2312_characters(0xA1, 0xA3) + gb2312_characters(0xA6, 0xF7)  # A4, A5: kana
    kept = {ord(c) for c in rows}
    kept |= {cp for low, high in RANGES for cp in range(low, high + 1)}
    kept |= {ord(c) for c in EXTRA_CHARACTERS}
    return sorted(kept)


def keep_default_language_systems(font: TTFont) -> None:
    """Drop the language-specific (JAN, KOR, ZHH, ZHS, ZHT) OpenType layout rules, in place.

    What stays is each script's default: Latin runs get Latin-style punctuation
    (``…`` on the baseline), Han runs the Chinese forms, whatever the machine's locale.
    """
    for tag in ("GSUB", "GPOS"):
        for record in font[tag].table.ScriptList.ScriptRecord:
            record.Script.LangSysRecord = []
            record.Script.LangSysCount = 0


def cff_to_glyf(font: TTFont) -> None:
    """Replace the font's CFF outlines by TrueType glyf outlines, in place."""
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in font.getGlyphOrder():
        pen = TTGlyphPen(None)
        # CFF contours turn counter-clockwise, TrueType ones clockwise.
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyphs[name] = pen.glyph(dropImpliedOnCurves=True)
    del font["CFF "]
    font["loca"] = newTable("loca")
    font["glyf"] = newTable("glyf")
    font["glyf"].glyphOrder = font.getGlyphOrder()
    font["glyf"].glyphs = glyphs
    maxp = font["maxp"] = newTable("maxp")  # version 1.0; the rest is recomputed on save
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                  "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                  "maxComponentElements", "maxComponentDepth"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    font["head"].glyphDataFormat = 0
    font["post"].formatType = 3.0  # no glyph names (the CID-keyed source has none)
    font.sfntVersion = "\x00\x01\x00\x00"


def rename(font: TTFont) -> None:
    """Give the subset its own family name (name IDs 1-4, 6; typographic names dropped)."""
    table = font["name"]
    for name_id in (1, 2, 3, 4, 6, 16, 17):
        table.removeNames(nameID=name_id)
    version = font["head"].fontRevision
    for name_id, text in ((1, FAMILY), (2, "Regular"), (4, FAMILY),
                          (3, f"{version:.3f};{POSTSCRIPT_NAME};subset of Noto Sans CJK SC"),
                          (6, POSTSCRIPT_NAME)):
        table.setName(text, name_id, 3, 1, 0x409)


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        listing = Path(work, "codepoints.txt")
        listing.write_text("".join(f"{cp:04X}\n" for cp in codepoints()))
        face = TTFont(SOURCE, fontNumber=SOURCE_FACE, recalcTimestamp=False)
        keep_default_language_systems(face)
        face.save(Path(work, "face.otf"))
        subsetted = Path(work, "subset.otf")
        subset.main([str(Path(work, "face.otf")), f"--unicodes-file={listing}",
                     "--no-hinting", "--drop-tables+=vhea,vmtx,VORG", "--name-IDs=*",
                     "--layout-features-=vert,vrt2,vhal,vkrn,vpal,valt,halt,palt",
                     f"--output-file={subsetted}"])
        font = TTFont(subsetted, recalcTimestamp=False)  # keep the source's dates
        cff_to_glyf(font)
        rename(font)
        font.save(TARGET)
    print(f"wrote {TARGET.name}: {TARGET.stat().st_size} bytes, "
          f"{len(font.getBestCmap())} characters", file=sys.stderr)


if __name__ == "__main__":
    main()
