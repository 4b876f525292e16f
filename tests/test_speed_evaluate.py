"""The fast engine's row order is trec_eval's, whichever way its rows arrive.

Each query's rows are sorted as one row of a padded matrix, or, when a few long
lists would make the matrix too big, all rows at once; tied scores are broken
by doc id in both. Random runs with many ties, uneven lengths and one very long
list (which turns the matrix off) must give trec_eval's order (score
descending, ties by doc id descending as strings) and the same scores in every
input form and row order. Agreement with trec_eval itself is checked in
``test_pytrec_eval_random.py``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import RagMetricsWarning, evaluate
from ragmetrics_lite.fast import ranking
from ragmetrics_lite.fast.kernels import group_bounds
from ragmetrics_lite.retrieval._frames import run_table

METRICS = ["recall@3", "precision@5", "hit_rate@2", "mrr", "map", "map@4", "ndcg", "ndcg@3", "r_precision"]
DOCS = ["d1", "d2", "d9", "d10", "d11", "D1", "a", "é", "z", "10", "9", "x09"] + [f"e{i}" for i in range(40)]


def random_run(rng: np.random.Generator, queries: int, long_list: bool) -> tuple[dict, dict]:
    """Judgments and a run with tied scores, uneven lengths, empty runs and unjudged queries."""
    qrels, run = {}, {}
    for q in range(queries):
        query = f"q{rng.integers(0, 3 * queries)}"
        depth = int(rng.choice([0, 1, 2, 5, 10, 30]))
        docs = [str(d) for d in rng.choice(DOCS, size=min(depth, len(DOCS)), replace=False)]
        ties = rng.integers(3)
        scores = (rng.integers(0, 3, len(docs)) if ties == 0 else rng.normal(size=len(docs)).round(ties)).tolist()
        run[query] = {d: float(s) for d, s in zip(docs, scores)}
        if rng.random() < 0.9:
            judged = [str(d) for d in rng.choice(DOCS, size=int(rng.integers(1, 8)), replace=False)]
            qrels[query] = {d: int(rng.integers(-1, 4)) for d in judged}
    if long_list:
        run["q_long"] = {f"long{i}": float(i % 7) for i in range(40 * queries)}
        qrels["q_long"] = {"long3": 2, "long10": 1, "nowhere": 3}
    qrels.setdefault("q_only_judged", {"d1": 1})
    return qrels, run


def frames(qrels: dict, run: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    q = pd.DataFrame([(q, d, g) for q, j in qrels.items() for d, g in j.items()],
                     columns=["query_id", "doc_id", "relevance"])
    r = pd.DataFrame([(q, d, s) for q, sc in run.items() for d, s in sc.items()],
                     columns=["query_id", "doc_id", "score"])
    return q, r


def _ranked_docs(run) -> dict:
    """Each query's doc ids in the engine's order (``run``: a dict or a DataFrame)."""
    table = run_table(run)
    names = table.row_query_ids()
    query = pd.factorize(names)[0]
    rows = np.argsort(query, kind="stable")
    docs, names = table.docs()[rows], names[rows]
    starts, ends = group_bounds(query[rows])
    order = ranking._by_score(query[rows], table.value[rows], starts, ends, lambda tied: docs[tied])
    return {names[order[a]]: docs[order[a:b]].tolist() for a, b in zip(starts, ends)}


def trec_order(scores: dict) -> list:
    """Score descending, ties broken by doc id descending (as strings)."""
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (item[1], str(item[0])), reverse=True)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("long_list", [False, True])
def test_the_matrix_sort_and_the_whole_sort_give_trec_order(seed, long_list, monkeypatch):
    qrels, run = random_run(np.random.default_rng(seed), 60, long_list)
    expected = {query: trec_order(scores) for query, scores in run.items() if scores}
    lexsorts = []
    lexsort = np.lexsort
    monkeypatch.setattr(ranking.np, "lexsort", lambda keys: lexsorts.append(len(keys[0])) or lexsort(keys))
    assert _ranked_docs(run) == expected
    assert _ranked_docs(frames(qrels, run)[1].sample(frac=1, random_state=seed)) == expected
    whole = [n for n in lexsorts if n == sum(map(len, run.values()))]
    assert bool(whole) == long_list  # the long list turns the matrix off


def test_ties_are_read_only_from_the_mappings_they_fall_in():
    run = {"q1": {"b": 1.0, "a": 1.0, "c": 2.0}, "q0": {"x": 0.5}, "q2": {"z": 1.0, "y": 1.0}}
    table = run_table(run)
    read = ranking._docs_at(table, np.array([4, 0, 5, 3, 1]))
    np.testing.assert_array_equal(read, ["z", "b", "y", "x", "a"])
    np.testing.assert_array_equal(ranking._docs_at(table, np.array([], dtype=np.int64)), [])
    assert _ranked_docs(run) == {"q1": ["c", "b", "a"], "q0": ["x"], "q2": ["z", "y"]}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("long_list", [False, True])
def test_every_input_form_and_row_order_gives_the_same_scores(seed, long_list):
    rng = np.random.default_rng(100 + seed)
    qrels, run = random_run(rng, 80, long_list)
    qrels_df, run_df = frames(qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        expected = evaluate(qrels, run, METRICS)
        shuffled = run_df.sample(frac=1, random_state=seed)  # one complex sort
        split = pd.concat([run_df.iloc[::2], run_df.iloc[1::2]])  # queries in two blocks each
        by_query = run_df.sort_values("query_id", kind="stable")  # blocks in query order
        for qrels_form, run_form in [(qrels_df, run_df), (qrels_df, shuffled), (qrels_df, split),
                                     (qrels_df.sample(frac=1, random_state=seed), by_query),
                                     (qrels, run_df), (qrels_df, run)]:
            pd.testing.assert_frame_equal(evaluate(qrels_form, run_form, METRICS), expected,
                                          check_exact=True)
    assert len(expected) == len(qrels)


def test_a_duplicate_row_is_refused_in_every_row_order():
    run = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q1"], "doc_id": ["a", "b", "a", "a"],
                        "score": [0.3, 0.2, 0.1, 0.9]})
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}}
    for form in (run, run.sort_values("query_id", kind="stable"), run.iloc[::-1]):
        with pytest.raises(ValueError, match="more than one row for query 'q1', document 'a'"):
            evaluate(qrels, form, ["mrr"])


@pytest.mark.parametrize("seed", range(3))
def test_as_many_rows_for_every_query(seed):
    rng = np.random.default_rng(200 + seed)
    run = {f"q{q}": {d: float(rng.integers(0, 4)) for d in rng.choice(DOCS, size=8, replace=False).tolist()}
           for q in rng.permutation(50)}
    assert _ranked_docs(run) == {query: trec_order(scores) for query, scores in run.items()}
    qrels = {q: {d: 1 for d in list(docs)[:2]} for q, docs in run.items()}
    qrels_df, run_df = frames(qrels, run)
    pd.testing.assert_frame_equal(evaluate(qrels, run, METRICS),
                                  evaluate(qrels_df, run_df.sample(frac=1, random_state=seed), METRICS))


@pytest.mark.parametrize("bad", [True, np.bool_(False), "0.5", None, __import__("decimal").Decimal("0.5"), 1j])
def test_one_bad_score_among_many_good_ones_is_refused(bad):
    """The fast checks look at a million scores at once; one bad score hidden among them (which
    numpy would turn into 1.0 or 0.5) must still be named, as a lone bad score is."""
    run = {f"q{q}": {f"d{d}": float(q + d) / 7 for d in range(50)} for q in range(40)}
    run["q17"]["d33"] = bad
    qrels = {"q17": {"d33": 1}}
    with pytest.raises(TypeError, match="score of query 'q17', document 'd33' must be a number"):
        evaluate(qrels, run)
    run_df = frames(qrels, run)[1]
    run_df["score"] = pd.Series([s for scores in run.values() for s in scores.values()], dtype=object)
    with pytest.raises(TypeError, match="score of query 'q17', document 'd33' must be a number"):
        evaluate(qrels, run_df)  # an object column keeps the bad value as it is


def test_a_complex_score_column_is_refused():
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "score": [1.0, 0.5 + 1j]})
    with pytest.raises(TypeError, match="score of query 'q1', document 'd1' must be a number, got complex"):
        evaluate({"q1": {"d2": 1}}, run)
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d2"], "relevance": [1 + 0j]})
    with pytest.raises(TypeError, match="relevance grade of query 'q1', document 'd2' must be an integer"):
        evaluate(qrels, {"q1": {"d2": 1.0}})


@pytest.mark.parametrize("bad", [7, np.int64(7), None, 7.0])
def test_one_bad_doc_id_among_many_strings_is_refused(bad):
    run = {f"q{q}": {f"d{d}": float(d) for d in range(50)} for q in range(40)}
    run["q17"][bad] = 0.5
    with pytest.raises((TypeError, ValueError), match="id|ids"):
        evaluate({"q17": {"d1": 1}}, run)
