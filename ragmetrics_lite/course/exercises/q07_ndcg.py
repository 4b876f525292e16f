"""q07_ndcg: normalised DCG written by hand, for ``notebooks/07_ndcg.ipynb``.

Expected values come from ``ragmetrics_lite.ndcg_at_k`` (trec_eval
``ndcg_cut_k``: linear gain, a negative grade gains 0, the ideal ranking built
from every judged document). One mistake comes from the source notes: the
ideal ranking built from the retrieved documents only.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 212 cases (12 edge cases, 200 random).
"""
from __future__ import annotations

import math

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(ground_truth, retrieved_ids, k):
    def dcg(grades):
        return sum(max(g, 0) / math.log2(rank + 1) for rank, g in enumerate(grades[:k], start=1))

    ideal = sorted((g for g in ground_truth.values() if g > 0), reverse=True)
    idcg = dcg(ideal)
    if idcg == 0:
        return 0.0
    return dcg([ground_truth.get(doc, 0) for doc in retrieved_ids]) / idcg


def _ndcg(ground_truth, retrieved_ids, k, ideal=None, cut_ideal=True, cut_dcg=True, dcg=rml.dcg_at_k):
    """NDCG from the given ideal grades (by default every judged grade > 0), each DCG cut at k or not."""
    if ideal is None:
        ideal = sorted((g for g in ground_truth.values() if g > 0), reverse=True)
    idcg = dcg(ideal, k if cut_ideal else None)
    if idcg == 0:
        return 0.0
    return dcg([ground_truth.get(doc, 0) for doc in retrieved_ids], k if cut_dcg else None) / idcg


def _ideal_from_retrieved(ground_truth, retrieved_ids, k):
    ideal = sorted((ground_truth.get(doc, 0) for doc in retrieved_ids), reverse=True)
    return _ndcg(ground_truth, retrieved_ids, k, ideal)


def _ideal_from_top_k(ground_truth, retrieved_ids, k):
    ideal = sorted((ground_truth.get(doc, 0) for doc in retrieved_ids[:k]), reverse=True)
    return _ndcg(ground_truth, retrieved_ids, k, ideal)


def _ideal_uncut(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, cut_ideal=False)


def _dcg_uncut(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, cut_dcg=False)


def _exponential(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, dcg=lambda grades, k: rml.dcg_at_k(grades, k, "exponential"))


def _raw_grades(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, dcg=lambda grades, k: sum(
        g / math.log2(rank + 1) for rank, g in enumerate(grades[:k], start=1)))


def _log2_rank(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, dcg=lambda grades, k: sum(
        max(g, 0) / math.log2(rank) for rank, g in enumerate(grades[:k], start=1)))


def _unguarded(ground_truth, retrieved_ids, k):
    ideal = sorted((g for g in ground_truth.values() if g > 0), reverse=True)
    return rml.dcg_at_k([ground_truth.get(doc, 0) for doc in retrieved_ids], k) / rml.dcg_at_k(ideal, k)


_IDEAL_FROM_RETRIEVED = (
    "this builds the ideal ranking from the retrieved documents only; IDCG sorts every judged "
    "document with a grade > 0, retrieved or not"
)

q07_ndcg = FunctionExercise(
    "q07_ndcg",
    """
    Write my_ndcg_at_k(ground_truth, retrieved_ids, k): ground_truth maps judged doc ids to grades
    (unjudged ids have grade 0, a negative grade gains 0). Divide the DCG@k of retrieved_ids by the
    IDCG@k, the DCG@k of every judged grade > 0 sorted from high to low; return 0.0 when the IDCG
    is 0 (NDCG, 归一化折扣累积增益).
    """,
    notebook="07_ndcg",
    reference=lambda ground_truth, retrieved_ids, k: rml.ndcg_at_k(ground_truth, retrieved_ids, k),
    argnames=("ground_truth", "retrieved_ids", "k"),
    edge_cases=[
        Case(({}, [], 1), "nothing is judged"),
        Case(({"d1": 1}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1": 1}, [], 1), "nothing was retrieved"),
        Case(({"d1": 0}, ["d1"], 1), "the only judged document has grade 0"),
        Case(({"d1": 1, "d2": 1}, ["d1"], 1), "two relevant documents, k = 1"),
        Case(({"d1": 2, "d2": 1}, ["d2"], 1), "the best document was never retrieved"),
        Case(({"d1": 0, "d2": 1}, ["d1", "d2"], 2), "a grade-0 judged document on top"),
        Case(({"d1": -1, "d2": 2}, ["d1", "d2"], 2), "a negative grade on top"),
        Case(({"d1": 2, "d2": 2}, ["d2", "d1"], 2), "tied grades in either order"),
        Case(({"d1": 2, "d2": 3, "d3": 0}, ["d1", "d2", "d3"], 3), "grades 2, 3, 0 retrieved in that order"),
        Case(({"A": 3, "B": 2, "C": 1, "D": 3}, list("ABCD"), 4), "grades 3, 2, 1, 3 retrieved in that order"),
        Case(({101: 3, 205: 2, 309: 1}, [999, 205, 101, 888, 309], 5), "unjudged ids 999 and 888 in the list"),
    ],
    random_case=_cases.judged_query_at_k,
    hints=(
        "NDCG is one DCG divided by another. Which ranking gives the second one, which documents may "
        "it use, and what do a negative grade and an unjudged id add?",
        "Look up each retrieved id with ground_truth.get(doc, 0) and gain max(grade, 0). For the ideal "
        "ranking sort ALL the judged grades > 0 from high to low, not only those retrieved. Cut both "
        "lists at k, and return 0.0 if the ideal DCG is 0.",
    ),
    solution=reference_solution,
    solution_imports="import math",
    mistakes=[
        Mistake(_ideal_from_retrieved, _IDEAL_FROM_RETRIEVED),
        Mistake(_ideal_from_top_k, _IDEAL_FROM_RETRIEVED),
        Mistake(_ideal_uncut, "the ideal DCG is not cut at k; cut the ideal ranking at k as well"),
        Mistake(_dcg_uncut, "the DCG of the ranking is not cut at k; use the first k retrieved ids"),
        Mistake(
            _exponential,
            "this uses the exponential gain 2**grade - 1; this exercise uses the grade itself as the gain",
        ),
        Mistake(
            _raw_grades,
            "this uses a negative grade as a negative gain (notebook 07's \"raw grades\"); a grade below 0 "
            "gains 0, as in trec_eval",
        ),
        Mistake(
            _log2_rank,
            "this divides by log2(rank), and log2(1) = 0 at rank 1; the discount at rank r is log2(r + 1)",
        ),
        Mistake(_unguarded, "this fails when no judged document has a grade > 0; return 0.0 when the IDCG is 0"),
    ],
)

check = q07_ndcg.check
hint = q07_ndcg.hint
solution = q07_ndcg.solution
