"""``scripts/run_tests.sh``: ``--with-browser`` finds, installs (root, apt-get) or explains how to get
Chromium and always goes on to run the tests; the tests run in parallel unless told otherwise.

Each case runs the real script in a temporary copy of the launch files (see tests/test_launch.py)
whose .venv Python is a stand-in that prints the arguments pytest would get; ``id`` and
``apt-get`` are stand-ins too, so nothing is installed.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.test_launch import base_python_dir, ensure_venv, make_repository, pytestmark, run  # noqa: F401

RUNNING = "Running the tests: a few minutes on two cores (each dot is a passed test; notebooks run cell by cell)."
WHO_AM_I = '#!/bin/sh\nif [ "$1" = -u ]; then echo {uid}; else exec /usr/bin/id "$@"; fi\n'
APT_GET = ('#!/bin/sh\necho "$@" >> "{log}"\n'
           'if [ "$1" = install ]; then printf "#!/bin/sh\\n" > "$RAGMETRICS_CHROMIUM"; chmod +x "$RAGMETRICS_CHROMIUM"; fi\n')


@pytest.fixture(scope="module")
def repository(tmp_path_factory) -> tuple[Path, Path]:
    """(a repository whose .venv Python prints pytest's arguments, a PATH folder with python3).

    The .venv is a stand-in with the stamp ensure_venv writes, so ensure_venv finds it installed
    and current (no venv is made: tests/test_launch.py covers making one).
    """
    tmp = tmp_path_factory.mktemp("run-tests")
    repository = make_repository(tmp / "repo")
    python_dir = base_python_dir(tmp)
    python = repository / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nif [ "$1" = -c ]; then exec "{sys.executable}" "$@"; fi\n'
                      'printf "%s\\n" "$@"\n')
    python.chmod(0o755)
    stamp = run(repository, "source scripts/_venv.sh; requirements_stamp .venv/bin/python > .venv/.requirements-stamp")
    assert stamp.returncode == 0, stamp.stderr
    assert ensure_venv(repository, python_dir).stderr == ""  # found installed and current
    return repository, python_dir


def stand_ins(folder: Path, uid: int, log: Path) -> Path:
    folder.mkdir()
    for name, text in (("id", WHO_AM_I.format(uid=uid)), ("apt-get", APT_GET.format(log=log))):
        (folder / name).write_text(text)
        (folder / name).chmod(0o755)
    return folder


def run_tests(repository, python_dir, tmp_path, arguments: str, uid: int, chromium: Path):
    log = tmp_path / "apt.log"
    path = f"{stand_ins(tmp_path / 'bin', uid, log)}:{python_dir}"
    result = run(repository, f"PATH={path}:$PATH bash scripts/run_tests.sh {arguments}",
                 RAGMETRICS_CHROMIUM=str(chromium))
    return result, (log.read_text().splitlines() if log.exists() else [])


def test_without_root_it_says_how_to_get_chromium_and_still_runs_the_tests(repository, tmp_path):
    result, apt = run_tests(*repository, tmp_path, "--with-browser -q", uid=1000, chromium=tmp_path / "none")
    assert result.returncode == 0, result.stderr
    assert "Browser tests: no Chromium found, and installing it needs root and apt-get" in result.stderr
    assert "sudo apt-get install chromium" in result.stderr and "will skip (and fail under CI=true)" in result.stderr
    assert apt == []
    assert result.stdout.splitlines() == ["-u", "-m", "pytest", "-n", "auto", "--dist", "loadscope", "-q"]


def test_as_root_it_installs_chromium_with_apt_get(repository, tmp_path):
    chromium = tmp_path / "chromium"
    result, apt = run_tests(*repository, tmp_path, "--with-browser", uid=0, chromium=chromium)
    assert result.returncode == 0, result.stderr
    assert "installing Debian's chromium with apt-get" in result.stderr
    assert f"Browser tests: installed; using {chromium}." in result.stderr
    assert apt == ["update -qq", "install -y -qq chromium"]
    assert "--with-browser" not in result.stdout.splitlines()


def test_a_chromium_already_there_is_used_without_installing(repository, tmp_path):
    chromium = tmp_path / "chrome"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    result, apt = run_tests(*repository, tmp_path, "tests/test_rouge.py --with-browser", uid=0, chromium=chromium)
    assert result.returncode == 0 and apt == []
    assert result.stderr.splitlines() == [f"Browser tests: using {chromium}.", RUNNING]
    assert result.stdout.splitlines()[-1] == "tests/test_rouge.py"


def test_without_the_flag_no_browser_step_and_n_0_runs_in_one_process(repository, tmp_path):
    result, apt = run_tests(*repository, tmp_path, "-n 0 -x", uid=0, chromium=tmp_path / "none")
    assert (result.returncode, result.stderr, apt) == (0, RUNNING + "\n", [])
    assert result.stdout.splitlines() == ["-u", "-m", "pytest", "-n", "0", "-x"]


def test_the_units_of_work_of_a_parallel_run():
    """conftest.py's scheduler: a notebook, a parameter-set kernel, a launch test or a module per unit,
    longest first."""
    import doctest

    from tests.helpers import load_script

    suite_conftest = load_script(Path(__file__).resolve().parents[1] / "conftest.py", "suite_conftest")
    assert doctest.testmod(suite_conftest).failed == 0
    assert suite_conftest.scope("tests/test_parameter_sets.py::test_set_file_is_valid[01_recall_at_k.json]") \
        == "tests/test_parameter_sets.py"


def test_without_a_browser_the_browser_tests_skip_but_fail_under_ci(monkeypatch, tmp_path):
    from tests import browser

    monkeypatch.setenv("RAGMETRICS_CHROMIUM", str(tmp_path / "no-chrome"))
    assert browser.find_chromium() is None
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="run_tests.sh --with-browser` installs Chromium"):
        browser.unavailable("no Chromium found")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true but no Chromium found"):
        browser.unavailable("no Chromium found")
    chrome = tmp_path / "chrome"
    chrome.write_text("#!/bin/sh\n")
    monkeypatch.setenv("RAGMETRICS_CHROMIUM", str(chrome))
    assert browser.find_chromium() == str(chrome)
