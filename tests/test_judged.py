"""judged@k: the share of the top k that carries a judgment, against a plain computation on random data.

The plain version below shares no code with the helper: sort each query's run
by score descending, ties by doc id descending (trec_eval's order), count the
top k's documents that appear in the query's judgments (any grade, 0 and
negative included), divide by k; a judged query missing from the run scores 0.
The metric-table twin test covers ``judged_at_k`` too (it walks ``METRICS``).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning, evaluate
from ragmetrics_lite.course import search
from ragmetrics_lite.retrieval import judged_at_k


def plain_judged(qrels: dict, run: dict, k: int) -> dict:
    out = {}
    for query, grades in qrels.items():
        ranked = sorted(run.get(query, {}).items(), key=lambda item: (-item[1], _descending(item[0])))
        out[query] = sum(doc in grades for doc, _ in ranked[:k]) / k
    return out


def _descending(doc: str) -> tuple:
    return tuple(-ord(c) for c in doc) + (1,)  # a prefix sorts after the longer id, as in reverse order


def random_case(rng: np.random.Generator, queries: int = 30):
    """Small id space, scores in quarters (many ties), some runs empty or missing, some ids unjudged."""
    qrels, run = {}, {}
    for q in range(queries):
        judged = rng.choice(25, size=rng.integers(1, 15), replace=False)
        qrels[f"q{q}"] = {f"d{i}": int(g) for i, g in zip(judged, rng.integers(-1, 4, len(judged)))}
        roll = rng.random()
        if roll < 0.1:
            continue  # missing from the run
        if roll < 0.2:
            run[f"q{q}"] = {}  # present, empty
            continue
        retrieved = rng.choice(25, size=rng.integers(1, 25), replace=False)
        run[f"q{q}"] = {f"d{i}": float(s) for i, s in zip(retrieved, rng.integers(0, 4, len(retrieved)) / 4)}
    run["not_judged"] = {"d1": 1.0}  # a run query without judgments is ignored
    return qrels, run


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [1, 3, 10, 30])
def test_judged_at_k_equals_a_plain_computation(seed, k):
    qrels, run = random_case(np.random.default_rng(seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        got = evaluate(qrels, run, [f"judged@{k}"])[f"judged@{k}"]
    want = plain_judged(qrels, run, k)
    assert got.index.tolist() == sorted(qrels)
    for query, value in want.items():
        assert abs(got[query] - value) <= 1e-12, (query, got[query], value)
        ranked = [d for d, _ in sorted(run.get(query, {}).items(), key=lambda x: (-x[1], _descending(x[0])))]
        assert judged_at_k(qrels[query], ranked, k) == pytest.approx(value, abs=1e-12)


def test_the_plain_order_is_trec_evals():
    scores = {"d1": 1.0, "d10": 1.0, "d9": 1.0, "d2": 2.0}
    assert [d for d, _ in sorted(scores.items(), key=lambda x: (-x[1], _descending(x[0])))] == \
        [d for d, _ in search.trec_ranking(scores)] == ["d2", "d9", "d10", "d1"]


@pytest.mark.parametrize("run", [{}, {"q1": {}}, {"q1": []},
                                 pd.DataFrame(columns=["query_id", "doc_id", "score"])])
def test_empty_runs_score_zero(run):
    with pytest.warns(RagMetricsWarning, match="no results"):
        got = evaluate({"q1": {"a": 0}, "q2": {"b": 3}}, run, ["judged@5"])
    assert got["judged@5"].tolist() == [0.0, 0.0]
    assert judged_at_k({"a": 0}, [], 5) == 0.0


def test_judged_counts_grade_zero_and_negative_and_ignores_the_relevance_level():
    qrels = {"q": {"a": 0, "b": -1, "c": 3}}
    run = {"q": {"a": 0.9, "b": 0.8, "x": 0.7, "c": 0.6}}
    for level in (1, 3):
        assert evaluate(qrels, run, ["judged@4", "judged@2", "judged@10"], relevance_level=level).iloc[0].tolist() \
            == [0.75, 1.0, 0.3]


def test_ties_at_the_cut_off_follow_evaluates_order():
    # "b" and "a" tie; evaluate puts "b" first (ids descending), so judged@1 sees the unjudged "b"
    assert evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, ["judged@1"]).iloc[0, 0] == 0.0
    assert judged_at_k({"a": 1}, ["b", "a"], 1) == 0.0


def test_judged_needs_a_cut_off_and_takes_no_relevance_level():
    with pytest.raises(ValueError, match="needs its cut-off"):
        evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["judged"])
    with pytest.raises(ValueError, match="k must be"):
        judged_at_k({"a": 1}, ["a"], 0)


def test_the_golden_sets_runs_by_hand():
    """On the golden set: the baseline's top 10 was pooled, so it is judged wherever it is 10 deep."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "data" / "golden_set"
    qrels, run = rml.read_qrels(folder / "qrels.txt"), rml.read_run(folder / "runs" / "bm25_jieba.run")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        judged = evaluate(qrels, run, ["judged@10"])["judged@10"]
    depth = run.groupby("query_id").size().reindex(judged.index, fill_value=0)
    assert (judged == np.minimum(depth, 10) / 10).all()
