"""The command line: ``python -m ragmetrics_lite evaluate``.

End to end through a subprocess where the process is the point: the trec_eval comparison (exit 0,
the warning on stderr) and a missing file (exit 2, stderr only). The other checks read only the
output text, error message and exit status, and call ``ragmetrics_lite.cli.main`` in this process
(an interpreter start-up, ~0.7 s, saved per call).

With ``--trec-names`` its output must equal trec_eval's own expected output for
``trec_eval -m all_trec -q -c qrels.test results.trunc`` (``out.test.aqc``) to the
printed precision, line by line, on every measure both have.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ragmetrics_lite.cli import main
from ragmetrics_lite.retrieval.table import METRICS
from tests.test_trec_eval_official import our_name, read_expected

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "trec_eval"


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "ragmetrics_lite", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


def cli_here(capsys, *args: str) -> subprocess.CompletedProcess:
    """``cli(*args)`` as ``main(args)`` in this process: its exit status (returned, or argparse's
    SystemExit), stdout and stderr as captured by ``capsys``."""
    capsys.readouterr()  # nothing printed before counts
    try:
        status = main(list(args))
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["ragmetrics-lite", *args], status, out, err)


def parse(stdout: str) -> dict[tuple[str, str], str]:
    lines = {}
    for line in stdout.splitlines():
        measure, query_id, value = line.split("\t")
        assert (measure.strip(), query_id) not in lines
        lines[measure.strip(), query_id] = value
    return lines


def test_trec_names_output_equals_trec_evals_expected_output():
    expected = read_expected("out.test.aqc")
    shared = sorted({m for m, _ in expected if our_name(m)})
    result = cli("evaluate", str(DATA / "qrels.test"), str(DATA / "results.trunc"), "-q", "--trec-names",
                 "-m", *[our_name(m) for m in shared])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ("ragmetrics-lite: warning: 1 of 3 judged queries have no results in the run and "
                             "score 0 on every metric (trec_eval -c): '302'\n")
    ours = parse(result.stdout)
    for line in result.stdout.splitlines():  # trec_eval's layout: name padded to 22, tab, id, tab, %6.4f
        assert re.fullmatch(r"\S+ *\t\S+\t\d+(\.\d{4})?", line) and len(line.split("\t")[0]) >= 22, line
    compared = 0
    for (measure, query_id), printed in expected.items():
        if measure in shared or measure == "num_q" and query_id == "all":
            assert abs(float(ours[measure, query_id]) - float(printed)) <= 5e-5, (measure, query_id)
            compared += 1
    assert compared == len(shared) * 4 + 1  # three queries and 'all', plus num_q
    assert len(ours) == compared


def test_our_names_csv_and_json_lines(tmp_path, capsys):
    qrels_csv = tmp_path / "qrels.csv"
    qrels_csv.write_text("query_id,doc_id,relevance,annotator\nq1,d1,2,a\nq1,d2,0,a\nq2,d9,1,b\n")
    run_jsonl = tmp_path / "run.jsonl"
    rows = [("q1", "d2", 0.9), ("q1", "d1", 0.5), ("q2", "d9", 0.1)]
    run_jsonl.write_text("".join(json.dumps({"query_id": q, "doc_id": d, "score": s}) + "\n" for q, d, s in rows))
    result = cli_here(capsys, "evaluate", str(qrels_csv), str(run_jsonl), "-m", "mrr", "precision@1", "-q")
    assert result.returncode == 0 and result.stderr == ""
    assert parse(result.stdout) == {
        ("mrr", "q1"): "0.5000", ("precision@1", "q1"): "0.0000",
        ("mrr", "q2"): "1.0000", ("precision@1", "q2"): "1.0000",
        ("num_q", "all"): "2", ("mrr", "all"): "0.7500", ("precision@1", "all"): "0.5000",
    }


@pytest.mark.parametrize("name, text, fragment", [
    ("bad.qrels", "q1 0 d1 1\nq1 0 d2\n", "bad.qrels, line 2: a qrels line has 4 fields"),
    ("bad.csv", "query_id,doc_id,relevance\nq1,d1,1\nq1,d2,high\n", "bad.csv, line 3: relevance must be an integer"),
    ("bad.jsonl", '{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n{"query_id": "q1"\n',
     "bad.jsonl, line 2: not valid JSON"),
    ("nohead.csv", "q,d,r\nq1,d1,1\n", "nohead.csv, line 1: the CSV header needs the columns"),
])
def test_bad_files_name_the_file_and_line(tmp_path, capsys, name, text, fragment):
    (tmp_path / name).write_text(text)
    result = cli_here(capsys, "evaluate", str(tmp_path / name), str(DATA / "results.test"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("ragmetrics-lite: error: ") and fragment in result.stderr


def test_bad_metric_and_missing_file_are_errors(capsys):
    result = cli_here(capsys, "evaluate", str(DATA / "qrels.test"), str(DATA / "results.test"), "-m", "ndcg@-1")
    assert result.returncode == 2 and "bad cut-off in 'ndcg@-1'" in result.stderr
    result = cli("evaluate", str(DATA / "no such file"), str(DATA / "results.test"))  # the exit status of a process
    assert result.returncode == 2 and "No such file" in result.stderr
    assert result.stdout == "" and result.stderr.startswith("ragmetrics-lite: error: ")


def test_help_lists_every_metric_of_the_table(capsys):
    result = cli_here(capsys, "evaluate", "-h")
    assert result.returncode == 0
    for name in METRICS:
        assert re.search(rf"^  {name}\b", result.stdout, flags=re.MULTILINE), name


def test_console_script_is_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["ragmetrics-lite"].split(":")
    assert (module, function) == ("ragmetrics_lite.cli", "main")
