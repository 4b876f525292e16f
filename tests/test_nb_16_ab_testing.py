"""Claims notebook 16 makes, checked on their own.

* Section 3, "The same numbers from scipy", prints the same p-value from the helper and from scipy
  (it once printed 0.0032 beside scipy's 0.0050: two different sets of random sign flips).
* The source-notes check shows a learner's edit: with another mean the printed simulated means
  are the learner's, to four decimals (a check rounded to one decimal once printed "0.6" for 0.62).
* A few queries per golden set run to the end, and the exact test's floor 2 / 2**n shows.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
from tests.helpers import run_main_path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "16_ab_testing.ipynb"


def section_outputs(notebook_path, heading: str) -> str:
    """What the code cells under the markdown heading ``heading`` printed, up to the next heading."""
    notebook = nbformat.read(notebook_path, as_version=4)
    texts, inside = [], False
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and re.search(r"^#+ ", cell.source, re.M):
            inside = heading in cell.source
        elif cell.cell_type == "code" and inside:
            texts += [output.get("text", "") for output in cell.get("outputs", [])]
    return "".join(texts)


def test_section_3_prints_the_same_p_value_from_the_helper_and_from_scipy():
    text = section_outputs(NOTEBOOK, "The same numbers from scipy")
    pairs = re.findall(r"p = ([\d.]+) \(scipy ([\d.]+)\)", text)
    assert pairs, f"section 3 prints no 'p = ... (scipy ...)':\n{text}"
    for ours, theirs in pairs:
        assert ours == theirs


def test_the_source_notes_check_shows_the_learners_means():
    namespace, printed = run_main_path(NOTEBOOK, stop_after=1, mean_a=0.62)
    assert namespace["on_notes_example"] is False
    learners_mean = namespace["score_a"].mean()
    assert round(learners_mean, 1) == 0.6, "the edit should be one that a one-decimal rounding hides"
    assert f"{learners_mean:.4f}" in printed, printed


def test_few_queries_run_to_the_end_and_meet_the_exact_floor():
    namespace, printed = run_main_path(NOTEBOOK, query_counts=[4, 6, 8])
    assert namespace["results"].loc[4, "p (permutation)"] >= 2 / 2**4
    assert "all 16 flips" in printed
