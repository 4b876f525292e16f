"""q09_rouge_n: ROUGE-N recall written by hand, for ``notebooks/09_rouge_n.ipynb``.

Expected values come from ``ragmetrics_lite.rouge_n(...).recall`` (rouge-score's
``rouge{n}`` recall on the same tokens). The source notes' ROUGE-1 of the
Eiffel summary (0.60) leaves out the shared 的; the right value is 0.7.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

from collections import Counter

import ragmetrics_lite as rml
from . import _cases
from ._cases import SUMMARY_CANDIDATE, SUMMARY_REFERENCE, ngram_counts
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(candidate, reference, n):
    cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    total = sum(ref.values())
    if total == 0:
        return 0.0
    overlap = sum(min(count, cand[gram]) for gram, count in ref.items())
    return overlap / total


def _ngrams(tokens, n):
    return list(ngram_counts(tokens, n).elements())


def _set_overlap(candidate, reference, n):
    ref = _ngrams(reference, n)
    return len(set(_ngrams(candidate, n)) & set(ref)) / len(ref) if ref else 0.0


def _set_overlap_of_sets(candidate, reference, n):
    ref = set(_ngrams(reference, n))
    return len(set(_ngrams(candidate, n)) & ref) / len(ref) if ref else 0.0


def _every_candidate_occurrence(candidate, reference, n):
    ref = _ngrams(reference, n)
    return sum(1 for gram in _ngrams(candidate, n) if gram in ref) / len(ref) if ref else 0.0


def _every_reference_occurrence(candidate, reference, n):
    cand, ref = _ngrams(candidate, n), _ngrams(reference, n)
    return sum(1 for gram in ref if gram in cand) / len(ref) if ref else 0.0


def _precision(candidate, reference, n):
    return rml.rouge_n(candidate, reference, n).precision


def _precision_unguarded(candidate, reference, n):
    cand, ref = ngram_counts(candidate, n), ngram_counts(reference, n)
    return sum((cand & ref).values()) / sum(cand.values())


def _unguarded(candidate, reference, n):
    cand, ref = ngram_counts(candidate, n), ngram_counts(reference, n)
    return sum((cand & ref).values()) / sum(ref.values())


_SET = "this compares sets of n-grams, so a repeated n-gram counts once; count them with collections.Counter"
_PRECISION = (
    "this divides by the candidate's n-grams, which is precision; ROUGE-N recall divides by the reference's"
)

q09_rouge_n = FunctionExercise(
    "q09_rouge_n",
    """
    Write my_rouge_n_recall(candidate, reference, n): ROUGE-N recall, the share of the reference's
    n-grams (n 元组) that the candidate covers. An n-gram the reference has k times and the candidate
    m times counts min(k, m) times. Return 0.0 when the reference has no n-grams.
    """,
    notebook="09_rouge_n",
    reference=lambda candidate, reference, n: rml.rouge_n(candidate, reference, n).recall,
    argnames=("candidate", "reference", "n"),
    edge_cases=[
        Case((["the"], ["the"], 2), "the reference has no 2-grams"),
        Case(([], ["the", "cat"], 1), "an empty candidate"),
        Case((["the", "the", "the"], ["the", "cat"], 1), "the candidate repeats a word the reference has once"),
        Case((["the", "the"], ["the", "the", "cat"], 1), "both repeat a word"),
        Case((["the", "cat"], ["the", "the", "cat"], 1), "the reference repeats a word the candidate has once"),
        Case((["the", "cat", "sat"], ["the", "cat"], 2), "the candidate is longer than the reference"),
        Case((SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 1), "the Eiffel summary pair, ROUGE-1 (的 is shared once)"),
        Case((SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 2), "the Eiffel summary pair, ROUGE-2"),
    ],
    random_case=_cases.rouge_case,
    hints=(
        "Recall looks at the reference's n-grams: how many of them does the candidate cover? Think about "
        "an n-gram that occurs twice on one side and once on the other.",
        "Count the n-grams of each side with collections.Counter over tuple(tokens[i:i + n]). For every "
        "reference n-gram add min(its reference count, its candidate count), then divide by the number of "
        "reference n-grams (the sum of the reference counts). Check for zero reference n-grams first.",
    ),
    solution=reference_solution,
    solution_imports="from collections import Counter",
    mistakes=[
        Mistake(_set_overlap, _SET),
        Mistake(_set_overlap_of_sets, _SET),
        Mistake(
            _every_candidate_occurrence,
            "this counts every candidate n-gram found in the reference, so a repeat in the candidate counts "
            "again; count each n-gram at most min(candidate count, reference count) times",
        ),
        Mistake(
            _every_reference_occurrence,
            "this counts every reference n-gram found in the candidate, even when the candidate has it "
            "fewer times; count each n-gram at most min(candidate count, reference count) times",
        ),
        Mistake(_precision, _PRECISION),
        Mistake(_precision_unguarded, _PRECISION),
        Mistake(_unguarded, "this fails when the reference has no n-grams; return 0.0 then"),
    ],
)

check = q09_rouge_n.check
hint = q09_rouge_n.hint
solution = q09_rouge_n.solution
