"""docs/ci.md's commands run and print what the page shows.

* Each ``console`` block: every ``$ ragmetrics-lite ...`` command (continued over lines ending in
  ``\\``) runs through the command line's ``main`` and prints exactly the lines below it; ``$ echo $?``
  shows its exit status.
* The JSON example is the first command's first metric in ``--format json``; the job summary shown
  between the ``compare-markdown`` markers is its ``--format markdown`` output.
* The GitHub Actions workflow parses; its compare step runs as GitHub's ``shell: bash`` runs it
  (``bash --noprofile --norc -eo pipefail``), through the installed ``ragmetrics-lite`` command, and
  writes that Markdown to the job summary with exit status 0. Its install step (``pip install .``) and
  its pull-request comment (``gh``) are not run here: they need the network.
* The pytest example runs and passes.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from ragmetrics_lite.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOC, re.S | re.M)


def console_commands(block: str) -> list[tuple[str, str]]:
    """(command, the output shown below it) for each ``$ `` line of a console block."""
    found, lines = [], block.splitlines(keepends=True)
    while lines:
        command = lines.pop(0)
        assert command.startswith("$ "), command
        while command.rstrip("\n").endswith("\\"):
            command = command.rstrip("\n")[:-1] + lines.pop(0)
        shown = ""
        while lines and not lines[0].startswith("$ "):
            shown += lines.pop(0)
        found.append((" ".join(command[2:].split()), shown))
    return found


def run(command: str, capsys) -> tuple[int, str]:
    program, *argv = shlex.split(command)
    assert program == "ragmetrics-lite", command
    status = main(argv)
    return status, capsys.readouterr().out


def test_the_console_examples_print_what_the_page_shows(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    examples = blocks("console")
    assert len(examples) == 2
    for block in examples:
        (command, shown), (echo, status_shown) = console_commands(block)
        status, printed = run(command, capsys)
        assert printed == shown, command
        assert (echo, status_shown) == ("echo $?", f"{status}\n")
    assert [console_commands(b)[1][1] for b in examples] == ["0\n", "1\n"]


def test_the_json_example_and_the_job_summary_are_the_first_commands(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    command = console_commands(blocks("console")[0])[0][0]
    report = json.loads(run(command + " --format json", capsys)[1])
    assert json.loads(blocks("json")[0]) == report["metrics"][0]
    markdown = run(command + " --format markdown", capsys)[1]
    assert DOC.split("<!-- compare-markdown:begin -->\n")[1].split("<!-- compare-markdown:end -->")[0] == markdown


def test_the_workflow_installs_the_package_and_its_compare_step_fills_the_job_summary(tmp_path, capsys):
    workflow = yaml.safe_load(blocks("yaml")[0])
    steps = workflow["jobs"]["compare"]["steps"]
    assert any(step.get("run") == "pip install ." for step in steps)
    compare = next(step for step in steps if "ragmetrics-lite compare" in step.get("run", ""))
    assert compare["shell"] == "bash"
    (tmp_path / "data").symlink_to(ROOT / "data")
    script = tmp_path / "step.sh"
    script.write_text(compare["run"], encoding="utf-8")
    summary = tmp_path / "summary.md"
    command = Path(sys.executable).with_name("ragmetrics-lite")
    assert command.exists(), "the ragmetrics-lite command is installed with the package (pip install -e .)"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GITHUB_STEP_SUMMARY": str(summary),
           "PATH": f"{command.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    shown = DOC.split("<!-- compare-markdown:begin -->\n")[1].split("<!-- compare-markdown:end -->")[0]
    assert summary.read_text(encoding="utf-8") == shown


def test_the_pytest_example_passes(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace = {}
    exec(compile(blocks("python")[0], "docs/ci.md", "exec"), namespace)
    namespace["test_the_candidate_is_no_worse_than_the_baseline"](capsys)
