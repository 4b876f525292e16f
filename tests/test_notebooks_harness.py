"""The notebooks' stored outputs must come from one clean top-to-bottom run.

Strict nbval compares stored outputs with fresh ones, but a notebook saved without outputs
passes it trivially, and one executed out of order stores outputs no fresh run produces.
These tests close those gaps and keep the nbval configuration honest.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
MAX_NBVAL_MARKERS = 3  # across the whole suite; each one needs a reason in its cell
MAX_SANITIZE_PATTERNS = 3


def _cells(path: Path, kind: str = "code") -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [c for c in notebook["cells"] if c["cell_type"] == kind]


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def _addopts() -> str:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["pytest"]["ini_options"]["addopts"]


def test_there_are_notebooks_named_in_reading_order():
    assert NOTEBOOKS, "no notebooks found"
    for path in NOTEBOOKS:
        assert re.fullmatch(r"\d{2}_[a-z0-9_]+\.ipynb", path.name), path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_top_to_bottom_in_one_run(path):
    code = [c for c in _cells(path) if _source(c).strip()]
    counts = [c["execution_count"] for c in code]
    assert None not in counts, f"{path.name}: a code cell was never executed"
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: execution counts {counts} are not 1..n"
    assert any(c["outputs"] for c in code), f"{path.name}: no stored outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_errors_stderr_or_volatile_text(path):
    volatile = re.compile(r"0x[0-9a-f]{6,}|/(?:home|root|tmp|work|Users)/\S+")
    for i, cell in enumerate(_cells(path), start=1):
        for out in cell["outputs"]:
            assert out["output_type"] != "error", f"{path.name} cell {i}: {out.get('ename')}"
            assert out.get("name") != "stderr", f"{path.name} cell {i}: stderr output {out.get('text')!r}"
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            text = "".join(text) if isinstance(text, list) else text
            assert not volatile.search(text), f"{path.name} cell {i}: volatile text {volatile.search(text)[0]!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_imports_the_helper_asserts_and_draws(path):
    sources = "\n".join(_source(c) for c in _cells(path))
    assert "ragmetrics_lite" in sources, f"{path.name} does not use ragmetrics_lite"
    assert re.search(r"^\s*assert\b", sources, re.M), f"{path.name} asserts nothing"
    images = [o for c in _cells(path) for o in c["outputs"] if "image/png" in o.get("data", {})]
    assert images, f"{path.name} draws no picture"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_uses_the_projects_kernel(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


def test_nbval_markers_are_rare():
    markers = [
        (path.name, m)
        for path in NOTEBOOKS
        for cell in _cells(path)
        for m in re.findall(r"NBVAL_[A-Z_]+", _source(cell) + " ".join(cell.get("metadata", {}).get("tags", [])))
    ]
    assert len(markers) <= MAX_NBVAL_MARKERS, f"too many NBVAL markers: {markers}"


def test_nbval_is_strict():
    addopts = _addopts()
    assert "--nbval" in addopts.split() and "--nbval-lax" not in addopts


def _sanitize_patterns() -> list[str]:
    match = re.search(r"--nbval-sanitize-with[ =](\S+)", _addopts())
    if not match:
        return []
    text = (ROOT / match.group(1)).read_text(encoding="utf-8")
    return [line.split("=", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("regex")]


def test_sanitize_patterns_are_few_and_specific():
    patterns = _sanitize_patterns()
    assert len(patterns) <= MAX_SANITIZE_PATTERNS, patterns
    for pattern in patterns:
        for number in ("0.6429", "42", "6.054", "1e-09"):
            assert not re.fullmatch(pattern, number), f"sanitize pattern {pattern!r} would erase the number {number}"


def test_links_between_notebooks_resolve():
    for path in NOTEBOOKS:
        for cell in _cells(path, "markdown"):
            for target in re.findall(r"\]\(([^)#\s]+\.ipynb)", _source(cell)):
                assert (path.parent / target).exists(), f"{path.name} links to missing {target}"


def test_maintainer_command_executes_a_notebook_in_place(tmp_path, monkeypatch, capsys):
    """scripts/execute_notebooks.py runs a notebook top to bottom in a fresh kernel and stores outputs,
    then rebuilds the Chinese edition. Its ``main`` runs here in this process with that build replaced by
    a stub that records the call: the real build (~6 s, of the repository's own notebooks, which it
    would rewrite) is tested in tests/test_zh_edition.py."""
    import types

    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell("import os, ragmetrics_lite\nhere = os.path.basename(os.getcwd())"),
        nbformat.v4.new_code_cell("print(here, ragmetrics_lite.reciprocal_rank({'b'}, ['a', 'b']))"),
    ]
    folder = tmp_path / "nbdir"
    folder.mkdir()
    path = folder / "99_probe.ipynb"
    nbformat.write(notebook, path)
    script = load_script(ROOT / "scripts" / "execute_notebooks.py")
    builds = []
    monkeypatch.setitem(sys.modules, "zh_edition", types.SimpleNamespace(main=lambda argv: builds.append(argv) or 0))
    assert script.main([str(path)]) == 0
    assert builds == [[]]
    assert f"{path.resolve()}: executed in " in capsys.readouterr().out
    done = nbformat.read(path, as_version=4)
    assert [c.execution_count for c in done.cells] == [1, 2]
    assert done.cells[1].outputs[0]["text"] == "nbdir 0.5\n"
    assert "execution" not in done.cells[0].metadata
    shutil.rmtree(folder)


def test_maintainer_command_starts_a_kernel_once_more_when_its_port_was_taken(tmp_path, monkeypatch):
    """A kernel whose port another process took dies or stays silent; the maintainer command then
    runs the notebook once more, read afresh (the failed run may have left outputs behind), and
    any other error still stops it."""
    import nbformat

    script = load_script(ROOT / "scripts" / "execute_notebooks.py")
    path = tmp_path / "99_probe.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(notebook, path)
    seen = []

    class PortTakenOnce:
        def __init__(self, notebook, **options):
            self.notebook = notebook

        def execute(self):
            seen.append([c.outputs for c in self.notebook.cells])
            self.notebook.cells[0].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"})]
            if len(seen) == 1:
                raise RuntimeError("Kernel didn't respond in 60 seconds")

    monkeypatch.setattr(script, "NotebookClient", PortTakenOnce)
    monkeypatch.setattr(script, "environment_kernelspec", lambda: {"name": "python3"})
    script.execute(path)
    assert seen == [[[]], [[]]]   # two starts, each on the notebook as stored
    assert nbformat.read(path, as_version=4).cells[0].outputs[0]["data"]["text/plain"] == "2"

    class Broken(PortTakenOnce):
        def execute(self):
            raise RuntimeError("Kernel died: an error in the notebook's kernel")

    monkeypatch.setattr(script, "NotebookClient", Broken)
    with pytest.raises(RuntimeError, match="an error in the notebook"):
        script.execute(path)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_by_the_maintainer_command(path):
    """The maintainer command joins a print split into two stream chunks; a notebook saved some
    other way may store such a split, which then changes from run to run."""
    for i, cell in enumerate(_cells(path), start=1):
        kinds = [(o["output_type"], o.get("name")) for o in cell["outputs"]]
        for before, after in zip(kinds, kinds[1:]):
            assert not (before == after and before[0] == "stream"), f"{path.name} cell {i}: split stream output"
