"""Rebuild RagMetricsNotoSansSC-Regular.ttf, the Chinese font bundled for plots and JupyterLab.

Not imported by the package. A maintainer runs it, one command, whenever the suite's text
gains a Chinese character (``tests/test_font_coverage.py`` names any the font lacks). It
needs Debian's ``fonts-noto-cjk`` (``apt-get install fonts-noto-cjk``) and fontTools
(pinned in ``requirements.txt``)::

    .venv/bin/python scripts/make_font.py

The font keeps GB2312, the ``RANGES`` below, ``EXTRA_CHARACTERS`` and every CJK character
the suite writes (``suite_cjk_characters()`` reads the notebooks, the Markdown files and
the helper's source when the script runs), so nothing has to be listed by hand.

Three steps, each reproducible byte for byte (same text in, same file out):

1. write the code points to keep (``codepoints.txt``, in a temporary folder);
2. ``pyftsubset`` the Simplified Chinese face of the Noto Sans CJK collection;
3. redraw the cubic CFF outlines as quadratic TrueType ``glyf`` outlines (every
   matplotlib backend, PDF Type 42 included, accepts TrueType) and rename the
   family, so that it never collides with a full Noto Sans CJK SC installed on
   the machine (and avoids the Reserved Font Name "Source" of the licence).
"""
from __future__ import annotations

import json
import io
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repo_files import replace_file  # noqa: E402

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SOURCE_FACE = 2  # 0 JP, 1 KR, 2 SC, 3 TC, 4 HK in Debian's NotoSansCJK-Regular.ttc
ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "ragmetrics_lite" / "course" / "fonts" / "RagMetricsNotoSansSC-Regular.ttf"
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
# Characters to keep although no file of the suite writes them yet (the text is read anyway).
EXTRA_CHARACTERS = ""
# Where the suite writes Chinese, as glob patterns from the repository root.
TEXT_FILES = ("notebooks/*.ipynb", "notebooks/zh/*.ipynb", "*.md", "docs/**/*.md", "data/**/*.md",
              "ragmetrics_lite/**/*.py", "ragmetrics_lite/**/*.md")
CJK_BLOCKS = [  # inclusive ranges: what "a CJK character" means for the coverage check
    (0x2E80, 0x2FDF),  # radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation: 、。《》「」【】
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),  # hanzi: extension A, unified, compatibility
    (0xFF00, 0xFFEF),  # full-width and half-width forms: （），：
    (0x20000, 0x3134F),  # hanzi: extensions B to G
]


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


def is_cjk(character: str) -> bool:
    """
    >>> [is_cjk(c) for c in "啰。（a✗"]
    [True, True, True, False, False]
    """
    return any(low <= ord(character) <= high for low, high in CJK_BLOCKS)


def _strings(value) -> list[str]:
    """Every string inside a parsed JSON value (a notebook's sources and outputs)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def suite_text_files(root: Path = ROOT) -> list[Path]:
    """The files matched by TEXT_FILES, sorted, without duplicates."""
    return sorted({path for pattern in TEXT_FILES for path in root.glob(pattern) if path.is_file()})


def suite_cjk_characters(root: Path = ROOT) -> dict[str, list[str]]:
    """{CJK character: the files (relative to root) that write it} over suite_text_files().

    Notebooks are parsed, so characters in sources, outputs and metadata all count.
    """
    found: dict[str, set[str]] = {}
    for path in suite_text_files(root):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join(_strings(json.loads(text)))
        for character in set(text):
            if is_cjk(character):
                found.setdefault(character, set()).add(path.relative_to(root).as_posix())
    return {character: sorted(files) for character, files in sorted(found.items())}


def codepoints(root: Path = ROOT) -> list[int]:
    """GB2312 (6763 hanzi, the symbol rows but kana), RANGES, EXTRA_CHARACTERS and the
    CJK characters the suite writes."""
    rows = gb2312_characters(0xA1, 0xA3) + gb2312_characters(0xA6, 0xF7)  # A4, A5: kana
    kept = {ord(c) for c in rows}
    kept |= {cp for low, high in RANGES for cp in range(low, high + 1)}
    kept |= {ord(c) for c in EXTRA_CHARACTERS}
    kept |= {ord(c) for c in suite_cjk_characters(root)}
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


def set_family_name(font: TTFont, family: str, postscript_name: str, source: str) -> None:
    """Give a subset its own family name (name IDs 1-4, 6; typographic names 16-17 dropped).

    Shared with ``make_math_font.py``: a subset must not claim the name of the font it came from.
    """
    table = font["name"]
    for name_id in (1, 2, 3, 4, 6, 16, 17):
        table.removeNames(nameID=name_id)
    version = font["head"].fontRevision
    for name_id, text in ((1, family), (2, "Regular"), (4, family),
                          (3, f"{version:.3f};{postscript_name};subset of {source}"),
                          (6, postscript_name)):
        table.setName(text, name_id, 3, 1, 0x409)


def build(target: Path = TARGET, root: Path = ROOT) -> TTFont:
    """Write the subset for the text under ``root`` to ``target``; returns the font."""
    kept = codepoints(root)
    with tempfile.TemporaryDirectory() as work:
        listing = Path(work, "codepoints.txt")
        listing.write_text("".join(f"{cp:04X}\n" for cp in kept))
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
        set_family_name(font, FAMILY, POSTSCRIPT_NAME, "Noto Sans CJK SC")
        saved = io.BytesIO()
        font.save(saved)
        replace_file(target, saved.getvalue())  # a new file renamed over the old: never through a link
    return font


def main() -> int:
    if not Path(SOURCE).is_file():
        print(f"{SOURCE} is missing: install Debian's fonts-noto-cjk "
              "(apt-get install fonts-noto-cjk) and rerun.", file=sys.stderr)
        return 1
    font = build()
    cmap = font.getBestCmap()
    beyond = sorted((set(EXTRA_CHARACTERS) | set(suite_cjk_characters()))
                    - set(gb2312_characters(0xA1, 0xF7)))
    print(f"wrote {TARGET.relative_to(ROOT)}: {TARGET.stat().st_size} bytes, {len(cmap)} characters; "
          f"beyond GB2312: {''.join(beyond) or 'none'}", file=sys.stderr)
    lacking = [c for c in beyond if ord(c) not in cmap]
    if lacking:
        print(f"Noto Sans CJK SC has no glyph for {''.join(lacking)}: reword the text.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
