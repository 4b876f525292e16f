"""ppi_mean_ci against a closed form written out here, and its coverage on simulated data.

The authors' package (``ppi-python``, ``ppi_py.ppi_mean_ci``) pulls numba, llvmlite, statsmodels and
gdown, so it is not installed. Instead: (1) the interval equals the formulas of the PPI and PPI++
papers for a one-dimensional mean, written here with other tools (``numpy.cov`` for the tuned λ,
sums for the spreads, scipy's normal quantile), to 1e-12 on random inputs; (2) 95 % intervals
cover the true mean at least 93 % of the time over 2,000 seeded simulations, with λ tuned for a good
judge and a bad one, and with λ = 1 for the bad one, where classic PPI is wider than the labels
alone; (3) the edge cases and refusals the docstring names.
"""
import math

import numpy as np
import pytest
from scipy.stats import norm

import ragmetrics_lite as rml
from ragmetrics_lite.stats import ppi_mean_ci


def closed_form(y, y_hat, y_unlabeled, alpha=0.1, lam=None):
    """The papers' interval, written independently of the helper."""
    y, y_hat, y_unlabeled = (np.asarray(v, float) for v in (y, y_hat, y_unlabeled))
    n, big_n = len(y), len(y_unlabeled)
    if lam is None:
        covariance = np.cov(y, y_hat, ddof=0)[0, 1]                     # divisor n
        pooled = np.cov(np.concatenate([y_hat, y_unlabeled]))            # divisor n + N - 1
        lam = 0.0 if pooled == 0 else min(1.0, max(0.0, covariance / ((1 + n / big_n) * pooled)))
    rectifier = y - lam * y_hat
    rectifier_var = np.sum((rectifier - rectifier.sum() / n) ** 2) / n
    imputed_var = lam**2 * np.sum((y_unlabeled - y_unlabeled.sum() / big_n) ** 2) / big_n
    centre = lam * y_unlabeled.sum() / big_n + rectifier.sum() / n
    half = norm.ppf(1 - alpha / 2) * math.sqrt(rectifier_var / n + imputed_var / big_n)
    return centre - half, centre + half


def simulated(rng, n, big_n, judge_quality):
    """Labels in {0, 1} with mean 0.3, a judge score that tracks them with the given quality, and
    the judge's scores on the unlabelled items."""
    y = rng.random(n + big_n) < 0.3
    noise = rng.normal(0, 1, n + big_n)
    score = judge_quality * y + (1 - judge_quality) * noise + 0.2       # biased by 0.2
    return y[:n].astype(float), score[:n], score[n:]


@pytest.mark.parametrize("lam", [None, 0.0, 1.0, 0.4, 1.7])
def test_equals_the_closed_form_on_random_inputs(lam):
    rng = np.random.default_rng(19)
    for _ in range(200):
        n, big_n = int(rng.integers(2, 40)), int(rng.integers(1, 300))
        y = rng.choice([0.0, 1.0, 0.5, 2.0], size=n)
        y_hat = y * rng.random() + rng.normal(0, rng.random(), n)
        y_unlabeled = rng.normal(rng.random(), rng.random() + 0.01, big_n)
        alpha = float(rng.choice([0.1, 0.05, 0.2, 0.01]))
        found = ppi_mean_ci(y, y_hat, y_unlabeled, alpha=alpha, lam=lam)
        assert found == pytest.approx(closed_form(y, y_hat, y_unlabeled, alpha, lam), abs=1e-12)


def test_lam_zero_is_the_interval_from_the_labels_alone():
    y = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]
    low, high = ppi_mean_ci(y, [0.0] * 7, [10.0, -10.0], alpha=0.05, lam=0)
    half = norm.ppf(0.975) * np.std(y) / math.sqrt(7)
    assert (low, high) == pytest.approx((np.mean(y) - half, np.mean(y) + half), abs=1e-12)


def test_the_defaults_mirror_ppi_py():
    y, y_hat, y_unlabeled = [1, 0, 1, 1, 0, 1], [0.9, 0.2, 0.8, 0.6, 0.1, 0.7], [0.9, 0.3, 0.7, 0.1]
    assert ppi_mean_ci(y, y_hat, y_unlabeled) == ppi_mean_ci(y, y_hat, y_unlabeled, alpha=0.1, lam=None)
    assert ppi_mean_ci(y, y_hat, y_unlabeled) == pytest.approx(closed_form(y, y_hat, y_unlabeled, 0.1))
    assert rml.ppi_mean_ci is ppi_mean_ci


def test_tuned_lam_is_clipped_to_zero_and_one():
    y = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 0.0])
    against = ppi_mean_ci(y, 1 - y, [0.5, 0.2, 0.9])              # negative covariance: λ = 0
    assert against == pytest.approx(ppi_mean_ci(y, 1 - y, [0.5, 0.2, 0.9], lam=0), abs=1e-15)
    steep = ppi_mean_ci(y, y / 100, np.full(1000, 0.005) + np.arange(1000) % 2 / 100)   # λ would be ~100
    assert steep == pytest.approx(ppi_mean_ci(y, y / 100, np.full(1000, 0.005) + np.arange(1000) % 2 / 100,
                                              lam=1), abs=1e-15)


def test_a_constant_judge_gives_the_interval_from_the_labels():
    y = [0.0, 1.0, 1.0, 0.0, 1.0]
    assert ppi_mean_ci(y, [0.7] * 5, [0.7] * 9) == ppi_mean_ci(y, [0.7] * 5, [0.7] * 9, lam=0)


@pytest.mark.parametrize("judge_quality", [0.9, 0.05])
def test_intervals_cover_the_true_mean_at_their_nominal_rate(judge_quality):
    rng = np.random.default_rng(2023)
    covered = {None: 0, 1.0: 0} if judge_quality < 0.5 else {None: 0}   # λ tuned; λ = 1 where it matters
    widths = {**{lam: [] for lam in covered}, "labels alone": []}
    for _ in range(2000):
        y, y_hat, y_unlabeled = simulated(rng, 60, 600, judge_quality)
        for lam in covered:
            low, high = ppi_mean_ci(y, y_hat, y_unlabeled, alpha=0.05, lam=lam)
            covered[lam] += low <= 0.3 <= high
            widths[lam].append(high - low)
        widths["labels alone"].append(2 * norm.ppf(0.975) * np.std(y) / math.sqrt(60))
    for lam, count in covered.items():
        assert count / 2000 >= 0.93, f"lam={lam}: {count / 2000:.3f} of 95% intervals cover the mean"
    mean_width = {lam: np.mean(w) for lam, w in widths.items()}
    if judge_quality > 0.5:   # a good judge narrows the interval
        assert mean_width[None] < 0.8 * mean_width["labels alone"]
    else:                     # a bad one: classic PPI is wider than the labels alone, PPI++ hardly
        assert mean_width[1.0] > 1.5 * mean_width["labels alone"]
        assert mean_width[None] < 1.05 * mean_width["labels alone"]


@pytest.mark.parametrize("args, kwargs, error, phrase", [
    (([1, 0], [0.5], [0.1]), {}, ValueError, "predicted must score the labelled items"),
    (([1], [0.5], [0.1]), {}, ValueError, "at least 2 labelled items"),
    (([1, 0], [0.5, 0.1], []), {}, ValueError, "predicted_unlabeled is empty"),
    (([1, math.nan], [0.5, 0.1], [0.1]), {}, ValueError, "labels contains NaN"),
    (([1, 0], [0.5, 0.1], [[0.1]]), {}, ValueError, "predicted_unlabeled must be 1-D"),
    (("10", [0.5, 0.1], [0.1]), {}, TypeError, "labels must be a list"),
    (([1, 0], [0.5, 0.1], [0.1]), {"alpha": 1.0}, ValueError, "alpha must lie between 0 and 1"),
    (([1, 0], [0.5, 0.1], [0.1]), {"alpha": True}, TypeError, "alpha must be a number"),
    (([1, 0], [0.5, 0.1], [0.1]), {"lam": math.inf}, ValueError, "lam must be a finite number"),
    (([1, 0], [0.5, 0.1], [0.1]), {"lam": "tuned"}, TypeError, "lam must be a number or None"),
])
def test_bad_input_is_refused_with_a_clear_error(args, kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        ppi_mean_ci(*args, **kwargs)
