"""Export every notebook to an HTML handout that reads with the network off.

One command (the folder is git-ignored; default ``handouts/``)::

    .venv/bin/python scripts/export_handouts.py [OUTDIR] [--notebooks NB.ipynb ...]
    .venv/bin/python scripts/export_handouts.py --zh      # the Chinese edition, to handouts/zh/

``jupyter nbconvert --to html`` alone gives a page that shows raw ``$...$`` offline (MathJax,
require.js and mermaid come from a CDN), Chinese as boxes on a machine without a CJK font, and
plots without alt text. Each handout here is one self-contained file instead:

- formulas are converted to MathML at export time (``latex2mathml``), which Chromium, Firefox and
  Safari draw natively; ``\\\\[6pt]`` row gaps become a strut, since latex2mathml would print
  "[6pt]"; the math font (a subset of Latin Modern Math, ``scripts/make_math_font.py``) is
  embedded, cut down to what the formulas of all the pages use, so stretchy braces and big operators
  work on any machine;
- the template's CDN blocks (require.js, MathJax, mermaid, widgets) are emptied;
- the bundled Chinese font is embedded as a ``data:`` URI, cut down to the Chinese characters the
  page uses, and declared for Chinese only (``unicode-range``) and first in every font list, so that
  Chromium draws every Chinese character with it and Latin text keeps the other fonts;
- plots are inline PNGs with alt text: the output's ``alt`` metadata
  (``output.metadata["image/png"]["alt"]``), else the cell's (``cell.metadata["alt"]``, a string
  or one string per image), else a description made from the notebook's title, the section
  heading and the markdown cell before the plot; the script lists the plots that had no metadata.
  Every plot in ``notebooks/`` carries the cell's ``alt`` (``tests/test_alt_text.py`` fails on one
  without), which survives ``scripts/execute_notebooks.py``; the fallback is for a notebook exported
  before its new plot is described;
- interview cards (``<details>``) stay collapsed; links to other notebooks point to their
  handouts, and the glossary (``docs/glossary.md``) is exported beside them as ``glossary.html``.

Nothing is loaded from a remote URL (``tests/test_handouts.py`` parses every page and checks).
"""
from __future__ import annotations

import argparse
import base64
import copy
import io
import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import urlsplit

import latex2mathml.converter
import nbformat
from fontTools import subset
from fontTools.ttLib import TTFont
from jinja2 import DictLoader, pass_context
from lxml import etree
from nbconvert import HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from nbconvert.preprocessors import Preprocessor

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
GLOSSARY = ROOT / "docs" / "glossary.md"
ZH_NOTEBOOK_DIR = ROOT / "notebooks" / "zh"  # the Chinese edition (scripts/zh_edition.py)
ZH_GLOSSARY = ROOT / "docs" / "glossary.zh-CN.md"
DEFAULT_OUT = ROOT / "handouts"
FONT_DIR = ROOT / "ragmetrics_lite" / "course" / "fonts"
CJK_FONT, CJK_FAMILY = FONT_DIR / "RagMetricsNotoSansSC-Regular.ttf", "RagMetrics Noto Sans SC"
MATH_FONT, MATH_FAMILY = FONT_DIR / "RagMetricsLatinModernMath-Regular.otf", "RagMetrics Latin Modern Math"
# Mathematical italic and bold letters: Chromium draws a one-letter <mi>x</mi> as U+1D465.
MATH_ALPHANUMERICS = [*range(0x1D400, 0x1D468), 0x210E, *range(0x1D6A4, 0x1D6A6), *range(0x1D6E2, 0x1D71C)]
ROW_GAP = re.compile(r"\\\\\[\s*([0-9]*\.?[0-9]+)\s*(pt|em|ex|mm)\s*\]")
EM_PER_UNIT = {"pt": 0.1, "em": 1.0, "ex": 0.43, "mm": 0.285}  # at a 10 pt font, as TeX counts
FONTS_PLACEHOLDER = "/*handout-fonts*/"
STRUT_EM = 0.8  # height of a row's strut, to which a row gap adds
# "\ln p_n": TeX puts a thin space after the name, latex2mathml writes "lnp"; "\ln(x)" needs none.
FUNCTION_THEN_LETTER = re.compile(r"\\(ln|log|exp|sin|cos|tan)\s+(?=[A-Za-z0-9])")

TEMPLATE = r"""
{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block extra_css %}
<style type="text/css">/*handout-fonts*/</style>
{% endblock extra_css %}
{% block input %}
{#- pygments' highlighted code is escaped already: bleach's clean_html took a third of the export #}
<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">
     <div class="cm-editor cm-s-jupyter">
{{ cell.source | highlight_code(metadata=cell.metadata) }}
     </div>
</div>
{%- endblock input %}
{% block data_png scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}" alt="{{ output | get_metadata('alt', 'image/png') | escape_html }}">
</div>
{%- endblock data_png %}
{% block data_jpg scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/jpeg;base64,{{ output.data['image/jpeg'] | escape_html }}" alt="{{ output | get_metadata('alt', 'image/jpeg') | escape_html }}">
</div>
{%- endblock data_jpg %}
{% block data_latex scoped %}
<div class="jp-RenderedLatex jp-OutputArea-output {{ extra_class }}" data-mime-type="text/latex">
{{ output.data['text/latex'] | markdown2html }}
</div>
{%- endblock data_latex %}
"""

# The code points the Chinese font is declared for (make_font.py's CJK_BLOCKS; custom.css for JupyterLab
# declares the same): radicals to unified ideographs (CJK punctuation 、。 among them), compatibility
# ideographs, full-width forms (，（）：), extensions B to G. “ ” and · stay with the Latin fonts, which all
# have them: the Chinese font's are a full em wide.
CJK_RANGES = [(0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3134F)]
CJK_UNICODE_RANGE = ", ".join(f"U+{low:X}-{high:X}" for low, high in CJK_RANGES)
CJK_CHARACTER = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in CJK_RANGES) + "]")
# The Chinese font comes first in each list, and its unicode-range keeps it off Latin text: placed last, it
# left Chromium drawing a page's Chinese with a fallback's .notdef boxes when that page loaded the font first.
FONT_CSS = """
@font-face {{ font-family: "{cjk_family}"; src: url(data:font/ttf;base64,{cjk}) format("truetype");
  unicode-range: {cjk_range}; }}
@font-face {{ font-family: "{math_family}"; src: url(data:font/otf;base64,{math}) format("opentype"); }}
body {{
  --jp-ui-font-family: "{cjk_family}", system-ui, -apple-system, "Segoe UI", helvetica, arial, sans-serif;
  --jp-content-font-family: "{cjk_family}", system-ui, -apple-system, "Segoe UI", helvetica, arial, sans-serif;
  --jp-code-font-family: "{cjk_family}", menlo, consolas, "DejaVu Sans Mono", monospace;
  --jp-code-font-family-default: "{cjk_family}", menlo, consolas, "DejaVu Sans Mono", monospace;
}}
math {{ font-family: "{cjk_family}", "{math_family}", math; }}
details {{ margin-bottom: 1em; }}  /* an interview card, closed, before the next question */
mtd[columnalign="left"] {{ text-align: left; }}  /* cases: MathML Core has no columnalign */
math[display="block"] {{ margin: 0.6em 0; overflow-x: auto; overflow-y: hidden; }}
"""


class HandoutError(ValueError):
    """A notebook cannot become a handout (a formula latex2mathml cannot read, say)."""


# ---------------------------------------------------------------- formulas
def tex_to_mathml(tex: str, display: str = "inline") -> str:
    r"""MathML for a TeX formula, with ``\\[6pt]`` row gaps kept as a strut on the next row.

    >>> tex_to_mathml(r"\begin{cases}1\\[6pt]0\end{cases}", "block").count("<mtr>")
    2
    >>> "6pt" in tex_to_mathml(r"\begin{cases}1\\[6pt]0\end{cases}")
    False
    >>> "<mspace width=\"0.167em\" />" in tex_to_mathml(r"w_n \ln p_n")
    True
    """
    def strut(match: re.Match) -> str:
        return r"\\ \rule{0pt}{%.2fem} " % (STRUT_EM + float(match[1]) * EM_PER_UNIT[match[2]])

    try:
        tex = FUNCTION_THEN_LETTER.sub(r"\\\1\\, ", ROW_GAP.sub(strut, tex.strip()))
        return latex2mathml.converter.convert(tex, display=display)
    except Exception as error:  # latex2mathml raises many types; name the formula
        raise HandoutError(f"latex2mathml cannot convert {tex.strip()!r}: {type(error).__name__}: {error}") from None


class MathMLRenderer(IPythonRenderer):
    """nbconvert's Markdown renderer, with formulas written as MathML instead of TeX for MathJax."""

    def block_math(self, body: str) -> str:
        return tex_to_mathml(body, "block")

    def latex_environment(self, name: str, body: str) -> str:
        return tex_to_mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", "block")

    def inline_math(self, body: str) -> str:
        return tex_to_mathml(body, "inline")


# ---------------------------------------------------------------- alt text
def _plain(markdown: str) -> str:
    """Markdown reduced to one line of plain text (formulas, links, emphasis and tags dropped)."""
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", "…", markdown, flags=re.S)
    text = re.sub(r"<[^>]+>|`|\*\*|__|\*", "", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"^#+\s*", "", text, flags=re.M)
    return " ".join(text.split())


def _first_sentence(text: str, limit: int = 200) -> str:
    sentence = re.split(r"(?<=[.!?。！？])\s", text, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[:limit].rsplit(" ", 1)[0] + " …"


def fallback_alt(notebook, cell_index: int, image_number: int) -> str:
    """A description of a plot with no alt metadata: notebook title, section, the text before it."""
    title = heading = before = ""
    for cell in notebook.cells[:cell_index]:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# ") and not title:
                title = _plain(line)
            elif line.startswith("#"):
                heading = _plain(line)
        text = _plain("\n".join(l for l in cell.source.splitlines() if not l.startswith("#")))
        before = text or before
    parts = [f"Plot {image_number} of the notebook “{title}”" if title else f"Plot {image_number}"]
    if heading:
        parts.append(f"section “{heading}”")
    alt = ", ".join(parts)
    return f"{alt}: {_first_sentence(before)}" if before else alt


class AltTextPreprocessor(Preprocessor):
    """Give every image output an ``alt`` (see the module docstring) and list those without metadata.

    The list goes to ``resources["images_without_alt"]`` as ``(cell id, image number in the
    notebook)``.
    """

    def preprocess(self, nb, resources):
        missing, number = [], 0
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            in_cell = 0
            for output in cell.get("outputs", []):
                for mime in ("image/png", "image/jpeg"):
                    if mime not in output.get("data", {}):
                        continue
                    number += 1
                    meta = output.setdefault("metadata", {})
                    per_mime = meta.get(mime) if isinstance(meta.get(mime), dict) else {}
                    cell_alt = cell.metadata.get("alt")
                    if isinstance(cell_alt, list):
                        cell_alt = cell_alt[in_cell] if in_cell < len(cell_alt) else None
                    alt = per_mime.get("alt") or meta.get("alt") or cell_alt
                    if not (isinstance(alt, str) and alt.strip()):
                        missing.append((cell.get("id", f"cell {index}"), number))
                        alt = fallback_alt(nb, index, number)
                    meta[mime] = {**per_mime, "alt": alt.strip()}
                    in_cell += 1
        resources["images_without_alt"] = missing
        return nb, resources


# ---------------------------------------------------------------- fonts
def font_subset(font: Path | bytes, characters: set[str]) -> bytes:
    """``font`` (a file, or a font's bytes) cut down to the glyphs for ``characters`` (and what layout and
    MATH reach from them)."""
    # recalcBBoxes=False: bounds are a glyph's own, which a subset keeps; recomputing them decompiled and
    # recompiled every glyph (most of the time); the head's box stays the whole font's
    font = TTFont(font if isinstance(font, Path) else io.BytesIO(font), recalcTimestamp=False, recalcBBoxes=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    # the bundled fonts carry no hinting (make_font.py and make_math_font.py cut them with
    # --no-hinting): stripping it again decompiles every glyph for nothing, the bytes are the same
    options.hinting = True
    subsetter = subset.Subsetter(options)
    available = font.getBestCmap()
    subsetter.populate(unicodes=sorted(ord(c) for c in characters if ord(c) in available))
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def cjk_characters(text: str) -> set[str]:
    """The characters of ``text`` that the Chinese font's ``unicode-range`` (``CJK_UNICODE_RANGE``) holds.

    >>> sorted(cjk_characters("中文。，· “a”"))
    ['。', '中', '文', '，']
    """
    return set(CJK_CHARACTER.findall(text))


def math_characters(math_text: str) -> set[str]:
    """What the math font must hold for formulas whose text is ``math_text``: its characters, digits and
    brackets, and the mathematical italic and bold forms of its letters (Chromium draws ``<mi>x</mi>``
    as U+1D465, whose compatibility decomposition is ``x``).

    >>> sorted(math_characters("x∂"), key=ord)[-4:]
    ['∂', '𝐱', '𝑥', '𝜕']
    """
    letters = {chr(code) for code in MATH_ALPHANUMERICS if unicodedata.normalize("NFKC", chr(code)) in math_text}
    return set(math_text) | set("0123456789()[]{}|") | letters


class PageFonts:
    """The ``@font-face`` rules of each page: the Chinese font cut to the page's characters, the math font
    cut to the formulas of all the pages (``text`` and ``math_text`` are every page's).

    Cutting the bundled Chinese font (7,600 characters, 2 MB) takes half a second: it is cut once, to
    the characters of all the pages, and each page's copy is cut from that small font in a few
    hundredths of a second. The math font is a CFF font, whose cut takes a tenth of a second even from
    a small copy (every kept glyph's charstring is run and compiled again), for ~70 KB a page: one cut
    serves every page.
    """

    def __init__(self, text: str, math_text: str):
        self.cjk = font_subset(CJK_FONT, cjk_characters(text))
        self.math = base64.b64encode(font_subset(MATH_FONT, math_characters(math_text))).decode("ascii")

    def css(self, text: str) -> str:
        """The fonts' CSS for a page whose reader text is ``text``."""
        cjk = base64.b64encode(font_subset(self.cjk, cjk_characters(text))).decode("ascii")
        return FONT_CSS.format(cjk_family=CJK_FAMILY, math_family=MATH_FAMILY, cjk_range=CJK_UNICODE_RANGE,
                               cjk=cjk, math=self.math)


# ---------------------------------------------------------------- pages
class HandoutExporter(HTMLExporter):
    """nbconvert's lab HTML with MathML formulas, embedded fonts, alt text and no CDN."""

    def __init__(self, **kw):
        # optimistic_validation: validate the notebook once, after the preprocessors, not after each
        # of the dozen (a sixth of nbconvert's time here); an invalid result still stops the export
        super().__init__(extra_loaders=[DictLoader({"handout.html.j2": TEMPLATE})],
                         template_file="handout.html.j2", **{"optimistic_validation": True, **kw})
        self.register_preprocessor(AltTextPreprocessor(), enabled=True)

    def from_notebook_node(self, nb, resources=None, **kw):
        """``HTMLExporter.from_notebook_node`` without its last step, a BeautifulSoup pass
        (html.parser) over the whole page, half the export's time: ``finish_page`` parses each page
        once, with lxml, and does that step's work there (``accessible``)."""
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name"))
        self.register_filter("highlight_code",
                             self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)))
        resources = self._init_resources(resources)
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata,
                                                                       parent=self, resources=resources))
        return TemplateExporter.from_notebook_node(self, nb, resources, **kw)

    @pass_context
    def markdown2html(self, context, source):
        cell = context.get("cell", {})
        renderer = MathMLRenderer(escape=False, attachments=cell.get("attachments", {}),
                                  anchor_link_text=self.anchor_link_text)
        return MarkdownWithMath(renderer=renderer).render(source)


def link_target(href: str, source_dir: Path, pages: dict[Path, str]) -> str:
    """The handout link for a link in a notebook: another notebook's page, or the glossary's."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return href
    target = (source_dir / parts.path).resolve()
    if target not in pages:
        return href
    return pages[target] + (f"#{parts.fragment}" if parts.fragment else "")


def _with_class(name: str) -> str:
    """An XPath test for an element whose ``class`` list holds ``name`` (CSS's ``.name``)."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


IMAGES_WITHOUT_ALT = etree.XPath("//img[not(@alt)]")
CELL_PARTS = etree.XPath(f"//*[{_with_class('jp-Notebook')}]//div[{_with_class('jp-Cell-inputWrapper')}"
                         f" or {_with_class('jp-OutputArea-output')}]")  # in document order, each once
READER_TEXT = etree.XPath("//text()[not(parent::script or parent::style)]", smart_strings=False)


# Attributes BeautifulSoup reads as a list of words (its HTML builder's table) and writes back
# one space apart: the handouts were written by BeautifulSoup until lxml replaced it.
WORD_LISTS = {"*": {"class", "accesskey", "dropzone"}, "a": {"rel", "rev"}, "link": {"rel", "rev"},
              "td": {"headers"}, "th": {"headers"}, "form": {"accept-charset"}, "object": {"archive"},
              "area": {"rel"}, "icon": {"sizes"}, "iframe": {"sandbox"}, "output": {"for"}}
WORD_LIST_VALUES = etree.XPath("|".join(f"//{tag}/@{name}" for tag, names in WORD_LISTS.items() for name in names))
LOOSE_TEXT = etree.XPath("//text()[not(ancestor::pre or ancestor::textarea)]"
                         " | //comment()[not(ancestor::pre or ancestor::textarea)]")
# libxml2 gives a page without a doctype an HTML 4 one (quirks mode) unless told not to
HTML_PARSER = etree.HTMLParser(default_doctype=False)
ASCII_WHITESPACE = " \n\t\f\r"


def tidy(page: etree._Element) -> None:
    """Write the page the way BeautifulSoup always wrote the handouts: text or a comment that is
    only ASCII whitespace (outside ``<pre>`` and ``<textarea>``) shortened to one newline, or one
    space if it had none, and a ``class`` (or another word-list attribute) with single spaces
    between words. A browser draws the page the same either way; this keeps each page's DOM as it was.

    >>> page = etree.HTML('<div class=" a  b ">\\n\\n  <p>x</p>  <!--  --><pre>\\n\\n</pre></div>')
    >>> tidy(page); etree.tostring(page[0][0], method="html", encoding="unicode")
    '<div class="a b">\\n<p>x</p> <!-- --><pre>\\n\\n</pre></div>'
    """
    for node in LOOSE_TEXT(page):
        text = node if isinstance(node, str) else node.text or ""
        if text.strip(ASCII_WHITESPACE) == "":
            short = "\n" if "\n" in text else " "
            if not isinstance(node, str):
                node.text = short
            elif node.is_tail:
                node.getparent().tail = short
            else:
                node.getparent().text = short
    for value in WORD_LIST_VALUES(page):
        value.getparent().set(value.attrname, " ".join(re.findall(r"\S+", value)))


def accessible(page: etree._Element) -> None:
    """What nbconvert's HTMLExporter does last (``HandoutExporter`` leaves it out): a stock ``alt``
    on an image without one (the alt text preprocessor leaves none) and ``tabindex="0"`` on each
    cell's input and output (nbconvert's selectors ``img:not([alt])`` and ``.jp-Notebook
    div.jp-Cell-inputWrapper, .jp-Notebook div.jp-OutputArea-output``), so that the keyboard
    reaches them.

    >>> page = etree.HTML('<div class="jp-Notebook"><div class="jp-Cell-inputWrapper"></div>'
    ...                   '<div class="jp-OutputArea-output"><img src="x.png"></div></div>')
    >>> accessible(page); print(etree.tostring(page[0][0], method="html", encoding="unicode"))
    <div class="jp-Notebook"><div class="jp-Cell-inputWrapper" tabindex="0"></div><div class="jp-OutputArea-output" tabindex="0"><img src="x.png" alt="No description has been provided for this image"></div></div>
    """
    for image in IMAGES_WITHOUT_ALT(page):
        image.set("alt", "No description has been provided for this image")
    for element in CELL_PARTS(page):
        element.set("tabindex", "0")


def finish_page(html: str, source_dir: Path, pages: dict[Path, str]) -> etree._Element:
    """The page parsed (libxml2's HTML parser, through lxml: it parses, searches and writes in C,
    where BeautifulSoup makes a Python object per tag) and finished: as BeautifulSoup wrote it
    (``tidy``), keyboard focus and alt (``accessible``), links to handouts, interview cards
    collapsed; the fonts come later (``FONTS_PLACEHOLDER``).

    >>> page = finish_page('<!DOCTYPE html><html><body><details open><summary>Q</summary>A</details>'
    ...                    '<a href="02_x.ipynb#Top">next</a></body></html>', NOTEBOOK_DIR,
    ...                    {NOTEBOOK_DIR / "02_x.ipynb": "02_x.html"})
    >>> print(serialise(page))
    <!DOCTYPE html>
    <html><body><details><summary>Q</summary>A</details><a href="02_x.html#Top">next</a></body></html>
    """
    page = etree.fromstring(html, HTML_PARSER)
    tidy(page)
    accessible(page)
    for anchor in page.iter("a"):
        if anchor.get("href") is not None:
            anchor.set("href", link_target(anchor.get("href"), source_dir, pages))
    for details in page.iter("details"):
        details.attrib.pop("open", None)
    return page


def reader_text(page: etree._Element) -> str:
    """The page's text as a reader sees it: every text node but the contents of scripts and style
    sheets (what BeautifulSoup's ``get_text`` gives, on these pages, which have no ``<template>``).

    >>> reader_text(etree.HTML('<p>平均<b>倒数</b></p><style>p{}</style><script>x</script>'))
    '平均倒数'
    """
    return "".join(READER_TEXT(page))


def serialise(page: etree._Element) -> str:
    """The page as HTML, with its doctype (if it has one) and a final newline.

    libxml2's HTML serialiser percent-encodes ``href`` and ``src`` values outside URI characters
    (``#召回率`` becomes ``#%E5%8F%AC...``), which a browser follows the same way; nbconvert writes
    its heading anchors encoded already, so no link in the handouts changes.
    """
    doctype = page.getroottree().docinfo.doctype or None
    return etree.tostring(page, method="html", encoding="unicode", doctype=doctype) + "\n"


def glossary_notebook(path: Path = GLOSSARY):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(path.read_text(encoding="utf-8"), id="glossary")]
    notebook.metadata["title"] = "术语表 Glossary" if path == ZH_GLOSSARY else "Glossary 术语表"
    return notebook


def without_checks(notebook):
    """The notebook without its ``checks`` cell (the asserts that keep its sentences true) and the
    heading above it (in either language): a handout is the lesson, and those checks are for the
    notebook's maintainers."""
    kept = []
    for cell in notebook.cells:
        if "checks" in cell.get("metadata", {}).get("tags", []):
            if kept and kept[-1].cell_type == "markdown" and kept[-1].source.lstrip().startswith("## "):
                kept.pop()
            continue
        kept.append(cell)
    notebook.cells = kept
    return notebook


def export(notebooks: list[Path], out_dir: Path, glossary: bool = True, glossary_path: Path = GLOSSARY,
           elsewhere: dict[Path, str] | None = None) -> list[dict]:
    """Write one handout per notebook (and ``glossary.html``) to ``out_dir``; one report per page.

    ``elsewhere`` maps pages exported to another folder (the English ones, for the Chinese handouts)
    to their address from ``out_dir``, so links to them work too.

    Each page embeds the Chinese font cut to its own characters, and the math font cut to the formulas
    of all the pages (``PageFonts``).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    sources = {path.resolve(): without_checks(nbformat.read(path, as_version=4)) for path in notebooks}
    if glossary:
        sources[glossary_path.resolve()] = glossary_notebook(glossary_path)
    pages = {path: ("glossary" if path == glossary_path.resolve() else path.stem) + ".html" for path in sources}
    links = {**{path.resolve(): page for path, page in (elsewhere or {}).items()}, **pages}
    exporter = HandoutExporter()
    reports, finished, texts, math_text = [], [], [], []
    for path, notebook in sources.items():
        resources = {"metadata": {"name": path.stem, "path": str(path.parent)}}
        try:
            html, resources = exporter.from_notebook_node(copy.deepcopy(notebook), resources)
        except HandoutError as error:
            raise HandoutError(f"{path.name}: {error}") from None
        page = finish_page(html, path.parent, links)
        texts.append(reader_text(page))
        math_text += ["".join(math.itertext()) for math in page.iter("math")]
        finished.append(serialise(page))
        reports.append({"page": out_dir / pages[path], "source": path,
                        "images_without_alt": resources.get("images_without_alt", [])})
    fonts = PageFonts("".join(texts), "".join(math_text))
    for report, html, text in zip(reports, finished, texts):
        report["page"].write_text(html.replace(FONTS_PLACEHOLDER, fonts.css(text), 1), encoding="utf-8")
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_OUT,
                        help="folder for the pages (default: handouts/, ignored by git)")
    parser.add_argument("--notebooks", nargs="+", type=Path,
                        help="only these notebooks (default: every notebooks/NN_*.ipynb)")
    parser.add_argument("--zh", action="store_true",
                        help="the Chinese edition: notebooks/zh/ to OUTDIR/zh/, links to pages not translated "
                             "yet going to the English handouts in OUTDIR")
    args = parser.parse_args(argv)
    folder, out_dir, glossary, elsewhere = NOTEBOOK_DIR, args.out_dir, GLOSSARY, {}
    if args.zh:
        folder, out_dir = ZH_NOTEBOOK_DIR, args.out_dir / "zh"
        glossary = ZH_GLOSSARY if ZH_GLOSSARY.exists() else GLOSSARY
        english = [*NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"), GLOSSARY]
        elsewhere = {path: f"../{'glossary' if path == GLOSSARY else path.stem}.html" for path in english}
    notebooks = args.notebooks or sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    try:
        reports = export(notebooks, out_dir, glossary_path=glossary, elsewhere=elsewhere)
    except HandoutError as error:
        print(f"export_handouts: {error}", file=sys.stderr)
        return 1
    for report in reports:
        missing = report["images_without_alt"]
        note = (f"; {len(missing)} plot(s) without alt metadata, described from the text around them "
                f"(cells {', '.join(cell for cell, _ in missing)})" if missing else "")
        print(f"{report['page']}: {report['page'].stat().st_size // 1024} KiB{note}")
    print(f"{len(reports)} handouts in {out_dir}: open {out_dir / 'glossary.html'} "
          "or any NN_*.html in a browser; they need no network.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
