"""q15_nearest_rank: a latency percentile by the nearest-rank rule, for ``notebooks/15_latency_percentiles.ipynb``.

The task is the textbook rule: the value at rank ceil(p n / 100), the rank computed exactly.
Expected values come from ``ragmetrics_lite.latency_percentiles(samples, [p],
method="inverted_cdf")`` (numpy's name for nearest rank) except where numpy's float product
``n * (p / 100)`` overshoots a whole rank, as the notebook's section 4 shows: at 25 requests and
P28 it computes 7.000000000000001 and takes the 8th value. There the expected value is the one at
the exact rank, and a learner's ``ceil(p / 100 * n)`` is told why it is wrong.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 209 cases (9 edge cases, 200 random).
"""
from __future__ import annotations

import math
import statistics

from ragmetrics_lite import latency_percentiles
from ._checker import Case, FunctionExercise, Mistake

PERCENTILES = (0, 10, 25, 50, 75, 90, 95, 95, 99, 100)
DURATIONS_MS = (0, 80, 95, 110, 120, 150, 180, 240, 400, 900, 2500)  # few values, so ties are common;
# 0 is a cached answer, rounded to whole milliseconds


def reference_solution(samples, p):
    ordered = sorted(samples)
    rank = max(1, math.ceil(p * len(ordered) / 100))
    return ordered[rank - 1]


def _random_case(rng):
    """(durations in ms, percentile): one to 25 durations from a small long-tailed set."""
    samples = [rng.choice(DURATIONS_MS) for _ in range(rng.randint(1, 25))]
    return samples, rng.choice(PERCENTILES)


def _expected(samples, p):
    value = latency_percentiles(samples, [p], method="inverted_cdf")[p]
    exact_rank = max(1, -(-p * len(samples) // 100))           # ceil(p n / 100) in integers
    if p / 100 * len(samples) != p * len(samples) / 100:       # numpy rounds p / 100: use the exact rank
        value = float(sorted(samples)[exact_rank - 1])
    return value


def _linear(samples, p):
    return latency_percentiles(samples, [p], method="linear")[p]


def _float_share(samples, p):
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def _floor_rank(samples, p):
    ordered = sorted(samples)
    return ordered[max(1, math.floor(p * len(ordered) / 100)) - 1]


def _round_rank(samples, p):
    ordered = sorted(samples)
    return ordered[max(1, round(p * len(ordered) / 100)) - 1]


def _rank_as_index(samples, p):
    ordered = sorted(samples)
    return ordered[math.ceil(p * len(ordered) / 100)]


def _rank_zero_at_p0(samples, p):
    ordered = sorted(samples)
    return ordered[math.ceil(p * len(ordered) / 100) - 1]


def _unsorted(samples, p):
    return samples[max(1, math.ceil(p * len(samples) / 100)) - 1]


def _mean(samples, p):
    return statistics.fmean(samples)


q15_nearest_rank = FunctionExercise(
    "q15_nearest_rank",
    """
    Write nearest_rank(samples, p): the p-th percentile (百分位数) of a list of request latencies by the
    nearest-rank rule. Sort the samples; the answer is the value at rank ceil(p * n / 100), counting
    ranks from 1, and the smallest value when p is 0. It is always one of the samples.
    """,
    notebook="15_latency_percentiles",
    reference=_expected,
    argnames=("samples", "p"),
    edge_cases=[
        Case(([250], 95), "a single request"),
        Case(([300, 300, 300], 50), "every request took the same time"),
        Case(([400, 100, 300, 200], 50), "unsorted; p * n / 100 = 2 exactly"),
        Case(([400, 100, 300, 200], 0), "p = 0"),
        Case(([400, 100, 300, 200], 100), "p = 100"),
        Case(([120, 80, 95, 2500, 110, 150, 90, 100, 130, 85], 25), "ten requests, P25: p * n / 100 = 2.5"),
        Case(([120, 80, 95, 2500, 110, 150, 90, 100, 130, 85], 95), "ten requests, P95: p * n / 100 = 9.5"),
        Case((list(range(100, 2100, 100)), 95), "twenty requests, P95: p * n / 100 = 19 exactly"),
        Case((list(range(100, 2600, 100)), 28), "25 requests, P28: p * n / 100 = 7 exactly"),
    ],
    random_case=_random_case,
    hints=(
        "A percentile by nearest rank is one of the measured values. After sorting, which position holds "
        "it, and what do you do when p * n / 100 falls between two positions?",
        "ordered = sorted(samples); rank = ceil(p * len(ordered) / 100), at least 1; return "
        "ordered[rank - 1] (ranks count from 1, list indexes from 0).",
    ),
    solution=reference_solution,
    solution_imports="import math",
    mistakes=[
        Mistake(_linear, "this interpolates between two neighbours (numpy's default, linear); the nearest-rank "
                         "rule returns one of the measured values"),
        Mistake(_float_share, "this computes p / 100 first, in floating point: for 25 requests at P28, "
                              "28 / 100 * 25 = 7.000000000000001 and the rank rounds up to 8. Multiply "
                              "p * n first, so a whole rank stays whole (numpy's inverted_cdf slips the same way)"),
        Mistake(_floor_rank, "this rounds the rank down; nearest rank rounds p * n / 100 up (ceil)"),
        Mistake(_round_rank, "this rounds the rank to the closest whole number; nearest rank rounds up (ceil)"),
        Mistake(_rank_as_index, "this uses the rank as a list index; ranks count from 1, so the value at rank "
                                "r is ordered[r - 1]"),
        Mistake(_rank_zero_at_p0, "at p = 0 the rank ceil(0) = 0 must become 1 (the smallest value); "
                                  "ordered[-1] is the largest"),
        Mistake(_unsorted, "this reads the rank from the samples in arrival order; sort them first"),
        Mistake(_mean, "this is the mean latency, which a few slow requests pull up; a percentile is a rank"),
    ],
)

check = q15_nearest_rank.check
hint = q15_nearest_rank.hint
solution = q15_nearest_rank.solution
