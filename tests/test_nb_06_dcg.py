"""Notebook 06's erratum on the source notes' ceiling for five grade-3 documents.

The notes print a DCG ceiling of about 12.8; their own formula (linear gain, log2) gives 8.85, and
12.76 only with the natural logarithm. The section 6 cell (id ``22e199c8``) must say what the notes
print and what the formula gives, and must not present 8.85 as the notes' figure (it used to print
"ceiling A (the notes print 12.8) = 8.85, as in the source notes (8.85)").
"""
from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "06_dcg.ipynb"


def printed(cell_id: str) -> str:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    cells = [cell for cell in notebook.cells if cell.get("id") == cell_id]
    assert len(cells) == 1, f"06_dcg.ipynb has no single cell {cell_id}"
    return "".join(output.get("text", "") for output in cells[0].outputs if output.output_type == "stream")


def test_the_ceiling_erratum_says_what_the_notes_print_and_what_their_formula_gives():
    text = printed("22e199c8")
    assert "as in the source notes (8.85)" not in text, text
    assert "the source notes print 12.8" in text, text
    assert "their formula gives 8.85" in text, text
    assert "natural log it would be 12.76" in text, text
