"""q08_bleu: BLEU against one reference, written by hand, for ``notebooks/08_bleu.ipynb``.

Expected values come from ``ragmetrics_lite.bleu`` (sacrebleu's BLEU without
smoothing). One mistake comes from the source notes: their Eiffel pair's BLEU
(0.817) takes ln p1 but log10 p2, then exp; the right BLEU-2 is 0.7071.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math
from collections import Counter
from functools import partial

import ragmetrics_lite as rml
from . import _cases
from ._cases import EIFFEL_CANDIDATE, EIFFEL_REFERENCE, ngram_counts
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(candidate, reference, max_n):
    log_total = 0.0
    for n in range(1, max_n + 1):
        cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        if matches == 0:  # also when the candidate has no n-grams of this order
            return 0.0
        log_total += math.log(matches / sum(cand.values()))
    c, r = len(candidate), len(reference)
    brevity_penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return brevity_penalty * math.exp(log_total / max_n)


def _precisions(candidate, reference, max_n, clip=True, guard=True):
    """p_1..p_max_n; an order without candidate n-grams gives 0.0 (or, unguarded, divides by 0)."""
    precisions = []
    for n in range(1, max_n + 1):
        cand, ref = ngram_counts(candidate, n), ngram_counts(reference, n)
        matches = sum(min(c, ref[g]) if clip else c for g, c in cand.items() if g in ref)
        precisions.append(matches / sum(cand.values()) if cand or not guard else 0.0)
    return precisions


def _bleu(candidate, reference, max_n, clip=True, logs=lambda ps: [math.log(p) for p in ps], penalty=None):
    """BP times exp of the mean of ``logs(p_1..p_max_n)``; 0.0 when an order has no match."""
    precisions = _precisions(candidate, reference, max_n, clip)
    if min(precisions) == 0:
        return 0.0
    penalty = rml.brevity_penalty(len(candidate), len(reference)) if penalty is None else penalty
    return penalty * math.exp(sum(logs(precisions)) / max_n)


def _log10_above_one(candidate, reference, max_n):
    # the source notes: ln p1 = -0.1823 but "log 0.6" = -0.2218, which is log10; exp(-0.20205) = 0.817
    return _bleu(candidate, reference, max_n, logs=lambda ps: [math.log(ps[0])] + [math.log10(p) for p in ps[1:]])


_log10_everywhere = partial(_bleu, logs=lambda ps: [math.log10(p) for p in ps])
_unclipped = partial(_bleu, clip=False)
_no_brevity_penalty = partial(_bleu, penalty=1.0)


def _arithmetic_mean(candidate, reference, max_n, guard=True):
    penalty = rml.brevity_penalty(len(candidate), len(reference))
    return penalty * sum(_precisions(candidate, reference, max_n, guard=guard)) / max_n


_arithmetic_mean_unguarded = partial(_arithmetic_mean, guard=False)


def _unguarded(candidate, reference, max_n):
    orders = ((ngram_counts(candidate, n), ngram_counts(reference, n)) for n in range(1, max_n + 1))
    logs = [math.log(sum((cand & ref).values()) / sum(cand.values())) for cand, ref in orders]  # lazily, in order
    return rml.brevity_penalty(len(candidate), len(reference)) * math.exp(sum(logs) / max_n)


def _penalty_swapped(candidate, reference, max_n):
    c, r = len(candidate), len(reference)
    return _bleu(candidate, reference, max_n, penalty=1.0 if c >= r else math.exp(1 - c / r))


def _penalty_swapped_everywhere(candidate, reference, max_n):
    return _bleu(candidate, reference, max_n, penalty=min(1.0, math.exp(1 - len(candidate) / len(reference))))


_LOG10 = (
    "this takes log10 of the precisions but exp() undoes a natural log: use math.log for every order "
    "(the slip that turns the Eiffel pair's BLEU-2 of 0.7071 into 0.817)"
)
_ARITHMETIC = "this averages the precisions; BLEU takes their geometric mean, so an order without a match gives 0"
_SWAPPED = "this swaps r and c in the brevity penalty; it is exp(1 - r/c), r the reference length, when c < r"

q08_bleu = FunctionExercise(
    "q08_bleu",
    """
    Write my_bleu(candidate, reference, max_n): classic BLEU (双语评估替补) of a candidate token list
    against one reference token list, without smoothing: the clipped n-gram precisions p_1..p_max_n
    (截断计数), their geometric mean with equal weights 1/max_n, times the brevity penalty
    (长度惩罚) BP = exp(1 - r/c) when the candidate (c tokens) is shorter than the reference
    (r tokens), else 1. An order with no match (or no candidate n-gram) gives 0.0.
    """,
    notebook="08_bleu",
    reference=lambda candidate, reference, max_n: rml.bleu(candidate, [reference], max_n=max_n),
    argnames=("candidate", "reference", "max_n"),
    edge_cases=[
        Case(([], ["the", "cat"], 1), "an empty candidate"),
        Case((["the"], ["the"], 2), "the candidate is shorter than max_n: it has no 2-grams"),
        Case((["the", "the", "the"], ["the", "cat"], 1), "a repeated word, clipped to its count in the reference"),
        Case((["cat", "the"], ["the", "cat"], 2), "no 2-gram matches"),
        Case((["the", "cat"], ["the", "cat", "sat"], 2), "the candidate is shorter than the reference"),
        Case((["the", "cat", "sat", "on"], ["the", "cat", "sat", "on"], 4), "the candidate is the reference"),
        Case((EIFFEL_CANDIDATE, EIFFEL_REFERENCE, 2), "the Eiffel pair: p1 = 5/6, p2 = 3/5"),
        Case(
            (EIFFEL_CANDIDATE[:3] + EIFFEL_CANDIDATE[4:], EIFFEL_REFERENCE, 2),
            "the Eiffel reference with a 5-token candidate (BP of 5 tokens against 6)",
        ),
    ],
    random_case=_cases.bleu_case,
    hints=(
        "Three ingredients: a precision per n-gram order that cannot be inflated by repeating a word, "
        "a way to combine the orders, and a penalty for short candidates. How does each work?",
        "For each n from 1 to max_n, count the candidate's n-grams and the reference's with "
        "collections.Counter; a candidate n-gram matches at most as often as the reference has it (min of "
        "the two counts). p_n = matches / candidate n-grams; if an order has no match, return 0.0. Average "
        "math.log(p_n) over the orders, take math.exp, and multiply by the brevity penalty.",
    ),
    solution=reference_solution,
    solution_imports="import math\nfrom collections import Counter",
    mistakes=[
        Mistake(_log10_above_one, _LOG10),
        Mistake(_log10_everywhere, _LOG10),
        Mistake(_unclipped, "this counts every candidate n-gram found in the reference; clip each n-gram's "
                "count to its count in the reference"),
        Mistake(_no_brevity_penalty, "this leaves out the brevity penalty exp(1 - r/c) for a candidate shorter "
                "than the reference"),
        Mistake(_arithmetic_mean, _ARITHMETIC),
        Mistake(_arithmetic_mean_unguarded, _ARITHMETIC),
        Mistake(
            _unguarded,
            "this fails when an order has no match (math.log(0)) or no candidate n-gram; BLEU is 0.0 then",
        ),
        Mistake(_penalty_swapped, _SWAPPED),
        Mistake(_penalty_swapped_everywhere, _SWAPPED + "; a longer candidate is not penalised"),
    ],
)

check = q08_bleu.check
hint = q08_bleu.hint
solution = q08_bleu.solution
