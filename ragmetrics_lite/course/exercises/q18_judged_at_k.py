"""q18_judged_at_k: Judged@k written by hand, for ``notebooks/18_capstone_golden_set.ipynb``.

Expected values come from ``ragmetrics_lite.judged_at_k`` (the share of the top k
that carries a judgment, divided by k; trec_eval has no such measure, ir_measures'
``Judged@k`` is the nearest, with the differences its docstring lists).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(grades, ranking, k):
    return sum(1 for doc in ranking[:k] if doc in grades) / k


def _over_retrieved(grades, ranking, k):
    top = ranking[:k]
    return sum(1 for doc in top if doc in grades) / len(top) if top else 0.0


def _relevant_only(grades, ranking, k):
    return sum(1 for doc in ranking[:k] if grades.get(doc, 0) > 0) / k


def _whole_ranking(grades, ranking, k):
    return sum(1 for doc in ranking if doc in grades) / k


def _unjudged_share(grades, ranking, k):
    return sum(1 for doc in ranking[:k] if doc not in grades) / k


def _over_judged(grades, ranking, k):
    return sum(1 for doc in ranking[:k] if doc in grades) / len(grades) if grades else 0.0


q18_judged_at_k = FunctionExercise(
    "q18_judged_at_k",
    """
    Write my_judged_at_k(grades, ranking, k): the share of the top k of ranking (document ids, best
    first) that carry a judgment in grades ({doc_id: grade}; any grade counts, 0 and negative
    included), divided by k even when fewer than k documents were retrieved (Judged@k, 已标注比例).
    """,
    notebook="18_capstone_golden_set",
    reference=lambda grades, ranking, k: rml.judged_at_k(grades, ranking, k),
    argnames=("grades", "ranking", "k"),
    edge_cases=[
        Case(({}, [], 1), "nothing judged, nothing retrieved"),
        Case(({"d1": 2}, [], 10), "a query the run returns nothing for"),
        Case(({"d1": 2}, ["d1"], 1), "the only result is judged"),
        Case(({"d1": 0}, ["d1", "d2"], 2), "a result judged not relevant (grade 0)"),
        Case(({"d1": 3}, ["d2", "d3", "d1"], 2), "the judged document is just below k"),
        Case(({"d1": 1, "d2": 2}, ["d1", "d2"], 5), "fewer results than k"),
        Case(({"d3": -1}, ["d3", "d4"], 2), "a negative grade is a judgment too"),
        Case(({"d1": 2, "d2": 0, "d4": 1}, ["d1", "d5", "d2", "d6"], 4), "judged, unjudged, judged, unjudged"),
    ],
    random_case=_cases.judged_query_at_k,
    hints=(
        "Judged@k asks whether a document was looked at, not whether it is relevant. Which dictionary "
        "lookup says that, and what is the denominator when the run returned fewer than k?",
        "Count the ids in ranking[:k] that are keys of grades, whatever their grade, and divide by k "
        "itself (an empty ranking gives 0.0).",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(
            _over_retrieved,
            "this divides by the number retrieved (as recent ir_measures versions do); Judged@k divides by "
            "k, so a short list counts its empty positions as unjudged",
        ),
        Mistake(
            _relevant_only,
            "this counts only documents with a positive grade; a document graded 0 (or below) was judged "
            "too: judged is not the same as relevant",
        ),
        Mistake(_whole_ranking, "this counts judged documents below rank k too; look only at ranking[:k]"),
        Mistake(_unjudged_share, "this is the unjudged share, 1 - Judged@k; count the judged ones"),
        Mistake(
            _over_judged,
            "this divides by the number of judged documents; Judged@k divides by k, the positions looked at",
        ),
    ],
)

check = q18_judged_at_k.check
hint = q18_judged_at_k.hint
solution = q18_judged_at_k.solution
