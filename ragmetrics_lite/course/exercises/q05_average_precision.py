"""q05_average_precision: average precision written by hand, for ``notebooks/05_map.ipynb``.

Expected values come from ``ragmetrics_lite.average_precision`` (trec_eval
``map`` for one query). One mistake comes from the source notes: averaging over
the retrieved relevant documents only.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevant, retrieved):
    if not relevant:
        return 0.0
    found, total = 0, 0.0
    for rank, doc in enumerate(retrieved, start=1):
        if doc in relevant:
            found += 1
            total += found / rank
    return total / len(relevant)


def _precisions_at_hits(relevant, retrieved):
    ranks = [rank for rank, doc in enumerate(retrieved, start=1) if doc in relevant]
    return [found / rank for found, rank in enumerate(ranks, start=1)]


def _over_found(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return sum(precisions) / len(precisions) if precisions else 0.0


def _over_found_unguarded(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return sum(precisions) / len(precisions)


def _precision_of_list(relevant, retrieved):
    return sum(1 for doc in retrieved if doc in relevant) / len(retrieved) if retrieved else 0.0


def _precision_at_last_hit(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return precisions[-1] if precisions else 0.0


def _every_rank(relevant, retrieved):
    if not relevant or not retrieved:
        return 0.0
    precisions = [rml.precision_at_k(relevant, retrieved, rank) for rank in range(1, len(retrieved) + 1)]
    return sum(precisions) / len(precisions)


def _unguarded(relevant, retrieved):
    return sum(_precisions_at_hits(relevant, retrieved)) / len(relevant)


_OVER_FOUND = (
    "this divides by the relevant documents that were retrieved; AP divides by all relevant "
    "documents, so a missed one counts 0"
)
_PRECISION_AT_K = "this is Precision@K, not the mean of the precisions at the ranks of the relevant documents"

q05_average_precision = FunctionExercise(
    "q05_average_precision",
    """
    Write my_average_precision(relevant, retrieved): at each rank of the ranked list retrieved that
    holds a relevant document, take the precision of the list down to that rank; add these up and
    divide by the number of ALL relevant documents, retrieved or not (AP, 平均精度). Return 0.0
    when nothing is relevant.
    """,
    notebook="05_map",
    reference=lambda relevant, retrieved: rml.average_precision(relevant, retrieved),
    argnames=("relevant", "retrieved"),
    edge_cases=[
        Case((set(), []), "nothing is relevant"),
        Case(({"d1"}, []), "nothing was retrieved"),
        Case(({"d1"}, ["d1"]), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d2", "d1"]), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1"]), "one of two relevant documents was never retrieved"),
        Case(({"d1", "d2"}, ["d2", "d1"]), "everything retrieved is relevant"),
        Case(({"d1", "d2"}, ["d1", "d3", "d2"]), "relevant documents at ranks 1 and 3"),
        Case(
            ({"d1", "d4", "d7"}, ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10"]),
            "relevant documents at ranks 1, 4 and 7 of 10",
        ),
    ],
    random_case=_cases.query,
    hints=(
        "AP averages several precisions. At which ranks do you take them, and how many relevant "
        "documents does the average divide by, found or not?",
        "Walk down the list with enumerate(retrieved, start=1) and count the relevant ids seen so far; "
        "at each relevant id add found / rank. Divide the sum by len(relevant), not by the number found.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_over_found, _OVER_FOUND),
        Mistake(_over_found_unguarded, _OVER_FOUND),
        Mistake(_precision_of_list, _PRECISION_AT_K),
        Mistake(_precision_at_last_hit, _PRECISION_AT_K),
        Mistake(
            _every_rank,
            "this averages the precision at every rank; AP takes it only at the ranks of relevant documents",
        ),
        Mistake(_unguarded, "this fails when nothing is relevant; return 0.0 for such a query"),
    ],
)

check = q05_average_precision.check
hint = q05_average_precision.hint
solution = q05_average_precision.solution
