"""Notebook 08's errata moment says what the source notes print, how they got it, and the right value.

For the notes' pair the notes print BLEU-2 = 0.817: they took ln(5/6) for p1 but log10(3/5) for p2,
then undid both with exp. The right value is sqrt(5/6 * 3/5) = 0.7071. The Step 3 cell (id
``d15a87b7``) must say all three, on the notes' example and after a learner's edit, and must never
present 0.7071 as the notes' own figure (it used to print "BLEU-2 (the notes print 0.817) = 0.7071,
as in the source notes (0.7071)", and after an edit "the source notes' 0.7071 is for their example
only").
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "08_bleu.ipynb"
ERRATA_CELL = "d15a87b7"
runner = load_script(ROOT / "scripts" / "run_parameter_sets.py", "run_parameter_sets")


def printed(cell) -> str:
    return "".join(output.get("text", "") for output in cell.get("outputs", []) if output.output_type == "stream")


def errata_cell(notebook):
    found = [cell for cell in notebook.cells if cell.get("id") == ERRATA_CELL]
    assert len(found) == 1, f"08_bleu.ipynb has no single cell {ERRATA_CELL}"
    return found[0]


def assert_the_errata_is_clear(text: str) -> None:
    assert "print" in text and "0.817" in text, f"what the notes print is missing:\n{text}"
    assert "log10(3/5)" in text, f"how the notes got 0.817 is missing:\n{text}"
    assert "right BLEU-2 is 0.7071" in text, f"the right value is missing:\n{text}"
    assert "as in the source notes" not in text, f"0.7071 is presented as the notes' figure:\n{text}"
    assert "source notes' 0.7071" not in text, f"0.7071 is presented as the notes' figure:\n{text}"


def test_the_stored_errata_on_the_notes_example():
    text = printed(errata_cell(nbformat.read(NOTEBOOK, as_version=4)))
    assert_the_errata_is_clear(text)
    assert text.startswith("BLEU-2 = "), text


def test_the_errata_after_a_learners_edit():
    """Run the notebook up to the errata cell with another candidate and BLEU-3 (one kernel, ~5 s)."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    last = notebook.cells.index(errata_cell(notebook))
    notebook.cells = notebook.cells[: last + 1]
    edited = runner.inject(notebook, {"candidate_text": "埃菲尔铁塔的总高度为 330 米", "max_n": 3})
    runner.execute(edited, NOTEBOOK.parent, timeout=120)
    assert runner.cell_errors(edited) == []
    text = printed(errata_cell(edited))
    assert_the_errata_is_clear(text)
    assert text.startswith("BLEU-3 = "), f"the learner's own BLEU should come first:\n{text}"
