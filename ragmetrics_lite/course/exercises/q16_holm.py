"""q16_holm: Holm's correction for many metrics at once, for ``notebooks/16_ab_testing.ipynb``.

Expected values come from ``ragmetrics_lite.holm_rejections`` (the rule of statsmodels'
``multipletests(..., method="holm")``, tested against the closed testing procedure):
how many hypotheses Holm's step-down procedure rejects.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 207 cases (7 edge cases, 200 random).
"""
from __future__ import annotations

from ragmetrics_lite import holm_rejections
from ._checker import Case, FunctionExercise, Mistake

# p-values a report might show; 0.0125 = 0.05 / 4 and 0.025 = 0.05 / 2 sit exactly on a threshold
P_VALUES = (0.0004, 0.003, 0.008, 0.0125, 0.02, 0.025, 0.04, 0.05, 0.09, 0.3, 0.7)


def reference_solution(p_values, alpha):
    m = len(p_values)
    rejected = 0
    for k, p in enumerate(sorted(p_values)):       # k = 0 for the smallest
        if p > alpha / (m - k):
            break
        rejected += 1
    return rejected


def _uncorrected(p_values, alpha):
    return sum(p <= alpha for p in p_values)


def _bonferroni(p_values, alpha):
    return sum(p <= alpha / len(p_values) for p in p_values)


def _no_stop(p_values, alpha):
    m = len(p_values)
    return sum(p <= alpha / (m - k) for k, p in enumerate(sorted(p_values)))


def _step_up(p_values, alpha):
    m = len(p_values)
    passing = [k + 1 for k, p in enumerate(sorted(p_values)) if p <= alpha / (m - k)]
    return max(passing, default=0)


def _benjamini_hochberg(p_values, alpha):
    m = len(p_values)
    passing = [k + 1 for k, p in enumerate(sorted(p_values)) if p <= alpha * (k + 1) / m]
    return max(passing, default=0)


def _strict(p_values, alpha):
    m = len(p_values)
    rejected = 0
    for k, p in enumerate(sorted(p_values)):
        if p >= alpha / (m - k):
            break
        rejected += 1
    return rejected


def _p_values(rng):
    """(p-values of 1 to 8 metrics, alpha)."""
    return [rng.choice(P_VALUES) for _ in range(rng.randint(1, 8))], rng.choice((0.05, 0.05, 0.1))


q16_holm = FunctionExercise(
    "q16_holm",
    """
    Write holm_count(p_values, alpha): how many of the m metrics Holm's step-down procedure calls
    significant. Sort the p-values from smallest; the k-th smallest (k = 1, 2, ...) passes when
    p <= alpha / (m - k + 1). Reject from the smallest up and stop at the first that fails.
    """,
    notebook="16_ab_testing",
    reference=lambda p_values, alpha: int(holm_rejections(p_values, alpha).sum()),
    argnames=("p_values", "alpha"),
    edge_cases=[
        Case(([0.3], 0.05), "one metric, not significant"),
        Case(([0.05], 0.05), "one metric exactly at alpha"),
        Case(([0.04, 0.02], 0.05), "two metrics, both below alpha"),
        Case(([0.0125, 0.3, 0.3, 0.3], 0.05), "the smallest of four exactly at alpha / 4"),
        Case(([0.04, 0.003, 0.3], 0.05), "the second step fails"),
        Case(([0.02, 0.001, 0.3, 0.008], 0.05), "a fail between two passes"),
        Case(([0.02, 0.03, 0.04, 0.045], 0.05), "all below alpha, none below alpha / 4"),
    ],
    random_case=_p_values,
    hints=(
        "Bonferroni divides alpha by m for every metric. Once the smallest p-value has passed, how "
        "many hypotheses are left to protect at the next step?",
        "Sort the p-values. For k = 0, 1, ... compare sorted[k] with alpha / (m - k); count the "
        "passes and break at the first p-value above its threshold.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_uncorrected, "this counts p <= alpha with no correction; with m metrics false alarms pile up"),
        Mistake(
            _bonferroni,
            "this is Bonferroni (every p against alpha / m); Holm relaxes the threshold after each "
            "rejection: alpha / m, then alpha / (m - 1), and so on",
        ),
        Mistake(
            _no_stop,
            "this keeps counting after a p-value fails its threshold; Holm stops at the first failure",
        ),
        Mistake(
            _step_up,
            "this rejects up to the last passing p-value (Hochberg's step-up); Holm steps down and "
            "stops at the first failure",
        ),
        Mistake(
            _benjamini_hochberg,
            "this is Benjamini-Hochberg (alpha * k / m, step-up), which controls the false discovery "
            "rate, not the chance of any false alarm",
        ),
        Mistake(_strict, "a p-value equal to its threshold passes: use <=, not <"),
    ],
)

check = q16_holm.check
hint = q16_holm.hint
solution = q16_holm.solution
