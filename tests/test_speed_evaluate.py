"""evaluate's fast paths give exactly what its general path gives.

The run is sorted block by block when each query's rows sit together (always
from a dict), and by one complex-number sort otherwise; tied scores are broken
by doc id in both. Random runs with many ties, uneven lengths and one very long
list (which turns the block sort off) must give the same order and the same
scores whichever path they take. Agreement with trec_eval itself is checked in
``test_pytrec_eval_random.py``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import RagMetricsWarning, evaluate
from ragmetrics_lite import batch
from ragmetrics_lite._frames import qrels_table, run_table

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


def _order(table, blocked: bool) -> np.ndarray:
    keys = batch.as_strings(table.row_query_ids(), table.query_kind)
    query = pd.factorize(keys, sort=True)[0]
    blocks = batch._blocks(query) if blocked else None
    return batch._trec_order(query, table.value, table.docs_at, blocks)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("long_list", [False, True])
def test_block_sort_equals_one_sort(seed, long_list):
    rng = np.random.default_rng(seed)
    qrels, run = random_run(rng, 60, long_list)
    table = run_table(run)
    blocked = _order(table, blocked=True)
    np.testing.assert_array_equal(blocked, _order(table, blocked=False))
    # the block sort ran, unless the long list made padding too costly
    query = pd.factorize(batch.as_strings(table.row_query_ids()), sort=True)[0]
    used = batch._blockwise_order(query, table.value, *batch._blocks(query)) is not None
    assert used != long_list


def test_ties_are_read_only_from_the_mappings_they_fall_in():
    run = {"q1": {"b": 1.0, "a": 1.0, "c": 2.0}, "q0": {"x": 0.5}, "q2": {"z": 1.0, "y": 1.0}}
    table = run_table(run)
    np.testing.assert_array_equal(table.docs_at(np.array([4, 0, 5, 3, 1])), ["z", "b", "y", "x", "a"])
    np.testing.assert_array_equal(table.docs_at(np.array([], dtype=np.int64)), [])
    query = np.array([1, 1, 1, 0, 2, 2])
    order = batch._trec_order(query, table.value, table.docs_at, batch._blocks(query))
    assert table.docs()[order].tolist() == ["x", "c", "b", "a", "z", "y"]


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
def test_block_sort_with_as_many_rows_for_every_query(seed):
    rng = np.random.default_rng(200 + seed)
    run = {f"q{q}": {d: float(rng.integers(0, 4)) for d in rng.choice(DOCS, size=8, replace=False).tolist()}
           for q in rng.permutation(50)}
    table = run_table(run)
    assert set(table.lengths.tolist()) == {8}
    np.testing.assert_array_equal(_order(table, blocked=True), _order(table, blocked=False))
    qrels = {q: {d: 1 for d in list(docs)[:2]} for q, docs in run.items()}
    qrels_df, run_df = frames(qrels, run)
    pd.testing.assert_frame_equal(evaluate(qrels, run, METRICS),
                                  evaluate(qrels_df, run_df.sample(frac=1, random_state=seed), METRICS))


def _hits_both_ways(qrels: dict, run: dict):
    """The retrieved judged documents found by one lookup per judgment, and by sorting every row."""
    return _by_lookup(qrels, run, sort_too=True)


def _by_lookup(qrels: dict, run: dict, sort_too: bool = False):
    judged_table, run_tab = qrels_table(qrels), run_table(run)
    position = {query: code for code, query in enumerate(sorted(judged_table.query_id.tolist()))}
    judged_codes = batch._query_codes(judged_table, position)
    run_codes = batch._query_codes(run_tab, position)
    judged = batch._judged_by_query(judged_table, judged_codes, len(position))
    by_lookup = batch._hits_by_lookup(judged_table, judged_codes, run_tab, run_codes, judged)
    return (by_lookup, batch._hits_by_sorting(run_tab, run_codes, judged)) if sort_too else by_lookup


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("long_list", [False, True])
def test_lookup_per_judgment_equals_sorting_every_row(seed, long_list, monkeypatch):
    """From dicts, each judged document is looked up and ranked by counting the scores above it;
    a query where it ties with another document goes to the sorting path. Same hits either way,
    and the sorting path gets only the tied queries (all of them with the long list)."""
    qrels, run = random_run(np.random.default_rng(300 + seed), 60, long_list)
    handed = []
    sorting = batch._hits_by_sorting
    monkeypatch.setattr(batch, "_hits_by_sorting", lambda r, codes, j: handed.append(len(codes)) or sorting(r, codes, j))
    by_lookup, by_sorting = _hits_both_ways(qrels, run)
    for mine, theirs in zip(by_lookup, by_sorting):
        np.testing.assert_array_equal(mine, theirs)
    assert len(by_lookup[0]) > 20
    if long_list:
        assert handed[0] == len(run)  # the padded matrix would be too big: everything sorted
    else:
        assert 0 < handed[0] < len(run) // 2  # only the queries with a judged document in a tie


def test_lookup_without_ties_sorts_nothing(monkeypatch):
    rng = np.random.default_rng(7)
    run = {f"q{q}": {f"d{d}": float(s) for d, s in zip(rng.permutation(40)[:25], rng.permutation(1000)[:25])}
           for q in range(30)}
    qrels = {q: {d: int(rng.integers(-1, 3)) for d in [*list(docs)[::3], "nowhere"]} for q, docs in run.items()}
    by_sorting = _hits_both_ways(qrels, run)[1]
    monkeypatch.setattr(batch, "_hits_by_sorting", None)  # calling it would fail
    query, rank, grade = _by_lookup(qrels, run)
    for mine, theirs in zip((query, rank, grade), by_sorting):
        np.testing.assert_array_equal(mine, theirs)
    # each hit, by hand: its rank in the query's ranking (score descending) and its grade
    expected = []
    for code, q in enumerate(sorted(run)):
        ranking = sorted(run[q], key=run[q].get, reverse=True)
        expected += [(code, ranking.index(d) + 1, g) for d, g in qrels[q].items() if d in run[q]]
    assert sorted(zip(query.tolist(), rank.tolist(), grade.tolist())) == sorted(expected)


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


@pytest.mark.parametrize("seed", range(4))
def test_counting_in_blocks_equals_sorting_every_row_from_a_dataframe(seed, monkeypatch):
    """A DataFrame grouped by query: grades read in row order, ranks counted; tied blocks sorted."""
    qrels, run = random_run(np.random.default_rng(400 + seed), 60, long_list=False)
    run_df = frames(qrels, run)[1]
    judged_table, run_tab = qrels_table(qrels), run_table(run_df)
    position = {query: code for code, query in enumerate(sorted(qrels))}
    run_codes = batch._query_codes(run_tab, position)
    judged = batch._judged_by_query(judged_table, batch._query_codes(judged_table, position), len(position))
    expected = batch._hits_by_sorting(run_tab, run_codes, judged)
    handed = []
    sorting = batch._hits_by_sorting
    monkeypatch.setattr(batch, "_hits_by_sorting", lambda r, codes, j: handed.append(len(set(codes))) or sorting(r, codes, j))
    for mine, theirs in zip(batch._hits_in_blocks(run_tab, run_codes, judged), expected):
        np.testing.assert_array_equal(mine, theirs)
    assert 0 < handed[0] < len(run) // 2  # only the blocks with a judged document in a tie
    split = run_table(pd.concat([run_df.iloc[::2], run_df.iloc[1::2]]))  # each query's rows in two places
    assert batch._hits_in_blocks(split, batch._query_codes(split, position), judged) is None
