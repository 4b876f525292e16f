"""The source notes' inputs recorded for ``rml.on_notes_example`` are each notebook's own defaults.

``ragmetrics_lite/course/notes_examples/<notebook>.json`` holds the inputs of the notes' example;
a notebook's ``parameters`` cell ships exactly those values, so on a fresh run every source-notes
check asserts, and after a learner's edit it reports instead.
"""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from ragmetrics_lite.course.notes import EXAMPLES, notes_example
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
runner = load_script(ROOT / "scripts" / "run_parameter_sets.py", "run_parameter_sets")
RECORDED = sorted(EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_each_recorded_example_is_its_notebooks_default(path):
    notebook_path = ROOT / "notebooks" / f"{path.stem}.ipynb"
    assert notebook_path.exists(), f"{path.name} names no notebook"
    notebook = nbformat.read(notebook_path, as_version=4)
    stored = runner.stored_parameters(notebook.cells[runner.parameters_cell_index(notebook)])
    example = notes_example(path.stem)
    for name, value in example.items():
        assert name in stored, f"{path.name}: {name} is not a parameter of {notebook_path.name}"
        assert stored[name] == value, f"{path.name}: {name} differs from the notebook's parameters cell"


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_each_file_holds_an_about_and_json_inputs(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"about", "inputs"}
    assert isinstance(data["about"], str)
    assert data["inputs"], f"{path.name} records no input"
