"""The Chinese edition (中文版): ``notebooks/zh/`` and the Chinese study aids, built from the English
notebooks and the gettext catalogues in ``i18n/zh_CN/``, so that a translation cannot go stale silently.

    python scripts/zh_edition.py                     # build notebooks/zh/ and docs/*.zh-CN.md
    python scripts/zh_edition.py --check             # exit 1 naming notebook and cell of each problem
    python scripts/zh_edition.py --check 05 11       # only these notebooks' catalogues and pages, pending or not
    python scripts/zh_edition.py --update 05 docs    # start or refresh catalogues from the English
    python scripts/zh_edition.py --update q04_mrr    # an exercise's texts (checker: the checker's sentences)
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

**Exercises.** ``i18n/zh_CN/exercises/<exercise>.po`` translates an exercise's texts (``texts()``: task,
hints, questions and choices, diagnoses, case labels), ``exercises/checker.po`` the checker's sentences
(``_language.TEMPLATES``, whose ``{fields}`` a translation keeps). With ``RAGMETRICS_LANG=zh`` (the
launcher's ``--zh``) the exercises print them, each only while its msgid is the current English
(``ragmetrics_lite/course/exercises/_language.py``). A started catalogue is checked like a notebook's
(new, changed, untranslated entries, the rules below); an exercise without one prints in English, and
--check lists those on stderr.

**The build.** A Chinese notebook is the executed English one with its markdown cells, code comments
and alt texts replaced by their translations; code (less comments), outputs and metadata are copied,
so it needs no second execution (printed output, table headers and plot titles stay English). Links
to other notebooks, ``docs/`` and the README point at the Chinese page where there is one, and a
link to a heading follows the heading's translation. The Chinese study aids and the Chinese README's
table take titles, cards and reading times from the Chinese pages as the same build writes them, so one
build is enough after a catalogue leaves the pending list or a title changes.

**--check** exits 1, naming notebook and cell, when an English cell has no current translation (new,
changed since it was translated, untranslated), when a translation breaks a rule below, or when a
generated file differs from what the build would write (or is missing, or has no English source). Each
problem quotes what it is about: the words that changed, the term and the English around it, the
heading, the line; a stale Chinese page names each cell that differs, and says so when only its links
do (a page it links to was translated since it was built: the build relinks it). ``--check NN``
checks only the named catalogues and their pages, a pending one too (a translator's work in progress).

**Rules of a translation** (``quality_problems``): the same numbers written as digits, formulas
(``$…$``, ``$$…$$``), inline code, HTML tags, link targets, identifiers (``q1``, ``pytrec_eval``,
``LexicalJudge``) and cut-offs (``@5``, ``@K``) as the English, read past English grammar: a possessive
is its name (``trec_eval's``), an ordinal its digits (``19th``), a compound of words and a number only
its number (``top-3``, ``rank-100``, ``1-based``: 前 3 个 keeps the 3). Every glossary term
(``docs/glossary.md``) the English uses as a noun appears under its Chinese name (a name such as MRR
or BLEU may also stay as it is; a space or hyphen of a term matches either, "top K" as ``top-K``;
where judge, rank, gain or discount is a verb, "MRR judges the list", it is not a use). What an
interview card keeps in English word for word (its English question and answer) is not scanned for
terms; cards keep their question line and both answers, the English answer word for word. The
translation keeps the same headings; a comment block beside code keeps its number of lines; no code
line is wider than 120 columns. A translator's comment ``allow: TOKEN`` exempts one token (a term or
number used in another sense) in that entry.
"""
from __future__ import annotations

import argparse
import ast
import copy
import difflib
import datetime
import functools
import importlib.util
import io
import os
import re
import string
import sys
import tempfile
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
        entry = _new_entry(unit, where if unit.kind in ("exercise", "template") else f"{where}, cell {unit.cell}")
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
            problems.append(f"{name}: new English text with no catalogue entry ({quoted(unit.text)}); run {update}")
        elif entry.msgid != unit.text:
            problems.append(f"{name}: the English changed since the catalogue was updated "
                            f"({changed(entry.msgid, unit.text)}); run {update}, then translate the entry marked fuzzy")
        elif "fuzzy" in entry.flags:
            what = f" ({changed(entry.previous_msgid, entry.msgid)})" if entry.previous_msgid else ""
            problems.append(f"{name}: the English changed since it was translated{what} (entry marked fuzzy)")
        elif not entry.msgstr:
            problems.append(f"{name}: not translated yet ({quoted(unit.text)})")
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
    return f"cell {unit.cell} ({part})" if part != unit.context and unit.kind not in ("exercise", "template") \
        else unit.context


def structure_problems(unit: Unit, translation: str) -> list[str]:
    """What would keep the build from placing a translation (and what msgfmt --check refuses)."""
    problems = []
    for edge, test in (("begin", str.startswith), ("end", str.endswith)):
        if test(unit.text, "\n") != test(translation, "\n"):
            problems.append(f"the English and the translation must both {edge} with a newline, or neither")
    if unit.fixed_lines and unit.text.count("\n") != translation.count("\n"):
        problems.append(f"comments beside code: the translation has {translation.count(chr(10)) + 1} lines, "
                        f"the English {unit.text.count(chr(10)) + 1}")
    if unit.kind == "template":
        problems += _field_problems(unit.text, translation)
    mine, theirs = headings(unit.text), headings(translation)
    if unit.kind == "markdown" and [level for level, _ in mine] != [level for level, _ in theirs]:
        problems.append(f"the translation's headings differ from the English ones in number or level (English: "
                        f"{_heading_list(mine)}; translation: {_heading_list(theirs)})")
    ends = _ends_main_path
    if [ends(text) for _, text in mine] != [ends(text) for _, text in theirs]:
        pairs = [f"{en!r} → {zh!r}" for (_, en), (_, zh) in zip(mine, theirs) if ends(en) != ends(zh)]
        problems.append("a heading that ends the main path (Going further, appendix) must say 深入 or 附录 "
                        "in the translation, and no other heading may (the reading time counts to it)"
                        + (f": {'; '.join(pairs)}" if pairs else ""))
    return problems


def _field_problems(english: str, translation: str) -> list[str]:
    """A checker sentence's translation keeps its ``{fields}`` (the checker fills them in with str.format).

    >>> _field_problems("Hint {level} of {count}", "提示 {level}/{count}")
    []
    >>> _field_problems("Hint {level} of {count}", "提示 {level}/{n}")
    ['the translation must have the fields {count}, {level} of the English, and no other: it has {level}, {n}']
    """
    def fields(text: str) -> set[str]:
        return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    try:
        mine, theirs = fields(english), fields(translation)
    except ValueError as error:  # an unmatched { or }
        return [f"str.format cannot read the translation ({error}); write a literal brace twice, {{{{ or }}}}"]
    if mine == theirs:
        return []
    return [f"the translation must have the fields {', '.join(f'{{{f}}}' for f in sorted(mine))} of the English, "
            f"and no other: it has {', '.join(f'{{{f}}}' for f in sorted(theirs))}"]


def _ends_main_path(heading: str) -> bool:
    """Whether a heading ends the main path (Going further, 深入, appendix): the reading time counts to it."""
    return bool(reading_time.GOING_FURTHER.search(f"# {heading}"))


def _heading_list(found: list[tuple[int, str]]) -> str:
    return ", ".join(f"{'#' * level} {text}" for level, text in found) or "none"


def quoted(text: str, width: int = 60) -> str:
    """The start of ``text`` on one line, in quotes, cut with … after about ``width`` characters.

    >>> quoted("## Going further\\n\\nThe helper's edge cases, one by one, each checked against pytrec_eval.")
    '"## Going further The helper\\'s edge cases, one by one, each…"'
    """
    words = " ".join(text.split())
    if len(words) <= width:
        return f'"{words}"'
    space = words.rfind(" ", 0, width + 1)  # cut at a space near the end, or mid-word (Chinese has no spaces)
    return f'"{words[:space if space > width * 2 // 3 else width]}…"'


def changed(old: str, new: str) -> str:
    """The first words that differ between two versions of a text, with a word of context each side.

    >>> changed("One query, two relevant documents.", "A single query, two relevant documents.")
    '"One query," became "A single query,"'
    >>> changed("one two three", "one two three four")
    '"three" became "three four"'
    """
    a, b = old.split(), new.split()
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    _, i1, i2, j1, j2 = next(op for op in matcher.get_opcodes() if op[0] != "equal")
    before, after = (max(i1 - 1, 0), max(j1 - 1, 0)) if i1 == i2 or j1 == j2 else (i1, j1)
    return f"{quoted(' '.join(a[before:i2 + 1]))} became {quoted(' '.join(b[after:j2 + 1]))}"


def long_lines(notebook) -> list[str]:
    """Code cells with a line wider than MAX_LINE columns once their comments are translated."""
    return [f"cell {cell.get('id')} (comment): line {number} is {columns(line)} columns wide, over {MAX_LINE} "
            f"({quoted(line.strip(), 50)})"
            for cell in notebook.cells if cell.cell_type == "code"
            for number, line in enumerate(_source(cell).splitlines(), start=1) if columns(line) > MAX_LINE]


# --------------------------------------------------------------------------- rules of a translation
FORMULA = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.S)
TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
TARGET = re.compile(r"(?<=\]\()[^)\s]+|(?<=href=\")[^\"]+|(?<=src=\")[^\"]+|https?://[^\s)>\"]+")
CUT_OFF = re.compile(r"(?<=\w)@\w+")
TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.'’\-]*[A-Za-z0-9_]|[A-Za-z0-9_]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
COMPOUND_WORD = re.compile(r"[A-Za-z][a-z]*")  # a word of a word–number compound: top, Top, based; not ROUGE
CHINESE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def normalised(token: str) -> list[str]:
    """What a word of prose must keep in a translation: its numbers and its identifier, not its English grammar.

    A possessive is the name (``trec_eval's`` is ``trec_eval``), an ordinal or a plural after a digit is the
    digits (``19th``, ``P95s``), and a compound of plain words and numbers (``top-3``, ``rank-100``,
    ``1-based``, ``3-versus-0``) is only its numbers: Chinese says 前 3 个 or 第 100 位, and the number must
    still be there. A name with a number (``ROUGE-1``, ``BLEU-4``, ``q1-q3``) stays whole.

    >>> [normalised(t) for t in ("trec_eval's", "q3’s", "ROUGE-1's", "19th", "P95s", "0.5s", "ROUGE-1", "q1-q3")]
    [['trec_eval'], ['q3'], ['ROUGE-1'], ['19'], ['P95'], ['0.5'], ['ROUGE-1'], ['q1-q3']]
    >>> [normalised(t) for t in ("top-3", "rank-100", "grade-1", "1-based", "3-versus-0", "6-grams", "1st-ranked")]
    [['3'], ['100'], ['1'], ['1'], ['3', '0'], ['6'], ['1']]
    """
    token = re.sub(r"['’]s$", "", token.rstrip("."))
    parts = [ORDINAL.sub(r"\1", part) if ORDINAL.fullmatch(part) else part for part in token.split("-")]
    numbers = [part for part in parts if NUMBER.fullmatch(part)]
    if len(parts) > 1 and numbers and len(numbers) < len(parts) and all(
            NUMBER.fullmatch(part) or COMPOUND_WORD.fullmatch(part) for part in parts):
        return numbers
    token = parts[0] if len(parts) == 1 else token
    return [token[:-1] if re.fullmatch(r".*\ds", token) else token]


def literal_parts(text: str, exempt: set[str] = frozenset()) -> dict[str, set[str]]:
    """What a translation must keep as it is, by kind (a word in ``exempt`` is not counted, as written).

    >>> parts = literal_parts("Recall@5 of `q1` is $2/3$ at rank 3 in [01](01_recall_at_k.ipynb); see pytrec_eval.")
    >>> sorted(parts["formula"]), sorted(parts["code"]), sorted(parts["cut-off"]), sorted(parts["number"])
    (['$2/3$'], ['`q1`'], ['@5'], ['01', '3'])
    >>> sorted(parts["link"]), sorted(parts["identifier"])
    (['01_recall_at_k.ipynb'], ['pytrec_eval'])
    """
    parts, text = _split_literals(text)
    words = [word.rstrip(".") for word in TOKEN.findall(text)]
    tokens = [token for word in words if word not in exempt for token in normalised(word)]
    parts["number"] = {token for token in tokens if NUMBER.fullmatch(token)}
    parts["identifier"] = {token for token in tokens if not NUMBER.fullmatch(token) and (
        "_" in token or re.search(r"[a-z][A-Z]", token) or (re.search(r"\d", token) and re.search(r"[A-Za-z]", token)))}
    return parts


LITERALS = (("link", TARGET), ("code", CODE_SPAN), ("formula", FORMULA), ("tag", TAG), ("cut-off", CUT_OFF))


def _split_literals(text: str, kinds=LITERALS) -> tuple[dict[str, set[str]], str]:
    """Link targets, code spans, formulas, tags and cut-offs of ``text``, and the prose left without them.

    Each literal becomes as many spaces (its line breaks kept), so a place in the prose is the same place in
    ``text``: a problem can quote the English around a term.
    """
    parts: dict[str, set[str]] = {}
    for kind, pattern in kinds:
        parts[kind] = {match.group(0) for match in pattern.finditer(text)}
        text = pattern.sub(lambda match: re.sub(r"[^\n]", " ", match.group(0)), text)
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
    mine, theirs = literal_parts(english, exempt), literal_parts(chinese, exempt)
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


# Chinese that running text writes for a glossary term besides its glossary name: "the top K results" is
# 前 K 个结果 as often as Top-K 结果 (the catalogues of 00-07 use both). Kept here, not in the glossary, because
# a glossary name loses a trailing K (召回率@K is found as 召回率), which would leave a bare 前.
RUNNING_TEXT_NAMES = {"top-K": frozenset({"前 K", "前K"})}


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
                names_here = frozenset(allowed_names) | RUNNING_TEXT_NAMES.get(form, frozenset())
                terms.append(Term(form, names_here, stays))
    return terms


def _term_regex(term: Term) -> str:
    """A regular expression for a term's uses: a name as written, a common noun in any case and number.

    A space or hyphen of the term matches either (``top-K`` and "top K"); a name that starts in lower case
    may start a sentence in upper case ("Top-K").
    """
    core = re.sub(r"@[Kk]$", r"@(?:K|k|\\d+)", re.escape(term.english))
    core = re.sub(r"\\[ -]", lambda _: r"[\s-]+", core)
    if re.search(r"[A-Z0-9@]", term.english):
        first = f"[{core[0]}{core[0].upper()}]" if core[0].islower() else core[0]
        return rf"(?<![\w@-]){first}{core[1:]}(?![\w@-])"
    plural = rf"{core[:-1]}(?:y|ies)" if core.endswith("y") else rf"{core}(?:s|es)?"
    return rf"(?i:(?<![\w@-]){plural}(?![\w@-]))"


@functools.cache
def _first_word(term: Term) -> str:
    """The start every use of the term shares, in lower case ("quer" for query and queries, "top" for top-K)."""
    word = re.split(r"[\s@-]", term.english.lower())[0]
    return word[:-1] if word.endswith("y") else word


@functools.cache
def _terms_regex(terms: tuple[Term, ...]) -> tuple[re.Pattern, tuple[Term, ...]]:
    """One pattern for all terms, longest first, so that at each place the longest term is the one found."""
    ordered = tuple(sorted(terms, key=lambda term: -len(term.english)))
    return re.compile("|".join(f"(?P<t{i}>{_term_regex(term)})" for i, term in enumerate(ordered))), ordered


# Glossary nouns that the suite's English also uses as verbs ("MRR judges this stage", "the retriever ranks
# chunks", "grade 0 gains nothing", "kappa discounts the agreement"). A use of one of them counts only where
# it is a noun, which its neighbours tell (is_verb): the glossary names things, and a verb's Chinese is
# another word (评估, 排序), so asking for the noun's name there is a false alarm.
ALSO_VERBS = frozenset({"judge", "rank", "gain", "discount"})
# A word right after one of these is a verb: a subject pronoun, a modal or auxiliary, an adverb.
BEFORE_A_VERB = frozenset("i you we they he she it who can cannot could will would should must may might "
                          "do does did never also then".split())
# A word right after one of these is a noun: a determiner, a number word, a preposition.
BEFORE_A_NOUN = frozenset("a an the this that these those each every any some no its their our your his her "
                          "one two three first last at by of in on per from for with into over under below "
                          "above before after between than".split())
# A verb's object starts with one of these ("judges the whole system", "judge what the generator sees",
# "gains nothing").
OPENS_AN_OBJECT = frozenset("a an the this that these those each every all both any no its their our your "
                            "his her whether what which how nothing something anything everything more less".split())


def is_verb(prose: str, start: int, end: int, nouns: frozenset[str] = frozenset()) -> bool:
    """Whether the word ``prose[start:end]`` is a verb, told by its neighbours on its line (or the next).

    A verb: right after a pronoun, modal or adverb of BEFORE_A_VERB. A noun: right after a determiner,
    number word, preposition or possessive. Otherwise a verb when its object follows: a word that opens
    one, for the -s form also a noun of ``nouns`` or a name ("ranks chunks", "ranks B"); the bare form
    only where a subject can stand before it (nothing, "to", people or a plural), not an adjective ("the
    smallest gain a test detects").

    >>> def verb(text, word): return is_verb(text, text.index(word), text.index(word) + len(word), {"chunks"})
    >>> [verb(t, w) for t, w in [("MRR judges this stage", "judges"), ("when you judge it", "judge"),
    ...                          ("The retriever ranks chunks", "ranks"), ("BLEU ranks B first", "ranks"),
    ...                          ("notes judge the stage", "judge"), ("Judge a gain by", "Judge")]]
    [True, True, True, True, True, True]
    >>> [verb(t, w) for t, w in [("the judges agree", "judges"), ("a query the judge missed", "judge"),
    ...                          ("at rank 3", "rank"), ("LLM judges differ", "judges"), ("at ranks that", "ranks"),
    ...                          ("smallest gain a test detects", "gain"), ("### Exponential gain\\nThe", "gain")]]
    [False, False, False, False, False, False, False]
    """
    line_start = prose.rfind("\n", 0, start) + 1
    heading = prose.startswith("#", line_start)  # a heading ends at its line: the next line is not its object
    gap = r"[ \t]+" if heading else r"(?:[ \t]+|[ \t]*\n[ \t]*)"
    before = re.search(rf"(?:^|\s)([A-Za-z'’]+){gap}$", prose[max(0, start - 60):start])
    after = re.match(rf"{gap}([A-Za-z]+)", prose[end:end + 60])
    before, after = (before.group(1).lower() if before else ""), (after.group(1) if after else "")
    if before in BEFORE_A_VERB:
        return True
    if before in BEFORE_A_NOUN or re.search(r"['’]s?$", before):
        return False
    if not prose[start:end].lower().endswith("s"):  # the bare form: a subject, or nothing, stands before a verb
        return after.lower() in OPENS_AN_OBJECT and (before in ("", "to", "people") or before.endswith("s"))
    return after.lower() in OPENS_AN_OBJECT | nouns or bool(re.fullmatch(r"[A-Z]+", after))


@functools.cache
def _nouns(terms: tuple[Term, ...]) -> frozenset[str]:
    """The one-word glossary terms in lower case, singular and plural (what "ranks chunks" ranks)."""
    words = {term.english.lower() for term in terms if re.fullmatch(r"[A-Za-z]+", term.english)}
    plurals = {word[:-1] + "ies" if word.endswith("y") else word + "s" for word in words}
    return frozenset(words | plurals)


def without_kept_english(markdown: str) -> str:
    """``markdown`` less what an interview card keeps in English word for word: each question line's English
    question and each ``English:`` answer. The glossary rule reads only what is translated.

    >>> card = "**Q1. 召回率是什么？** *(What is recall?)*\\n\\n<details>\\n\\n中文：比例。\\n\\nEnglish: A share.\\n"
    >>> without_kept_english(card + "</details>").split("\\n")
    ['**Q1. 召回率是什么？**', '', '<details>', '', '中文：比例。', '', '', '</details>']
    """
    lines = [f"**Q{match.group(1)}. {match.group('zh')}**" if (match := study_aids.CARD_QUESTION.match(line)) else line
             for line in markdown.split("\n")]
    answer = re.compile(r"^English\s*[：:].*?(?=\n\s*\n|\n</details>|\Z)", re.S | re.M)
    return re.sub(r"<details>.*?</details>", lambda block: answer.sub("", block.group(0)), "\n".join(lines), flags=re.S)


def glossary_uses(english: str, terms: list[Term]) -> dict[str, str]:
    """Each glossary term (its English form) the English uses as a noun, with the words around its first use."""
    english = without_kept_english(english)
    prose = _split_literals(english, LITERALS[:-1])[1]  # cut-offs kept: Recall@5 is a use of Recall@K
    lowered = prose.lower()  # only terms whose first word occurs can match: a much shorter pattern
    candidates = tuple(term for term in terms if _first_word(term) in lowered)
    if not candidates:
        return {}
    pattern, ordered = _terms_regex(candidates)
    uses = {}
    for match in pattern.finditer(prose):
        term = ordered[int(match.lastgroup[1:])]
        if term.english in uses or (term.english in ALSO_VERBS
                                    and is_verb(prose, match.start(), match.end(), _nouns(tuple(terms)))):
            continue
        uses[term.english] = _around(english, match.start(), match.end())
    return uses


def _around(text: str, start: int, end: int, width: int = 24) -> str:
    """The words of ``text`` around ``text[start:end]``, on one line, marked with … where cut."""
    left = re.sub(r"^\S*\s", "", text[max(0, start - width):start]) if start > width else text[:start]
    right = re.sub(r"\s\S*$", "", text[end:end + width]) if end + width < len(text) else text[end:]
    shown = " ".join(f"{left}{text[start:end]}{right}".split())
    return f"{'…' * (start > width)}{shown}{'…' * (end + width < len(text))}"


def glossary_problems(english: str, chinese: str, terms: list[Term], exempt: set[str] = frozenset()) -> list[str]:
    """Glossary terms the English uses whose Chinese name the translation lacks (longest term wins).

    >>> terms = [Term("query", frozenset({"查询"}), False), Term("query rewriting", frozenset({"查询改写"}), False)]
    >>> glossary_problems("Query rewriting helps.", "查询改写有用。", terms)
    []
    >>> glossary_problems("Two queries.", "两个问题。", terms)
    ['glossary: \\'query\\' is used in the English ("Two queries."), but the translation has none of 查询']
    """
    problems = []
    for name, where in sorted(glossary_uses(english, terms).items()):
        same = [term for term in terms if term.english == name]  # "chunk" has two rows
        names = frozenset().union(*(term.chinese for term in same))
        stays = any(term.may_stay and re.search(_term_regex(term), chinese) for term in same)
        if name not in exempt and not stays and not any(zh in chinese for zh in names):
            problems.append(f"glossary: {name!r} is used in the English (\"{where}\"), but the translation has "
                            f"none of {', '.join(sorted(names))}")
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
            problems.append(f"cards: Q{number}'s question line must keep its number and its English question "
                            f"(Q{number}, {quoted(question)}; the translation has Q{their_number}, "
                            f"{quoted(their_question)})")
        if their_answer != answer:
            problems.append(f"cards: Q{number}'s English answer must stay word for word "
                            f"({changed(answer, their_answer)})")
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
    """(English, 中文, short meaning) of each row of ``docs/glossary.md``'s table, every term included
    (a name kept as it is, such as METEOR, has no Chinese in its 中文 cell but a meaning to translate)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        header = cells[1:2] == ["中文"] or set("".join(cells)) <= set("-: ")
        if line.startswith("|") and len(cells) == 3 and not header:
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


class Pages(NamedTuple):
    """The notebooks the study aids read, each as this build writes it: a Chinese page the build writes is
    read from its text (so the first build after a catalogue leaves the pending list, or after a title or
    a card changes, is right at once), any other page from disk. The readers (``reading_time.title``,
    ``reading_time.reading_time``, ``study_aids.parse_cards``) take a file: a page built now is copied into
    ``folder`` under its own name, once."""
    built: dict[Path, str]  # page -> the text the build writes
    folder: Path | None = None  # a temporary folder, needed only when ``built`` is not empty

    def file(self, page: Path) -> Path:
        text = self.built.get(page)
        if text is None:
            return page
        copy = self.folder / page.name
        if not copy.exists():
            copy.write_text(text, encoding="utf-8")
        return copy


ON_DISK = Pages({})


def cheatsheet_zh(paths: Paths, translations: dict[str, str], links: Links, pages: Pages = ON_DISK) -> str:
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
        short = reading_time.title(pages.file(page)).split(" · ")[0]
        link = f"[{row.notebook[:2]} · {study_aids._cell(short)}]({study_aids._relative(page, paths.docs)})"
        cells = [row.metric, f"<code>{study_aids._cell(row.formula)}</code>",
                 *(study_aids._cell(text[field]) for field in CHEATSHEET_FIELDS), link]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def deck_zh(paths: Paths, links: Links, pages: Pages = ON_DISK) -> str:
    """Every interview card, from the Chinese notebook where there is one (cards are bilingual anyway)."""
    chosen = [_page(paths, path.stem, links) for path in reading_time.notebooks(paths.notebooks)]
    groups = [(page, cards) for page in chosen if (cards := study_aids.parse_cards(pages.file(page)))]
    total = sum(len(cards) for _, cards in groups)
    lines = ["# 面试题卡 · Interview deck", "",
             f"{GENERATED_ZH}这里收录每个笔记本的全部面试题，共 {total} 张，来自 {len(groups)} 个笔记本，"
             "按阅读顺序排列。先自己大声回答，再展开答案；↗ 通向题目在笔记本中所在的小节。"
             "每个指标一行的速查：[指标速查表](cheatsheet.zh-CN.md)。"]
    def title(page: Path) -> str:  # the title of the page as this build writes it
        return reading_time.title(pages.file(page))

    return "\n".join(lines + study_aids.deck_sections(groups, paths.docs, title)) + "\n"


def glossary_zh(paths: Paths, translations: dict[str, str]) -> str:
    lines = ["# 术语表 · Glossary", "",
             f"{GENERATED_ZH}每个笔记本在术语第一次出现时给出它的中文名，取自本表，之后沿用。"
             "英文版：[glossary.md](glossary.md)。", "",
             "| 中文 | English | 简要说明 |", "|---|---|---|"]
    for english, chinese, _ in glossary_rows(paths.docs / "glossary.md"):
        lines.append(f"| {chinese} | {english} | {translations[f'glossary {english}']} |")
    return "\n".join(lines) + "\n"


def reading_table(paths: Paths, translations: dict[str, str], links: Links, pages: Pages = ON_DISK) -> str:
    """The Chinese README's notebook table: each notebook's minutes as the Chinese page reads.

    Same formula as the English table (scripts/reading_time.py: Chinese characters at 400 a minute);
    a notebook not translated yet is timed and linked in English, and says so.
    """
    rows = ["| # | 笔记本 | 学什么 | 主线 | 全部 |", "|---|---|---|--:|--:|"]
    for path in reading_time.notebooks(paths.notebooks):
        number, page = path.name[:2], _page(paths, path.stem, links)
        time = reading_time.reading_time(pages.file(page))
        teaches = translations.get(f"readme {number}", reading_time.TEACHES.get(number, ""))
        note = "" if page.parent == paths.zh else "（英文，翻译中）"
        link = Path(os.path.relpath(page, paths.root)).as_posix()
        title = reading_time.title(pages.file(page))
        rows.append(f"| {number} | [{reading_time._cell(title)}]({link}){note} | "
                    f"{reading_time._cell(teaches)} | {time.main.minutes:.0f} 分钟 | {time.total.minutes:.0f} 分钟 |")
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- the exercises' texts
EXERCISES = "exercises"  # i18n/zh_CN/exercises/<exercise>.po; checker.po for the checker's sentences
CHECKER = "checker"


def exercise_items(paths: Paths) -> list[str]:
    """The exercise catalogues started ("exercises/q00_which_metric", "exercises/checker").

    An exercise without one prints in English (ragmetrics_lite/course/exercises/_language.py): it is not
    stale, only not translated, so there is no pending list for exercises; a started one must be complete.
    """
    folder = paths.i18n / EXERCISES
    return sorted(f"{EXERCISES}/{path.stem}" for path in folder.glob("*.po")) if folder.is_dir() else []


def exercise_units(name: str) -> tuple[list[Unit], str]:
    """The units of an exercise item (its texts, or the checker's sentences), and where problems name them."""
    from ragmetrics_lite.course.exercises import REGISTRY, _language
    short = name.removeprefix(f"{EXERCISES}/")
    if short == CHECKER:
        return ([Unit(f"{CHECKER} {key}", text, CHECKER, "template") for key, text in _language.TEMPLATES.items()],
                "ragmetrics_lite/course/exercises/_language.py")
    if short not in REGISTRY:
        raise ValueError(f"zh_edition: {short!r} is no exercise of ragmetrics_lite.course.exercises.REGISTRY")
    return ([Unit(f"{short} {field}", text, short, "exercise") for field, text in REGISTRY[short].texts()],
            f"ragmetrics_lite/course/exercises/{short}.py")


def _english_exercises(paths: Paths) -> list[str]:
    """The exercises that print in English for want of a catalogue (--check says so on stderr)."""
    from ragmetrics_lite.course.exercises import REGISTRY
    return sorted(set(REGISTRY) - {name.removeprefix(f"{EXERCISES}/") for name in exercise_items(paths)})


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


def read_item(paths: Paths, name: str, units: list[Unit], where: str, terms: list[Term] | None) -> Item:
    """An item's current translations, and every problem of its catalogue: missing, stale or broken entries
    (the rules of a translation only with ``terms``: --check NN skips them for the notebooks not named)."""
    catalogue = read_catalogue(paths.catalogue(name))
    found, problems = translations_of(units, catalogue, where, _update_command(name))
    entries = {entry.msgctxt: entry for entry in catalogue or [] if not entry.obsolete}
    quality = [f"{where}, {_label(unit)}: {problem}" for unit in units if unit.context in found
               for problem in quality_problems(unit, entries[unit.context], terms)] if terms is not None else []
    return Item(name, where, units, found, problems, quality)


class Edition(NamedTuple):
    files: dict[Path, str]           # every file the build writes, with its text
    problems: dict[str, list[str]]   # what --check reports, by item ("" for the pending list itself)
    pending: list[str]
    owned: set[Path]                 # the files it makes once every catalogue not pending is complete


def _read_items(paths: Paths, waiting: list[str], checked: frozenset[str] | None) -> tuple[dict, list[Item]]:
    """The English notebooks read, and the items: every one not pending, and the pending ones in ``checked``.

    The rules of a translation are checked for the items in ``checked`` (for all when it is None).
    """
    english = {path.stem: path for path in reading_time.notebooks(paths.notebooks)}
    terms = glossary_terms(paths.docs / "glossary.md")
    wanted = [name for name in [*english, DOCS_ITEM] if name not in waiting or name in (checked or ())]
    rules = {name: terms if checked is None or name in checked else None for name in wanted}
    notebooks = {stem: nbformat.read(english[stem], as_version=4) for stem in wanted if stem != DOCS_ITEM}
    items = [read_item(paths, stem, notebook_units(notebook), f"notebooks/{stem}.ipynb", rules[stem])
             for stem, notebook in notebooks.items()]
    if DOCS_ITEM in wanted:
        items.append(read_item(paths, DOCS_ITEM, docs_units(paths), f"i18n/zh_CN/{DOCS_ITEM}.po", rules[DOCS_ITEM]))
    for name in sorted(set(exercise_items(paths)) | {name for name in checked or () if _is_exercise(name)}):
        units, where = exercise_units(name)
        items.append(read_item(paths, name, units, where, terms if checked is None or name in checked else None))
    return notebooks, items


def _is_exercise(name: str) -> bool:
    return name.startswith(f"{EXERCISES}/")


def edition(paths: Paths = Paths(ROOT), checked: frozenset[str] | None = None) -> Edition:
    """What the build would write, and every problem, without writing anything (``checked``: _read_items)."""
    waiting = pending(paths)
    known = {path.stem for path in reading_time.notebooks(paths.notebooks)} | {DOCS_ITEM}
    problems = {"": [f"i18n/zh_CN/pending.txt: {name!r} is neither a notebook nor {DOCS_ITEM!r}"
                     for name in waiting if name not in known]}
    notebooks, items = _read_items(paths, waiting, checked)
    built = [item for item in items if item.name not in waiting and not _is_exercise(item.name)]  # have pages
    anchors = {item.name: anchor_map([(unit.text, item.translations[unit.context]) for unit in item.units
                                      if unit.kind == "markdown" and unit.context in item.translations])
               for item in built}
    # A Chinese page to link to: one this build writes (its catalogue is complete), or one on disk already.
    linked = [item.name for item in built if not item.problems or (paths.zh / f"{item.name}.ipynb").exists()]
    links = Links(paths, frozenset(linked), anchors)
    files = {}
    for item in items:
        problems[item.name] = item.problems + item.quality
        if item.problems or item.name == DOCS_ITEM or item.name in waiting or _is_exercise(item.name):
            continue
        chinese = translated_notebook(notebooks[item.name], item.translations, item.name, links)
        problems[item.name] += [f"{item.where}, {problem}" for problem in long_lines(chinese)]
        files[paths.zh / f"{item.name}.ipynb"] = notebook_text(chinese)
    with tempfile.TemporaryDirectory() as folder:  # the study aids read the pages as just built, not from disk
        files.update(_study_aids(paths, built, links, Pages(dict(files), Path(folder))))
    owned = {paths.zh / f"{stem}.ipynb" for stem in notebooks if stem not in waiting}
    owned |= {paths.docs / f"{name}.zh-CN.md" for name in ZH_DOCS} if DOCS_ITEM not in waiting else set()
    return Edition(files, problems, waiting, owned | set(files))


def _study_aids(paths: Paths, items: list[Item], links: Links, pages: Pages) -> dict[Path, str]:
    """The Chinese study aids (when docs.po is complete) and the Chinese README's table (when it exists),
    from the Chinese pages as ``pages`` has them (as this build writes them)."""
    docs = next((item for item in items if item.name == DOCS_ITEM), None)
    translations = docs.translations if docs is not None else {}
    files = {}
    if docs is not None and not docs.problems:
        files[paths.docs / "cheatsheet.zh-CN.md"] = cheatsheet_zh(paths, translations, links, pages)
        files[paths.docs / "interview.zh-CN.md"] = deck_zh(paths, links, pages)
        files[paths.docs / "glossary.zh-CN.md"] = glossary_zh(paths, translations)
    readme = paths.root / README_ZH
    if readme.exists() and reading_time.BEGIN in readme.read_text(encoding="utf-8"):
        table = reading_table(paths, translations, links, pages)
        files[readme] = reading_time.replace_table(readme.read_text(encoding="utf-8"), table)
    return files


def stale_files(paths: Paths, result: Edition) -> tuple[list[Path], list[Path]]:
    """(generated files that differ from the build or are missing, generated files the build does not make)."""
    stale = [path for path, text in result.files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    made = set(paths.zh.glob("*.ipynb")) | {paths.docs / f"{name}.zh-CN.md" for name in ZH_DOCS}
    orphans = sorted(path for path in made if path.exists() and path not in result.owned)
    return stale, orphans


def page_differences(path: Path, text: str) -> list[str]:
    """How a generated file differs from ``text``, what the build writes: for a notebook, cell by cell."""
    if not path.exists():
        return ["missing"]
    old = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return [f"differs from what the build writes ({changed(old, text)})"]
    try:
        before = {cell.get("id"): cell for cell in nbformat.reads(old, as_version=4).cells}
    except Exception as error:  # anything nbformat refuses: the build rewrites it whole
        return [f"nbformat cannot read it ({type(error).__name__}); the build rewrites it"]
    cells = nbformat.reads(text, as_version=4).cells
    found = [f"cell {cell.get('id')} ({cell.cell_type}): " + (
        _cell_difference(before[cell.get("id")], cell) if cell.get("id") in before else "missing")
             for cell in cells if before.get(cell.get("id")) != cell]
    found += [f"cell {cell_id}: not in the build" for cell_id in before.keys() - {cell.get("id") for cell in cells}]
    return found or ["differs from what the build writes in its metadata or cell order"]


def _cell_difference(before, after) -> str:
    """What changed in a generated cell: only link targets (a linked page was translated since), or text."""
    old, new = _source(before), _source(after)
    if old == new:
        return "its outputs or metadata differ from the English notebook's (was it re-executed?)"
    targets = [(a, b) for a, b in zip(LINK_TARGET.findall(old), LINK_TARGET.findall(new)) if a != b]
    if LINK_TARGET.sub("", old) == LINK_TARGET.sub("", new) and targets:
        moved = ", ".join(f"{a[1]} → {b[1]}" for a, b in targets)
        return (f"links {moved}: a page it links to has been translated, or went back to pending, since this "
                "page was built")
    return f"its text differs from what the build writes ({changed(old, new)})"


# --------------------------------------------------------------------------- commands
def resolve(paths: Paths, names: list[str]) -> list[str]:
    """Notebook stems (or DOCS_ITEM) for names given as stems or two-digit numbers; ValueError for others."""
    english = [path.stem for path in reading_time.notebooks(paths.notebooks)]
    found = []
    for name in names:
        stem = next((stem for stem in english if stem == name or stem[:2] == name), name)
        if re.fullmatch(rf"(?:{EXERCISES}/)?(?:q\d\d_\w+|{CHECKER})", stem):
            stem = f"{EXERCISES}/{stem.removeprefix(f'{EXERCISES}/')}"
            exercise_units(stem)  # ValueError for a name that is no exercise
        elif stem != DOCS_ITEM and stem not in english:
            raise ValueError(f"zh_edition: {name!r} is neither a notebook (stem or number), {DOCS_ITEM!r}, an "
                             f"exercise (q00_which_metric) nor {CHECKER!r}")
        found.append(stem)
    return found


def update(paths: Paths, names: list[str]) -> int:
    """Start or refresh catalogues (every one not pending, and every existing one, when none is named)."""
    english = {path.stem: path for path in reading_time.notebooks(paths.notebooks)}
    if not names:
        existing = {path.stem for path in paths.i18n.glob("*.po")}
        names = sorted(existing | ({*english, DOCS_ITEM} - set(pending(paths)))) + exercise_items(paths)
    try:
        stems = resolve(paths, names)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    for stem in stems:
        if _is_exercise(stem):
            units, where = exercise_units(stem)
        else:
            units = (docs_units(paths) if stem == DOCS_ITEM
                     else notebook_units(nbformat.read(english[stem], as_version=4)))
            where = "docs" if stem == DOCS_ITEM else f"notebooks/{stem}.ipynb"
        catalogue = merge(units, read_catalogue(paths.catalogue(stem)), where)
        paths.catalogue(stem).parent.mkdir(parents=True, exist_ok=True)
        catalogue.save(str(paths.catalogue(stem)))
        active = [entry for entry in catalogue if not entry.obsolete]
        fuzzy = sum("fuzzy" in entry.flags for entry in active)
        done = sum(bool(entry.msgstr) and "fuzzy" not in entry.flags for entry in active)
        print(f"i18n/zh_CN/{stem}.po: {len(active)} entries, {done} translated, {fuzzy} fuzzy, "
              f"{len(active) - done - fuzzy} untranslated")
    return 0


def _shown(paths: Paths, path: Path) -> str:
    return path.relative_to(paths.root).as_posix() if path.is_relative_to(paths.root) else str(path)


def _files_of(paths: Paths, names: list[str]) -> set[Path]:
    """The generated files that belong to the named items: a notebook's Chinese page; docs' study aids."""
    files = {paths.zh / f"{name}.ipynb" for name in names if name != DOCS_ITEM and not _is_exercise(name)}
    if DOCS_ITEM in names:
        files |= {paths.docs / f"{name}.zh-CN.md" for name in ZH_DOCS} | {paths.root / README_ZH}
    return files


def report_files(paths: Paths, result: Edition, stale: list[Path], orphans: list[Path]) -> None:
    """--check's lines for generated files: each stale one with what differs (at most 5 cells), each orphan."""
    for path in stale:
        shown, differences = _shown(paths, path), page_differences(path, result.files[path])
        if differences == ["missing"]:
            print(f"{shown}: missing; run python scripts/zh_edition.py")
            continue
        print(f"{shown}: differs from what the build writes; run python scripts/zh_edition.py")
        for difference in differences[:5]:
            print(f"{shown}{', ' if difference.startswith('cell ') else ': '}{difference}")
        if len(differences) > 5:
            print(f"{shown}: and {len(differences) - 5} more cells")
    for path in orphans:
        print(f"{_shown(paths, path)}: its English is gone or its catalogue is pending; the build deletes it")


def check_or_build(paths: Paths, check: bool, chosen: list[str] | None = None) -> int:
    """--check: report, write nothing (on the ``chosen`` items' catalogues and pages only, when given).
    Build: write what is complete, delete what has no source, report the rest."""
    result = edition(paths, frozenset(chosen) if chosen else None)
    stale, orphans = stale_files(paths, result)
    if chosen:
        mine = _files_of(paths, chosen)
        stale, orphans = [path for path in stale if path in mine], [path for path in orphans if path in mine]
    problems = [problem for name, found in result.problems.items() if not chosen or not name or name in chosen
                for problem in found]
    for problem in problems:
        print(problem)
    if check:
        report_files(paths, result, stale, orphans)
    else:
        for path in stale:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(result.files[path], encoding="utf-8")
            print(f"{_shown(paths, path)}: written")
        for path in orphans:
            path.unlink()
            print(f"{_shown(paths, path)}: deleted")
    _report_pending(paths, result.pending, chosen)
    return 1 if problems or (check and (stale or orphans)) else 0


def _report_pending(paths: Paths, waiting: list[str], chosen: list[str] | None) -> None:
    """On stderr: the catalogues pending, or which of the named ones are (checked, but no page is built)."""
    named = [name for name in chosen or () if name in waiting]
    if named:
        print(f"zh_edition: {', '.join(named)} pending (i18n/zh_CN/pending.txt): the catalogue is checked; its "
              "page is built once its line is deleted there", file=sys.stderr)
    elif waiting and not chosen:
        print(f"zh_edition: {len(waiting)} catalogues pending (i18n/zh_CN/pending.txt): "
              f"{', '.join(waiting)}", file=sys.stderr)
    if not chosen and (english := _english_exercises(paths)):
        print(f"zh_edition: {len(english)} exercises print in English, with no catalogue in "
              f"i18n/zh_CN/{EXERCISES}/ (start one with --update NAME): {', '.join(english)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", nargs="*", metavar="NN",
                        help="exit 1 naming each problem, write nothing; with notebook numbers or stems (or "
                             "'docs'), only their catalogues and pages, pending or not")
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
        built = {path: text for path, text in result.files.items() if path.parent == paths.zh}
        translated = frozenset(path.stem for path in result.owned
                               if path.parent == paths.zh and (path in built or path.exists()))
        with tempfile.TemporaryDirectory() as folder:  # the pages as the build writes them
            print(reading_table(paths, translations, Links(paths, translated, {}), Pages(built, Path(folder))), end="")
        return 0
    try:
        chosen = resolve(paths, args.check) if args.check else None
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return check_or_build(paths, args.check is not None, chosen)


if __name__ == "__main__":
    sys.exit(main())
