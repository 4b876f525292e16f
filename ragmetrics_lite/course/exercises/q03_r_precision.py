"""q03_r_precision: R-precision written by hand, for the "Going further" of ``notebooks/03_precision_at_k.ipynb``.

Expected values come from ``ragmetrics_lite.r_precision`` (trec_eval ``Rprec``):
precision at rank R, where R is the number of relevant documents.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 207 cases (7 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevant, retrieved):
    r = len(relevant)
    if r == 0:
        return 0.0
    return sum(1 for doc in retrieved[:r] if doc in relevant) / r


def _found_in_top_r(relevant, retrieved):
    return sum(1 for doc in retrieved[: len(relevant)] if doc in relevant)


def _over_retrieved(relevant, retrieved):
    return _found_in_top_r(relevant, retrieved) / len(retrieved) if retrieved else 0.0


def _precision_of_list(relevant, retrieved):
    return sum(1 for doc in retrieved if doc in relevant) / len(retrieved) if retrieved else 0.0


def _precision_at_10(relevant, retrieved):
    return rml.precision_at_k(relevant, retrieved, 10)


def _over_min(relevant, retrieved):
    shorter = min(len(relevant), len(retrieved))
    return _found_in_top_r(relevant, retrieved) / shorter if shorter else 0.0


def _whole_list_over_r(relevant, retrieved):
    return rml.recall_at_k(relevant, retrieved, max(len(retrieved), 1))


def _unguarded(relevant, retrieved):
    return _found_in_top_r(relevant, retrieved) / len(relevant)


q03_r_precision = FunctionExercise(
    "q03_r_precision",
    """
    Write my_r_precision(relevant, retrieved): the precision of the ranked list retrieved at rank
    R = len(relevant), the number of relevant documents (R-precision, R-精确率). Positions past the
    end of a list shorter than R count as misses; return 0.0 when nothing is relevant.
    """,
    notebook="03_precision_at_k",
    reference=lambda relevant, retrieved: rml.r_precision(relevant, retrieved),
    argnames=("relevant", "retrieved"),
    edge_cases=[
        Case((set(), []), "nothing is relevant"),
        Case(({"d1"}, []), "nothing was retrieved"),
        Case(({"d1"}, ["d1"]), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d2", "d1"]), "the relevant document is just below rank R = 1"),
        Case(({"d1", "d2"}, ["d1"]), "fewer documents retrieved than R"),
        Case(({"d1", "d2"}, ["d1", "d3", "d2"]), "relevant documents at ranks 1 and 3, R = 2"),
        Case(
            ({"d1", "d4", "d7"}, [f"d{i}" for i in range(1, 11)]),
            "notebook 03's list: relevant documents at ranks 1, 4 and 7 of 10",
        ),
    ],
    random_case=_cases.query,
    hints=(
        "R-precision is Precision@K with a cut-off each query picks for itself. Which number is it, and "
        "what should a query with nothing relevant give?",
        "Let R = len(relevant) and return 0.0 when R is 0. Count the relevant ids in retrieved[:R] and "
        "divide by R itself, even when fewer than R documents were retrieved.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(
            _over_retrieved,
            "this divides by the number of documents retrieved; R-precision divides by R, the number of "
            "relevant documents",
        ),
        Mistake(
            _precision_of_list,
            "this is the precision of the whole list, Precision@K with K = len(retrieved); R-precision cuts "
            "the list at K = R, the number of relevant documents",
        ),
        Mistake(
            _precision_at_10,
            "this is Precision@10, a cut-off K fixed in advance; R-precision cuts at R = len(relevant), "
            "which differs from query to query",
        ),
        Mistake(
            _over_min,
            "this divides by min(R, len(retrieved)); when fewer than R documents were retrieved the empty "
            "positions still count as misses, so divide by R",
        ),
        Mistake(
            _whole_list_over_r,
            "this counts relevant documents below rank R too (it is the recall of the whole list); look "
            "only at retrieved[:R]",
        ),
        Mistake(_unguarded, "this fails when nothing is relevant; return 0.0 for such a query"),
    ],
)

check = q03_r_precision.check
hint = q03_r_precision.hint
solution = q03_r_precision.solution
