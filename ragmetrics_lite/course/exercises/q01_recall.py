"""q01_recall: Recall@K written by hand, for ``notebooks/01_recall_at_k.ipynb``.

Expected values come from ``ragmetrics_lite.recall_at_k`` (trec_eval
``recall_k``). Capped recall, which notebook 01 shows as BEIR's ``R_cap@k``, is
a declared mistake with its own diagnosis: this exercise asks for plain recall.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 209 cases (9 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevant, retrieved, k):
    if not relevant:
        return 0.0
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / len(relevant)


def _found(relevant, retrieved, k):
    return sum(1 for doc in retrieved[:k] if doc in relevant)


def _over_k(relevant, retrieved, k):
    return _found(relevant, retrieved, k) / k


def _capped(relevant, retrieved, k):
    return _found(relevant, retrieved, k) / min(len(relevant), k) if relevant else 0.0


def _over_found(relevant, retrieved, k):
    found = _found(relevant, retrieved, k)
    return found / found if found else 0.0


def _over_found_unguarded(relevant, retrieved, k):
    return _found(relevant, retrieved, k) / _found(relevant, retrieved, k)


def _is_hit(relevant, retrieved, k):
    return any(doc in relevant for doc in retrieved[:k])


def _over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    return _found(relevant, retrieved, k) / len(top) if top else 0.0


def _whole_list(relevant, retrieved, k):
    return rml.recall_at_k(relevant, retrieved, len(retrieved))


def _unguarded(relevant, retrieved, k):
    return _found(relevant, retrieved, k) / len(relevant)


q01_recall = FunctionExercise(
    "q01_recall",
    """
    Write my_recall_at_k(relevant, retrieved, k): the share of the relevant documents (a set of ids)
    that appear among the first k ids of the ranked list retrieved (Recall@K, 召回率@K); return 0.0
    when nothing is relevant.
    """,
    notebook="01_recall_at_k",
    reference=lambda relevant, retrieved, k: rml.recall_at_k(relevant, retrieved, k),
    argnames=("relevant", "retrieved", "k"),
    edge_cases=[
        Case((set(), [], 1), "nothing is relevant"),
        Case(({"d1"}, [], 1), "nothing was retrieved"),
        Case(({"d1"}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d2", "d1"], 1), "the relevant document is just below the cut-off"),
        Case(({"d1"}, ["d2", "d1"], 2), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1"], 3), "k is larger than the list"),
        Case(({"d1", "d2"}, ["d1", "d2"], 2), "everything retrieved is relevant"),
        Case(({"d1", "d2", "d3"}, ["d1", "d4"], 2), "more relevant documents than k"),
        Case(
            ({"d1", "d4", "d7"}, ["d1", "d2", "d4", "d5", "d6"], 5),
            "2 of 3 relevant documents in the top 5",
        ),
    ],
    random_case=_cases.query_at_k,
    hints=(
        "Recall asks how much of what should be found was found in the top k. What goes in the "
        "denominator, and what should a query with nothing relevant give?",
        "Count the relevant ids in retrieved[:k], then divide by len(relevant): every relevant "
        "document, found or not, is in the denominator. Check for an empty relevant set first.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(
            _over_k,
            "this divides by k, which is Precision@k; Recall@k divides by the number of relevant documents",
        ),
        Mistake(
            _capped,
            "this divides by min(|relevant|, k), the capped recall R_cap@k of notebook 01; this exercise "
            "asks for plain Recall@k, which divides by all relevant documents even when there are more than k",
        ),
        Mistake(
            _over_found,
            "this gives the hit (success@k), 1 whenever a relevant document is in the top k (dividing the "
            "relevant documents found by themselves does the same); Recall@k divides by all relevant documents",
        ),
        Mistake(
            _is_hit,
            "this returns True or False, the hit (success@k); Recall@k is a number, the relevant "
            "documents in the top k divided by all relevant documents",
        ),
        Mistake(
            _over_found_unguarded,
            "this divides by the relevant documents that were found, so any hit gives 1.0; divide by "
            "all relevant documents",
        ),
        Mistake(
            _over_retrieved,
            "this divides by the number of documents retrieved; Recall@k divides by the number of "
            "relevant documents",
        ),
        Mistake(_whole_list, "this counts relevant documents below rank k too; look only at retrieved[:k]"),
        Mistake(_unguarded, "this fails when nothing is relevant; return 0.0 for such a query"),
    ],
)

check = q01_recall.check
hint = q01_recall.hint
solution = q01_recall.solution
