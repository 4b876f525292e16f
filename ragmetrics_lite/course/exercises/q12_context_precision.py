"""q12_context_precision: context precision from a judge's chunk verdicts, for ``notebooks/12_context_relevancy.ipynb``.

Context precision is average precision over the ranked chunks, each judged relevant or not.
Expected values come from ``ragmetrics_lite.average_precision`` (trec_eval ``map`` for one
query) with the relevant set taken from the verdicts themselves, so the denominator counts the
relevant chunks *among those retrieved*; this is what ``rml.triad.context_precision`` and ragas'
``ContextPrecision`` compute from their verdicts. No chunk relevant gives 0.0; no chunk at all
gives NaN (nothing to judge), as ``rml.triad.context_precision`` does, where ragas' epsilon in
the denominator gives 0.0.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math

import ragmetrics_lite as rml
from ._checker import Case, FunctionExercise, Mistake, same


def reference_solution(verdicts):
    if not verdicts:
        return math.nan
    found, total = 0, 0.0
    for rank, relevant in enumerate(verdicts, start=1):
        if relevant:
            found += 1
            total += found / rank
    return total / found if found else 0.0


def _reference(verdicts):
    if not verdicts:
        return math.nan
    ranks = list(range(1, len(verdicts) + 1))
    return rml.average_precision({r for r, v in zip(ranks, verdicts) if v}, ranks)


def _same_or_both_nan(got, expected):
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(got, float) and math.isnan(got)
    return same(got, expected)


def _precisions_at_hits(verdicts):
    hits = [rank for rank, v in enumerate(verdicts, start=1) if v]
    return [found / rank for found, rank in enumerate(hits, start=1)]


def _zero_when_empty(verdicts):
    precisions = _precisions_at_hits(verdicts)
    return sum(precisions) / len(precisions) if precisions else 0.0


def _unguarded(verdicts):
    precisions = _precisions_at_hits(verdicts)
    return sum(precisions) / len(precisions)


def _over_all_chunks(verdicts):
    return sum(_precisions_at_hits(verdicts)) / len(verdicts) if verdicts else math.nan


def _share_relevant(verdicts):
    return sum(1 for v in verdicts if v) / len(verdicts) if verdicts else math.nan


def _first_relevant(verdicts):
    if not verdicts:
        return math.nan
    return next((1 / rank for rank, v in enumerate(verdicts, start=1) if v), 0.0)


def _every_rank(verdicts):
    if not verdicts:
        return math.nan
    found = [sum(1 for v in verdicts[:rank] if v) for rank in range(1, len(verdicts) + 1)]
    return sum(f / rank for rank, f in enumerate(found, start=1)) / len(verdicts)


def _random_verdicts(rng):
    """0-7 verdicts: often all irrelevant or all relevant, sometimes none at all."""
    p_relevant = rng.choice((0.0, 0.2, 0.5, 0.5, 0.8, 1.0))
    return ([rng.random() < p_relevant for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 7)))],)


q12_context_precision = FunctionExercise(
    "q12_context_precision",
    """
    Write my_context_precision(verdicts): verdicts[i] is True when the chunk at rank i + 1 was judged
    relevant to the question. Return the average precision of the ranking: at each relevant chunk
    take the share of relevant chunks down to its rank, and average these over the relevant chunks
    (上下文精确率). Return 0.0 when no chunk is relevant, and math.nan when there are no chunks at
    all: there is nothing to judge.
    """,
    notebook="12_context_relevancy",
    reference=_reference,
    argnames=("verdicts",),
    edge_cases=[
        Case(([],), "no chunks: nothing to judge"),
        Case(([True],), "one relevant chunk"),
        Case(([False],), "one irrelevant chunk"),
        Case(([False, True],), "the relevant chunk is second"),
        Case(([True, True, False],), "the relevant chunks come first"),
        Case(([False, False, False],), "every chunk is irrelevant"),
        Case(([False, True, False, True],), "relevant chunks at ranks 2 and 4"),
        Case(([True, False, False, True, False, False, True, False, False, False],),
             "relevant chunks at ranks 1, 4 and 7 of 10 (notebook 05's list)"),
    ],
    random_case=_random_verdicts,
    hints=(
        "Precision is taken at some ranks only. Which ones, and what does the average divide by when "
        "the judge has only seen the retrieved chunks? What if it found nothing relevant, or got no chunks?",
        "If verdicts is empty, return math.nan. Walk down with enumerate(verdicts, start=1), counting the "
        "relevant chunks seen so far; at each relevant one add found / rank. Divide the sum by found, or "
        "return 0.0 when found is 0.",
    ),
    solution=reference_solution,
    solution_imports="import math",
    compare=_same_or_both_nan,
    mistakes=[
        Mistake(_zero_when_empty, "with no chunks there is nothing to judge: return math.nan, not 0.0 "
                "(ragas' epsilon gives 0.0, which looks like a retrieval of only irrelevant chunks)"),
        Mistake(_unguarded, "this divides by zero when no chunk is relevant (or there are none); "
                "return 0.0 when nothing relevant was retrieved, math.nan when nothing was retrieved"),
        Mistake(_over_all_chunks, "this divides by the number of chunks; average precision divides "
                "by the number of relevant chunks"),
        Mistake(_share_relevant, "this is the share of relevant chunks, blind to their order; average "
                "precision rewards relevant chunks ranked early"),
        Mistake(_first_relevant, "this is the reciprocal rank of the first relevant chunk (notebook 04); "
                "average precision averages the precision at every relevant chunk"),
        Mistake(_every_rank, "this averages the precision at every rank; take it only at the ranks "
                "of relevant chunks"),
    ],
)

check = q12_context_precision.check
hint = q12_context_precision.hint
solution = q12_context_precision.solution
