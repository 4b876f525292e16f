"""q06_dcg: discounted cumulative gain written by hand, for ``notebooks/06_dcg.ipynb``.

Expected values come from ``ragmetrics_lite.dcg_at_k`` (the linear gain of
trec_eval's ``ndcg_cut``, before normalising; a negative grade gains 0).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 209 cases (9 edge cases, 200 random).
"""
from __future__ import annotations

import math

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevances, k):
    total = 0.0
    for rank, grade in enumerate(relevances[:k], start=1):
        total += max(grade, 0) / math.log2(rank + 1)
    return total


def _dcg(relevances, k, discount=lambda rank: math.log2(rank + 1), gain=lambda grade: max(grade, 0)):
    return sum(gain(grade) / discount(rank) for rank, grade in enumerate(relevances[:k], start=1))


def _natural_log(relevances, k):
    return _dcg(relevances, k, discount=lambda rank: math.log(rank + 1))


def _log2_rank(relevances, k):
    return _dcg(relevances, k, discount=math.log2)


def _log2_rank_top_undiscounted(relevances, k):
    return _dcg(relevances, k, discount=lambda rank: math.log2(rank) if rank > 1 else 1.0)


def _shifted(relevances, k):
    return _dcg(relevances, k, discount=lambda rank: math.log2(rank + 2))


def _exponential(relevances, k):
    return rml.dcg_at_k(relevances, k, gain="exponential")


def _raw_grades(relevances, k):
    return _dcg(relevances, k, gain=lambda grade: grade)


def _whole_list(relevances, k):
    return _dcg(relevances, len(relevances))


def _no_discount(relevances, k):
    return _dcg(relevances, k, discount=lambda rank: 1.0)


q06_dcg = FunctionExercise(
    "q06_dcg",
    """
    Write my_dcg_at_k(relevances, k): relevances holds the grades of the ranked documents, best rank
    first; add up grade / log2(rank + 1) over ranks 1..k (DCG, 折扣累积增益). A negative grade
    gains 0, as in trec_eval.
    """,
    notebook="06_dcg",
    reference=lambda relevances, k: rml.dcg_at_k(relevances, k),
    argnames=("relevances", "k"),
    edge_cases=[
        Case(([], 1), "an empty list"),
        Case(([1], 1), "one document at rank 1"),
        Case(([0], 1), "a grade-0 document"),
        Case(([2], 3), "k is larger than the list"),
        Case(([0, 3], 1), "a relevant document just below the cut-off"),
        Case(([-1, 3], 2), "a negative grade at rank 1"),
        Case(([1, 1], 2), "two equal grades at ranks 1 and 2"),
        Case(([2, 3, 0], 3), "grades 2, 3, 0"),
        Case(([3, 2, 1, 3], 4), "grades 3, 2, 1, 3"),
    ],
    random_case=_cases.grades_at_k,
    hints=(
        "Each of the top k grades is added after being shrunk by a factor that grows with its rank. "
        "What is that factor at rank 1, and what should a negative grade add?",
        "Loop over enumerate(relevances[:k], start=1) and add max(grade, 0) / math.log2(rank + 1): rank 1 "
        "is divided by log2(2) = 1, rank 2 by log2(3), and so on. The gain is the grade itself.",
    ),
    solution=reference_solution,
    solution_imports="import math",
    mistakes=[
        Mistake(_natural_log, "this uses the natural log; the discount is log2(rank + 1)"),
        Mistake(
            _log2_rank,
            "this divides by log2(rank) (or log2(i + 1) with i counting from 0), which is 0 at rank 1; "
            "the discount at rank r, counting from 1, is log2(r + 1)",
        ),
        Mistake(
            _log2_rank_top_undiscounted,
            "this divides by log2(rank), with rank 1 left undiscounted; this exercise divides by "
            "log2(rank + 1)",
        ),
        Mistake(_shifted, "this shifts the discount down one rank; rank 1 is divided by log2(2) = 1"),
        Mistake(
            _exponential,
            "this uses the exponential gain 2**rel - 1; this exercise uses the grade itself as the gain",
        ),
        Mistake(
            _raw_grades,
            "this lets a negative grade subtract from the sum; a grade below 0 gains 0 (trec_eval's rule)",
        ),
        Mistake(_whole_list, "this adds the grades below rank k too; use relevances[:k]"),
        Mistake(_no_discount, "this is the cumulative gain, with no discount; divide by log2(rank + 1)"),
    ],
)

check = q06_dcg.check
hint = q06_dcg.hint
solution = q06_dcg.solution
