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


DOCTESTED = ["ragmetrics_lite.triad.labels", "ragmetrics_lite.course.search", "ragmetrics_lite.triad.endpoint"]


@pytest.mark.parametrize("name", DOCTESTED)
def test_doctests_leave_no_temporary_folder_behind(name, tmp_path, monkeypatch):
    """tempfile.mkdtemp() in a doctest left a folder in the temporary directory at every run."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
    assert os.listdir(tmp_path) == []
