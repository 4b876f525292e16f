"""Notebook 18 on a golden set as a user brings it: every section runs or says, in one line, which file
would enable it.

``tests/data/user_golden_set`` holds only the required files and latencies (no corpus, answers,
bad-case readings or split). Its parameter set runs the notebook in a kernel
(``tests/test_parameter_sets.py``) and checks that no cell fails; here the code cells run in this
process (cheaper than a second kernel) and what each prints is read: each skipped section prints its
one line, and nothing reads the shipped golden set. The stored outputs (the shipped set, which has
every file) hold no such line.
"""
from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
import warnings
from pathlib import Path

import matplotlib
import matplotlib.pyplot
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "18_capstone_golden_set.ipynb"
SETS = json.loads((ROOT / "notebooks" / "parameter_sets" / "18_capstone_golden_set.json").read_text("utf-8"))
USER_SET = next(s for s in SETS["sets"] if s["parameters"].get("golden_set") == "../tests/data/user_golden_set")

# The one line of each section that cannot run without a file of the schema
SKIPPED = [
    "queries.jsonl has no split (dev, heldout): every query is measured",
    "titles in corpus.jsonl (see outdated_marks) would flag outdated first results",
    "a split (dev, heldout) in queries.jsonl would show this pitfall",
    "bad_cases.jsonl would give each miss below its cause",
    "answers.jsonl and corpus.jsonl would enable section 8",
    "answers.jsonl and corpus.jsonl would draw section 8 on a slide here",
    "corpus.jsonl would set the words each miss shares with its best passage here",
    "answers.jsonl and corpus.jsonl (section 8) would show here how far to trust its judge",
    "answers.jsonl and corpus.jsonl would list the judge's reasons here",
]


def code_cells(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def printed_lines(sources: list[str], parameters: dict, reads: list[str]) -> list[list[str]]:
    """What each code cell prints when the cells run in order, ``parameters`` set after the first two
    (the imports and the parameters cell); ``reads`` collects every file opened."""
    namespace = {"display": lambda *args, **kwargs: None}
    printed = []
    opened = builtins.open

    def recording_open(file, *args, **kwargs):
        reads.append(str(file))
        return opened(file, *args, **kwargs)

    for number, source in enumerate(sources):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            builtins.open = recording_open
            try:
                exec(compile(source, f"code cell {number + 1}", "exec"), namespace)
            finally:
                builtins.open = opened
        if number == 1:
            namespace.update(parameters)
        printed.append(out.getvalue().splitlines())
    return printed


@pytest.fixture(scope="module")
def user_run():
    matplotlib.use("Agg")
    reads = []
    folder = os.getcwd()
    os.chdir(NOTEBOOK.parent)
    try:
        printed = printed_lines(code_cells(nbformat.read(NOTEBOOK, as_version=4)), USER_SET["parameters"], reads)
    finally:
        os.chdir(folder)
        matplotlib.pyplot.close("all")
    return printed, reads


def test_every_skipped_section_says_once_which_file_would_enable_it(user_run):
    printed, _ = user_run
    lines = [line for cell in printed for line in cell]
    for skipped in SKIPPED:
        assert lines.count(skipped) == 1, skipped
    schema_lines = [line for line in lines if " would " in line and ".jsonl" in line]
    assert sorted(schema_lines) == sorted(SKIPPED[1:])
    assert max(sum(line in SKIPPED for line in cell) for cell in printed) == 1


def test_the_users_folder_is_read_and_the_shipped_one_is_not(user_run):
    printed, reads = user_run
    assert not [path for path in reads if "golden_set" in path and "user_golden_set" not in path]
    assert any("user_golden_set" in path for path in reads)
    lines = [line for cell in printed for line in cell]
    assert "15 queries, 106 judgments, no corpus.jsonl" in lines


def test_the_shipped_golden_set_skips_nothing():
    stored = "".join(output.get("text", "") for cell in nbformat.read(NOTEBOOK, as_version=4).cells
                     for output in cell.get("outputs", []))
    assert not [line for line in SKIPPED if line in stored]
