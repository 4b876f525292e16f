"""The Chinese edition (中文版): ``notebooks/zh/`` and the Chinese study aids, built from the English
notebooks and the gettext catalogues in ``i18n/zh_CN/``, so that a translation cannot go stale silently.

    python scripts/zh_edition.py                     # build notebooks/zh/ and docs/*.zh-CN.md
    python scripts/zh_edition.py --check             # exit 1 naming notebook and cell of each problem
    python scripts/zh_edition.py --update 05 docs    # start or refresh catalogues from the English
    python scripts/zh_edition.py --reading-time      # the Chinese edition's notebook table

**Catalogues.** ``i18n/zh_CN/<notebook stem>.po`` per notebook, ``docs.po`` for the study aids. An
entry is one markdown cell, one block of code comments (comments on consecutive lines, found with
``tokenize``; commented-out code is not prose and stays as it is) or one plot's alt text. ``msgctxt``
names it by cell id ("ab328400 markdown", "ab328400 comment 2", "ab328400 alt"), ``msgid`` is the
English, ``msgstr`` the Chinese. Poedit, Weblate and ``msgfmt --check`` read them; ``polib`` here.
``--update`` merges as ``msgmerge`` does: a kept English text keeps its translation, a changed one
keeps the old translation marked ``fuzzy`` with the old English as ``#| msgid``, a cell that is gone
leaves an obsolete ``#~`` entry whose translation is reused if its text comes back.

**Pending.** ``i18n/zh_CN/pending.txt`` lists the catalogues not started yet, one stem a line. They
get no Chinese page and ``--check`` skips them; every other catalogue must be complete. The list
shrinks to empty as the translation arrives, notebook by notebook.

**The build.** A Chinese notebook is the executed English one with its markdown cells, code comments
and alt texts replaced by their translations; code (less comments), outputs and metadata are copied,
so it needs no second execution (printed output, table headers and plot titles stay English). Links
to other notebooks, ``docs/`` and the README point at the Chinese page where there is one, and a
link to a heading follows the heading's translation.

**--check** exits 1, naming notebook and cell, when an English cell has no current translation (new,
changed since it was translated, untranslated), when a translation breaks a rule below, or when a
generated file differs from what the build would write (or is missing, or has no English source).

**Rules of a translation** (``quality_problems``): the same numbers written as digits, formulas
(``$…$``, ``$$…$$``), inline code, HTML tags, link targets, identifiers (``q1``, ``pytrec_eval``,
``LexicalJudge``) and cut-offs (``@5``, ``@K``) as the English; every glossary term
(``docs/glossary.md``) the English uses appears under its Chinese name (a name such as MRR or BLEU
may also stay as it is); interview cards keep their question line and both answers, the English
answer word for word; the same headings; a comment block beside code keeps its number of lines; no
code line wider than 120 columns. A translator's comment ``allow: TOKEN`` exempts one token (a term
or number used in another sense) in that entry.
"""
from __future__ import annotations

import argparse
import ast
import copy
import datetime
import functools
import importlib.util
import io
import os
import re
import sys
import tokenize
import unicodedata
from pathlib import Path
from typing import NamedTuple

import nbformat
import polib

ROOT = Path(__file__).resolve().parents[1]
MAX_LINE = 120  # columns, a Chinese character counting two (tests/test_code_style.py)
DOCS_ITEM = "docs"  # the study aids' catalogue, i18n/zh_CN/docs.po
ZH_DOCS = ("cheatsheet", "interview", "glossary")  # docs/<name>.zh-CN.md, built from docs.po
README_ZH = "README.zh-CN.md"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


study_aids = _load("study_aids", ROOT / "scripts" / "study_aids.py")  # cards, anchors, the cheat sheet's rows
reading_time = study_aids.reading_time  # notebooks(), title(), reading_time(), replace_table()


class Paths(NamedTuple):
    """Where the edition's sources and products are, from a repository root (a test gives its own)."""
    root: Path

    @property
    def notebooks(self) -> Path:
        return self.root / "notebooks"

    @property
    def zh(self) -> Path:
        return self.root / "notebooks" / "zh"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def i18n(self) -> Path:
        return self.root / "i18n" / "zh_CN"

    def catalogue(self, item: str) -> Path:
        return self.i18n / f"{item}.po"


# --------------------------------------------------------------------------- units: what gets translated
class Unit(NamedTuple):
    context: str        # msgctxt: the cell id and what part of the cell
    text: str           # msgid: the English
    cell: str           # the cell id (or, in docs.po, what the entry belongs to)
    kind: str           # "markdown", "comment", "alt", or a study aid's field
    fixed_lines: bool = False  # comments beside code: the translation keeps the number of lines


class Comment(NamedTuple):
    row: int      # line index in the cell
    col: int      # column of the '#'
    marker: str   # '#' and the spaces after it
    text: str
    alone: bool   # nothing but the comment on its line


def _source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def is_commented_code(text: str) -> bool:
    """A comment that is code put aside (``# q01_recall.hint()``), not prose to translate.

    >>> is_commented_code("q01_recall.hint(2)"), is_commented_code("right: min(copies, count in reference)")
    (True, False)
    >>> is_commented_code("WRONG"), is_commented_code("the pipeline, left to right")
    (False, False)
    """
    try:
        statements = ast.parse(text).body
    except SyntaxError:
        return False
    code_like = (ast.Assign, ast.AugAssign, ast.Import, ast.ImportFrom, ast.For, ast.If, ast.With)
    return bool(statements) and all(isinstance(s, code_like) or (isinstance(s, ast.Expr)
                                                                 and isinstance(s.value, ast.Call))
                                    for s in statements)


@functools.lru_cache(maxsize=4096)
def comments(source: str) -> tuple[Comment, ...]:
    """The prose comments of a code cell, in order (tokenize finds them; strings holding '#' are not)."""
    lines = source.splitlines()
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        row, col = token.start[0] - 1, token.start[1]
        marker = re.match(r"#+\s*", token.string).group()
        text = token.string[len(marker):].rstrip()
        if re.search(r"[A-Za-z]", text) and not is_commented_code(text):
            found.append(Comment(row, col, marker, text, not lines[row][:col].strip()))
    return tuple(found)


def comment_blocks(source: str) -> list[list[Comment]]:
    """Comments on consecutive lines, of one kind: whole lines at one indent, or beside code.

    >>> [[c.text for c in b] for b in comment_blocks("# a\\n# b\\nx = 1  # c\\ny = 2  # d\\n\\n# e\\n")]
    [['a', 'b'], ['c', 'd'], ['e']]
    """
    blocks: list[list[Comment]] = []
    for comment in comments(source):
        last = blocks[-1][-1] if blocks else None
        if (last and comment.row == last.row + 1 and comment.alone == last.alone
                and (not comment.alone or comment.col == last.col)):
            blocks[-1].append(comment)
        else:
            blocks.append([comment])
    return blocks


def code_without_comments(source: str) -> list[str]:
    """A cell's code with every comment taken out, blank lines dropped: equal in both editions.

    >>> code_without_comments("# 说明\\nk = 5  # the cut-off\\n\\nprint('#')\\n")
    ['k = 5', "print('#')"]
    """
    lines = source.splitlines()
    found = [token for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for token in reversed(found):
        row, col = token.start[0] - 1, token.start[1]
        lines[row] = lines[row][:col].rstrip()
    return [line for line in lines if line.strip()]


def notebook_units(notebook) -> list[Unit]:
    """Every translatable piece of a notebook, in order: markdown cells, comment blocks, alt texts."""
    units = []
    for cell in notebook.cells:
        cell_id = cell.get("id", "")
        if cell.cell_type == "markdown" and _source(cell).strip():
            units.append(Unit(f"{cell_id} markdown", _source(cell), cell_id, "markdown"))
        if cell.cell_type != "code":
            continue
        try:
            blocks = comment_blocks(_source(cell))
        except (tokenize.TokenError, SyntaxError) as error:  # IndentationError is a SyntaxError
            raise ValueError(f"cell {cell_id}: tokenize cannot read its code ({error})") from None
        for number, block in enumerate(blocks, start=1):
            units.append(Unit(f"{cell_id} comment {number}", "\n".join(c.text for c in block), cell_id,
                              "comment", fixed_lines=not block[0].alone))
        alt = cell.get("metadata", {}).get("alt")
        alts = [alt] if isinstance(alt, str) else alt if isinstance(alt, list) else []
        for number, text in enumerate(alts):
            suffix = "" if isinstance(alt, str) else f" {number}"
            units.append(Unit(f"{cell_id} alt{suffix}", text, cell_id, "alt"))
    return units


# --------------------------------------------------------------------------- catalogues
HEADER = {
    "Project-Id-Version": "ragmetrics_lite course",
    "Language": "zh_CN",
    "Language-Team": "Chinese (simplified)",
    "Last-Translator": "ragmetrics_lite contributors",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "Plural-Forms": "nplurals=1; plural=0;",
}


def pending(paths: Paths) -> list[str]:
    """The catalogues not started yet (``i18n/zh_CN/pending.txt``; ``#`` starts a comment)."""
    path = paths.i18n / "pending.txt"
    if not path.exists():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def read_catalogue(path: Path) -> polib.POFile | None:
    return polib.pofile(str(path), wrapwidth=0) if path.exists() else None


def _new_entry(unit: Unit, where: str) -> polib.POEntry:
    return polib.POEntry(msgctxt=unit.context, msgid=unit.text, msgstr="", comment=f"{where}, {unit.kind}")


def merge(units: list[Unit], old: polib.POFile | None, where: str) -> polib.POFile:
    """The catalogue for ``units``, keeping what ``old`` translated (msgmerge's rules, module docstring)."""
    catalogue = polib.POFile(wrapwidth=0)
    catalogue.metadata = dict(old.metadata) if old is not None else {
        **HEADER, "PO-Revision-Date": datetime.date.today().strftime("%Y-%m-%d 00:00+0000")}
    old_entries = [entry for entry in (old or []) if entry.msgid]
    exact = {(e.msgctxt, e.msgid): e for e in old_entries}
    same_text = {e.msgid: e for e in old_entries if e.msgstr and "fuzzy" not in e.flags}
    same_place = {e.msgctxt: e for e in old_entries if not e.obsolete}
    used = set()
    for unit in units:
        entry = _new_entry(unit, f"{where}, cell {unit.cell}")
        before = exact.get((unit.context, unit.text)) or same_text.get(unit.text)
        if before is not None:
            entry.msgstr, entry.tcomment = before.msgstr, before.tcomment
            if before.msgctxt == unit.context and "fuzzy" in before.flags:
                entry.flags, entry.previous_msgid = ["fuzzy"], before.previous_msgid
        elif unit.context in same_place and same_place[unit.context].msgstr:
            before = same_place[unit.context]
            entry.msgstr, entry.tcomment, entry.flags = before.msgstr, before.tcomment, ["fuzzy"]
            entry.previous_msgid = before.previous_msgid or before.msgid
        used.add(id(before))
        catalogue.append(entry)
    active = {(unit.context, unit.text) for unit in units}
    for entry in old_entries:  # translations of texts gone from the English, kept for reuse
        key = (entry.msgctxt, entry.msgid)
        if entry.msgstr and id(entry) not in used and key not in active:
            catalogue.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=entry.msgstr,
                                           tcomment=entry.tcomment, obsolete=True))
            active.add(key)
    return catalogue


# --------------------------------------------------------------------------- applying a translation
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
LINK_TARGET = re.compile(r"(\]\(|href=\"|src=\")([^)\"\s]+)")


def columns(line: str) -> int:
    """Screen columns: two for a wide or full-width character (as tests/test_code_style.py counts)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def with_comments(source: str, translations: list[str]) -> str:
    """``source`` with its comment blocks' text replaced, block by block; the code is not touched.

    A block of whole-line comments may change its number of lines; comments beside code keep theirs.

    >>> print(with_comments("# two lines\\n# of English\\nk = 5  # the cut-off\\n", ["两行中文", "截断位置"]))
    # 两行中文
    k = 5  # 截断位置
    <BLANKLINE>
    """
    lines = source.splitlines()
    blocks = comment_blocks(source)
    for block, translation in reversed(list(zip(blocks, translations, strict=True))):
        new = translation.split("\n")
        if block[0].alone:
            indent = lines[block[0].row][:block[0].col]
            lines[block[0].row:block[-1].row + 1] = [(indent + block[0].marker + text).rstrip() for text in new]
        else:
            for comment, text in zip(block, new, strict=True):
                lines[comment.row] = (lines[comment.row][:comment.col] + comment.marker + text).rstrip()
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, text) of each Markdown heading."""
    return [(len(hashes), text) for hashes, text in HEADING.findall(markdown)]


def anchor_map(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """English heading anchor -> Chinese heading anchor, over (msgid, msgstr) pairs of markdown cells."""
    anchors = {}
    for english, chinese in pairs:
        for (_, en), (_, zh) in zip(headings(english), headings(chinese)):
            anchors[study_aids.heading_anchor(en)] = study_aids.heading_anchor(zh)
    return anchors


class Links(NamedTuple):
    """What the Chinese pages link to: which pages have a Chinese twin, and their headings' anchors."""
    paths: Paths
    translated: frozenset[str]           # notebook stems, and DOCS_ITEM, with a Chinese edition
    anchors: dict[str, dict[str, str]]   # stem -> {English anchor: Chinese anchor}

    def counterpart(self, target: Path) -> Path | None:
        """The Chinese page for an English one, or None where there is none (yet)."""
        paths = self.paths
        if target.parent == paths.notebooks.resolve() and target.suffix == ".ipynb":
            return paths.zh / target.name if target.stem in self.translated else None
        if target == (paths.root / "README.md").resolve():
            zh = paths.root / README_ZH
            return zh if zh.exists() else None
        if target.parent == paths.docs.resolve() and target.suffix == ".md":
            zh = paths.docs / f"{target.stem}.zh-CN.md"
            built = DOCS_ITEM in self.translated and target.stem in ZH_DOCS
            return zh if built or zh.exists() else None
        return None

    def relink(self, markdown: str, stem: str, base: Path) -> str:
        """Links written for ``notebooks/`` rewritten for ``base``, to Chinese pages where they exist."""
        def fix(match: re.Match) -> str:
            target = match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("/"):
                return match.group(0)
            path, hash_, fragment = target.partition("#")
            if not path:
                return match.group(1) + "#" + self.anchors.get(stem, {}).get(fragment, fragment)
            english = (self.paths.notebooks / path).resolve()
            chinese = self.counterpart(english)
            page = chinese or english
            if chinese is not None and fragment:
                fragment = self.anchors.get(english.stem, {}).get(fragment, fragment)
            return match.group(1) + Path(os.path.relpath(page, base)).as_posix() + hash_ + fragment
        return LINK_TARGET.sub(fix, markdown)


def translated_notebook(notebook, translations: dict[str, str], stem: str, links: Links):
    """A copy of ``notebook`` with every unit replaced by its translation (all must be there)."""
    chinese = copy.deepcopy(notebook)
    for cell in chinese.cells:
        cell_id = cell.get("id", "")
        if cell.cell_type == "markdown" and _source(cell).strip():
            cell.source = links.relink(translations[f"{cell_id} markdown"], stem, links.paths.zh)
        if cell.cell_type != "code":
            continue
        blocks = comment_blocks(_source(cell))
        texts = [translations[f"{cell_id} comment {n}"] for n in range(1, len(blocks) + 1)]
        cell.source = with_comments(_source(cell), texts)
        alt = cell.get("metadata", {}).get("alt")
        if isinstance(alt, str):
            cell.metadata["alt"] = translations[f"{cell_id} alt"]
        elif isinstance(alt, list):
            cell.metadata["alt"] = [translations[f"{cell_id} alt {n}"] for n in range(len(alt))]
    return chinese


def notebook_text(notebook) -> str:
    """The file as ``nbformat.write`` saves it (and as scripts/execute_notebooks.py left the English)."""
    text = nbformat.writes(notebook)
    return text if text.endswith("\n") else text + "\n"


# --------------------------------------------------------------------------- is every unit translated?
def translations_of(units: list[Unit], catalogue: polib.POFile | None, where: str,
                    update: str) -> tuple[dict[str, str], list[str]]:
    """{msgctxt: msgstr} of the current translations, and a problem (naming the cell) for each unit without."""
    if catalogue is None:
        return {}, [f"{where}: no catalogue; start one with {update}"]
    entries = {entry.msgctxt: entry for entry in catalogue if not entry.obsolete}
    found, problems = {}, []
    for unit in units:
        entry = entries.get(unit.context)
        name = f"{where}, {_label(unit)}"
        if entry is None:
            problems.append(f"{name}: new English text with no catalogue entry; run {update}")
        elif entry.msgid != unit.text:
            problems.append(f"{name}: the English changed since the catalogue was updated; run {update}, "
                            "then translate the entry marked fuzzy")
        elif "fuzzy" in entry.flags:
            problems.append(f"{name}: the English changed since it was translated (entry marked fuzzy)")
        elif not entry.msgstr:
            problems.append(f"{name}: not translated yet")
        else:
            found[unit.context] = entry.msgstr
            problems += [f"{name}: {problem}" for problem in structure_problems(unit, entry.msgstr)]
    stale = sorted(set(entries) - {unit.context for unit in units})
    problems += [f"{where}: the catalogue has an entry for {context!r}, which the English no longer has; "
                 f"run {update}" for context in stale]
    return found, problems


def _label(unit: Unit) -> str:
    """How a problem names a unit: "cell ab328400 (comment 2)", or a docs.po entry's context."""
    part = unit.context.removeprefix(f"{unit.cell} ")
    return f"cell {unit.cell} ({part})" if part != unit.context else unit.context


def structure_problems(unit: Unit, translation: str) -> list[str]:
    """What would keep the build from placing a translation (and what msgfmt --check refuses)."""
    problems = []
    for edge, test in (("begin", str.startswith), ("end", str.endswith)):
        if test(unit.text, "\n") != test(translation, "\n"):
            problems.append(f"the English and the translation must both {edge} with a newline, or neither")
    if unit.fixed_lines and unit.text.count("\n") != translation.count("\n"):
        problems.append(f"comments beside code: the translation has {translation.count(chr(10)) + 1} lines, "
                        f"the English {unit.text.count(chr(10)) + 1}")
    if unit.kind == "markdown" and [level for level, _ in headings(unit.text)] != [
            level for level, _ in headings(translation)]:
        problems.append("the translation's headings differ from the English ones in number or level")
    going_further = [bool(reading_time.GOING_FURTHER.search(f"# {text}")) for _, text in headings(unit.text)]
    if going_further != [bool(reading_time.GOING_FURTHER.search(f"# {text}")) for _, text in headings(translation)]:
        problems.append("a heading that ends the main path (Going further, appendix) must say 深入 or 附录 "
                        "in the translation, and no other heading may (the reading time counts to it)")
    return problems


def long_lines(notebook) -> list[str]:
    """Code cells with a line wider than MAX_LINE columns once their comments are translated."""
    return [f"cell {cell.get('id')} (comment): line {number} is {columns(line)} columns wide, over {MAX_LINE}"
            for cell in notebook.cells if cell.cell_type == "code"
            for number, line in enumerate(_source(cell).splitlines(), start=1) if columns(line) > MAX_LINE]


# --------------------------------------------------------------------------- rules of a translation
FORMULA = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.S)
TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
TARGET = re.compile(r"(?<=\]\()[^)\s]+|(?<=href=\")[^\"]+|(?<=src=\")[^\"]+|https?://[^\s)>\"]+")
CUT_OFF = re.compile(r"(?<=\w)@\w+")
TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.'\-]*[A-Za-z0-9_]|[A-Za-z0-9_]")
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:st|nd|rd|th)?")
CHINESE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def literal_parts(text: str) -> dict[str, set[str]]:
    """What a translation must keep as it is, by kind.

    >>> parts = literal_parts("Recall@5 of `q1` is $2/3$ at rank 3 in [01](01_recall_at_k.ipynb); see pytrec_eval.")
    >>> sorted(parts["formula"]), sorted(parts["code"]), sorted(parts["cut-off"]), sorted(parts["number"])
    (['$2/3$'], ['`q1`'], ['@5'], ['01', '3'])
    >>> sorted(parts["link"]), sorted(parts["identifier"])
    (['01_recall_at_k.ipynb'], ['pytrec_eval'])
    """
    parts, text = _split_literals(text)
    tokens = [token.rstrip(".") for token in TOKEN.findall(text)]
    parts["number"] = {token for token in tokens if NUMBER.fullmatch(token)}
    parts["identifier"] = {token for token in tokens if not NUMBER.fullmatch(token) and (
        "_" in token or re.search(r"[a-z][A-Z]", token) or (re.search(r"\d", token) and re.search(r"[A-Za-z]", token)))}
    return parts


LITERALS = (("link", TARGET), ("code", CODE_SPAN), ("formula", FORMULA), ("tag", TAG), ("cut-off", CUT_OFF))


def _split_literals(text: str, kinds=LITERALS) -> tuple[dict[str, set[str]], str]:
    """Link targets, code spans, formulas, tags and cut-offs of ``text``, and the prose left without them."""
    parts: dict[str, set[str]] = {}
    for kind, pattern in kinds:
        parts[kind] = {match.group(0) for match in pattern.finditer(text)}
        text = pattern.sub(" ", text)
    return parts, text


def allowed(tcomment: str) -> set[str]:
    """Tokens a translator exempted from the rules: lines ``allow: TOKEN, TOKEN`` of the entry's comment."""
    found = re.findall(r"^\s*allow:\s*(.+)$", tcomment or "", re.M)
    return {token.strip() for line in found for token in line.split(",") if token.strip()}


def literal_problems(english: str, chinese: str, exempt: set[str] = frozenset()) -> list[str]:
    """Numbers, formulas, code, tags, link targets, identifiers and cut-offs the two texts do not share.

    >>> literal_problems("MRR is 0.611 for `q1`", "`q1` 的 MRR 为 0.661")
    ['number: 0.611 only in the English; 0.661 only in the translation']
    """
    mine, theirs = literal_parts(english), literal_parts(chinese)
    problems = []
    for kind in ("number", "formula", "code", "tag", "link", "identifier", "cut-off"):
        lost, added = sorted(mine[kind] - theirs[kind] - exempt), sorted(theirs[kind] - mine[kind] - exempt)
        if lost or added:
            said = [f"{', '.join(lost)} only in the English"] if lost else []
            said += [f"{', '.join(added)} only in the translation"] if added else []
            problems.append(f"{kind}: {'; '.join(said)}")
    return problems


class Term(NamedTuple):
    english: str            # one English form, as the glossary writes it
    chinese: frozenset[str]  # its Chinese names (any one will do)
    may_stay: bool          # a name (MRR, Recall@K), an abbreviation (qrels), or a form the Chinese uses (chunk)


def _forms(cell: str, keep) -> list[list[str]]:
    """A glossary cell split into its terms, each with the forms it is written in.

    >>> _forms("relevance judgment (qrels), pooling", lambda inner: True)
    [['relevance judgment', 'qrels'], ['pooling']]
    """
    terms = []
    for part in re.split(r"\s+/\s+|,\s*|，\s*", cell.strip()):
        match = re.fullmatch(r"(.*?)\s*[（(]([^)）]*)[)）]\s*", part)
        main, inner = (match.group(1), match.group(2)) if match else (part, "")
        terms.append([form for form in (main, inner if inner and keep(inner) else "") if form.strip()])
    return terms


def glossary_terms(path: Path) -> list[Term]:
    """Every English form of every glossary row, with the Chinese names it may be translated as."""
    terms = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not CHINESE.search(cells[1]) or cells[0] in ("English", "---"):
            continue
        english = _forms(cells[0], keep=lambda inner: True)
        chinese = _forms(cells[1], keep=lambda inner: bool(CHINESE.search(inner)))
        names = [{re.sub(r"(?:@|\s+)[Kk]$", "", form) for form in forms} for forms in chinese]
        for i, forms in enumerate(english):
            allowed_names = names[i] if len(names) == len(english) else set().union(*names)
            for form in forms:
                stays = bool(re.search(r"[A-Z0-9@]", form)) or form in cells[1] or form != forms[0]
                terms.append(Term(form, frozenset(allowed_names), stays))
    return terms


def _term_regex(term: Term) -> str:
    """A regular expression for a term's uses: a name as written, a common noun in any case and number."""
    core = re.sub(r"@[Kk]$", r"@(?:K|k|\\d+)", re.escape(term.english)).replace(r"\ ", r"[\s-]+")
    if re.search(r"[A-Z0-9@]", term.english):
        return rf"(?<![\w@-]){core}(?![\w@-])"
    plural = rf"{core[:-1]}(?:y|ies)" if core.endswith("y") else rf"{core}(?:s|es)?"
    return rf"(?i:(?<![\w@-]){plural}(?![\w@-]))"


@functools.cache
def _first_word(term: Term) -> str:
    """The start every use of the term shares, in lower case ("quer" for query and queries)."""
    word = re.split(r"[\s@]", term.english.lower())[0]
    return word[:-1] if word.endswith("y") else word


@functools.cache
def _terms_regex(terms: tuple[Term, ...]) -> tuple[re.Pattern, tuple[Term, ...]]:
    """One pattern for all terms, longest first, so that at each place the longest term is the one found."""
    ordered = tuple(sorted(terms, key=lambda term: -len(term.english)))
    return re.compile("|".join(f"(?P<t{i}>{_term_regex(term)})" for i, term in enumerate(ordered))), ordered


def glossary_problems(english: str, chinese: str, terms: list[Term], exempt: set[str] = frozenset()) -> list[str]:
    """Glossary terms the English uses whose Chinese name the translation lacks (longest term wins).

    >>> terms = [Term("query", frozenset({"查询"}), False), Term("query rewriting", frozenset({"查询改写"}), False)]
    >>> glossary_problems("Query rewriting helps.", "查询改写有用。", terms)
    []
    >>> glossary_problems("Two queries.", "两个问题。", terms)
    ["glossary: 'query' is used in the English, but the translation has none of 查询"]
    """
    prose = _split_literals(english, LITERALS[:-1])[1]  # cut-offs kept: Recall@5 is a use of Recall@K
    lowered = prose.lower()  # only terms whose first word occurs can match: a much shorter pattern
    candidates = tuple(term for term in terms if _first_word(term) in lowered)
    if not candidates:
        return []
    pattern, ordered = _terms_regex(candidates)
    used = sorted({ordered[int(match.lastgroup[1:])].english for match in pattern.finditer(prose)})
    problems = []
    for name in used:
        same = [term for term in terms if term.english == name]  # "chunk" has two rows
        names = frozenset().union(*(term.chinese for term in same))
        stays = any(term.may_stay and re.search(_term_regex(term), chinese) for term in same)
        if name not in exempt and not stays and not any(zh in chinese for zh in names):
            problems.append(f"glossary: {name!r} is used in the English, but the translation has none of "
                            f"{', '.join(sorted(names))}")
    return problems


def cards(markdown: str) -> list[tuple[str, str, str, bool]]:
    """(number, English question, English answer, has a 中文 answer) of each interview card, in order."""
    questions = [(match.group(1), match.group("en")) for line in markdown.splitlines()
                 if (match := study_aids.CARD_QUESTION.match(line))]
    answers = re.findall(r"<details>(.*?)</details>", markdown, re.S)
    found = []
    for index, answer in enumerate(answers):
        english = re.search(r"^English\s*[：:]\s*(.*?)\s*(?:\n\s*\n|\Z)", answer, re.S | re.M)
        number, question = questions[index] if index < len(questions) else (str(index + 1), "")
        has_chinese = bool(re.search(r"^中文\s*[：:]", answer, re.M))
        found.append((number, question, english.group(1) if english else "", has_chinese))
    return found


def card_problems(english: str, chinese: str) -> list[str]:
    """A card of the English that the translation lost, or whose English question or answer it changed.

    The Chinese edition keeps both answers: the 中文 one first, the English one word for word, for a
    reader who will answer the question in English in an interview.
    """
    mine, theirs = cards(english), cards(chinese)
    if len(mine) != len(theirs):
        return [f"cards: the English has {len(mine)} interview cards, the translation {len(theirs)}"]
    problems = []
    for (number, question, answer, _), (their_number, their_question, their_answer, has_chinese) in zip(mine, theirs):
        if (their_number, their_question) != (number, question):
            problems.append(f"cards: Q{number}'s question line must keep its number and its English question")
        if their_answer != answer:
            problems.append(f"cards: Q{number}'s English answer must stay word for word")
        if not has_chinese:
            problems.append(f"cards: Q{number} has no 中文： answer")
    return problems


def quality_problems(unit: Unit, entry: polib.POEntry, terms: list[Term]) -> list[str]:
    """Every rule of a translation (module docstring) that ``entry`` breaks."""
    exempt = allowed(entry.tcomment)
    problems = literal_problems(unit.text, entry.msgstr, exempt)
    problems += glossary_problems(unit.text, entry.msgstr, terms, exempt)
    if unit.kind == "markdown":
        problems += card_problems(unit.text, entry.msgstr)
    return problems


# --------------------------------------------------------------------------- the Chinese study aids
GENERATED_ZH = ("由 `python scripts/zh_edition.py` 生成：请修改它读取的来源（英文原文与 `i18n/zh_CN/*.po`），"
                "不要直接编辑本文件。")
CHEATSHEET_FIELDS = ("value_range", "compares", "misses", "use_when")


def _function(row) -> str:
    """The public function a cheat-sheet row describes: the last name in backticks of its label."""
    return re.findall(r"`([^`]+)`", row.metric)[-1]


def glossary_rows(path: Path) -> list[tuple[str, str, str]]:
    """(English, 中文, short meaning) of each row of ``docs/glossary.md``'s table."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and CHINESE.search(cells[1]) and cells[1] != "中文":
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def docs_units(paths: Paths) -> list[Unit]:
    """docs.po's entries: each metric card's text fields, each glossary meaning, each notebook's one-liner."""
    units = [Unit(f"cheatsheet {_function(row)} {field}", getattr(row, field), f"card {_function(row)}", field)
             for row in study_aids.metric_rows() for field in CHEATSHEET_FIELDS]
    units += [Unit(f"glossary {english}", meaning, f"glossary {english}", "glossary")
              for english, _, meaning in glossary_rows(paths.docs / "glossary.md")]
    units += [Unit(f"readme {number}", text, f"readme {number}", "teaches")
              for number, text in reading_time.TEACHES.items()]
    return units


def _page(paths: Paths, stem: str, links: Links) -> Path:
    """The Chinese notebook where there is one, else the English."""
    return paths.zh / f"{stem}.ipynb" if stem in links.translated else paths.notebooks / f"{stem}.ipynb"


def cheatsheet_zh(paths: Paths, translations: dict[str, str], links: Links) -> str:
    lines = ["# 指标速查表 · Cheat sheet", "",
             f"{GENERATED_ZH}每行是一张指标卡片（`ragmetrics_lite/data/cards/*.toml`）；检索指标按 `evaluate` "
             "接受的写法命名，括号里是它的逐查询函数。公式用纯文本书写，每个笔记本都会一步步推导自己的指标。"
             "面试题见[面试题卡](interview.zh-CN.md)。", ""]
    rows = study_aids.metric_rows()
    lines += [f"共 {len(rows)} 个指标，按笔记本顺序排列。", "",
              "| 指标 | 公式 | 取值范围 | 比较什么 | 看不到什么 | 何时使用 | 笔记本 |", "|---|---|---|---|---|---|---|"]
    for row in rows:
        text = {field: translations[f"cheatsheet {_function(row)} {field}"] for field in CHEATSHEET_FIELDS}
        page = _page(paths, row.notebook, links)
        short = reading_time.title(page).split(" · ")[0]
        link = f"[{row.notebook[:2]} · {study_aids._cell(short)}]({study_aids._relative(page, paths.docs)})"
        cells = [row.metric, f"<code>{study_aids._cell(row.formula)}</code>",
                 *(study_aids._cell(text[field]) for field in CHEATSHEET_FIELDS), link]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def deck_zh(paths: Paths, links: Links) -> str:
    """Every interview card, from the Chinese notebook where there is one (cards are bilingual anyway)."""
    pages = [_page(paths, path.stem, links) for path in reading_time.notebooks(paths.notebooks)]
    groups = [(page, cards) for page in pages if (cards := study_aids.parse_cards(page))]
    total = sum(len(cards) for _, cards in groups)
    lines = ["# 面试题卡 · Interview deck", "",
             f"{GENERATED_ZH}这里收录每个笔记本的全部面试题，共 {total} 张，来自 {len(groups)} 个笔记本，"
             "按阅读顺序排列。先自己大声回答，再展开答案；↗ 通向题目在笔记本中所在的小节。"
             "每个指标一行的速查：[指标速查表](cheatsheet.zh-CN.md)。"]
    for page, cards in groups:
        link = study_aids._relative(page, paths.docs)
        lines += ["", f"## [{page.name[:2]} · {reading_time.title(page)}]({link})"]
        for card in cards:
            anchor = f"{link}#{study_aids.heading_anchor(card.heading)}" if card.heading else link
            title = card.heading.replace('"', "'")
            lines += ["", f'{card.question} [↗]({anchor} "{title}")', "",
                      "<details><summary>Answer · 答案</summary>", "",
                      study_aids._relink(card.answer, page, paths.docs), "", "</details>"]
    return "\n".join(lines) + "\n"


def glossary_zh(paths: Paths, translations: dict[str, str]) -> str:
    lines = ["# 术语表 · Glossary", "",
             f"{GENERATED_ZH}每个笔记本在术语第一次出现时给出它的中文名，取自本表，之后沿用。"
             "英文版：[glossary.md](glossary.md)。", "",
             "| 中文 | English | 简要说明 |", "|---|---|---|"]
    for english, chinese, _ in glossary_rows(paths.docs / "glossary.md"):
        lines.append(f"| {chinese} | {english} | {translations[f'glossary {english}']} |")
    return "\n".join(lines) + "\n"


def reading_table(paths: Paths, translations: dict[str, str], links: Links) -> str:
    """The Chinese README's notebook table: each notebook's minutes as the Chinese page reads.

    Same formula as the English table (scripts/reading_time.py: Chinese characters at 400 a minute);
    a notebook not translated yet is timed and linked in English, and says so.
    """
    rows = ["| # | 笔记本 | 学什么 | 主线 | 全部 |", "|---|---|---|--:|--:|"]
    for path in reading_time.notebooks(paths.notebooks):
        number, page = path.name[:2], _page(paths, path.stem, links)
        time = reading_time.reading_time(page)
        teaches = translations.get(f"readme {number}", reading_time.TEACHES.get(number, ""))
        note = "" if page.parent == paths.zh else "（英文，翻译中）"
        link = Path(os.path.relpath(page, paths.root)).as_posix()
        rows.append(f"| {number} | [{reading_time._cell(reading_time.title(page))}]({link}){note} | "
                    f"{reading_time._cell(teaches)} | {time.main.minutes:.0f} 分钟 | {time.total.minutes:.0f} 分钟 |")
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- the edition
class Item(NamedTuple):
    """One catalogue and what it translates."""
    name: str                      # notebook stem, or DOCS_ITEM
    where: str                     # how problems name its source
    units: list[Unit]
    translations: dict[str, str]   # msgctxt -> msgstr, current ones only
    problems: list[str]            # what keeps the build from writing its pages
    quality: list[str]             # rules of a translation broken: --check fails, the build still writes


def _update_command(name: str) -> str:
    return f"python scripts/zh_edition.py --update {name}"


def read_item(paths: Paths, name: str, units: list[Unit], where: str, terms: list[Term]) -> Item:
    """An item's current translations, and every problem of its catalogue: missing, stale or broken entries."""
    catalogue = read_catalogue(paths.catalogue(name))
    found, problems = translations_of(units, catalogue, where, _update_command(name))
    entries = {entry.msgctxt: entry for entry in catalogue or [] if not entry.obsolete}
    quality = [f"{where}, {_label(unit)}: {problem}" for unit in units if unit.context in found
               for problem in quality_problems(unit, entries[unit.context], terms)]
    return Item(name, where, units, found, problems, quality)


class Edition(NamedTuple):
    files: dict[Path, str]   # every file the build writes, with its text
    problems: list[str]      # what --check reports
    pending: list[str]
    owned: set[Path]         # the files it makes once every catalogue not pending is complete


def edition(paths: Paths = Paths(ROOT)) -> Edition:
    """What the build would write, and every problem, without writing anything."""
    waiting = pending(paths)
    english = {path.stem: path for path in reading_time.notebooks(paths.notebooks)}
    problems = [f"i18n/zh_CN/pending.txt: {name!r} is neither a notebook nor {DOCS_ITEM!r}"
                for name in waiting if name not in english and name != DOCS_ITEM]
    terms = glossary_terms(paths.docs / "glossary.md")
    notebooks = {stem: nbformat.read(path, as_version=4) for stem, path in english.items() if stem not in waiting}
    items = [read_item(paths, stem, notebook_units(notebook), f"notebooks/{stem}.ipynb", terms)
             for stem, notebook in notebooks.items()]
    if DOCS_ITEM not in waiting:
        items.append(read_item(paths, DOCS_ITEM, docs_units(paths), f"i18n/zh_CN/{DOCS_ITEM}.po", terms))
    anchors = {item.name: anchor_map([(unit.text, item.translations[unit.context]) for unit in item.units
                                      if unit.kind == "markdown" and unit.context in item.translations])
               for item in items}
    links = Links(paths, frozenset(item.name for item in items), anchors)
    files = {}
    for item in items:
        problems += item.problems + item.quality
        if item.problems or item.name == DOCS_ITEM:
            continue
        chinese = translated_notebook(notebooks[item.name], item.translations, item.name, links)
        problems += [f"{item.where}, {problem}" for problem in long_lines(chinese)]
        files[paths.zh / f"{item.name}.ipynb"] = notebook_text(chinese)
    files.update(_study_aids(paths, items, links))
    owned = {paths.zh / f"{stem}.ipynb" for stem in notebooks}
    owned |= {paths.docs / f"{name}.zh-CN.md" for name in ZH_DOCS} if DOCS_ITEM not in waiting else set()
    return Edition(files, problems, waiting, owned | set(files))


def _study_aids(paths: Paths, items: list[Item], links: Links) -> dict[Path, str]:
    """The Chinese study aids (when docs.po is complete) and the Chinese README's table (when it exists)."""
    docs = next((item for item in items if item.name == DOCS_ITEM), None)
    translations = docs.translations if docs is not None else {}
    files = {}
    if docs is not None and not docs.problems:
        files[paths.docs / "cheatsheet.zh-CN.md"] = cheatsheet_zh(paths, translations, links)
        files[paths.docs / "interview.zh-CN.md"] = deck_zh(paths, links)
        files[paths.docs / "glossary.zh-CN.md"] = glossary_zh(paths, translations)
    readme = paths.root / README_ZH
    if readme.exists() and reading_time.BEGIN in readme.read_text(encoding="utf-8"):
        table = reading_table(paths, translations, links)
        files[readme] = reading_time.replace_table(readme.read_text(encoding="utf-8"), table)
    return files


def stale_files(paths: Paths, result: Edition) -> tuple[list[Path], list[Path]]:
    """(generated files that differ from the build or are missing, generated files the build does not make)."""
    stale = [path for path, text in result.files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    made = set(paths.zh.glob("*.ipynb")) | {paths.docs / f"{name}.zh-CN.md" for name in ZH_DOCS}
    orphans = sorted(path for path in made if path.exists() and path not in result.owned)
    return stale, orphans


# --------------------------------------------------------------------------- commands
def update(paths: Paths, names: list[str]) -> int:
    """Start or refresh catalogues (every one not pending, and every existing one, when none is named)."""
    english = {path.stem: path for path in reading_time.notebooks(paths.notebooks)}
    if not names:
        existing = {path.stem for path in paths.i18n.glob("*.po")}
        names = sorted(existing | ({*english, DOCS_ITEM} - set(pending(paths))))
    for name in names:
        stem = next((stem for stem in english if stem == name or stem[:2] == name), name)
        if stem != DOCS_ITEM and stem not in english:
            print(f"zh_edition: {name!r} is neither a notebook (stem or number) nor {DOCS_ITEM!r}", file=sys.stderr)
            return 2
        units = (docs_units(paths) if stem == DOCS_ITEM
                 else notebook_units(nbformat.read(english[stem], as_version=4)))
        where = "docs" if stem == DOCS_ITEM else f"notebooks/{stem}.ipynb"
        catalogue = merge(units, read_catalogue(paths.catalogue(stem)), where)
        paths.i18n.mkdir(parents=True, exist_ok=True)
        catalogue.save(str(paths.catalogue(stem)))
        active = [entry for entry in catalogue if not entry.obsolete]
        fuzzy = sum("fuzzy" in entry.flags for entry in active)
        done = sum(bool(entry.msgstr) and "fuzzy" not in entry.flags for entry in active)
        print(f"i18n/zh_CN/{stem}.po: {len(active)} entries, {done} translated, {fuzzy} fuzzy, "
              f"{len(active) - done - fuzzy} untranslated")
    return 0


def _shown(paths: Paths, path: Path) -> str:
    return path.relative_to(paths.root).as_posix() if path.is_relative_to(paths.root) else str(path)


def check_or_build(paths: Paths, check: bool) -> int:
    """--check: report, write nothing. Build: write what is complete, delete what has no source, report the rest."""
    result = edition(paths)
    stale, orphans = stale_files(paths, result)
    for problem in result.problems:
        print(problem)
    if check:
        for path in stale:
            print(f"{_shown(paths, path)}: differs from what the build writes, or is missing; "
                  "run python scripts/zh_edition.py")
        for path in orphans:
            print(f"{_shown(paths, path)}: its English is gone or its catalogue is pending; the build deletes it")
    else:
        for path in stale:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(result.files[path], encoding="utf-8")
            print(f"{_shown(paths, path)}: written")
        for path in orphans:
            path.unlink()
            print(f"{_shown(paths, path)}: deleted")
    if result.pending:
        print(f"zh_edition: {len(result.pending)} catalogues pending (i18n/zh_CN/pending.txt): "
              f"{', '.join(result.pending)}", file=sys.stderr)
    return 1 if result.problems or (check and (stale or orphans)) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 naming each problem; write nothing")
    parser.add_argument("--update", nargs="*", metavar="NAME",
                        help="start or refresh catalogues: notebook stems or numbers, or 'docs'")
    parser.add_argument("--reading-time", action="store_true", help="print the Chinese edition's notebook table")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)  # a test's copy
    args = parser.parse_args(argv)
    paths = Paths(args.root.resolve())
    if args.update is not None:
        return update(paths, args.update)
    if args.reading_time:
        result = edition(paths)
        docs = read_catalogue(paths.catalogue(DOCS_ITEM))
        translations = {e.msgctxt: e.msgstr for e in docs or [] if e.msgstr and "fuzzy" not in e.flags}
        translated = frozenset(path.stem for path in result.owned if path.parent == paths.zh)
        print(reading_table(paths, translations, Links(paths, translated, {})), end="")
        return 0
    return check_or_build(paths, args.check)


if __name__ == "__main__":
    sys.exit(main())
