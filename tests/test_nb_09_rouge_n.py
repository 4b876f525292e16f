"""Notebook 09's erratum on the source notes' ROUGE-1: they print 6/10 = 0.60, the right value is 0.70.

Their list of shared words leaves out 的, which the candidate has twice and the reference once (a
clipped count of 1). The Step 1 cell (id ``b17fde49``) must say what the notes print and the right
value, and must not present 0.70 as the notes' figure (it used to print "ROUGE-1 recall = 0.7000,
as in the source notes (0.7000)").
"""
from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "09_rouge_n.ipynb"


def printed(cell_id: str) -> str:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    cells = [cell for cell in notebook.cells if cell.get("id") == cell_id]
    assert len(cells) == 1, f"09_rouge_n.ipynb has no single cell {cell_id}"
    return "".join(output.get("text", "") for output in cells[0].outputs if output.output_type == "stream")


def test_the_rouge_1_erratum_says_what_the_notes_print_and_the_right_value():
    text = printed("b17fde49")
    assert "as in the source notes" not in text, text
    assert "The source notes print ROUGE-1 = 6/10 = 0.60" in text, text
    assert "lacks 的" in text, text
    assert "right ROUGE-1 recall is 7/10 = 0.70" in text, text
