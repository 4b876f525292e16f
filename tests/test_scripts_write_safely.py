"""Maintainer scripts write only inside the repository or a fresh private temporary folder, never
through a symlink; doctests leave no temporary folder behind (issue 27, item 10)."""
from __future__ import annotations

import doctest
import importlib
import os
import tempfile
from pathlib import Path

import pytest

from .helpers import load_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def repo_files():
    return load_script(ROOT / "scripts" / "repo_files.py", "repo_files")


def test_a_rewrite_replaces_a_planted_link_and_never_writes_through_it(repo_files, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours")
    repository = tmp_path / "repository"
    (repository / "docs").mkdir(parents=True)
    (repository / "docs" / "cheatsheet.md").symlink_to(outside)
    written = repo_files.write_in_repository(repository / "docs" / "cheatsheet.md", "fresh", root=repository)
    assert written.read_text() == "fresh" and not written.is_symlink() and outside.read_text() == "not yours"
    assert oct(written.stat().st_mode & 0o777) == oct(0o644)
    assert sorted(p.name for p in (repository / "docs").iterdir()) == ["cheatsheet.md"]  # no temporary left


def test_a_folder_that_leads_outside_the_repository_is_refused(repo_files, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    repository = tmp_path / "repository"
    repository.mkdir()
    (repository / "runs").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ValueError, match="refusing to write outside"):
        repo_files.write_in_repository(repository / "runs" / "a.run", "x", root=repository)
    assert list(outside.iterdir()) == []


def test_golden_set_check_writes_nothing_even_through_a_planted_link(tmp_path, monkeypatch):
    """--check ("writes nothing") wrote its fresh copy through a link planted at runs/.bm25_jieba.fresh."""
    script = load_script(ROOT / "scripts" / "golden_set_runs.py", "golden_set_runs_check")
    runs = tmp_path / "runs"
    runs.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours")
    (runs / ".bm25_jieba.fresh").symlink_to(outside)
    (runs / "bm25_jieba.run").write_text("q1 Q0 d1 1 2.0 bm25_jieba\n")
    monkeypatch.setattr(script, "RUNS", runs)
    monkeypatch.setattr(script, "regenerate", lambda: {"bm25_jieba": {"q1": {"d1": 2.0}}})
    before = {p.name: p.lstat().st_mtime_ns for p in runs.iterdir()}
    assert script.main(["--check"]) == 0
    monkeypatch.setattr(script, "regenerate", lambda: {"bm25_jieba": {"q1": {"d1": 3.0}}})
    assert script.main(["--check"]) == 1
    assert outside.read_text() == "not yours"
    assert {p.name: p.lstat().st_mtime_ns for p in runs.iterdir()} == before


DOCTESTED = ["ragmetrics_lite.triad.labels", "ragmetrics_lite.course.search", "ragmetrics_lite.triad.endpoint",
             "ragmetrics_lite.trec_io", "ragmetrics_lite.compare_inputs"]


@pytest.mark.parametrize("name", DOCTESTED)
def test_doctests_leave_no_temporary_folder_behind(name, tmp_path, monkeypatch):
    """tempfile.mkdtemp() in a doctest left a folder in the temporary directory at every run."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
    assert os.listdir(tmp_path) == []


# ------------------------------------------------------------------ scripts/run_parameter_sets.py
@pytest.fixture
def parameter_sets():
    return load_script(ROOT / "scripts" / "run_parameter_sets.py", "run_parameter_sets_safely")


def test_parameter_set_kernels_start_without_the_llm_variables(parameter_sets, tmp_path, monkeypatch):
    """The kernels inherited RAGMETRICS_LLM_*: a notebook run with them set asked a model and kept its replies."""
    import contextlib

    import nbclient
    import nbformat

    for name in ("BASE_URL", "MODEL", "API_KEY", "CACHE"):
        monkeypatch.setenv(f"RAGMETRICS_LLM_{name}", "set")
    started = []

    class Client:  # records how each kernel would be started
        def __init__(self, *args, **kwargs):
            pass

        def execute(self, **kwargs):
            started.append(kwargs)

        @contextlib.contextmanager
        def setup_kernel(self, **kwargs):
            started.append(kwargs)
            yield

    monkeypatch.setattr(nbclient, "NotebookClient", Client)
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "empty.ipynb")
    parameter_sets.execute(nbformat.v4.new_notebook(), tmp_path)
    parameter_sets.execute(nbformat.v4.new_notebook(), tmp_path, stop_at_error=True)
    parameter_sets.run_notebooks([(tmp_path / "empty.ipynb", [])])
    assert len(started) == 3
    for kwargs in started:
        assert "PATH" in kwargs["env"] and not [n for n in kwargs["env"] if n.startswith("RAGMETRICS_LLM_")]


def test_executed_copies_go_to_a_fresh_private_folder(parameter_sets, tmp_path, monkeypatch, capsys):
    """They went to $TMPDIR/parameter_sets/..., a name another user can create first (or link elsewhere)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "parameter_sets").symlink_to(elsewhere, target_is_directory=True)  # planted
    saved = []

    def run_set(path, item, save_to=None):
        saved.append(Path(save_to))
        save_to.write_text("{}")
        return parameter_sets.SetRun([], [], 1)

    monkeypatch.setattr(parameter_sets, "run_set", run_set)
    assert parameter_sets.main(["notebooks/01_recall_at_k.ipynb", "1"]) == 0
    (copy,) = saved
    assert copy.parent.parent == tmp_path and copy.parent.name.startswith("parameter_sets-")
    assert oct(copy.parent.stat().st_mode & 0o777) == oct(0o700)
    assert list(elsewhere.iterdir()) == [] and str(copy) in capsys.readouterr().out
