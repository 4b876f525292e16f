"""q02_hit_rate: Hit Rate@K over a dataset, written by hand, for ``notebooks/02_hit_rate_at_k.ipynb``.

Expected values are the mean of ``ragmetrics_lite.hit_at_k`` over the queries
(trec_eval ``success_k``, averaged).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import statistics

import ragmetrics_lite as rml
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(relevant_sets, rankings, k):
    hits = 0
    for relevant, retrieved in zip(relevant_sets, rankings):
        if any(doc in relevant for doc in retrieved[:k]):
            hits += 1
    return hits / len(rankings)


def _expected(relevant_sets, rankings, k):
    return statistics.fmean(rml.hit_at_k(rel, ranking, k) for rel, ranking in zip(relevant_sets, rankings))


def _mean_recall(relevant_sets, rankings, k):
    recalls = [rml.recall_at_k(rel, ranking, k) for rel, ranking in zip(relevant_sets, rankings)]
    return sum(recalls) / len(rankings)


def _counts_every_hit(relevant_sets, rankings, k):
    found = sum(sum(1 for doc in ranking[:k] if doc in rel) for rel, ranking in zip(relevant_sets, rankings))
    return found / len(rankings)


def _whole_list(relevant_sets, rankings, k):
    return reference_solution(relevant_sets, rankings, max([len(r) for r in rankings] + [1]))


q02_hit_rate = FunctionExercise(
    "q02_hit_rate",
    """
    Write my_hit_rate(relevant_sets, rankings, k): over a dataset of queries (relevant_sets[i] and
    rankings[i] belong to query i), the share of queries whose top k holds at least one relevant
    document (Hit Rate@K, 命中率@K).
    """,
    notebook="02_hit_rate_at_k",
    reference=_expected,
    argnames=("relevant_sets", "rankings", "k"),
    edge_cases=[
        Case(([set()], [[]], 1), "nothing is relevant"),
        Case(([{"d1"}], [["d1"]], 1), "a hit at rank 1"),
        Case(([{"d1"}], [["d2", "d1"]], 1), "the relevant document is just below the cut-off"),
        Case(([{"d1", "d2"}], [["d1"]], 3), "one of two relevant documents found, k larger than the list"),
        Case(([{"d1"}, {"d2"}], [["d1"], ["d1"]], 1), "one query of two has a hit"),
        Case(([{"d1", "d2"}, {"d3"}], [["d1", "d2"], ["d4"]], 2), "two hits in one query, none in the other"),
        Case(
            ([{"d1", "d2", "d3", "d4"}], [["d1", "d5", "d6", "d7", "d8"]], 5),
            "1 of 4 relevant documents found: a hit all the same",
        ),
        Case(([{"d1"}] * 10, [["d1"]] * 7 + [["d2"]] * 3, 1), "10 queries, 7 with a hit"),
    ],
    random_case=_cases.dataset_at_k,
    hints=(
        "Each query gets a yes or a no. What question decides it, and what do you divide by?",
        "For each query ask: is any id in its ranking[:k] relevant? Count the yeses and divide by the "
        "number of queries. How many relevant documents were found does not matter.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(
            _mean_recall,
            "this is the mean Recall@k; a query counts 1 as soon as one relevant document is in its top k",
        ),
        Mistake(_counts_every_hit, "this counts every relevant document found; a query counts at most 1"),
        Mistake(_whole_list, "this looks below rank k too; look only at each ranking[:k]"),
    ],
)

check = q02_hit_rate.check
hint = q02_hit_rate.hint
solution = q02_hit_rate.solution
