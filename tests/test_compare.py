"""``ragmetrics-lite compare``: its figures are the library's, its exit status is a verdict or says why not.

* The shipped golden set's baseline against its candidate, on the held-out half, gives the figures
  notebook 18 prints (MRR gain, exact sign-flip p, bootstrap interval), and every p-value and interval
  equals ``paired_permutation_test`` / ``bootstrap_ci`` called as the notebook calls them.
* A candidate made worse on purpose exits 1, an equal one 0, a malformed file 2 naming the file and the
  line, an internal error 3 with one line on stderr.
* The JSON output parses and holds every figure the text shows; Holm's correction is the library's.
* Missing queries, latency, judged metrics and their judge's agreement, and the progress line.

Runs are compared in-process through ``compare.main`` (one process start for the whole module).
"""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import compare, compare_inputs

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "data" / "golden_set"
QRELS = str(GOLDEN / "qrels.txt")
BASELINE = str(GOLDEN / "runs" / "bm25_jieba.run")
CANDIDATE = str(GOLDEN / "runs" / "bm25_synonyms_recency.run")
HELDOUT = ["--queries", str(GOLDEN / "queries.jsonl"), "--split", "heldout"]
NOTEBOOK = ROOT / "notebooks" / "18_capstone_golden_set.ipynb"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = compare.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def as_json(capsys, *argv: str) -> dict:
    status, out, err = run(capsys, *argv, "--format", "json")
    assert err == ""
    report = json.loads(out)
    assert report["exit_status"] == status
    return report


def library_figures(metric: str, split: str, alpha: float, seed: int) -> dict:
    """The notebook's way: evaluate both runs, then the sign-flip test on the changed queries and the
    bootstrap on every difference of the split."""
    queries = [json.loads(line) for line in (GOLDEN / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    chosen = [q["query_id"] for q in queries if q["split"] == split]
    qrels = rml.read_qrels(QRELS)
    scores = {}
    for run_file in (BASELINE, CANDIDATE):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rml.RagMetricsWarning)
            scores[run_file] = rml.evaluate(qrels, rml.read_run(run_file), [metric], relevance_level=2)[metric]
    difference = (scores[CANDIDATE] - scores[BASELINE]).loc[chosen]
    changed = difference[difference != 0].to_numpy()
    p_value = rml.paired_permutation_test(changed, 0 * changed, n_resamples=2 ** len(changed))
    interval = rml.bootstrap_ci(difference, confidence=1 - alpha, n_resamples=10_000, seed=seed)
    return {"difference": difference.mean(), "p_value": p_value, "interval": list(interval)}


def test_the_shipped_runs_give_the_capstones_figures(capsys):
    report = as_json(capsys, QRELS, BASELINE, CANDIDATE, "-l", "2", "-m", "mrr", "map", *HELDOUT, "--seed", "18")
    mrr = report["metrics"][0]
    printed = "".join(o.get("text", "") for c in nbformat.read(NOTEBOOK, as_version=4).cells
                      if c.cell_type == "code" for o in c.get("outputs", []))
    line = re.search(r"mrr on heldout: p = ([\d.]+) \(exact\), 95% interval \[([\d.-]+), ([\d.-]+)\]", printed)
    assert line, "the capstone prints its held-out MRR test"
    assert [f"{mrr['p_value']:.3f}", f"{mrr['interval'][0]:.3f}", f"{mrr['interval'][1]:.3f}"] == list(line.groups())
    assert mrr["exact"] and mrr["changed"] == 7 and mrr["sign_patterns"] == 128
    for result in report["metrics"]:
        expected = library_figures(result["metric"], "heldout", alpha=0.05, seed=18)
        assert result["p_value"] == expected["p_value"]
        assert result["interval"] == expected["interval"]
        assert result["difference"] == pytest.approx(expected["difference"], abs=1e-12)
    assert report["exit_status"] == 0


def test_holms_correction_is_the_librarys_and_is_said(capsys):
    argv = [QRELS, CANDIDATE, BASELINE, "-l", "2", "-m", "mrr", "map", "recall@5", "--resamples", "2000"]
    report = as_json(capsys, *argv)
    p_values = [r["p_value"] for r in report["metrics"]]
    assert [r["significant"] for r in report["metrics"]] == rml.holm_rejections(p_values, 0.05).tolist()
    status, out, _ = run(capsys, *argv)
    assert status == 1
    assert "Holm's correction over the 3 gated metrics at alpha 0.05" in " ".join(out.split())


def write_run(path: Path, frame) -> str:
    with open(path, "w", encoding="utf-8") as handle:
        for row in frame.itertuples():
            handle.write(f"{row.query_id} Q0 {row.doc_id} 0 {row.score!r} test\n")
    return str(path)


def test_a_candidate_made_worse_exits_1_and_an_equal_one_0(capsys, tmp_path):
    baseline = rml.read_run(BASELINE)
    reversed_ranking = write_run(tmp_path / "worse.run", baseline.assign(score=-baseline["score"]))
    status, out, err = run(capsys, QRELS, BASELINE, reversed_ranking, "-l", "2", "-m", "mrr", "ndcg@10")
    assert (status, err) == (1, "")
    assert "Verdict: FAIL: 2 gate(s) tripped (exit status 1)" in out
    assert re.search(r"mrr: the mean dropped by 0\.\d{4} \(more than 0\), significantly", out)
    same = write_run(tmp_path / "same.run", baseline)
    report = as_json(capsys, QRELS, BASELINE, same, "-l", "2", "-m", "mrr")
    assert report["exit_status"] == 0
    assert report["metrics"][0]["p_value"] == 1.0 and report["metrics"][0]["tied"] == 50


def test_fail_under_trips_on_the_mean_alone(capsys):
    report = as_json(capsys, QRELS, BASELINE, CANDIDATE, "-l", "2", "-m", "mrr", "ndcg@10",
                     "--fail-under", "ndcg@10=0.9", "--resamples", "100")
    assert report["tripped"] == ["ndcg@10: the candidate's mean 0.8041 is under 0.9"]


@pytest.mark.parametrize("line, message", [
    ("q01 Q0 doc 1 2.5", "a run line has 6 fields"),
    ("q01 Q0 doc 1 high tag", "score must be a number"),
])
def test_a_malformed_run_exits_2_naming_file_and_line(capsys, tmp_path, line, message):
    bad = tmp_path / "bad.run"
    bad.write_text("q01 Q0 a 1 3.0 t\nq01 Q0 b 2 2.0 t\n" + line + "\n", encoding="utf-8")
    status, out, err = run(capsys, QRELS, BASELINE, bad)
    assert (status, out) == (2, "")
    assert err.startswith(f"ragmetrics-lite compare: error: {bad}, line 3: ") and message in err


@pytest.mark.parametrize("option, content, message", [
    ("--latency", "12.5\nslow\n", "line 2: a duration in ms must be a finite number, got 'slow'"),
    ("--judged", "system,query_id,metric,value\nbaseline,q01,faithfulness,0.5\nnew,q01,faithfulness,1\n",
     "line 3: system must be 'baseline' or 'candidate', got 'new'"),
])
def test_malformed_latency_and_judged_files_exit_2_naming_the_line(capsys, tmp_path, option, content, message):
    bad = tmp_path / ("bad.csv" if option == "--judged" else "bad.txt")
    bad.write_text(content, encoding="utf-8")
    files = [bad, bad] if option == "--latency" else [bad]
    status, out, err = run(capsys, QRELS, BASELINE, CANDIDATE, option, *files)
    assert (status, out) == (2, "")
    assert f"{bad}, {message}" in err


def test_usage_errors_exit_2(capsys):
    status, _, err = run(capsys, QRELS, BASELINE, CANDIDATE, "--split", "heldout")
    assert status == 2 and "--split needs --queries FILE" in err
    with pytest.raises(SystemExit) as stopped:
        compare.main([QRELS, BASELINE])
    assert stopped.value.code == 2


def test_an_internal_error_exits_3_with_one_line(capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("injected")
    monkeypatch.setattr(compare, "bootstrap_ci", broken)
    status, out, err = run(capsys, QRELS, BASELINE, CANDIDATE, "-m", "mrr")
    assert (status, out) == (3, "")
    assert err.count("\n") == 1
    assert err.startswith("ragmetrics-lite compare: internal error: RuntimeError: injected; report it")


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d{4}", text)]


def test_json_holds_every_figure_the_text_shows(capsys, tmp_path):
    (tmp_path / "b.txt").write_text("\n".join(str(v) for v in range(100, 120)), encoding="utf-8")
    (tmp_path / "c.csv").write_text("query_id,ms\n" + "".join(f"q{v},{v + 30}\n" for v in range(100, 120)),
                                    encoding="utf-8")
    argv = [QRELS, BASELINE, CANDIDATE, "-l", "2", "-m", "mrr", "precision@5", "--resamples", "500",
            "--latency", tmp_path / "b.txt", tmp_path / "c.csv", "--max-latency-increase", "25%"]
    report = as_json(capsys, *argv)
    _, text, _ = run(capsys, *argv)
    for result in report["metrics"]:
        row = next(line for line in text.splitlines() if line.startswith(result["metric"] + " "))
        figures = [result["baseline"], result["candidate"], result["difference"], *result["interval"],
                   result["p_value"]]
        assert numbers(row) == [round(x, 4) for x in figures], row
        assert row.split()[-4:] == [str(result["won"]), str(result["lost"]), str(result["tied"]), "pass"]
        assert result["won"] + result["lost"] + result["tied"] == result["queries"] == 50
    timing = report["latency"]
    assert timing["baseline"] == {"n": 20, **{f"p{p}": v for p, v in
                                             rml.latency_percentiles(range(100, 120), (50, 95, 99)).items()}}
    assert timing["p95_increase_ms"] == pytest.approx(30)
    assert timing["allowed_ms"] == pytest.approx(0.25 * timing["baseline"]["p95"])
    allowed = f"{timing['allowed_ms']:.1f}"
    assert report["tripped"] == [f"latency: P95 rose by 30.0 ms, more than the {allowed} ms allowed"]
    assert f"P95 +30.0 ms, {allowed} ms allowed (25%): TRIPPED" in text


def test_missing_queries_are_scored_as_evaluate_scores_them_and_said(capsys):
    report = as_json(capsys, QRELS, BASELINE, CANDIDATE, "-l", "2", "-m", "mrr", "--resamples", "100")
    assert report["notes"] == ["baseline run: 1 of 50 judged queries have no results in the run and score 0 "
                               "on every metric (trec_eval -c): 'q25'"]
    with pytest.warns(rml.RagMetricsWarning):
        expected = rml.evaluate(rml.read_qrels(QRELS), rml.read_run(BASELINE), ["mrr"], relevance_level=2)
    assert report["metrics"][0]["baseline"] == expected["mrr"].mean()


@pytest.fixture
def judged_file(tmp_path) -> Path:
    rows = ["system,query_id,metric,value,judge"]
    for number in range(1, 11):
        rows.append(f"baseline,q{number:02},faithfulness,0.9,LexicalJudge")
        rows.append(f"candidate,q{number:02},faithfulness,0.5,LexicalJudge")
    path = tmp_path / "judged.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_judged_metrics_warn_unless_gated_beside_the_judges_agreement(capsys, judged_file, tmp_path):
    argv = [QRELS, BASELINE, CANDIDATE, "-l", "2", "-m", "mrr", "--resamples", "200", "--judged", judged_file,
            "--triad-dir", ROOT / "data" / "triad"]
    status, out, _ = run(capsys, *argv)
    flat = " ".join(out.split())
    freeze = json.loads((ROOT / "data" / "triad" / "judge_freeze.json").read_text(encoding="utf-8"))
    kappa = freeze["heldout"]["faithfulness"]["kappa"]
    assert status == 0
    assert "faithfulness: judged by LexicalJudge, whose held-out agreement with the labels is" in flat
    assert f"kappa {kappa:.3f} on 128 items" in flat
    assert "Warning: faithfulness: the mean dropped by 0.4000" in flat
    assert run(capsys, *argv, "--gate-judged")[0] == 1
    unknown = as_json(capsys, *argv[:-1], tmp_path)["metrics"][1]["agreement"]
    assert unknown == {"judge": "LexicalJudge", "why": f"no *freeze*.json in {tmp_path} measures LexicalJudge "
                                                       "on faithfulness"}


def test_a_progress_line_only_for_large_inputs(capsys, monkeypatch):
    argv = [QRELS, BASELINE, CANDIDATE, "-m", "mrr", "--resamples", "100"]
    assert run(capsys, *argv)[2] == ""
    monkeypatch.setattr(compare_inputs, "LARGE_INPUT_BYTES", 0)
    err = run(capsys, *argv)[2]
    assert err.splitlines()[0].startswith("ragmetrics-lite compare: reading ")
    assert "ragmetrics-lite compare: metric 1 of 1: mrr" in err.splitlines()
