"""What notebook 18 (the capstone) says about significance and shows on a slide, checked on its own.

* Section 6's sign-flip test is exact: on the held-out half only 7 queries change, so all 2**7 = 128
  sign patterns are counted (a tie flips to itself), and the stored p is that exact p (0.094), not a
  Monte Carlo estimate from random flips.
* Its bootstrap interval follows ``alpha``: the notebook run with ``alpha = 0.1`` prints a 90 %
  interval, the one ``rml.bootstrap_ci`` gives at confidence 0.9, labelled as such.
* A p-value above alpha beside an interval that excludes 0 is explained as two different questions
  (the test weighs chance, the bootstrap resamples the observed differences), not only as an interval
  "a little too narrow".
* Section 8's end-to-end picture reads when projected: every text at least 10 pt on a figure at most
  11 inches wide (no 7-point legend under 48 bars).

The last two run the notebook once, with ``alpha = 0.1``, up to that picture.
"""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest

import ragmetrics_lite as rml
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "18_capstone_golden_set.ipynb"
GOLDEN = ROOT / "data" / "golden_set"
harness = load_script(ROOT / "scripts" / "run_parameter_sets.py", "run_parameter_sets")

# Record every figure a cell shows: the cell's source, the figure's width, each visible text's size.
RECORD_FIGURES = """\
import matplotlib.pyplot as _plt
from matplotlib.text import Text as _Text
_figures_shown = []
_show = _plt.show


def _record_and_show(*args, **kwargs):
    figure = _plt.gcf()
    texts = [t for t in figure.findobj(_Text) if t.get_visible() and t.get_text().strip()]
    _figures_shown.append({"source": get_ipython().user_ns["In"][-1], "width": figure.get_figwidth(),
                           "sizes": {t.get_text(): t.get_fontsize() for t in texts}})
    return _show(*args, **kwargs)


_plt.show = _record_and_show
"""


def source(cell) -> str:
    return cell.source if isinstance(cell.source, str) else "".join(cell.source)


def stream_text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def code_cell_calling(notebook, call: str) -> int:
    """Index of the first code cell whose source contains ``call``."""
    found = [i for i, c in enumerate(notebook.cells) if c.cell_type == "code" and call in source(c)]
    assert found, f"no code cell of {NOTEBOOK.name} calls {call}"
    return found[0]


def end_to_end_picture(notebook) -> int:
    """Index of the cell that draws section 8's scores (it reads ``e2e`` and shows a figure)."""
    found = [i for i, c in enumerate(notebook.cells) if c.cell_type == "code"
             and re.search(r"\be2e\b", source(c)) and "plt.show()" in source(c)]
    assert found, f"no cell of {NOTEBOOK.name} draws the end-to-end scores"
    return found[0]


def heldout_mrr_differences() -> np.ndarray:
    """Per-query MRR, candidate minus baseline, on the held-out half, from the committed files."""
    qrels = rml.read_qrels(GOLDEN / "qrels.txt")
    lines = (GOLDEN / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    heldout = sorted(q["query_id"] for q in map(json.loads, lines) if q["split"] == "heldout")
    mrr = {}
    for name in ("bm25_jieba", "bm25_synonyms_recency"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rml.RagMetricsWarning)
            table = rml.evaluate(qrels, rml.read_run(GOLDEN / "runs" / f"{name}.run"), ["mrr"], relevance_level=2)
        mrr[name] = table["mrr"].loc[heldout].to_numpy()
    return mrr["bm25_synonyms_recency"] - mrr["bm25_jieba"]


@pytest.fixture(scope="module")
def with_alpha_01():
    """The notebook run with alpha = 0.1 up to its end-to-end picture, and the figures it showed."""
    notebook = harness.inject(nbformat.read(NOTEBOOK, as_version=4), {"alpha": 0.1})
    del notebook.cells[end_to_end_picture(notebook) + 1:]
    imports = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
    notebook.cells.insert(imports + 1, nbformat.v4.new_code_cell(RECORD_FIGURES))
    notebook.cells.append(nbformat.v4.new_code_cell("import json\nprint(json.dumps(_figures_shown))"))
    harness.execute(notebook, NOTEBOOK.parent)
    errors = harness.cell_errors(notebook)
    assert not errors, harness.describe(errors)
    return notebook, json.loads(stream_text(notebook.cells[-1]))


def test_the_heldout_p_value_is_the_exact_sign_flip_test():
    differences = heldout_mrr_differences()
    changed = differences[differences != 0]
    assert len(changed) == 7
    exact = rml.paired_permutation_test(changed, np.zeros_like(changed), n_resamples=2 ** len(changed))
    assert round(exact, 3) == 0.094
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    printed = stream_text(notebook.cells[code_cell_calling(notebook, "rml.paired_permutation_test")])
    assert re.search(rf"p = {exact:.3f}\b.*\bexact\b", printed), printed


def test_the_interval_follows_alpha(with_alpha_01):
    notebook, _ = with_alpha_01
    low, high = rml.bootstrap_ci(heldout_mrr_differences(), confidence=0.9, n_resamples=10_000, seed=18)
    printed = stream_text(notebook.cells[code_cell_calling(notebook, "rml.bootstrap_ci")])
    assert f"90% interval [{low:.3f}, {high:.3f}]" in printed, printed
    assert "95%" not in printed


def test_p_above_alpha_beside_an_interval_without_0_is_explained_as_two_questions():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    after = code_cell_calling(notebook, "rml.bootstrap_ci")
    explanation = next(source(c) for c in notebook.cells[after:] if c.cell_type == "markdown")
    assert "different questions" in explanation
    assert "chance" in explanation                     # what the test weighs
    assert "resample" in explanation                   # what the bootstrap does instead


def test_the_end_to_end_picture_reads_on_a_slide(with_alpha_01):
    notebook, figures = with_alpha_01
    drawn = source(notebook.cells[end_to_end_picture(notebook)])
    shown = [f for f in figures if f["source"].strip() == drawn.strip()]
    assert len(shown) == 1, f"{len(shown)} figures from the end-to-end cell"
    assert shown[0]["width"] <= 11
    small = {text: size for text, size in shown[0]["sizes"].items() if size < 10}
    assert not small, f"text under 10 pt: {small}"
