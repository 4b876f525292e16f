"""The offline handouts (``scripts/export_handouts.py``): every notebook exported, nothing remote,
formulas as MathML, both fonts embedded (the Chinese one cut to the page), alt text on every plot,
interview cards collapsed; then one handout opened in headless Chromium with the network off, and
every handout surveyed there: each Chinese character drawn with the embedded font.

The export of every notebook runs once for the module (about 5 s of CPU), and each page is parsed
once, with lxml (libxml2's HTML parser, as the export's own), for every test that reads it.
"""
from __future__ import annotations

import base64
import functools
import io
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from fontTools.ttLib import TTFont
from lxml import etree

from tests.browser import (ARTIFACTS, CHINESE_CHARACTER, block_network, browser,  # noqa: F401 (fixture)
                           chinese_font_survey, devtools, drawn_without, fonts_used_for)
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "export_handouts.py"
handouts = load_script(SCRIPT)
make_font = load_script(ROOT / "scripts" / "make_font.py")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
REMOTE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)  # http://, https://, //host, ftp:// ...
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""", re.I)
RAW_TEX = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[|\\begin\{|\\frac|\\text\{")
LOADING_ATTRIBUTES = ("src", "href", "data", "poster", "srcset", "background", "action", "formaction")
LOADERS = "|".join([f"//*[@{attribute}]" for attribute in LOADING_ATTRIBUTES + ("style",)] + ["//style", "//script"])
# the text a reader sees (what BeautifulSoup's get_text gave): not a script's or a style sheet's
READER_TEXT = etree.XPath("//text()[not(parent::script or parent::style)]", smart_strings=False)


def parse(path: Path) -> etree._Element:
    return etree.HTML(path.read_text(encoding="utf-8"))


def with_class(name: str) -> str:
    """XPath for CSS's ``.name``: the element's class list holds ``name``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def text_of(element: etree._Element) -> str:
    return "".join(element.itertext())


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, etree._Element]:
    """{page name: parsed page} of every notebook and the glossary, exported once."""
    out = tmp_path_factory.mktemp("handouts")
    reports = handouts.export(NOTEBOOKS, out)
    pages = {report["page"].name: parse(report["page"]) for report in reports}
    pages["_folder"] = out
    pages["_reports"] = reports
    return pages


def pages_of(exported) -> dict[str, etree._Element]:
    return {name: page for name, page in exported.items() if not name.startswith("_")}


def markdown_formulas(path: Path) -> int:
    """How many formulas nbconvert's own Markdown parser finds in a notebook's markdown cells."""
    found = []

    class Counting(handouts.IPythonRenderer):
        def block_math(self, body):
            found.append(body)
            return ""

        inline_math = block_math

        def latex_environment(self, name, body):
            found.append(body)
            return ""

    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            handouts.MarkdownWithMath(renderer=Counting(escape=False)).render(cell.source)
    return len(found)


@functools.lru_cache(maxsize=None)
def font_from_base64(data: str) -> TTFont:
    """One font object per distinct embedded font (the math font is the same on every page), read only."""
    return TTFont(io.BytesIO(base64.b64decode(data)))


def embedded_fonts(page: etree._Element) -> dict[str, TTFont]:
    css = "\n".join(text_of(style) for style in page.iter("style"))
    fonts = {}
    for family, data in re.findall(r'@font-face\s*\{\s*font-family:\s*"([^"]+)";\s*src:\s*url\(data:font/\w+;base64,([A-Za-z0-9+/=]+)\)', css):
        fonts[family] = font_from_base64(data)
    return fonts


# --- the export ------------------------------------------------------------------------------------

def test_every_notebook_and_the_glossary_has_a_handout(exported):
    assert sorted(pages_of(exported)) == sorted([p.stem + ".html" for p in NOTEBOOKS] + ["glossary.html"])
    for name, page in pages_of(exported).items():  # standards mode; without a doctype, quirks mode
        assert page.getroottree().docinfo.doctype == "<!DOCTYPE html>", name


def test_nothing_is_loaded_from_a_remote_url(exported):
    """Every attribute that makes a browser fetch, and every url() or @import in CSS, stays local."""
    for name, page in pages_of(exported).items():
        remote = []
        for tag in page.xpath(LOADERS):  # the elements the checks below can find anything in
            for attribute in LOADING_ATTRIBUTES:
                value = tag.get(attribute)
                if value is None or (tag.tag == "a" and attribute == "href"):
                    continue  # a link is followed only when clicked
                urls = [part.split()[0] for part in value.split(",")] if attribute == "srcset" else [value]
                remote += [f"<{tag.tag} {attribute}={url}>" for url in urls if REMOTE.match(url)]
            for css in [tag.get("style", "")] + ([text_of(tag)] if tag.tag == "style" else []):
                css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)  # comments load nothing
                remote += [f"css {a or b}" for a, b in CSS_URL.findall(css) if REMOTE.match(a or b)]
            if tag.tag == "script":
                remote += [f"script {m}" for m in re.findall(r"""(?:import\(|from\s)\s*['"]((?:https?:)?//[^'"]+)""", text_of(tag))]
        assert not remote, f"{name} loads {remote}"
        scripts = page.xpath("//script[@src]")
        assert not scripts, f"{name}: a script file ({etree.tostring(scripts[0], method='html', encoding='unicode')})"


def test_the_template_cdn_blocks_are_gone(exported):
    for name in pages_of(exported):
        html = (exported["_folder"] / name).read_text(encoding="utf-8")  # the page as written
        for cdn in ("cdnjs.cloudflare.com", "unpkg.com", "require.js", "mathjax", "mermaid.esm"):
            assert cdn not in html.lower(), f"{name} still names {cdn}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_formula_is_mathml_and_no_tex_is_left(exported, path):
    page = exported[path.stem + ".html"]
    maths = list(page.iter("math"))
    assert len(maths) == markdown_formulas(path)
    assert all(m.get("xmlns") == "http://www.w3.org/1998/Math/MathML" for m in maths)
    for cell in page.xpath(f"//*[{with_class('jp-MarkdownOutput')}]"):
        # every string outside a formula, comments included
        strings = cell.xpath(".//text()[not(ancestor::math)] | .//comment()[not(ancestor::math)]")
        text = "".join(s if isinstance(s, str) else s.text or "" for s in strings)
        leftover = RAW_TEX.search(text)
        assert not leftover, f"{path.name}: raw TeX {leftover[0]!r} in {text[:200]!r}"


def test_a_row_gap_is_a_strut_and_a_cases_brace_stretches(exported):
    """04 writes \\\\[6pt] between the two cases of RR_i: latex2mathml alone prints '[6pt]'."""
    mrr = exported["04_mrr.html"]
    cases = [m for m in mrr.iter("math") if m.find(".//mtable") is not None][0]
    rows = cases.find(".//mtable").findall("mtr")
    assert len(rows) == 2 and "6pt" not in text_of(cases) and "[" not in text_of(cases)
    strut = rows[1].find(".//mspace")
    assert strut.get("width") == "0pt" and strut.get("height") == "1.40em"
    brace = cases.xpath(".//mo[not(*)][. = '{']")[0]
    assert brace.get("stretchy") == "true"


def test_tex_to_mathml_names_a_formula_it_cannot_read():
    assert "<mfrac>" in handouts.tex_to_mathml(r"\frac{1}{2}")
    with pytest.raises(handouts.HandoutError, match=r"cannot convert '\\\\left\( x'"):
        handouts.tex_to_mathml(r"\left( x")


def test_both_fonts_are_embedded_and_cover_the_page(exported):
    for name, page in pages_of(exported).items():
        fonts = embedded_fonts(page)
        assert set(fonts) == {handouts.CJK_FAMILY, handouts.MATH_FAMILY}, name
        cjk = fonts[handouts.CJK_FAMILY].getBestCmap()
        on_page = set("".join(READER_TEXT(page)))
        lacking = {c for c in on_page if make_font.is_cjk(c) and ord(c) not in cjk}
        assert not lacking, f"{name}: the embedded Chinese font lacks {''.join(sorted(lacking))}"
        unused = {chr(code) for code in cjk if CHINESE_CHARACTER.match(chr(code))} - on_page
        assert not unused, f"{name}: the embedded Chinese font is not cut to the page: {''.join(sorted(unused))}"
        math = fonts[handouts.MATH_FAMILY]
        assert "MATH" in math, f"{name}: the math font lost its MATH table"
        in_formulas = {c for c in set("".join(text_of(m) for m in page.iter("math")))
                       if not c.isspace() and not make_font.is_cjk(c)}
        lacking = {c for c in in_formulas if ord(c) not in math.getBestCmap()}
        assert not lacking, (f"{name}: the math font lacks {''.join(sorted(lacking))}: add its range to "
                             "RANGES in scripts/make_math_font.py and rerun it")
        css = next(text_of(style) for style in page.iter("style") if "@font-face" in text_of(style))  # the fonts'
        stacks = re.findall(r"(?:--jp-[a-z-]*font-family[a-z-]*:|math \{ font-family:)\s*([^;]+);", css)
        assert len(stacks) == 5 and all(stack.startswith(f'"{handouts.CJK_FAMILY}",') for stack in stacks), stacks
        assert f"unicode-range: {handouts.CJK_UNICODE_RANGE};" in css


def test_every_title_reads_number_title_chinese_name(exported):
    """``NN · Title · 中文名`` (an English expansion may follow the Chinese), NN the notebook's number."""
    for path in NOTEBOOKS:
        title = text_of(exported[path.stem + ".html"].find(".//h1")).rstrip("¶")
        number, *parts = title.split(" · ")
        assert number == path.name[:2] and len(parts) == 2 and CHINESE_CHARACTER.search(parts[1]), title


def test_every_plot_has_alt_text(exported):
    for name, page in pages_of(exported).items():
        for image in page.iter("img"):
            assert image.get("alt", "").strip(), f"{name}: an image without alt text"
            assert image.get("src").startswith("data:image/"), f"{name}: an image that is not inline"
    images = sum(len(list(pages_of(exported)[p.stem + ".html"].iter("img"))) for p in NOTEBOOKS)
    assert images == sum(1 for p in NOTEBOOKS for c in nbformat.read(p, as_version=4).cells
                         for o in c.get("outputs", []) if "image/png" in o.get("data", {}))


def test_cell_inputs_and_outputs_take_the_keyboard_focus(exported):
    """As nbconvert's own HTML export makes them (the handout exporter does that step itself)."""
    for name, page in pages_of(exported).items():
        # CSS: .jp-Notebook div.jp-Cell-inputWrapper, .jp-Notebook div.jp-OutputArea-output
        parts = page.xpath(f"//*[{with_class('jp-Notebook')}]//div[{with_class('jp-Cell-inputWrapper')}]"
                           f" | //*[{with_class('jp-Notebook')}]//div[{with_class('jp-OutputArea-output')}]")
        assert parts and all(part.get("tabindex") == "0" for part in parts), name


def test_alt_text_comes_from_output_then_cell_metadata_then_the_text_around(tmp_path):
    png = nbformat.read(NOTEBOOKS[1], as_version=4)
    image = next(o for c in png.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {}))
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = png.metadata
    plot = lambda output_alt=None, **meta: nbformat.v4.new_code_cell(  # noqa: E731
        "plt.show()", outputs=[nbformat.v4.new_output("display_data", data=image["data"],
                                                      metadata={"image/png": {"alt": output_alt}} if output_alt else {})],
        metadata=meta)
    notebook.cells = [nbformat.v4.new_markdown_cell("# Recall@K · 召回率@K\n\n## The picture\n\n"
                                                    "Each strip is one ranking. Green is relevant."),
                      plot("from the output"), plot(alt="from the cell"), plot(alt=["first", "second"]), plot()]
    notebook.cells[3].outputs.append(notebook.cells[3].outputs[0])
    path = tmp_path / "01_tiny.ipynb"
    nbformat.write(notebook, path)
    report = handouts.export([path], tmp_path / "out", glossary=False)[0]
    alts = [img.get("alt") for img in parse(report["page"]).iter("img")]
    assert alts == ["from the output", "from the cell", "first", "second",
                    "Plot 5 of the notebook “Recall@K · 召回率@K”, section “The picture”: Each strip is one ranking."]
    assert report["images_without_alt"] == [(notebook.cells[4].id, 5)]


def test_interview_cards_stay_collapsed(exported):
    for path in NOTEBOOKS:
        cards = list(exported[path.stem + ".html"].iter("details"))
        written = sum(c.source.count("<details") for c in nbformat.read(path, as_version=4).cells
                      if c.cell_type == "markdown")
        assert len(cards) == written, path.name
        assert not [c for c in cards if "open" in c.attrib], path.name
        assert all(c.find(".//summary") is not None for c in cards), path.name


def test_links_between_handouts_resolve(exported):
    """A link to another notebook (or the glossary) leads to its handout, and its #anchor exists."""
    folder = exported["_folder"]
    ids = {name: set(page.xpath("//@id")) for name, page in pages_of(exported).items()}
    broken = []
    for name, page in pages_of(exported).items():
        for href in page.xpath("//a/@href"):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue
            target = parts.path or name
            if not (folder / target).is_file():
                broken.append(f"{name}: {href}")
            elif parts.fragment and not {parts.fragment, unquote(parts.fragment)} & ids.get(target, set()):
                broken.append(f"{name}: {href} (no such anchor)")
    assert not broken, broken
    assert exported["00_rag_evaluation_map.html"].xpath("//a[@href = 'glossary.html']")


def test_the_command_exports_and_lists_the_plots_without_alt_metadata(tmp_path, capsys):
    assert handouts.main([str(tmp_path), "--notebooks", str(NOTEBOOKS[0])]) == 0
    assert (tmp_path / NOTEBOOKS[0].with_suffix(".html").name).is_file() and (tmp_path / "glossary.html").is_file()
    without = [c.id for c in nbformat.read(NOTEBOOKS[0], as_version=4).cells for o in c.get("outputs", [])
               if "image/png" in o.get("data", {}) and not o.get("metadata", {}).get("image/png", {}).get("alt")
               and not c.metadata.get("alt")]
    printed = capsys.readouterr().out
    assert ("without alt metadata" in printed) == bool(without)
    if without:
        assert f"{len(without)} plot(s) without alt metadata, described from the text around them " \
               f"(cells {', '.join(without)})" in printed


def test_a_formula_latex2mathml_cannot_read_stops_the_export_naming_the_notebook(tmp_path, capsys):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("A broken formula: $\\left( x$")]
    nbformat.write(notebook, tmp_path / "99_broken.ipynb")
    assert handouts.main([str(tmp_path / "out"), "--notebooks", str(tmp_path / "99_broken.ipynb")]) == 1
    assert capsys.readouterr().err.startswith("export_handouts: 99_broken.ipynb: latex2mathml cannot convert")


def test_the_scripts_doctests():
    import doctest

    assert doctest.testmod(handouts, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_handouts_and_screenshots_are_not_committed():
    for path in ("handouts/07_ndcg.html", "test-artifacts/handout.png"):
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0, path


# --- in a browser, with the network off ----------------------------------------------------------

SHOWN = "04_mrr.html"  # cases with a \\[6pt] row gap, a display sum, three plots, interview cards


def test_a_handout_in_chromium_with_the_network_off(exported, browser):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    attempted = block_network(page)
    page.goto((exported["_folder"] / SHOWN).as_uri(), wait_until="load")
    page.evaluate("document.fonts.ready.then(() => true)")
    assert attempted == [], f"the handout tried to load {attempted}"

    # formulas: MathML elements laid out, no TeX left in the text, the cases brace stretched
    maths = page.evaluate("""[...document.querySelectorAll('math')].map(m => [
        m instanceof MathMLElement, m.getBoundingClientRect().height])""")
    assert maths and all(is_mathml and height > 0 for is_mathml, height in maths)
    text = page.evaluate("[...document.querySelectorAll('.jp-MarkdownOutput')].map(e => e.innerText).join('\\n')")
    leftover = re.search(r"\$[^$\s][^$]*\$|\\begin\{|\\frac|\[6pt\]", text)
    assert not leftover, f"raw TeX in the page: {leftover[0]!r}"
    brace, digit = page.evaluate("""(() => {
        const math = [...document.querySelectorAll('math')].find(m => m.querySelector('mtable'));
        const brace = [...math.querySelectorAll('mo')].find(o => o.textContent === '{');
        return [brace.getBoundingClientRect().height, math.querySelector('mn').getBoundingClientRect().height];
    })()""")
    assert brace > 2.5 * digit, f"the cases brace did not stretch ({brace:.0f} px beside a {digit:.0f} px digit)"

    # Chinese: drawn with the embedded font (not a CJK font the machine happens to have)
    family = handouts.CJK_FAMILY
    assert page.evaluate(f"document.fonts.check('16px \"{family}\"', '平均倒数排名')")
    statuses = page.evaluate("[...document.fonts].map(f => [f.family.replaceAll('\"', ''), f.status])")
    assert sorted(statuses) == sorted([[family, "loaded"], [handouts.MATH_FAMILY, "loaded"]])
    assert family in page.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily")
    drawn = fonts_used_for(page, "h1")
    assert drawn.get(family, 0) >= 6, f"the title's Chinese was drawn with {drawn}"
    assert handouts.MATH_FAMILY in fonts_used_for(page, "math mo")
    assert set(fonts_used_for(page, "math mi")) == {handouts.MATH_FAMILY}  # an italic letter, U+1D400 and up

    # plots: decoded, with alt text; interview cards collapsed
    images = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.alt])")
    assert len(images) == 3 and all(done and width > 0 and alt.strip() for done, width, alt in images)
    cards = page.evaluate("[...document.querySelectorAll('details')].map(d => [d.open, d.getBoundingClientRect().height])")
    assert cards and all(not is_open for is_open, _ in cards)
    gaps = page.evaluate("""[...document.querySelectorAll('details')].filter(card => card.nextElementSibling)
        .map(card => card.nextElementSibling.getBoundingClientRect().top - card.getBoundingClientRect().bottom)""")
    assert gaps and min(gaps) >= 8, f"a closed card touches the next question: gaps {gaps} px"

    page.screenshot(path=str(ARTIFACTS / "handout_04_mrr.png"), full_page=True)
    page.locator("math[display=block]").first.screenshot(path=str(ARTIFACTS / "handout_04_mrr_formula.png"))
    page.locator("details").first.click()  # a card opens on a click, with its answer
    assert page.evaluate("document.querySelector('details').open")
    page.locator("details").first.screenshot(path=str(ARTIFACTS / "handout_04_mrr_card_opened.png"))
    page.close()


def test_every_chinese_character_of_every_handout_is_drawn_with_the_embedded_font(exported, browser):
    """Every handout as a reader first opens it (the cache off: each page loads its font), every element
    holding Chinese: the embedded font drew at least as many glyphs as the element has Chinese
    characters, so none is a fallback's .notdef box. Then again with every interview card opened, for
    the answers. The survey must have met every Chinese character of the page's body."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    session = devtools(page, cache=False)
    not_drawn, unseen = [], []
    for name, parsed in sorted(pages_of(exported).items()):
        page.goto((exported["_folder"] / name).as_uri(), wait_until="load")
        survey = chinese_font_survey(page, session)
        page.evaluate("document.querySelectorAll('details').forEach(card => { card.open = true; })")
        survey += chinese_font_survey(page, session, survey_pass=2)
        not_drawn += [f"{name}: {line}" for line in drawn_without(handouts.CJK_FAMILY, survey)]
        in_body = len(CHINESE_CHARACTER.findall("".join(parsed.find("body").xpath(".//text()[not(parent::script)]"))))
        surveyed = sum(element["own"] for element in survey)
        if surveyed != in_body:
            unseen.append(f"{name}: {in_body} Chinese characters in the body, {surveyed} surveyed")
    page.close()
    assert not not_drawn, "Chinese not drawn with the embedded font:\n" + "\n".join(not_drawn)
    assert not unseen, unseen


def test_the_checks_cell_and_its_heading_stay_out_of_the_handout(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# 98 · Tiny · 小\n\nThe lesson."),
                      nbformat.v4.new_code_cell("print('lesson output')"),
                      nbformat.v4.new_markdown_cell("## Checks that keep this notebook's sentences true\n\n"
                                                    "They guard the prose above."),
                      nbformat.v4.new_code_cell("assert 'guard' == 'guard'", metadata={"tags": ["checks"]})]
    path = tmp_path / "98_tiny.ipynb"
    nbformat.write(notebook, path)
    page = parse(handouts.export([path], tmp_path / "out", glossary=False)[0]["page"])
    text = "".join(page.itertext())
    assert "The lesson." in text
    assert "print" in text
    assert "Checks that keep" not in text
    assert "assert" not in text


def test_the_chinese_edition_exports_with_links_to_chinese_or_english_pages(tmp_path):
    """``export_handouts.py --zh``: the Chinese pages, their glossary, a link to a page not translated
    yet leading to the English handout one folder up; no checks cell, nothing remote."""
    chinese = sorted(handouts.ZH_NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))[:2]
    english = [*NOTEBOOKS, handouts.GLOSSARY]
    elsewhere = {path: f"../{'glossary' if path == handouts.GLOSSARY else path.stem}.html" for path in english}
    reports = handouts.export(chinese, tmp_path / "zh", glossary_path=handouts.ZH_GLOSSARY, elsewhere=elsewhere)
    assert [r["page"].name for r in reports] == [p.stem + ".html" for p in chinese] + ["glossary.html"]
    for report in reports:
        page = parse(report["page"])
        text = "".join(page.itertext())
        assert "保证本笔记本叙述成立的检查" not in text
        targets = [a.get("href") for a in page.iter("a") if a.get("href") and not a.get("href").startswith("#")]
        assert not [t for t in targets if REMOTE.match(t) and "github.com" not in t]
        for target in targets:
            name = unquote(urlsplit(target).path)
            if name.endswith(".html"):
                here = (tmp_path / "zh" / name).name in {r["page"].name for r in reports}
                assert here or name.startswith("../"), target
