"""q17_cohens_kappa: Cohen's kappa written by hand, for ``notebooks/17_human_evaluation.ipynb``.

Expected values come from ``ragmetrics_lite.cohens_kappa`` (unweighted), which equals
``sklearn.metrics.cohen_kappa_score``. Where both annotators give every item one and the same
grade, kappa is 0/0: both return NaN, and so must the answer. One mistake is the pitfall the
notebook runs: raw agreement reported as if it were kappa.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math
import numbers
import warnings

import ragmetrics_lite as rml
from ._checker import Case, FunctionExercise, Mistake, same


def reference_solution(a, b):
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    expected = sum((a.count(g) / n) * (b.count(g) / n) for g in set(a) | set(b))
    if expected == 1:
        return float("nan")  # both gave every item one and the same grade: kappa is 0/0
    return (observed - expected) / (1 - expected)


def _expected(a, b):
    """rml.cohens_kappa, NaN without its warning where kappa is undefined (the prompt says so)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rml.RagMetricsWarning)
        return rml.cohens_kappa(a, b)


def _same_or_both_nan(got, expected):
    """The checker's comparison, and NaN where the expected value is NaN (kappa undefined)."""
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(got, numbers.Real) and not isinstance(got, bool) and math.isnan(got)
    return same(got, expected)


def _shares(labels):
    return {g: labels.count(g) / len(labels) for g in set(labels)}


def _observed(a, b):
    return sum(x == y for x, y in zip(a, b)) / len(a)


def _raw_agreement(a, b):
    return _observed(a, b)


def _uniform_chance(a, b):
    chance = 1 / 4  # "one grade in four by luck", ignoring how often each grade is used
    return (_observed(a, b) - chance) / (1 - chance)


def _pooled_chance(a, b):
    pooled = _shares(a + b)
    chance = sum(s * s for s in pooled.values())
    return (_observed(a, b) - chance) / (1 - chance)


def _not_rescaled(a, b):
    shares_a, shares_b = _shares(a), _shares(b)
    return _observed(a, b) - sum(s * shares_b.get(g, 0.0) for g, s in shares_a.items())


def _one_rater_chance(a, b):
    chance = sum(s * s for s in _shares(a).values())
    return (_observed(a, b) - chance) / (1 - chance) if chance < 1 else 0.0


def _divides_by_zero(a, b):
    n = len(a)
    expected = sum((a.count(g) / n) * (b.count(g) / n) for g in set(a) | set(b))
    return (_observed(a, b) - expected) / (1 - expected)


def _one_when_undefined(a, b):
    return 1.0 if len(set(a) | set(b)) == 1 else _divides_by_zero(a, b)


def _two_raters(rng):
    """Grades 0-3 of two annotators on 2-12 items: often skewed, a noisy copy or independent."""
    size = rng.randint(2, 12)
    weights = [rng.random() ** 2 for _ in range(4)]
    a = rng.choices(range(4), weights, k=size)
    if rng.random() < 0.15:
        b = [rng.choice(range(4))] * size                      # one annotator gives a single grade
    elif rng.random() < 0.6:
        b = [x if rng.random() < 0.7 else rng.choice(range(4)) for x in a]
    else:
        b = rng.choices(range(4), weights, k=size)
    if len(set(a) | set(b)) == 1:                              # kappa undefined: make it defined
        b[0] = (b[0] + 1) % 4
    return a, b


q17_cohens_kappa = FunctionExercise(
    "q17_cohens_kappa",
    """
    Write my_cohens_kappa(a, b): a and b are two annotators' grades (0-3) for the same items, in the
    same order. Return Cohen's kappa (unweighted) = (p_o - p_e) / (1 - p_e), where p_o is the share of
    items they grade the same and p_e the agreement expected by chance: the sum over grades of
    (share of a's grades equal to g) x (share of b's grades equal to g) (标注一致性). When both give
    every item one and the same grade, p_e = 1 and kappa is 0/0: return float("nan").
    """,
    notebook="17_human_evaluation",
    reference=_expected,
    compare=_same_or_both_nan,
    argnames=("a", "b"),
    edge_cases=[
        Case(([0], [0]), "one item"),
        Case(([0, 1], [0, 1]), "two items, full agreement"),
        Case(([0, 1], [1, 0]), "two items, full disagreement"),
        Case(([0, 3], [0, 0]), "one annotator gives a single grade"),
        Case(([2, 2, 2], [2, 2, 2]), "both annotators give every item grade 2"),
        Case(([0, 0, 1, 1], [0, 1, 0, 1]), "agreement exactly at chance level"),
        Case(([3, 2, 2, 0, 1], [2, 2, 3, 0, 1]), "all four grades, two swapped"),
        Case(([0] * 9 + [3], [0] * 8 + [3, 0]), "skewed grades: 8 of 10 agree"),
    ],
    random_case=_two_raters,
    hints=(
        "Two annotators who both say 0 for nine items in ten agree often by luck alone. How often, "
        "given how often each of them uses each grade, and how does kappa discount that?",
        "p_o = (number of positions where a[i] == b[i]) / n. For each grade g seen in a or b, multiply "
        "a.count(g) / n by b.count(g) / n and add these up: that is p_e. Return (p_o - p_e) / (1 - p_e), "
        "or float(\"nan\") when p_e is 1.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_raw_agreement, "this is the raw agreement p_o; kappa subtracts the agreement expected "
                "by chance: (p_o - p_e) / (1 - p_e)"),
        Mistake(_uniform_chance, "this takes chance agreement as 1/4, as if every grade were equally "
                "common; p_e comes from how often each annotator actually used each grade"),
        Mistake(_pooled_chance, "this pools both annotators' grades to get p_e (Scott's pi, Fleiss' "
                "kappa for two raters); Cohen's p_e multiplies each annotator's own shares"),
        Mistake(_not_rescaled, "this is p_o - p_e; divide it by 1 - p_e so that full agreement gives 1"),
        Mistake(_one_rater_chance, "this squares annotator a's shares for p_e; multiply a's share of "
                "each grade by b's share of the same grade"),
        Mistake(_divides_by_zero, "when both annotators give every item one and the same grade, p_e = 1 "
                "and 1 - p_e = 0: kappa is 0/0, undefined; return float(\"nan\") there, as scikit-learn does"),
        Mistake(_one_when_undefined, "when both annotators give every item one and the same grade, kappa "
                "is 0/0, not 1: they agree, but chance alone would have them agree too; return "
                "float(\"nan\") there"),
    ],
)

check = q17_cohens_kappa.check
hint = q17_cohens_kappa.hint
solution = q17_cohens_kappa.solution
