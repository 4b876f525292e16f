"""q03_precision: Precision@K written by hand, for ``notebooks/03_precision_at_k.ipynb``.

Expected values come from ``ragmetrics_lite.precision_at_k`` (trec_eval
``P_k``, which divides by k even when fewer than k documents were retrieved).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevant, retrieved, k):
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / k


def _over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    return sum(1 for doc in top if doc in relevant) / len(top) if top else 0.0


def _over_retrieved_unguarded(relevant, retrieved, k):
    top = retrieved[:k]
    return sum(1 for doc in top if doc in relevant) / len(top)


def _over_relevant(relevant, retrieved, k):
    return rml.recall_at_k(relevant, retrieved, k)


def _whole_list(relevant, retrieved, k):
    return sum(1 for doc in retrieved if doc in relevant) / k


_DIVIDE_BY_K = (
    "this divides by the number of documents retrieved; Precision@k divides by k even when fewer "
    "than k documents were retrieved"
)

q03_precision = FunctionExercise(
    "q03_precision",
    """
    Write my_precision_at_k(relevant, retrieved, k): the share of the top k positions of the ranked
    list retrieved that hold a relevant document (Precision@K, 精确率@K). Divide by k even when
    fewer than k documents were retrieved.
    """,
    notebook="03_precision_at_k",
    reference=lambda relevant, retrieved, k: rml.precision_at_k(relevant, retrieved, k),
    argnames=("relevant", "retrieved", "k"),
    edge_cases=[
        Case((set(), [], 1), "nothing is relevant"),
        Case(({"d1"}, [], 1), "nothing was retrieved"),
        Case(({"d1"}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d1"], 2), "k is larger than the list"),
        Case(({"d1"}, ["d2", "d1"], 1), "the relevant document is just below the cut-off"),
        Case(({"d1"}, ["d2", "d1"], 2), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1", "d2"], 2), "everything retrieved is relevant"),
        Case(({"d1", "d4", "d7"}, ["d1", "d2", "d4", "d5", "d6"], 5), "2 of the top 5 are relevant"),
    ],
    random_case=_cases.query_at_k,
    hints=(
        "Precision asks how clean the top k positions are. How many positions are there when the "
        "list is shorter than k?",
        "Count the relevant ids in retrieved[:k] and divide by k itself. A list shorter than k still "
        "has k positions to fill: the empty ones count as misses.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_over_retrieved, _DIVIDE_BY_K),
        Mistake(_over_retrieved_unguarded, _DIVIDE_BY_K),
        Mistake(_over_relevant, "this divides by the number of relevant documents, which is Recall@k"),
        Mistake(_whole_list, "this counts relevant documents below rank k too; look only at retrieved[:k]"),
    ],
)

check = q03_precision.check
hint = q03_precision.hint
solution = q03_precision.solution
