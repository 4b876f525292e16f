"""Per-query agreement with trec_eval (via pytrec_eval) to 1e-9 on thousands of random queries.

The random queries are built to reach the edges: runs empty, shorter and
longer than k; tied scores; grades negative, zero and above the relevance
level; queries with nothing relevant; relevance levels 1 and 2; ids whose
byte-wise order differs from their numeric or case-folded order ("d10" < "d9",
"D9" < "d1", "é" > "z"). ``test_the_random_cases_reach_the_edges`` checks that
they do.

pytrec_eval rounds scores to float32 (trec_eval 10 compares doubles, as we do),
so every random score is a float32 value: distinct ones stay distinct after
rounding, and ties are exact. ``test_pytrec_eval_ties_float32_scores`` shows the
one place where the two differ on purpose.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import (
    RagMetricsWarning,
    average_precision,
    dcg_at_k,
    evaluate,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)

pytrec_eval = pytest.importorskip("pytrec_eval")

TOLERANCE = 1e-9
KS = (1, 2, 3, 5, 10, 20)
LEVELS = (1, 2)
N_QUERIES = 1500  # per-query functions: 1500 queries x 2 relevance levels
N_EVALUATE_QUERIES = 600  # evaluate: per random batch

# ids whose byte-wise order is not the "natural" one
ID_POOL = (
    [f"d{i}" for i in range(1, 41)]
    + ["d01", "d001", "d100", "D1", "D9", "D10", "D11", "Doc", "DOC", "doc", "doc1", "Doc1"]
    + ["0", "1", "2", "9", "10", "11", "99", "100", "101", "x9", "x09", "x10"]
    + ["a", "A", "aa", "aA", "Aa", "b", "B", "z", "Z", "e", "é", "f", "Ω", "ü1"]
    + ["d_1", "d-1", "d.1", "d#1", "#d"]
)
GRADE_SCHEMES = (
    (0, 1),  # binary
    (0, 1, 2, 3),  # graded
    (-2, -1, 0, 1, 2, 3, 4),  # with negative grades
    (-1, 0),  # nothing relevant
    (1,),  # relevant at level 1, nothing relevant at level 2
)
TREC_MEASURES = {"recip_rank", "map", "Rprec", "ndcg"} | {
    f"{m}.{k}" for m in ("P", "recall", "success", "map_cut", "ndcg_cut") for k in KS
}


# --------------------------------------------------------------------------- random cases
def random_scores(rng: np.random.Generator, n: int) -> list[float]:
    """n scores, float32-exact, in one of several tie patterns."""
    mode = rng.integers(4)
    if mode == 0:  # distinct, also after rounding to float32
        while True:
            values = rng.normal(scale=rng.choice([1e-3, 1.0, 1e3]), size=n).astype(np.float32)
            if len(set(values.tolist())) == n:
                return [float(v) for v in values]
    if mode == 1:  # small integers: many ties
        return [float(v) for v in rng.integers(0, 4, size=n)]
    if mode == 2:  # multiples of 0.25, negative too
        return [float(v) * 0.25 for v in rng.integers(-8, 9, size=n)]
    return [1.0] * n  # one big tie: the order is the doc ids', descending


def random_query(rng: np.random.Generator) -> tuple[dict[str, int], dict[str, float]]:
    """Judgments ``{doc: grade}`` (never empty) and a run ``{doc: score}`` (maybe empty)."""
    n_pool = int(rng.integers(1, 61 if rng.random() < 0.2 else 26))
    pool = [str(d) for d in rng.choice(ID_POOL, size=n_pool, replace=False)]
    scheme = GRADE_SCHEMES[rng.integers(len(GRADE_SCHEMES))]
    judged = rng.permutation(pool)[: rng.integers(1, n_pool + 1)]
    grades = {str(d): int(rng.choice(scheme)) for d in judged}
    if max(grades.values()) <= -2:  # pytrec_eval crashes on such a query: see test_all_grades_below_minus_one
        grades[str(judged[0])] = -1
    retrieved = [str(d) for d in rng.permutation(pool)[: rng.integers(0, n_pool + 1)]]
    return grades, dict(zip(retrieved, random_scores(rng, len(retrieved))))


def trec_order(scores: dict) -> list:
    """Doc ids as trec_eval ranks them: score descending, then id descending (byte-wise)."""
    return sorted(scores, key=lambda doc: (scores[doc], str(doc)), reverse=True)


def random_batch(seed: int, n: int, prefix: str = "q") -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n):
        qrels[f"{prefix}{i}"], run[f"{prefix}{i}"] = random_query(rng)
    return qrels, run


def reference(qrels: dict, run: dict, level: int) -> dict:
    """pytrec_eval's per-query scores, plus ``recip_rank@k``: recip_rank on the run truncated to k."""
    scores = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=level).evaluate(run)
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=level)
    for k in KS:
        truncated = {q: {d: s[d] for d in trec_order(s)[:k]} for q, s in run.items()}
        for q, values in rr.evaluate(truncated).items():
            scores[q][f"recip_rank@{k}"] = values["recip_rank"]
    return scores


def close(ours: float, theirs: float, what) -> None:
    assert abs(ours - theirs) <= TOLERANCE, f"{what}: ours {ours!r}, trec_eval {theirs!r}"


@pytest.fixture(scope="module")
def batch():
    return random_batch(seed=20240917, n=N_QUERIES)


# --------------------------------------------------------------------------- per-query functions
def test_the_random_cases_reach_the_edges(batch):
    qrels, run = batch
    lengths = [len(s) for s in run.values()]
    grades = [g for judged in qrels.values() for g in judged.values()]
    has_tie = [len(set(s.values())) < len(s) for s in run.values()]
    nothing_relevant = {level: sum(max(j.values()) < level for j in qrels.values()) for level in LEVELS}
    assert lengths.count(0) >= 20 and sum(n > max(KS) for n in lengths) >= 50
    assert sum(n < 5 for n in lengths) >= 200 and sum(has_tie) >= 500
    assert min(grades) == -2 and max(grades) == 4 and grades.count(0) >= 1000
    assert nothing_relevant[1] >= 200 and nothing_relevant[2] >= nothing_relevant[1] + 200
    # ties broken by id where byte-wise and natural orders disagree
    tied_pairs = {("d9", "d10"), ("d1", "D1"), ("é", "z"), ("9", "10")}
    seen = set()
    for scores in run.values():
        for a, b in tied_pairs:
            if a in scores and b in scores and scores[a] == scores[b]:
                seen.add((a, b))
    assert seen == tied_pairs


@pytest.mark.parametrize("level", LEVELS)
def test_per_query_functions_match_trec_eval(batch, level):
    qrels, run = batch
    expected = reference(qrels, run, level)
    assert set(expected) == set(qrels)  # every query is in the run, some with no documents
    for q, grades in qrels.items():
        ranking, want = trec_order(run[q]), expected[q]
        close(reciprocal_rank(grades, ranking, relevance_level=level), want["recip_rank"], (q, "recip_rank"))
        close(average_precision(grades, ranking, relevance_level=level), want["map"], (q, "map"))
        close(r_precision(grades, ranking, relevance_level=level), want["Rprec"], (q, "Rprec"))
        close(ndcg_at_k(grades, ranking, None), want["ndcg"], (q, "ndcg"))
        for k in KS:
            close(recall_at_k(grades, ranking, k, relevance_level=level), want[f"recall_{k}"], (q, k, "recall"))
            close(precision_at_k(grades, ranking, k, relevance_level=level), want[f"P_{k}"], (q, k, "P"))
            close(hit_at_k(grades, ranking, k, relevance_level=level), want[f"success_{k}"], (q, k, "success"))
            close(reciprocal_rank(grades, ranking, k=k, relevance_level=level), want[f"recip_rank@{k}"],
                  (q, k, "recip_rank on the run cut to k"))
            close(average_precision(grades, ranking, k=k, relevance_level=level), want[f"map_cut_{k}"],
                  (q, k, "map_cut"))
            close(ndcg_at_k(grades, ranking, k), want[f"ndcg_cut_{k}"], (q, k, "ndcg_cut"))


def test_relevant_as_a_collection_of_ids(batch):
    """A set or list of relevant ids means grade 1 for each, as in qrels with 0/1 judgments."""
    qrels, run = batch
    binary = {q: {d for d, g in judged.items() if g >= 1} for q, judged in qrels.items()}
    binary = {q: ids for q, ids in binary.items() if ids}
    expected = reference({q: {d: 1 for d in ids} for q, ids in binary.items()}, run, 1)
    for q, ids in list(binary.items())[:500]:
        ranking, want = trec_order(run[q]), expected[q]
        for relevant in (ids, sorted(ids)):
            close(recall_at_k(relevant, ranking, 5), want["recall_5"], q)
            close(average_precision(relevant, ranking), want["map"], q)
            close(ndcg_at_k(relevant, ranking, 10), want["ndcg_cut_10"], q)


def test_ndcg_ignores_the_relevance_level_like_trec_eval(batch):
    qrels, run = batch
    at_1, at_2 = reference(qrels, run, 1), reference(qrels, run, 2)
    differs = 0
    for q in qrels:
        assert at_1[q]["ndcg"] == at_2[q]["ndcg"] and at_1[q]["ndcg_cut_5"] == at_2[q]["ndcg_cut_5"]
        differs += at_1[q]["map"] != at_2[q]["map"]
    assert differs > 100  # while the level does change the binary measures


# --------------------------------------------------------------------------- evaluate
METRIC_NAMES = ["mrr", "map", "ndcg", "r_precision"] + [
    f"{m}@{k}" for k in KS for m in ("recall", "precision", "hit_rate", "mrr", "map", "ndcg", "dcg")
]


def trec_name(metric: str) -> str | None:
    """Our metric name -> key in ``reference()``; dcg has no trec_eval measure."""
    family, _, k = metric.partition("@")
    if not k:
        return {"mrr": "recip_rank", "map": "map", "ndcg": "ndcg", "r_precision": "Rprec"}[family]
    return {"recall": f"recall_{k}", "precision": f"P_{k}", "hit_rate": f"success_{k}",
            "mrr": f"recip_rank@{k}", "map": f"map_cut_{k}", "ndcg": f"ndcg_cut_{k}", "dcg": None}[family]


def evaluate_batch(seed: int) -> tuple[dict, dict, set, set]:
    """Random qrels and run; some judged queries absent from the run, some run queries not judged."""
    qrels, run = random_batch(seed, N_EVALUATE_QUERIES, prefix="")
    rng = np.random.default_rng(seed + 1)
    # query ids that sort differently as bytes and as numbers or words
    names = {q: str(rng.choice(["q", "Q", "", "q_", "é"])) + q for q in qrels}
    qrels = {names[q]: judged for q, judged in qrels.items()}
    run = {names[q]: scores for q, scores in run.items()}
    missing = {q for q in qrels if rng.random() < 0.05}
    extra = {f"unjudged{i}" for i in range(7)}
    run = {q: s for q, s in run.items() if q not in missing} | {q: {"d1": 1.0} for q in extra}
    return qrels, run, missing, extra


def as_frames(qrels: dict, run: dict, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same data as DataFrames, rows shuffled, with a non-default index."""
    q = pd.DataFrame([(q, d, g) for q, j in qrels.items() for d, g in j.items()],
                     columns=["query_id", "doc_id", "relevance"])
    r = pd.DataFrame([(q, d, s) for q, sc in run.items() for d, s in sc.items()],
                     columns=["query_id", "doc_id", "score"])
    q, r = q.sample(frac=1, random_state=rng), r.sample(frac=1, random_state=rng)
    return q.set_index(np.arange(len(q)) * 3 + 7), r.assign(extra_column="ignored")


def check_against_reference(scores: pd.DataFrame, qrels: dict, run: dict, level: int) -> None:
    expected = reference(qrels, run, level)
    assert list(scores.index) == sorted(qrels)
    assert list(scores.columns) == METRIC_NAMES
    # pytrec_eval leaves out queries absent from the run; evaluate scores them 0
    assert set(expected) == set(qrels) & set(run)
    for q in sorted(set(qrels) - set(run)):
        assert (scores.loc[q] == 0).all(), q
    for q, want in expected.items():
        row, grades = scores.loc[q], qrels[q]
        for metric in METRIC_NAMES:
            name = trec_name(metric)
            if name is not None:
                close(row[metric], want[name], (q, metric))
        for k in KS:  # dcg@k = ndcg_cut_k x ideal DCG@k, the ideal from every positive judgment
            ideal = dcg_at_k(sorted((g for g in grades.values() if g > 0), reverse=True), k)
            close(row[f"dcg@{k}"], want[f"ndcg_cut_{k}"] * ideal, (q, k, "dcg"))
            ranked_grades = [grades.get(d, 0) for d in trec_order(run[q])]
            close(row[f"dcg@{k}"], dcg_at_k(ranked_grades, k), (q, k, "dcg vs dcg_at_k"))


@pytest.mark.parametrize("seed, level", [(7, 1), (8, 2)])
def test_evaluate_matches_trec_eval_on_dicts_and_frames(seed, level):
    qrels, run, missing, extra = evaluate_batch(seed)
    assert len(missing) >= 10
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from_dicts = evaluate(qrels, run, METRIC_NAMES, relevance_level=level)
    messages = [str(w.message) for w in caught if issubclass(w.category, RagMetricsWarning)]
    assert len(caught) == 2 and len(messages) == 2
    # a query whose run is empty has no results either (pytrec_eval scores it 0: same numbers)
    no_results = missing | {q for q, scores in run.items() if not scores and q in qrels}
    assert messages[0].startswith(f"{len(no_results)} of {len(qrels)} judged queries have no results")
    assert messages[1].startswith(f"{len(extra)} run queries have no judgments")
    check_against_reference(from_dicts, qrels, run, level)

    qrels_df, run_df = as_frames(qrels, run, np.random.default_rng(seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        from_frames = evaluate(qrels_df, run_df, METRIC_NAMES, relevance_level=level)
    check_against_reference(from_frames, qrels, run, level)
    pd.testing.assert_frame_equal(from_dicts, from_frames, check_exact=False, rtol=0, atol=1e-12)


def test_evaluate_with_integer_ids_matches_trec_eval_on_their_text():
    """Integer ids (Python and numpy) are scored as trec_eval scores their decimal text.

    So ties break by the text, byte-wise: doc 9 ranks above doc 10 and doc 100.
    """
    rng = np.random.default_rng(11)
    qrels, run = {}, {}
    for i in range(300):
        grades, scores = random_query(rng)
        as_int = {d: int(rng.integers(0, 400)) for d in set(grades) | set(scores)}
        if len(set(as_int.values())) < len(as_int):
            continue
        query = np.int64(i * 7) if i % 2 else i * 7
        qrels[query] = {np.int64(as_int[d]) if i % 3 else as_int[d]: g for d, g in grades.items()}
        run[query] = {as_int[d]: s for d, s in scores.items()}
    text_qrels = {str(q): {str(d): g for d, g in j.items()} for q, j in qrels.items()}
    text_run = {str(q): {str(d): s for d, s in sc.items()} for q, sc in run.items()}
    with pytest.warns(RagMetricsWarning, match="judged queries have no results"):  # the empty runs
        ours = evaluate(qrels, run, METRIC_NAMES)
    assert list(ours.index) == sorted(text_qrels)  # as text: '1001' < '14' < '7'
    check_against_reference(ours, text_qrels, text_run, 1)
    assert len(qrels) > 200


def test_evaluate_on_a_run_given_as_ranked_lists(batch):
    """``{query: [ids, best first]}`` scores like the same order given as scores."""
    qrels, run = batch
    qrels = dict(list(qrels.items())[:300])
    lists = {q: trec_order(run[q]) for q in qrels}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)  # some runs are empty
        from_lists = evaluate(qrels, lists, METRIC_NAMES)
        from_scores = evaluate(qrels, {q: run[q] for q in qrels}, METRIC_NAMES)
    pd.testing.assert_frame_equal(from_lists, from_scores, check_exact=False, rtol=0, atol=1e-12)


def test_evaluate_default_metrics_match_trec_eval(batch):
    qrels, run = batch
    with pytest.warns(RagMetricsWarning, match="judged queries have no results"):  # the empty runs
        scores = evaluate(qrels, run)
    assert list(scores.columns) == ["recall@5", "precision@5", "hit_rate@5", "mrr", "map", "ndcg@10"]
    expected = reference(qrels, run, 1)
    for q, want in expected.items():
        for metric, name in zip(scores.columns, ["recall_5", "P_5", "success_5", "recip_rank", "map", "ndcg_cut_10"]):
            close(scores.loc[q, metric], want[name], (q, metric))


def test_pytrec_eval_ties_float32_scores():
    """The deliberate difference: 1 + 2**-30 > 1 as doubles (trec_eval 10, us), equal in float32.

    pytrec_eval sees a tie and breaks it by doc id ("d9" > "d10"); we rank d10 first.
    """
    qrels = {"q": {"d9": 1}}
    run = {"q": {"d10": 1.0 + 2.0**-30, "d9": 1.0}}
    assert np.float32(run["q"]["d10"]) == np.float32(run["q"]["d9"])
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q"]["recip_rank"]
    assert theirs == 1.0
    assert evaluate(qrels, run, ["mrr"]).loc["q", "mrr"] == 0.5
    assert reciprocal_rank(qrels["q"], trec_order(run["q"])) == 0.5


def test_exponential_ndcg_is_linear_ndcg_on_exponential_grades(batch):
    """gain="exponential" equals trec_eval's (linear) ndcg on grades replaced by 2**g - 1."""
    qrels, run = batch
    exp_qrels = {q: {d: (2**g - 1 if g > 0 else g) for d, g in j.items()} for q, j in qrels.items()}
    expected = reference(exp_qrels, run, 1)
    for q, grades in list(qrels.items())[:600]:
        ranking = trec_order(run[q])
        close(ndcg_at_k(grades, ranking, None, gain="exponential"), expected[q]["ndcg"], q)
        close(ndcg_at_k(grades, ranking, 5, gain="exponential"), expected[q]["ndcg_cut_5"], q)
        close(ndcg_at_k(exp_qrels[q], ranking, 5), expected[q]["ndcg_cut_5"], q)


def test_all_grades_below_minus_one():
    """A query whose judgments are all <= -2 scores 0 here.

    pytrec_eval 0.5.11 (trec_eval's ``form_res_rels.c``) sizes a per-grade
    counter array by the largest grade + 1, which is negative for such a query:
    in a batch with another query it crashes the interpreter (segmentation
    fault), so the random cases above never contain one. trec_eval treats every
    negative grade as "judged, not relevant", which is what we do.
    """
    qrels = {"a": {"x": 1}, "b": {"y": -2, "z": -3}}
    run = {"a": {"x": 1.0}, "b": {"y": 2.0, "w": 1.0}}
    scores = evaluate(qrels, run, METRIC_NAMES)
    assert (scores.loc["b"] == 0).all() and scores.loc["a", "map"] == 1.0
    assert ndcg_at_k(qrels["b"], ["y", "w"], None) == 0.0


def test_reference_helper_sanity():
    """trec_order and the truncated recip_rank do what the tests above assume."""
    assert trec_order({"d10": 1.0, "d9": 1.0, "D9": 1.0, "é": 0.5, "z": 0.5}) == ["d9", "d10", "D9", "é", "z"]
    expected = reference({"q": {"b": 1}}, {"q": {"a": 2.0, "b": 1.0}}, 1)["q"]
    assert expected["recip_rank"] == 0.5 and expected["recip_rank@1"] == 0.0 and expected["recip_rank@2"] == 0.5
    assert math.isclose(expected["ndcg"], 1 / math.log2(3))
