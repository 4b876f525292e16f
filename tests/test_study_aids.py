"""Study aids (scripts/study_aids.py): the committed cheat sheet and interview deck equal a fresh
generation, every public metric has a row (its card), every interview card of every notebook is in
the deck, and what the generator cannot use (a public function without a card or a reason, a card
for no function, a malformed interview card) stops it. The cards themselves: tests/test_cards.py."""
from __future__ import annotations

import doctest
import functools
import json
import re
import sys
import types
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

import nbformat
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import cards
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
study_aids = load_script(ROOT / "scripts" / "study_aids.py", "study_aids")
NOTEBOOKS = study_aids.reading_time.notebooks(ROOT / "notebooks")
CHEATSHEET = (DOCS / "cheatsheet.md").read_text(encoding="utf-8")
DECK = (DOCS / "interview.md").read_text(encoding="utf-8")
StudyAidsError = study_aids.StudyAidsError


# --- the committed files ----------------------------------------------------------------------

def test_committed_files_equal_a_fresh_generation():
    fresh = study_aids.generate()
    for name, text in fresh.items():
        committed = (DOCS / name).read_text(encoding="utf-8")
        assert committed == text, f"docs/{name} is stale: run python scripts/study_aids.py and commit it"


def test_check_flags_a_stale_or_missing_file_and_names_it(tmp_path, capsys):
    assert study_aids.main(["--docs", str(tmp_path)]) == 0  # writes both files there
    assert study_aids.main(["--check", "--docs", str(tmp_path)]) == 0
    deck = tmp_path / "interview.md"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Q1.", "Q1 (edited by hand).", 1), encoding="utf-8")
    capsys.readouterr()
    assert study_aids.main(["--check", "--docs", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "interview.md is stale" in out and "cheatsheet.md" not in out
    (tmp_path / "cheatsheet.md").unlink()
    assert study_aids.main(["--check", "--docs", str(tmp_path)]) == 1
    assert "cheatsheet.md is stale" in capsys.readouterr().out


def test_the_scripts_doctests_pass():
    assert doctest.testmod(study_aids).failed == 0


def test_readme_links_both_files():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("docs/cheatsheet.md", "docs/interview.md"):
        assert f"]({name})" in readme, f"README.md has no link to {name}"


def _relative_links(markdown: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)", markdown) if not re.match(r"^[a-z]+:", t)]


@pytest.mark.parametrize("name", ["cheatsheet.md", "interview.md"])
def test_every_relative_link_resolves(name):
    """Files exist (from docs/), and a link to a heading names a heading of that notebook."""
    text = (DOCS / name).read_text(encoding="utf-8")
    for target in _relative_links(text):
        path, _, fragment = target.partition("#")
        resolved = (DOCS / path).resolve() if path else DOCS / name
        assert resolved.exists(), f"docs/{name}: broken link {target}"
        if fragment and resolved.suffix == ".ipynb":
            notebook = nbformat.read(resolved, as_version=4)
            anchors = {study_aids.heading_anchor(m.group(2))
                       for cell in notebook.cells if cell.cell_type == "markdown"
                       for m in map(study_aids.HEADING.match, cell.source.splitlines()) if m}
            assert unquote(fragment) in anchors, f"docs/{name}: {target} names no heading of {resolved.name}"


# --- every public metric has a row ------------------------------------------------------------

def _row_labels() -> list[str]:
    rows = [line for line in CHEATSHEET.splitlines() if line.startswith("| `")]
    return [line.split(" | ")[0] for line in rows]


def test_every_public_metric_has_a_row():
    labels = " ".join(_row_labels())
    functions = study_aids.public_functions(rml)
    assert {"bleu", "rouge_l", "meteor", "cohens_kappa", "recall_at_k"} <= set(functions)
    for name in functions:
        if name not in cards.not_metrics():
            assert f"`{name}`" in labels, f"{name} has no row in docs/cheatsheet.md"
    for name, metric in rml.METRICS.items():
        assert re.search(rf"`{name}[`@,]", labels), f"METRICS[{name!r}] has no row in docs/cheatsheet.md"


def test_the_rows_are_the_cards_in_notebook_order():
    rows = study_aids.metric_rows()
    assert len(rows) == len(cards.metric_cards()) == 26
    assert [row.notebook for row in rows] == sorted(row.notebook for row in rows)
    assert rows[0] == study_aids.Row("`recall@k` (`recall_at_k`)", "|relevant ∩ top-k| / |relevant|", "[0, 1]",
                                     *[cards.metric_cards()["recall_at_k"][field]
                                       for field in ("compares", "misses", "use_when", "notebook")])


def test_rows_have_every_field_and_a_notebook_link():
    rows = [line for line in CHEATSHEET.splitlines() if line.startswith("| `")]
    assert len(rows) == len(study_aids.metric_rows())
    for row in rows:
        cells = re.split(r"(?<!\\)\|", row)[1:-1]
        assert len(cells) == 7 and all(cell.strip() for cell in cells), row
        assert re.fullmatch(r" \[\d\d · .+\]\(\.\./notebooks/\d\d_\w+\.ipynb\) ", cells[-1]), row


# --- what the generator refuses ---------------------------------------------------------------

METRIC_CARD = {"notebook": "01_recall_at_k", "formula": "a / b", "range": "[0, 1]", "compares": "a with b",
        "misses": "c", "use_when": "e"}


def _fake_package(**functions) -> types.ModuleType:
    package = types.ModuleType("fake_ragmetrics")
    for name, function in functions.items():
        setattr(package, name, function)
    package.__all__ = list(functions)
    package.METRICS = {}
    return package


def _function(name: str) -> types.FunctionType:
    def function():
        return 0.0
    function.__name__ = function.__qualname__ = name
    return function


def _rows(package, cards=None, reasons=None):
    return study_aids.metric_rows(package, {} if cards is None else cards, {} if reasons is None else reasons)


def test_a_card_gives_its_function_a_row():
    (row,) = _rows(_fake_package(fake_metric=_function("fake_metric")), {"fake_metric": METRIC_CARD})
    assert row == study_aids.Row("`fake_metric`", "a / b", "[0, 1]", "a with b", "c", "e", "01_recall_at_k")


def test_a_new_public_function_without_a_card_or_a_reason_is_an_error():
    with pytest.raises(StudyAidsError, match=r"fake_metric is a public function with neither a card"):
        _rows(_fake_package(fake_metric=_function("fake_metric")))


def test_a_metric_in_a_listed_subpackage_is_caught_too():
    """As the triad's functions: ``ragmetrics_lite.__all__`` names the subpackage ``triad``."""
    sub = types.ModuleType("fake_ragmetrics.triad")
    sub.faithfulness_fake = _function("faithfulness_fake")
    sub.__all__ = ["faithfulness_fake"]
    package = _fake_package()
    package.triad, package.__all__ = sub, ["triad"]
    with pytest.raises(StudyAidsError, match="faithfulness_fake is a public function"):
        _rows(package)


def test_a_function_with_a_reason_needs_no_card():
    assert _rows(_fake_package(fake_helper=_function("fake_helper")), reasons={"fake_helper": "a helper"}) == []


@pytest.mark.parametrize("cards, reasons, phrase", [
    ({"gone_metric": METRIC_CARD}, {}, "the card [gone_metric] names no public function"),
    ({}, {"gone_helper": "a helper"}, "not_metrics.toml: gone_helper is not a public function"),
    ({"fake_metric": METRIC_CARD}, {"fake_metric": "a helper"}, "fake_metric has a card and a reason"),
])
def test_cards_and_reasons_name_each_public_function_once(cards, reasons, phrase):
    with pytest.raises(StudyAidsError, match=re.escape(phrase)):
        _rows(_fake_package(fake_metric=_function("fake_metric")), cards, reasons)


class _TableEntry(NamedTuple):
    """A ``METRICS`` entry as the generator reads it: a cut-off and a per-query function."""

    cutoff: str
    per_query: object


def test_a_retrieval_row_is_named_as_evaluate_takes_it():
    package = _fake_package(fake_at_k=_function("fake_at_k"), fake_rank=_function("fake_rank"))
    package.METRICS = {"fake": _TableEntry("required", package.fake_at_k),
                       "fake_rank": _TableEntry("optional", functools.wraps(package.fake_rank)(lambda: 0.0))}
    rows = _rows(package, {"fake_at_k": METRIC_CARD, "fake_rank": METRIC_CARD})
    assert [row.metric for row in rows] == ["`fake@k` (`fake_at_k`)", "`fake_rank, fake_rank@k`"]


def test_a_metric_of_evaluate_without_a_card_is_an_error():
    package = _fake_package(fake_at_k=_function("fake_at_k"))
    package.METRICS = {"fake": _TableEntry("required", package.fake_at_k)}
    with pytest.raises(StudyAidsError, match="METRICS computes fake_at_k per query, which has no card"):
        _rows(package, reasons={"fake_at_k": "not a metric after all"})


def test_every_metric_of_evaluate_has_a_card():
    labels = study_aids.evaluate_labels(rml.METRICS)
    assert len(labels) == len(rml.METRICS) and set(labels) <= set(cards.metric_cards())


def test_a_row_naming_a_missing_notebook_is_an_error():
    (row,) = _rows(_fake_package(fake_metric=_function("fake_metric")), {"fake_metric": METRIC_CARD})
    with pytest.raises(StudyAidsError, match="99_nowhere"):
        study_aids.cheatsheet([row._replace(notebook="99_nowhere")], ROOT / "notebooks")


# --- every interview card is in the deck ------------------------------------------------------

def _deck_sections() -> dict[str, str]:
    """Notebook file name -> the deck's text for it."""
    parts = re.split(r"^## \[\d\d · .*\]\(\.\./notebooks/(\S+\.ipynb)\)$", DECK, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_card_of_the_notebook_is_parsed_and_in_the_deck(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    raw_cards = len(re.findall(r"<details", markdown))
    cards = study_aids.parse_cards(path)  # raises on a card it cannot read
    assert len(cards) == raw_cards, f"{path.name}: {raw_cards} <details> blocks but {len(cards)} cards parsed"
    section = _deck_sections().get(path.name, "")
    assert section.count("<details><summary>Answer · 答案</summary>") == len(cards)
    for line in markdown.splitlines():
        if line.startswith("**Q"):
            assert f"\n{line.strip()} [↗](" in section, f"{path.name}: {line!r} is not in the deck"
    for card in cards:
        assert card.answer in section


def test_the_deck_follows_notebook_order():
    with_cards = [p.name for p in NOTEBOOKS if study_aids.parse_cards(p)]
    assert list(_deck_sections()) == with_cards
    assert len(with_cards) >= 15


def _notebook(tmp_path: Path, *markdown: str) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(text) for text in markdown]
    path = tmp_path / "99_fake.ipynb"
    nbformat.write(notebook, path)
    return path


CARD = """## 8. Interview cards

**Q1. 为什么？** *(Why?)*

<details><summary>Answer · 答案</summary>

中文：因为。

English: because, see [10](10_rouge_l.ipynb).

</details>
"""


def test_a_well_formed_card_is_read_with_its_heading(tmp_path):
    (card,) = study_aids.parse_cards(_notebook(tmp_path, CARD))
    assert (card.number, card.question, card.heading) == (1, "**Q1. 为什么？** *(Why?)*", "8. Interview cards")
    assert card.answer.startswith("中文：因为。") and card.answer.endswith("(10_rouge_l.ipynb).")
    relinked = study_aids._relink(card.answer, tmp_path / "notebooks" / "99_fake.ipynb", tmp_path / "docs")
    assert "(../notebooks/10_rouge_l.ipynb)" in relinked


@pytest.mark.parametrize("edit, phrase", [
    (lambda s: s.replace("<details><summary>Answer · 答案</summary>", "<details>"), "is not followed by"),
    (lambda s: s.replace("</details>", ""), "has no closing </details>"),
    (lambda s: s.replace("English:", "In English,"), "has no 'English:' paragraph"),
    (lambda s: s.replace("中文：", ""), "has no '中文:' paragraph"),
    (lambda s: s.replace("**Q1. 为什么？** *(Why?)*", "**Q1. 为什么？ (Why?)**"), "cannot read the question line"),
    (lambda s: s.replace("**Q1. 为什么？** *(Why?)*", "**Why?**"), "a <details> block without a question line"),
])
def test_a_card_the_parser_cannot_read_is_an_error(tmp_path, edit, phrase):
    with pytest.raises(StudyAidsError, match=re.escape(phrase)) as error:
        study_aids.parse_cards(_notebook(tmp_path, edit(CARD)))
    assert "99_fake.ipynb, cell" in str(error.value)


def test_the_generator_runs_in_a_fresh_interpreter():
    """The command-line entry point, as the README's maintainers run it."""
    import subprocess

    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "study_aids.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_cheat_sheet_renders_as_one_table_of_seven_columns():
    """Rendered by mistune (nbconvert's Markdown parser): no cell split by a pipe, no stray escape."""
    mistune = pytest.importorskip("mistune")
    html = mistune.create_markdown(plugins=["table"], escape=False)(CHEATSHEET)
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 1 + len(study_aids.metric_rows())
    assert {len(re.findall(r"<t[dh][ >]", row)) for row in rows} == {7}
    assert "\\" not in html and "<em>" not in html
