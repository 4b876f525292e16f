"""rml.course data paths (ragmetrics_lite/course/paths.py): the repository's data/ is found from the
package, whichever folder the code runs in, so a notebook copied to notebooks/zh/ reads the same files."""
from __future__ import annotations

from pathlib import Path

import pytest

from ragmetrics_lite.course import paths

ROOT = Path(__file__).resolve().parents[1]


def test_data_path_is_the_repositorys_data_folder_from_any_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no data/ here or above
    assert paths.data_dir() == ROOT / "data"
    assert paths.data_path("triad") == ROOT / "data" / "triad"
    assert (paths.data_path("golden_set") / "qrels.txt").is_file()


def test_a_path_given_in_full_is_kept(tmp_path):
    assert paths.data_path(tmp_path / "my_set") == tmp_path / "my_set"
    assert paths.data_path("~/my_set") == Path.home() / "my_set"


def test_a_package_outside_the_repository_finds_data_above_the_working_folder(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "README.md").write_text("data\n", encoding="utf-8")
    (tmp_path / "notebooks" / "zh").mkdir(parents=True)
    monkeypatch.setattr(paths, "REPOSITORY", tmp_path / "site-packages")
    monkeypatch.chdir(tmp_path / "notebooks" / "zh")
    assert paths.data_path("triad") == tmp_path / "data" / "triad"
    monkeypatch.chdir(tmp_path.parent)
    with pytest.raises(FileNotFoundError, match="data/ folder"):
        paths.data_dir()
