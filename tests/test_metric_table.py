"""The metric table: every metric's batch column equals its per-query function, and empty runs are scored.

The test walks ``METRICS`` itself, so a metric added to the table is
covered without touching this file. Random cases reach the edges: ties in
score (broken by doc id as strings), negative and zero grades, unjudged
documents, queries with nothing relevant, queries absent from the run, and
cut-offs beyond the depth of the run.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning, evaluate
from ragmetrics_lite.retrieval.table import METRICS, known_metrics, parse_metric, trec_eval_measure


def random_case(rng: np.random.Generator, queries: int = 40):
    """Judgments and a run over a tiny vocabulary, so that ties and overlaps are common."""
    qrels, run = {}, {}
    for q in range(queries):
        docs = [f"d{i}" for i in rng.choice(30, size=rng.integers(1, 20), replace=False)]
        qrels[f"q{q}"] = {d: int(g) for d, g in zip(docs, rng.integers(-1, 4, len(docs)))}
        if rng.random() < 0.1:
            continue  # a judged query absent from the run
        retrieved = [f"d{i}" for i in rng.choice(30, size=rng.integers(0, 25), replace=False)]
        run[f"q{q}"] = {d: float(s) for d, s in zip(retrieved, rng.integers(0, 5, len(retrieved)) / 4)}
    return qrels, run


def trec_order(scores: dict) -> list:
    """Score descending, ties broken by doc id descending (as strings)."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (item[1], str(item[0])), reverse=True)]


def names_to_check() -> list[str]:
    names = []
    for name, metric in METRICS.items():
        if metric.cutoff != "required":
            names.append(name)
        if metric.cutoff != "none":
            names += [f"{name}@{k}" for k in (1, 3, 10, 50)]
    return names


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("level", [1, 2])
def test_every_metric_column_equals_its_per_query_function(seed, level):
    qrels, run = random_case(np.random.default_rng(seed))
    names = names_to_check()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        batch = evaluate(qrels, run, names, relevance_level=level)
    assert list(batch.index) == sorted(qrels)
    for name in names:
        family, k = parse_metric(name)
        per_query = METRICS[family].per_query
        for query, grades in qrels.items():
            expected = per_query(grades, trec_order(run.get(query, {})), k, level)
            assert abs(batch.loc[query, name] - expected) <= 1e-12, (name, query, batch.loc[query, name], expected)


def test_the_table_drives_names_messages_and_measures():
    for name, metric in METRICS.items():
        assert callable(metric.kernel) and callable(metric.per_query)
        assert name in known_metrics()
        if metric.cutoff == "required":
            with pytest.raises(ValueError, match="needs its cut-off"):
                parse_metric(name)
        else:
            assert parse_metric(name) == (name, None)
            plain = metric.trec_eval[0]
            assert trec_eval_measure(name) == (None if plain is None else (plain, plain))
    assert rml.METRICS is METRICS


# --------------------------------------------------------------------------- empty runs
QRELS = {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 0}}
EMPTY_RUN_FRAME = pd.DataFrame({"query_id": pd.Series([], dtype=object), "doc_id": pd.Series([], dtype=object),
                                "score": pd.Series([], dtype=float)})
EMPTY_RUNS = {
    "empty dict": {},
    "one query, empty dict": {"q1": {}},
    "one query, empty list": {"q1": []},
    "zero-row DataFrame": EMPTY_RUN_FRAME,
    "zero-row DataFrame, str columns": pd.DataFrame({"query_id": pd.Series([], dtype="str"),
                                                     "doc_id": pd.Series([], dtype="str"),
                                                     "score": pd.Series([], dtype=float)}),
    "zero-row DataFrame, object score": pd.DataFrame(columns=["query_id", "doc_id", "score"]),
}


@pytest.mark.parametrize("form", list(EMPTY_RUNS))
def test_an_empty_run_scores_every_judged_query_zero_with_a_warning(form):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = evaluate(QRELS, EMPTY_RUNS[form], ["recall@5", "mrr", "map", "ndcg", "r_precision", "dcg@3"])
    assert list(scores.index) == ["q1", "q2"]
    assert (scores.to_numpy() == 0).all()
    assert [str(w.message) for w in caught] == [
        "2 of 2 judged queries have no results in the run and score 0 on every metric (trec_eval -c): 'q1', 'q2'"
    ]
    assert all(w.category is RagMetricsWarning for w in caught)


@pytest.mark.parametrize("empty", [
    {},
    pd.DataFrame(columns=["query_id", "doc_id", "relevance"]),
    pd.DataFrame({"query_id": pd.Series([], dtype="str"), "doc_id": pd.Series([], dtype="str"),
                  "relevance": pd.Series([], dtype="int64")}),
])
def test_empty_qrels_are_one_clear_error_in_every_form(empty):
    with pytest.raises(ValueError, match="qrels is empty"):
        evaluate(empty, {"q1": {"d1": 1.0}})


# --------------------------------------------------------------------------- cut-offs and frames
@pytest.mark.parametrize("name", ["ndcg@-1", "recall@0", "map@1.5", "precision@k", "mrr@"])
def test_a_bad_cut_off_is_named_as_such(name):
    with pytest.raises(ValueError, match="bad cut-off"):
        parse_metric(name)
    with pytest.raises(ValueError, match="bad cut-off"):
        trec_eval_measure(name)


def test_categorical_and_string_columns_give_the_same_scores():
    qrels, run = random_case(np.random.default_rng(9))
    qrels_df = pd.DataFrame([(q, d, g) for q, j in qrels.items() for d, g in j.items()],
                            columns=["query_id", "doc_id", "relevance"])
    run_df = pd.DataFrame([(q, d, s) for q, r in run.items() for d, s in r.items()],
                          columns=["query_id", "doc_id", "score"])
    names = names_to_check()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        want = evaluate(qrels, run, names)
        for convert in ("category", "str", object):
            got = evaluate(qrels_df.astype({"query_id": convert, "doc_id": convert}),
                           run_df.sample(frac=1, random_state=0).astype({"query_id": convert, "doc_id": convert}),
                           names)
            pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=0, atol=1e-12)


def test_the_evaluate_module_is_not_shadowed_by_its_function():
    import importlib

    module = importlib.import_module("ragmetrics_lite.retrieval.evaluate")
    assert module.evaluate is rml.evaluate
    assert rml.retrieval.evaluate is module  # the subpackage re-exports the per-query functions only
    assert rml.retrieval.recall_at_k is rml.recall_at_k
    assert callable(rml.evaluate) and rml.trec_eval_measure("map") == ("map", "map")
