"""Annotator agreement: cohens_kappa against scikit-learn, fleiss_kappa against a published example
and an exact rational computation, rating_counts against a plain count; bad inputs get clear errors."""
from __future__ import annotations

import functools
import math
import random
import re
import warnings
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning, cohens_kappa, fleiss_kappa, rating_counts

from .helpers import run_with_blocked

# Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters each, 5 categories.
# Published: P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210.
WIKIPEDIA_COUNTS = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]


def cohen_kappa_score(*args, **kwargs):
    """scikit-learn's, imported at its first use: collecting the suite need not load sklearn."""
    from sklearn.metrics import cohen_kappa_score as reference

    return reference(*args, **kwargs)


def sklearn_kappa(a, b, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its UndefinedMetricWarning on the NaN cases
        return cohen_kappa_score(a, b, **kwargs)


@functools.lru_cache(maxsize=None)
def sklearn_kappa_once(a: tuple, b: tuple, weights, labels: tuple | None) -> float:
    """``sklearn_kappa`` on tuples, each distinct input computed once: the random pairs repeat (about
    500 of each 1,200 calls, mostly one or two items on few grades), and scikit-learn's input checks
    cost some 2 ms a call, almost all of the random-pairs test's time. Same input, same answer."""
    return sklearn_kappa(list(a), list(b), weights=weights, labels=None if labels is None else list(labels))


def quiet_kappa(a, b, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)
        return cohens_kappa(a, b, **kwargs)


def same(x, y):
    return (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=0, abs_tol=1e-12)


def random_pair(rng):
    """Two raters' grades on 1-30 items: skewed, constant, agreeing or independent, on 1-5 grades."""
    size = rng.choice((1, 1, 2, 3, 5, 8, 13, 30))
    grades = list(range(rng.randint(1, 5)))
    weights = [rng.random() ** 3 for _ in grades]   # often skewed towards one grade
    a = rng.choices(grades, weights, k=size)
    style = rng.random()
    if style < 0.2:
        b = list(a)                                           # perfect agreement
    elif style < 0.6:
        b = [x if rng.random() < 0.7 else rng.choice(grades) for x in a]   # noisy copy
    else:
        b = rng.choices(grades, weights, k=size)              # independent
    return a, b, grades


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohens_kappa_equals_sklearn_on_random_pairs(weights):
    rng = random.Random(f"kappa-{weights}")
    nan_cases = 0
    for _ in range(600):
        a, b, grades = random_pair(rng)
        labels = list(grades) + [max(grades) + 1] * rng.choice((0, 1))   # sometimes an unused grade
        if rng.random() < 0.3:
            rng.shuffle(labels)                                           # positions follow the order given
        for given in (None, labels):
            ours = quiet_kappa(a, b, weights=weights, labels=given)
            theirs = sklearn_kappa_once(tuple(a), tuple(b), weights, None if given is None else tuple(given))
            assert same(ours, theirs), (a, b, weights, given, ours, theirs)
            nan_cases += math.isnan(ours)
    assert nan_cases > 20  # the undefined case is really reached


def test_cohens_kappa_string_labels_equal_sklearn():
    rng = random.Random(1)
    words = ["bad", "fair", "good", "great"]
    for _ in range(200):
        size = rng.randint(1, 12)
        a, b = rng.choices(words, k=size), rng.choices(words, k=size)
        for weights in (None, "linear"):
            assert same(quiet_kappa(a, b, weights=weights, labels=words),
                        sklearn_kappa(a, b, weights=weights, labels=words))


def test_weights_follow_position_not_grade_value():
    a, b = [0, 1, 3, 3, 1, 0, 3], [1, 3, 3, 1, 1, 0, 3]           # grade 2 never used
    by_position = cohens_kappa(a, b, weights="linear")
    by_value = cohens_kappa(a, b, weights="linear", labels=range(4))
    assert same(by_position, cohen_kappa_score(a, b, weights="linear"))
    assert same(by_value, cohen_kappa_score(a, b, weights="linear", labels=list(range(4))))
    assert by_position != pytest.approx(by_value)
    assert same(cohens_kappa(a, b), cohens_kappa(a, b, labels=range(4)))   # unweighted: order is irrelevant


def test_textbook_kappa_values():
    assert cohens_kappa([1, 2, 3], [1, 2, 3]) == 1.0
    assert cohens_kappa([0, 1, 0, 1], [1, 0, 1, 0]) == -1.0
    # p_o = 0.5, p_e = 0.5: agreement no better than chance
    assert cohens_kappa([0, 0, 1, 1], [0, 1, 0, 1]) == 0.0


@pytest.mark.parametrize("a, b, labels", [([2], [2], None), ([3, 3, 3], [3, 3, 3], range(4)),
                                          (["x"] * 4, ["x"] * 4, None)])
def test_cohens_kappa_undefined_is_nan_with_warning(a, b, labels):
    with pytest.warns(RagMetricsWarning, match="expected agreement is 1"):
        assert math.isnan(cohens_kappa(a, b, labels=labels))
    assert math.isnan(sklearn_kappa(a, b, labels=None if labels is None else list(labels)))


@pytest.mark.parametrize("call, error, phrase", [
    (lambda: cohens_kappa([], []), ValueError, "empty"),
    (lambda: cohens_kappa([1, 2], [1]), ValueError, "same items"),
    (lambda: cohens_kappa([1, 2], [1, 2], weights="squared"), ValueError, "weights"),
    (lambda: cohens_kappa([1, 4], [1, 2], labels=range(4)), ValueError, "not in labels"),
    (lambda: cohens_kappa([1, 2], [1, 2], labels=[1, 2, 2]), ValueError, "repeat"),
    (lambda: cohens_kappa([1, 2], [1, 2], labels=[]), ValueError, "at least one"),
    (lambda: cohens_kappa([1, float("nan")], [1, 2]), ValueError, "finite"),
    (lambda: cohens_kappa([True, False], [1, 0]), TypeError, "number or a string"),
    (lambda: cohens_kappa([1, "2"], [1, 2]), TypeError, "mixes"),
    (lambda: cohens_kappa([1, 2], ["1", "2"]), TypeError, "same kind"),
    (lambda: cohens_kappa([1, 2], [1, 2], labels=["1", "2"]), TypeError, "same kind"),
    (lambda: cohens_kappa("0123", "0123"), TypeError, "sequence of labels"),
    (lambda: cohens_kappa(3, 3), TypeError, "sequence of labels"),
    (lambda: cohens_kappa([[1], [2]], [[1], [2]]), TypeError, "number or a string"),
])
def test_cohens_kappa_bad_input(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


def test_cohens_kappa_accepts_numpy_arrays():
    a, b = np.array([0, 1, 2, 2]), np.array([0, 2, 2, 1])
    assert same(cohens_kappa(a, b, weights="quadratic"), cohen_kappa_score(a, b, weights="quadratic"))


# ---------------------------------------------------------------------------------- Fleiss
def exact_fleiss(counts):
    """Fleiss (1971) term by term in rational arithmetic, with loops: the independent check."""
    items, n = len(counts), sum(counts[0])
    p_bar = sum(Fraction(sum(c * c for c in row) - n, n * (n - 1)) for row in counts) / items
    shares = [Fraction(sum(row[j] for row in counts), items * n) for j in range(len(counts[0]))]
    p_e = sum(s * s for s in shares)
    return p_bar, p_e, (p_bar - p_e) / (1 - p_e)


def test_fleiss_kappa_reproduces_the_wikipedia_worked_example():
    p_bar, p_e, kappa = exact_fleiss(WIKIPEDIA_COUNTS)
    assert (round(float(p_bar), 3), round(float(p_e), 3), round(float(kappa), 3)) == (0.378, 0.213, 0.210)
    assert math.isclose(fleiss_kappa(WIKIPEDIA_COUNTS), float(kappa), rel_tol=0, abs_tol=1e-12)
    assert round(fleiss_kappa(WIKIPEDIA_COUNTS), 3) == 0.210


def test_fleiss_kappa_equals_exact_rational_on_random_tables():
    rng = random.Random("fleiss")
    nan_cases = 0
    for _ in range(500):
        items, raters, categories = rng.randint(1, 8), rng.randint(2, 7), rng.randint(1, 5)
        weights = [rng.random() ** 3 for _ in range(categories)]
        labels = [rng.choices(range(categories), weights, k=raters) for _ in range(items)]
        counts = rating_counts(labels, categories=range(categories))
        if counts.to_numpy().sum(axis=0).nonzero()[0].size == 1:
            with pytest.warns(RagMetricsWarning, match="one category"):
                assert math.isnan(fleiss_kappa(counts))
            nan_cases += 1
            continue
        expected = float(exact_fleiss(counts.to_numpy().tolist())[2])
        assert math.isclose(fleiss_kappa(counts), expected, rel_tol=0, abs_tol=1e-12), labels
    assert nan_cases > 10


def test_fleiss_kappa_facts():
    assert fleiss_kappa([[3, 0], [0, 3], [3, 0]]) == 1.0                   # unanimous items
    table = np.array(WIKIPEDIA_COUNTS)
    shuffled = table[np.random.default_rng(0).permutation(10)][:, [4, 2, 0, 1, 3]]
    assert math.isclose(fleiss_kappa(shuffled), fleiss_kappa(table), abs_tol=1e-12)   # order-free
    # two raters: Fleiss' kappa is Scott's pi, (p_o - p_e) / (1 - p_e) with pooled shares
    a, b = [0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 0, 0]
    p_o = np.mean(np.equal(a, b))
    pooled = np.bincount(a + b) / (2 * len(a))
    p_e = np.sum(pooled**2)
    assert math.isclose(fleiss_kappa(rating_counts(list(zip(a, b)))), (p_o - p_e) / (1 - p_e), abs_tol=1e-12)


@pytest.mark.parametrize("counts, error, phrase", [
    ([], ValueError, "2-D"),
    ([[]], ValueError, "empty"),
    ([1, 2, 3], ValueError, "2-D"),
    ([[2, 1], [1, 1]], ValueError, "same number of ratings"),
    ([[1, 0], [0, 1]], ValueError, "at least 2 ratings"),
    ([[2, -1], [1, 0]], ValueError, "whole numbers"),
    ([[1.5, 0.5], [1, 1]], ValueError, "whole numbers"),
    ([[float("nan"), 1], [1, 1]], ValueError, "whole numbers"),
    ([["a", "b"]], TypeError, "matrix of numbers"),
    ("counts", TypeError, "string"),
])
def test_fleiss_kappa_bad_input(counts, error, phrase):
    with pytest.raises(error, match=phrase):
        fleiss_kappa(counts)


def test_rating_counts_equals_a_plain_count():
    rng = random.Random("counts")
    for _ in range(200):
        items = [rng.choices("abcd", k=rng.randint(0, 5)) for _ in range(rng.randint(1, 6))]
        table = rating_counts(items, categories=list("abcd"))
        assert list(table.columns) == list("abcd") and len(table) == len(items)
        for i, item in enumerate(items):
            assert table.iloc[i].to_dict() == {c: Counter(item)[c] for c in "abcd"}
    assert list(rating_counts([[3, 1], [1, 1]]).columns) == [1, 3]          # default: sorted observed
    assert list(rating_counts([[3, 1]], categories=[3, 2, 1]).iloc[0]) == [1, 0, 1]


@pytest.mark.parametrize("ratings, categories, error, phrase", [
    ([], None, ValueError, "empty"),
    ([[1, 5]], range(4), ValueError, "not in labels"),
    ([[1, "a"]], None, TypeError, "mixes"),
    ([[1], ["a"]], None, TypeError, "mixes"),
    ([[1, None]], None, TypeError, "number or a string"),
    ("abc", None, TypeError, "sequence of items"),
    ([[1, 2]], [1, 1, 2], ValueError, "repeat"),
])
def test_rating_counts_bad_input(ratings, categories, error, phrase):
    with pytest.raises(error, match=phrase):
        rating_counts(ratings, categories=categories)


def test_exports():
    assert {"cohens_kappa", "fleiss_kappa", "rating_counts"} <= set(rml.__all__)


def test_agreement_works_with_the_references_blocked():
    out = run_with_blocked(
        """
        import warnings
        import ragmetrics_lite as rm
        print(round(rm.cohens_kappa([0, 1, 3, 3], [1, 1, 3, 2], weights="quadratic", labels=range(4)), 6),
              round(rm.fleiss_kappa(rm.rating_counts([[0, 0, 1], [2, 2, 2], [1, 2, 1]])), 6))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            print(rm.cohens_kappa([1], [1]), caught[0].category.__name__)
        """
    )
    expected_cohen = cohen_kappa_score([0, 1, 3, 3], [1, 1, 3, 2], weights="quadratic", labels=[0, 1, 2, 3])
    expected_fleiss = float(exact_fleiss([[2, 1, 0], [0, 0, 3], [0, 2, 1]])[2])
    assert out == f"{round(expected_cohen, 6)} {round(expected_fleiss, 6)}\nnan RagMetricsWarning\n"


def test_a_label_outside_labels_is_refused_where_sklearn_drops_the_item():
    a, b = [0, 1, 2, 9], [0, 1, 2, 2]
    assert cohen_kappa_score(a, b, labels=[0, 1, 2]) == 1.0    # the disagreeing item silently vanishes
    with pytest.raises(ValueError, match=r"not in labels: \[9\]"):
        cohens_kappa(a, b, labels=[0, 1, 2])


@pytest.mark.parametrize("counts, shown", [
    ([[True, True], [True, True], [2, 0]], "counts[0][0] is True"),      # np.asarray(dtype=float) read 1
    ([["1", "1"], ["2", "0"]], "counts[0][0] is '1'"),                   # and read the string as 1
    (np.array([[2, 0], [1, 1]]) > 0, "counts[0][0] is True"),
    ([[2, 0], [1, pd.NA]], "counts[1][1] is <NA>"),
])
def test_fleiss_kappa_refuses_booleans_numeric_strings_and_missing_counts(counts, shown):
    with pytest.raises(TypeError, match=re.escape(shown)):
        fleiss_kappa(counts)


def test_cohens_kappa_on_5000_distinct_labels_needs_no_label_by_label_matrix():
    """The confusion, chance and weight matrices of 5,000 labels took 1.2 GB; the sums need the counts only."""
    import tracemalloc

    labels = list(range(5_000))
    tracemalloc.start()
    try:
        kappas = [cohens_kappa(labels, labels[::-1], weights=w) for w in (None, "linear", "quadratic")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # generous: under 1 MB
    assert same(kappas[0], -1 / 4999)  # p_o = 0, p_e = 1/5000
    assert same(kappas[2], -1.0)  # a reversed scale is the worst quadratic agreement
