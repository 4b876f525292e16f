"""The README's two commands: Python check, .venv reuse and rebuild, install stamp, JupyterLab options.

Each test runs the real scripts in a temporary copy of the repository's launch files, with a tiny
requirements.txt, so no test installs the suite's packages; the venvs are real ones, except where
the test is about something else (``stand_in_venv``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragmetrics_lite.course.plotting import FONT_FAMILY, FONT_PATH

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("_venv.sh", "open_lab.sh", "run_tests.sh")
FIRST_NOTEBOOK = "notebooks/00_rag_evaluation_map.ipynb"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None or os.name == "nt", reason="needs bash")


def make_repository(where: Path, requirements: str = "# nothing to install\n") -> Path:
    """The launch scripts, a requirements.txt, pyproject.toml, the font and jupyter_config."""
    (where / "scripts").mkdir(parents=True)
    for name in SCRIPTS:
        shutil.copy(ROOT / "scripts" / name, where / "scripts" / name)
    (where / "requirements.txt").write_text(requirements)
    (where / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    shutil.copytree(ROOT / "jupyter_config" / "custom", where / "jupyter_config" / "custom",
                    ignore=shutil.ignore_patterns("*.ttf"))
    font = where / FONT_PATH.relative_to(ROOT)
    font.parent.mkdir(parents=True)
    shutil.copy(FONT_PATH, font)
    return where


def fake_python(folder: Path, version: str) -> Path:
    """A `python3` that answers every question with `version`, like an old interpreter would."""
    folder.mkdir(exist_ok=True)
    script = folder / "python3"
    script.write_text(f"#!/bin/sh\necho {version}\n")
    script.chmod(0o755)
    return folder


def base_python_dir(tmp_path: Path) -> Path:
    """A folder whose python3 is this test's interpreter (3.11-3.13), first on PATH."""
    folder = tmp_path / "real-python"
    folder.mkdir(exist_ok=True)
    (folder / "python3").symlink_to(sys.executable)
    return folder


def python_dir_lending_pip(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder whose python3 is this test's interpreter, except that it makes venvs without pip,
    and the environment that lends them this interpreter's pip instead.

    ``python -m venv`` spends ~6 s of CPU in ensurepip, installing pip from its wheel;
    ``--without-pip`` makes the same venv in 0.1 s, and PYTHONPATH pointing at a folder with only
    this interpreter's ``pip`` lets ``.venv/bin/python -m pip install`` run there as it would
    (pip installs into the venv it runs in). The venv is real; tests whose point is not pip's
    presence use this, and test_install_once_skip_when_unchanged_update_when_changed makes a venv
    with ensurepip, as the README's first run does."""
    pip = pytest.importorskip("pip")
    folder = tmp_path / "python-lending-pip"
    folder.mkdir()
    python = folder / "python3"
    python.write_text(f'#!/bin/sh\nif [ "$1" = -m ] && [ "$2" = venv ]; then\n  shift 2\n'
                      f'  exec "{sys.executable}" -m venv --without-pip "$@"\nfi\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    lender = tmp_path / "pip-only"
    lender.mkdir()
    (lender / "pip").symlink_to(Path(pip.__file__).parent)
    return folder, {"PYTHONPATH": str(lender)}


def run(repository: Path, command: str, path_first: Path | None = None, **env: str):
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "VIRTUAL_ENV")}
    environment.update(env)
    if path_first is not None:
        environment["PATH"] = f"{path_first}{os.pathsep}{environment['PATH']}"
    return subprocess.run(["bash", "-c", command], cwd=repository, env=environment,
                          capture_output=True, text=True, timeout=300)


def ensure_venv(repository: Path, path_first: Path, **env: str):
    return run(repository, "set -euo pipefail; SCRIPT_NAME=open_lab.sh; source scripts/_venv.sh; ensure_venv",
               path_first, **env)


def stand_in_venv(repository: Path, python_dir: Path) -> Path:
    """A .venv that ensure_venv finds installed and current, without making one (making a venv costs
    ~7 s of CPU; the tests above make real ones): its python is this interpreter, its stamp the one
    ensure_venv would write. Returns .venv/bin."""
    python = repository / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.symlink_to(sys.executable)
    stamp = run(repository, "source scripts/_venv.sh; requirements_stamp .venv/bin/python > .venv/.requirements-stamp")
    assert stamp.returncode == 0, stamp.stderr
    found = ensure_venv(repository, python_dir)
    assert (found.returncode, found.stderr) == (0, ""), found.stderr  # found installed and current
    return python.parent


@pytest.mark.parametrize("script", ["open_lab.sh", "run_tests.sh"])
def test_a_wrong_python_gets_one_line_naming_it_and_what_to_do(tmp_path, script):
    repository = make_repository(tmp_path / "repo")
    result = run(repository, f"bash scripts/{script}", fake_python(tmp_path / "bin", "3.10.12"))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Python 3.11, 3.12 or 3.13" in lines[0] and "python3 is Python 3.10.12" in lines[0]
    assert f"PYTHON=python3.12 bash scripts/{script}" in lines[0]
    assert not (repository / ".venv").exists()


def test_a_python_that_does_not_run_is_named(tmp_path):
    repository = make_repository(tmp_path / "repo")
    result = run(repository, "bash scripts/run_tests.sh", PYTHON=str(tmp_path / "no-such-python"))
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1 and "no-such-python' did not run" in result.stderr


def test_install_once_skip_when_unchanged_update_when_changed(tmp_path):
    repository = make_repository(tmp_path / "repo")
    python_dir = base_python_dir(tmp_path)

    first = ensure_venv(repository, python_dir)
    assert first.returncode == 0, first.stderr
    assert first.stderr.startswith("Making the virtual environment .venv with python3")
    assert any(line.startswith("First run: installing") for line in first.stderr.splitlines()[1:])
    assert "minutes" in first.stderr and "Installed; .venv is ready." in first.stderr
    stamp = (repository / ".venv" / ".requirements-stamp").read_text()
    assert stamp.splitlines()[0].startswith("sha256 ")
    assert stamp.splitlines()[1] == f"location {repository}"

    second = ensure_venv(repository, python_dir)
    assert (second.returncode, second.stdout, second.stderr) == (0, "", "")  # pip not even started

    with open(repository / "requirements.txt", "a") as requirements:
        requirements.write("# a new pin\n")
    changed = ensure_venv(repository, python_dir)
    assert changed.returncode == 0, changed.stderr
    assert changed.stderr.startswith("requirements.txt or pyproject.toml changed")
    assert (repository / ".venv" / ".requirements-stamp").read_text() != stamp
    assert ensure_venv(repository, python_dir).stderr == ""


def test_a_failed_install_leaves_no_stamp_and_is_retried(tmp_path):
    repository = make_repository(tmp_path / "repo", requirements="not a requirement !!\n")
    python_dir, lend_pip = python_dir_lending_pip(tmp_path)
    for _ in range(2):
        result = ensure_venv(repository, python_dir, **lend_pip)
        assert result.returncode != 0
        assert "First run: installing" in result.stderr
        assert result.stderr.splitlines()[-1].startswith("pip could not finish (its message is above)")
        assert not (repository / ".venv" / ".requirements-stamp").exists()


def test_a_venv_made_by_another_python_or_elsewhere_is_rebuilt(tmp_path):
    repository = make_repository(tmp_path / "repo")
    python_dir, lend_pip = python_dir_lending_pip(tmp_path)
    version = "%d.%d.%d" % sys.version_info[:3]

    venv_python = stand_in_venv(repository, python_dir) / "python"
    venv_python.unlink()  # a symlink to this Python: never write through it
    venv_python.write_text("#!/bin/sh\necho 3.10.12\n")  # as if .venv had been made by Python 3.10
    venv_python.chmod(0o755)
    rebuilt = ensure_venv(repository, python_dir, **lend_pip)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stderr.splitlines()[0] == (
        f"Rebuilding .venv: it was made by Python 3.10.12, and python3 is Python {version}.")
    assert "First run: installing" in rebuilt.stderr and "Installed; .venv is ready." in rebuilt.stderr
    assert (repository / ".venv" / "pyvenv.cfg").is_file()  # a real venv replaced the stand-in
    assert subprocess.run([venv_python, "-c", "print(1)"], capture_output=True).returncode == 0

    venv_python.unlink()
    venv_python.write_text("#!/bin/sh\nexit 1\n")  # its base Python was uninstalled
    venv_python.chmod(0o755)
    broken = ensure_venv(repository, python_dir, **lend_pip)
    assert broken.returncode == 0 and "its Python no longer runs" in broken.stderr.splitlines()[0]

    moved = repository.rename(tmp_path / "moved")
    relocated = ensure_venv(moved, python_dir, **lend_pip)
    assert relocated.returncode == 0, relocated.stderr
    assert relocated.stderr.splitlines()[0] == (
        f"Rebuilding .venv: it was installed in {repository}, and its scripts point there.")


def test_open_lab_roots_jupyterlab_at_the_repository_on_notebook_00(tmp_path):
    repository = make_repository(tmp_path / "repo")
    python_dir = base_python_dir(tmp_path)
    jupyter = stand_in_venv(repository, python_dir) / "jupyter"  # stands in for JupyterLab: shows its call
    jupyter.write_text('#!/bin/sh\necho "JUPYTER_CONFIG_DIR=$JUPYTER_CONFIG_DIR"\n'
                       'for a in "$@"; do echo "$a"; done\n')
    jupyter.chmod(0o755)

    expected = ["lab", f"--ServerApp.root_dir={repository}",
                f"--LabApp.default_url=/lab/tree/{FIRST_NOTEBOOK}", "--custom-css"]
    if os.geteuid() == 0:
        expected.append("--allow-root")
    bare = run(repository, "bash scripts/open_lab.sh", python_dir)
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout.splitlines()[1:] == expected

    result = run(repository, "bash scripts/open_lab.sh --no-browser --port=8899", python_dir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"JUPYTER_CONFIG_DIR={repository / 'jupyter_config'}"
    assert lines[1:] == expected + ["--no-browser", "--port=8899"]
    assert f"on {FIRST_NOTEBOOK}" in result.stderr

    copy = repository / "jupyter_config" / "custom" / FONT_PATH.name
    assert copy.is_file() and not copy.is_symlink()  # JupyterLab refuses a symlink leading out
    assert copy.read_bytes() == FONT_PATH.read_bytes()

    copy.write_bytes(b"an older font")  # a rebuilt font replaces the copy at the next launch
    again = run(repository, "bash scripts/open_lab.sh --allow-root", python_dir)
    assert again.stdout.splitlines().count("--allow-root") == 1
    assert copy.read_bytes() == FONT_PATH.read_bytes()


def test_custom_css_declares_the_bundled_font_for_every_jupyterlab_text():
    css = (ROOT / "jupyter_config" / "custom" / "custom.css").read_text(encoding="utf-8")
    assert f'font-family: "{FONT_FAMILY}";' in css
    assert f'src: url("{FONT_PATH.name}") format("truetype");' in css
    body = css[css.index("body {"):]
    for variable in ("--jp-ui-font-family", "--jp-content-font-family",
                     "--jp-code-font-family-default", "--jp-code-font-family"):
        declaration = body[body.index(variable + ":"):].split(";")[0]
        assert f'"{FONT_FAMILY}"' in declaration and declaration.endswith("!important"), declaration


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_jupyterlab_state_and_the_font_copy_are_ignored_by_git():
    for path in ("jupyter_config/lab/workspaces/default-37a8.jupyterlab-workspace",
                 "jupyter_config/lab/user-settings/x/y.jupyterlab-settings",
                 f"jupyter_config/custom/{FONT_PATH.name}", ".venv/.requirements-stamp"):
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0, path
    assert subprocess.run(["git", "check-ignore", "-q", "jupyter_config/custom/custom.css"],
                          cwd=ROOT).returncode == 1


def test_importing_nbformat_builds_no_grammar():
    """requirements.txt holds jsonschema at 4.24.1: from 4.25 on, the format-nongpl extra that
    jupyter-events asks for installs rfc3987-syntax, and importing it builds a Lark grammar, about
    2 s of CPU in every process that imports nbformat (pytest and its workers, nbclient, nbconvert,
    JupyterLab). Checked in a fresh interpreter of this environment."""
    code = "import sys, nbformat; print(sorted(set(sys.modules) & {'lark', 'rfc3987_syntax'}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


def test_a_silent_step_says_it_is_still_working_and_keeps_its_exit_status(tmp_path):
    """with_heartbeat: pip prints nothing while it installs; the launcher speaks up instead."""
    repository = make_repository(tmp_path / "repo")
    slow = "with_heartbeat Installing bash -c 'echo started; sleep 2.5; echo done; exit 3'"
    result = run(repository, f"set -euo pipefail; source scripts/_venv.sh; {slow} || echo \"status $?\"",
                 HEARTBEAT="1")
    lines = result.stderr.splitlines()
    assert lines[0] == "started"
    assert lines[-1] == "done"
    assert any(line.startswith("Installing: still working (") for line in lines[1:-1]), lines
    assert result.stdout == "status 3\n"


def test_open_lab_zh_opens_the_chinese_edition_and_asks_for_chinese_exercises(tmp_path):
    repository = make_repository(tmp_path / "repo")
    python_dir = base_python_dir(tmp_path)
    jupyter = stand_in_venv(repository, python_dir) / "jupyter"
    jupyter.write_text('#!/bin/sh\necho "RAGMETRICS_LANG=$RAGMETRICS_LANG"\nfor a in "$@"; do echo "$a"; done\n')
    jupyter.chmod(0o755)
    chinese = "notebooks/zh/00_rag_evaluation_map.ipynb"

    missing = run(repository, "bash scripts/open_lab.sh --zh", python_dir)
    assert missing.returncode == 1
    assert missing.stderr.strip().endswith("(i18n/zh_CN/pending.txt lists what is still to translate).")

    (repository / chinese).parent.mkdir(parents=True)
    (repository / chinese).write_text("{}")
    result = run(repository, "bash scripts/open_lab.sh --zh --no-browser", python_dir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "RAGMETRICS_LANG=zh"
    assert f"--LabApp.default_url=/lab/tree/{chinese}" in lines
    assert "--no-browser" in lines and "--zh" not in lines
