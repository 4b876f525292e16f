"""q04_mrr: mean reciprocal rank written by hand, for ``notebooks/04_mrr.ipynb``.

Expected values are the mean of ``ragmetrics_lite.reciprocal_rank`` over the
queries (trec_eval ``recip_rank``, averaged). One mistake comes from the source
notes: scoring the first result whether it is relevant or not.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import statistics

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(predictions, ground_truths):
    total = 0.0
    for retrieved, relevant in zip(predictions, ground_truths):
        for rank, doc in enumerate(retrieved, start=1):
            if doc in relevant:
                total += 1 / rank
                break
    return total / len(predictions)


def _reciprocal_ranks(predictions, ground_truths):
    return [rml.reciprocal_rank(relevant, ranking) for ranking, relevant in zip(predictions, ground_truths)]


def _expected(predictions, ground_truths):
    return statistics.fmean(_reciprocal_ranks(predictions, ground_truths))


def _first_result(predictions, ground_truths):
    return sum(1.0 for retrieved in predictions if retrieved) / len(predictions)


def _always_one(predictions, ground_truths):
    return 1.0


def _hit_rate(predictions, ground_truths):
    hits = [any(doc in relevant for doc in ranking) for ranking, relevant in zip(predictions, ground_truths)]
    return sum(hits) / len(predictions)


def _every_hit(predictions, ground_truths):
    total = 0.0
    for retrieved, relevant in zip(predictions, ground_truths):
        total += sum(1 / rank for rank, doc in enumerate(retrieved, start=1) if doc in relevant)
    return total / len(predictions)


def _skips_misses(predictions, ground_truths):
    hits = [s for s in _reciprocal_ranks(predictions, ground_truths) if s > 0]
    return sum(hits) / len(hits) if hits else 0.0


_FIRST_RESULT = "this is the score of the first result, relevant or not; use the rank of the first relevant one"

q04_mrr = FunctionExercise(
    "q04_mrr",
    """
    Write my_mrr(predictions, ground_truths): predictions[i] is the ranked list of ids for query i and
    ground_truths[i] its set of relevant ids. Score each query 1/rank of its first relevant result
    (0 if there is none) and return the mean over the queries (MRR, 平均倒数排名).
    """,
    notebook="04_mrr",
    reference=_expected,
    argnames=("predictions", "ground_truths"),
    edge_cases=[
        Case(([["d2"]], [{"d1"}]), "the only result is not relevant"),
        Case(([[]], [{"d1"}]), "nothing was retrieved"),
        Case(([["d1"]], [set()]), "nothing is relevant"),
        Case(([["d1"]], [{"d1"}]), "the first result is relevant"),
        Case(([["d2", "d1"]], [{"d1"}]), "the first relevant result is at rank 2"),
        Case(([["d1", "d2"]], [{"d1", "d2"}]), "two relevant results; only the first counts"),
        Case(([["d1"], ["d2"]], [{"d1"}, {"d1"}]), "one query of two has no relevant result"),
        Case(
            ([["d1", "d2", "d3"], ["d4", "d5", "d6"], ["d7", "d8", "d9"]], [{"d1"}, {"d6"}, {"d8"}]),
            "first relevant results at ranks 1, 3 and 2",
        ),
    ],
    random_case=_cases.dataset,
    hints=(
        "Each query contributes one number that depends on a single document of its list. Which "
        "document, and what does a query contribute when it has none?",
        "For each query walk down the list with enumerate(retrieved, start=1); at the first relevant id "
        "add 1 / rank and break. A query with no relevant result adds 0 but still counts in the mean.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_first_result, _FIRST_RESULT),
        Mistake(_always_one, _FIRST_RESULT),
        Mistake(
            _hit_rate,
            "this scores 1 for every query with a relevant result anywhere, which is the hit rate; "
            "score 1/rank of the first relevant result",
        ),
        Mistake(_every_hit, "this adds 1/rank for every relevant result; stop after the first one (break)"),
        Mistake(
            _skips_misses,
            "this leaves out the queries without a relevant result; each of them counts 0 in the mean",
        ),
    ],
)

check = q04_mrr.check
hint = q04_mrr.hint
solution = q04_mrr.solution
