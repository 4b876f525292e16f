"""paired_permutation_test and bootstrap_ci against scipy.stats and an enumeration in fractions."""
from __future__ import annotations

import ast
import inspect
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats

from ragmetrics_lite.stats import significance
from ragmetrics_lite.stats.significance import bootstrap_ci, holm_rejections, paired_permutation_test

from .helpers import run_with_blocked

GRID = [0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.7, 0.8, 1.0]  # decimal scores: many ties


def mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


def scipy_p(a, b, n_resamples=10_000, rng=None):
    return scipy.stats.permutation_test((a, b), mean_difference, permutation_type="samples",
                                        n_resamples=n_resamples, rng=rng).pvalue


def fraction_p(a, b):
    """Every sign flip, in exact rational arithmetic on the values as written."""
    d = [Fraction(repr(float(x))) - Fraction(repr(float(y))) for x, y in zip(a, b)]
    observed = sum(d)
    flipped = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((1, -1), repeat=len(d))]
    greater = Fraction(sum(t >= observed for t in flipped), len(flipped))
    less = Fraction(sum(t <= observed for t in flipped), len(flipped))
    return float(min(Fraction(1), 2 * min(greater, less)))


# ------------------------------------------------------------------ exact enumeration
@pytest.mark.parametrize("seed", range(40))
def test_exact_equals_scipy_on_continuous_data(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    scale = 10.0 ** rng.integers(-3, 4)
    a = rng.random(n) * scale
    b = a + rng.normal(rng.choice([0.0, 0.3]), 0.5, n) * scale
    n_resamples = int(rng.choice([2**n, 2**n + 7, 10_000]))
    assert 2**n <= n_resamples
    assert abs(paired_permutation_test(a, b, n_resamples=n_resamples) - scipy_p(a, b, n_resamples)) <= 1e-12


@pytest.mark.parametrize("seed", range(60))
def test_exact_equals_fractions_on_tied_data(seed):
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(1, 11))
    a = rng.choice(GRID, n)
    b = rng.choice(GRID, n) if seed % 3 else a.copy()  # every third case: identical systems
    if seed % 5 == 0:
        b[: n // 2] = a[: n // 2]  # zero differences
    assert paired_permutation_test(a, b) == fraction_p(a, b)


@pytest.mark.parametrize("a, b, expected", [
    ([0.7], [0.2], 1.0),                         # n = 1: either sign is as likely (scipy refuses n = 1)
    ([0.5, 0.5, 0.5], [0.5, 0.5, 0.5], 1.0),     # no difference at all
    ([0.9, 0.9, 0.9, 0.9], [0.1, 0.1, 0.1, 0.1], 2 / 16),  # constant difference: only the two extremes
    ([1.0] * 10, [0.0] * 10, 2 / 1024),          # the smallest exact p-value with 10 queries
])
def test_edge_cases(a, b, expected):
    assert paired_permutation_test(a, b) == expected == fraction_p(a, b)


def test_scipy_float_tolerance_differs_on_decimal_ties():
    """The differences sum to exactly 0 on paper; in floats the observed mean is ~1e-17.

    scipy's tie tolerance is 100 * eps * |observed|, next to nothing here, so the flips
    that also sum to 0 on paper fall on either side by rounding. Fractions count them as ties.
    """
    a = [0.4, 0.3, 0.6, 0.7, 0.6, 0.7, 0.2]
    b = [1.0, 0.0, 0.4, 1.0, 0.0, 0.2, 0.9]
    assert fraction_p(a, b) == 1.0 == paired_permutation_test(a, b)
    assert scipy_p(np.array(a), np.array(b)) == 0.96875


def test_order_of_pairs_does_not_matter():
    rng = np.random.default_rng(7)
    a, b = rng.choice(GRID, 9), rng.choice(GRID, 9)
    order = rng.permutation(9)
    assert paired_permutation_test(a, b) == paired_permutation_test(a[order], b[order])
    assert paired_permutation_test(a, b) == paired_permutation_test(b, a)


# ------------------------------------------------------------------ Monte Carlo
@pytest.mark.parametrize("n, shift", [(14, 0.0), (20, 0.05), (50, 0.03), (200, 0.02), (30, 0.5)])
def test_monte_carlo_within_four_standard_errors_of_scipy(n, shift):
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = np.clip(a - shift + rng.normal(0, 0.2, n), 0, 1)
    n_resamples = 4000
    ours = paired_permutation_test(a, b, n_resamples=n_resamples, seed=3)
    theirs = scipy_p(a, b, n_resamples, rng=np.random.default_rng(11))
    # each two-sided p is 2 * a one-sided proportion q over n_resamples draws; two independent estimates
    q = min(max(min(ours, theirs) / 2, 1 / n_resamples), 0.5)
    standard_error = math.sqrt(2) * 2 * math.sqrt(q * (1 - q) / n_resamples)
    assert abs(ours - theirs) <= 4 * standard_error


def test_monte_carlo_counts_plus_one_and_is_seeded():
    a = np.linspace(0.3, 0.9, 20)
    b = a - 0.2  # every query better: no random flip beats the observed mean
    p = paired_permutation_test(a, b, n_resamples=999, seed=5)
    assert p == 2 * 1 / 1000  # (0 + 1) / (999 + 1) per side, doubled: never 0
    rng = np.random.default_rng(1)
    a, b = rng.random(30), rng.random(30)
    p1, p2 = (paired_permutation_test(a, b, n_resamples=500, seed=s) for s in (1, 2))
    assert paired_permutation_test(a, b, n_resamples=500, seed=1) == p1
    assert p1 != p2
    for p in (p1, p2):  # two-sided = 2 (count + 1) / (n + 1), capped at 1
        assert p == 1.0 or math.isclose(p * 501 / 2, round(p * 501 / 2), abs_tol=1e-9)


# ------------------------------------------------------------------ bootstrap
@pytest.mark.filterwarnings("ignore:Degrees of freedom:RuntimeWarning")  # scipy's standard error of one resample
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
@pytest.mark.parametrize("seed", range(30))
def test_bootstrap_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    kind = seed % 3
    values = (rng.random(n) if kind == 0 else rng.choice(GRID, n) if kind == 1
              else rng.normal(0, 10.0 ** rng.integers(-3, 3), n))
    confidence = float(rng.choice([0.5, 0.8, 0.9, 0.95, 0.99]))
    n_resamples = int(rng.choice([1, 2, 99, 1000, 5000]))
    ours = bootstrap_ci(values, confidence=confidence, n_resamples=n_resamples, seed=seed)
    res = scipy.stats.bootstrap((values,), np.mean, method="percentile", confidence_level=confidence,
                                n_resamples=n_resamples, rng=np.random.default_rng(seed))
    assert ours[0] == pytest.approx(res.confidence_interval.low, abs=1e-12, rel=0)
    assert ours[1] == pytest.approx(res.confidence_interval.high, abs=1e-12, rel=0)


def test_bootstrap_constant_data_and_two_values():
    assert bootstrap_ci([0.4] * 8) == (0.4, 0.4)
    low, high = bootstrap_ci([0.0, 1.0], n_resamples=2000)
    assert 0.0 <= low <= 0.5 <= high <= 1.0


# ------------------------------------------------------------------ Holm
def closed_testing(p, alpha):
    """Reject H_i when every intersection containing i fails Bonferroni's local test (Holm's shortcut target)."""
    m = len(p)
    rejected_sets = {frozenset(s) for r in range(1, m + 1) for s in itertools.combinations(range(m), r)
                     if min(p[i] for i in s) <= alpha / len(s)}
    return [all(frozenset(s) in rejected_sets for r in range(1, m + 1)
                for s in itertools.combinations(range(m), r) if i in s) for i in range(m)]


@pytest.mark.parametrize("seed", range(60))
def test_holm_equals_closed_testing(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 8))
    alpha = float(rng.choice([0.05, 0.1, 0.2]))
    grid = [0.0, 0.001, 0.0125, 0.02, 0.025, 0.04, 0.05, 0.1, 0.5, 1.0]
    p = rng.choice(grid, m) if seed % 2 else rng.random(m) * rng.choice([0.05, 0.2, 1.0])
    assert holm_rejections(p, alpha).tolist() == closed_testing(list(p), alpha)


def test_holm_against_bonferroni():
    rng = np.random.default_rng(0)
    for _ in range(200):
        p = rng.random(int(rng.integers(1, 12))) * 0.1
        holm = holm_rejections(p)
        assert np.all(holm[p <= 0.05 / len(p)])          # everything Bonferroni rejects, Holm rejects
        assert holm.dtype == bool and holm.shape == p.shape


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call, error, phrase", [
    (lambda: paired_permutation_test([], []), ValueError, "empty"),
    (lambda: paired_permutation_test([0.1, 0.2], [0.1]), ValueError, "same queries"),
    (lambda: paired_permutation_test([0.1, float("nan")], [0.1, 0.2]), ValueError, "NaN"),
    (lambda: paired_permutation_test([0.1, float("inf")], [0.1, 0.2]), ValueError, "infinity"),
    (lambda: paired_permutation_test("0.1 0.2", [0.1, 0.2]), TypeError, "list"),
    (lambda: paired_permutation_test(["a", "b"], [0.1, 0.2]), TypeError, "numbers"),
    (lambda: paired_permutation_test([True, False], [0.1, 0.2]), TypeError, "numbers"),
    (lambda: paired_permutation_test([[0.1, 0.2]], [[0.1, 0.2]]), ValueError, "1-D"),
    (lambda: paired_permutation_test([0.1], [0.2], n_resamples=0), ValueError, "n_resamples"),
    (lambda: paired_permutation_test([0.1], [0.2], n_resamples=1e4), TypeError, "n_resamples"),
    (lambda: paired_permutation_test([0.1], [0.2], seed=None), TypeError, "seed"),
    (lambda: paired_permutation_test([0.1], [0.2], seed=-1), ValueError, "seed"),
    (lambda: bootstrap_ci([]), ValueError, "empty"),
    (lambda: bootstrap_ci([0.3]), ValueError, "at least 2"),
    (lambda: bootstrap_ci([0.3, float("nan")]), ValueError, "NaN"),
    (lambda: bootstrap_ci([0.3, 0.4], confidence=95), ValueError, "between 0 and 1"),
    (lambda: bootstrap_ci([0.3, 0.4], confidence="95%"), TypeError, "confidence"),
    (lambda: bootstrap_ci([0.3, 0.4], n_resamples=-5), ValueError, "n_resamples"),
    (lambda: bootstrap_ci([0.3, 0.4], seed=1.5), TypeError, "seed"),
    (lambda: holm_rejections([]), ValueError, "empty"),
    (lambda: holm_rejections([0.2, 1.5]), ValueError, r"\[0, 1\]"),
    (lambda: holm_rejections([0.2, 0.01], alpha=5), ValueError, "between 0 and 1"),
    (lambda: holm_rejections([0.2, 0.01], alpha=None), TypeError, "alpha"),
])
def test_bad_input_gets_a_clear_error(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


# ------------------------------------------------------------------ how it is written
def test_no_python_loop_over_single_resamples_only_over_batches():
    tree = ast.parse(inspect.getsource(significance))
    loops = [node for node in ast.walk(tree) if isinstance(node, (ast.For, ast.While))]
    assert sorted(ast.unparse(loop.iter) for loop in loops) == [
        "_batches(n_resamples, len(values))", "_batches(rows, n)", "range(0, rows, step)"]


# ------------------------------------------------------------------ hostile input
def test_memory_is_bounded_whatever_the_number_of_resamples():
    """Both built resamples x n arrays: 3.2 GB at 20,000 queries and 10,000 resamples (bench/memory.py
    measures 32 MB now); here 1,000 queries and 10,000 resamples took 160 MB each."""
    import tracemalloc

    rng = np.random.default_rng(0)
    a, b = rng.random(1_000), rng.random(1_000)
    tracemalloc.start()
    try:
        paired_permutation_test(a, b, n_resamples=10_000)
        bootstrap_ci(a, n_resamples=10_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20  # about 50 MB: a few batches of 2**21 values


def test_batches_draw_the_resamples_one_array_would(monkeypatch):
    rng = np.random.default_rng(7)
    a, b = rng.random(37), rng.random(37)
    whole = paired_permutation_test(a, b, 3001, seed=4), bootstrap_ci(a, 0.9, 3001, seed=4)
    monkeypatch.setattr(significance, "_BATCH_CELLS", 100)  # two rows a batch, 1,501 batches
    assert (paired_permutation_test(a, b, 3001, seed=4), bootstrap_ci(a, 0.9, 3001, seed=4)) == whole
    assert paired_permutation_test(a[:11], b[:11], 4096) == paired_permutation_test(a[:11], b[:11], 2**20)  # exact


def test_differences_that_overflow_are_compared_exactly():
    """1e308 - -1e308 is inf in floats: every flip's sum was NaN and the p-value 0.0, outside (0, 1]."""
    assert paired_permutation_test([1e308, -1e308], [-1e308, 1e308]) == 1.0
    assert paired_permutation_test([1e308] * 3, [-1e308] * 3) == 0.25  # only no flip reaches T: 2 * 1/8


def test_works_with_scipy_and_sklearn_blocked():
    out = run_with_blocked(
        """
        import ragmetrics_lite as rm
        print(rm.paired_permutation_test([0.8, 0.9, 0.7, 1.0], [0.6, 0.5, 0.7, 0.6]),
              rm.paired_permutation_test([0.8] * 20, [0.6] * 20, n_resamples=999),
              [round(x, 2) for x in rm.bootstrap_ci([0.2, 0.0, 0.4, 0.1, 0.3], n_resamples=1000)],
              rm.holm_rejections([0.01, 0.04, 0.03, 0.2]).tolist())
        """
    )
    assert out == "0.25 0.002 [0.08, 0.32] [True, False, False, False]\n"
