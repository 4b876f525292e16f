r"""Is a difference between two systems real? A paired permutation test and a bootstrap interval.

References replicated: scipy 1.17 (``scipy/stats/_resampling.py``). The
equivalent calls are::

    def mean_difference(x, y, axis):
        return np.mean(x - y, axis=axis)

    scipy.stats.permutation_test((a, b), mean_difference, permutation_type="samples",
                                 n_resamples=n_resamples, alternative="two-sided").pvalue
    scipy.stats.bootstrap((values,), np.mean, method="percentile", confidence_level=confidence,
                          n_resamples=n_resamples, rng=np.random.default_rng(seed)).confidence_interval

Conventions, scipy's (each function's docstring gives its formula, exact enumeration and resamples
included); both draw their resamples a batch of rows at a time (scipy's ``batch`` idea): the same
numbers as one array, in memory that does not grow with ``n_resamples``. Holm's step-down
correction for many metrics at once (``holm_rejections``) has no scipy counterpart; its test checks
it against the closed testing procedure it shortcuts (statsmodels' ``multipletests(p, alpha,
method="holm")[0]`` implements the same rule; statsmodels is not installed here).

One difference, on purpose: ties. scipy compares floats and counts a null value
within ``100 * eps * |observed|`` of the observed one as equal. We decide every
comparison that float rounding could get wrong in exact integer arithmetic, on
the values as written (``0.8 - 0.6`` is exactly ``0.2``, as on paper), so an
exact test equals an enumeration in fractions. On continuous data the two agree.

Derived in ``notebooks/16_ab_testing.ipynb``.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from .._validation import check_k

__all__ = ["paired_permutation_test", "bootstrap_ci", "holm_rejections"]


def _scores(values: object, name: str) -> np.ndarray:
    """A non-empty 1-D float array of finite numbers, or a clear error."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a list or 1-D array of numbers, got {type(values).__name__}")
    array = np.asarray(values)
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.number) or array.size == 0):
        raise TypeError(f"{name} must hold numbers, got dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty: there is nothing to compare")
    if np.iscomplexobj(array):
        raise TypeError(f"{name} must hold real numbers, got complex")
    array = array.astype(float)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity at position {int(np.argmin(np.isfinite(array)))}")
    return array


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int (a fixed seed makes the result reproducible), got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return int(seed)


#: Resampled values held at once (16 MB per float array): memory stays bounded whatever n_resamples is.
_BATCH_CELLS = 2**21


def _batches(rows: int, width: int):
    """(first row, row count) of successive batches of at most ``_BATCH_CELLS`` cells, one row at least.
    Drawing a (rows, width) array batch by batch gives the same numbers: numpy's generators keep the
    state, their spare 32 bits included, between calls."""
    step = max(1, _BATCH_CELLS // max(width, 1))
    for start in range(0, rows, step):
        yield start, min(step, rows - start)


def _flipped_sums(a: np.ndarray, b: np.ndarray, flips: np.ndarray) -> np.ndarray:
    """Sign of sum(d_i for flipped i) per row of ``flips`` (0/1 integers), where d = a - b, decided exactly.

    Float sums first; rows whose float sum is too close to 0 for its sign to be trusted, or
    that overflowed (1e308 - -1e308), are summed again in integers (values as written:
    ``Fraction(repr(x))``).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        total = flips.astype(float) @ (a - b)
        bound = 4 * (len(a) + 2) * np.finfo(float).eps * float(np.sum(np.abs(a) + np.abs(b)))
        unsure = ~np.isfinite(total) | (np.abs(total) <= bound)  # an overflowed sum is unsure too
    if unsure.any():
        exact = [Fraction(repr(x)) - Fraction(repr(y)) for x, y in zip(a.tolist(), b.tolist())]
        scale = math.lcm(*(q.denominator for q in exact))
        integers = np.array([int(q * scale) for q in exact], dtype=object)
        total = total.copy()
        total[unsure] = [(t > 0) - (t < 0) for t in flips[unsure].astype(object) @ integers]
    return np.sign(total)


def paired_permutation_test(a, b, n_resamples: int = 10_000, seed: int = 0) -> float:
    r"""Two-sided p-value that the mean paired difference of ``a`` and ``b`` is 0.

    Under the null hypothesis the two systems are exchangeable on each query, so
    each difference :math:`d_i = a_i - b_i` is as likely to be :math:`-d_i`. With
    :math:`T = \frac1n\sum_i d_i` and :math:`T_s = \frac1n\sum_i s_i d_i` over sign
    flips :math:`s \in \{-1, 1\}^n`,

    .. math::
        p_\ge = \Pr_s(T_s \ge T), \quad p_\le = \Pr_s(T_s \le T), \quad
        p = \min(1,\ 2\min(p_\ge, p_\le)).

    All :math:`2^n` flips when :math:`2^n \le` ``n_resamples`` (exact); else
    ``n_resamples`` random flips from ``numpy.random.default_rng(seed)``, each side
    :math:`(\text{count} + 1) / (\text{n\_resamples} + 1)`. Equals scipy's
    ``permutation_test(..., permutation_type="samples")`` (module docstring).

    >>> paired_permutation_test([0.8, 0.9, 0.7, 1.0], [0.6, 0.5, 0.7, 0.6])  # 16 flips: exact
    0.25
    """
    a, b = _scores(a, "a"), _scores(b, "b")
    if len(a) != len(b):
        raise ValueError(f"a and b must score the same queries: got {len(a)} and {len(b)} scores")
    n_resamples, n = check_k(n_resamples, "n_resamples"), len(a)
    rng = np.random.default_rng(_seed(seed))
    exact = n < 63 and 2**n <= n_resamples
    rows, adjustment = (2**n, 0) if exact else (n_resamples, 1)
    at_least = at_most = 0  # flips with T_s >= T, with T_s <= T
    for start, size in _batches(rows, n):
        if exact:  # row r flips pair i when bit i of r is set
            flips = (np.arange(start, start + size)[:, None] >> np.arange(n)) & 1
        else:
            flips = rng.integers(0, 2, size=(size, n))
        # T_s - T = -2/n * sum of the flipped d_i, so T_s >= T exactly when that sum is <= 0.
        sign = _flipped_sums(a, b, flips)
        at_least += np.count_nonzero(sign <= 0)
        at_most += np.count_nonzero(sign >= 0)
    p_greater = (at_least + adjustment) / (rows + adjustment)
    p_less = (at_most + adjustment) / (rows + adjustment)
    return float(min(1.0, 2 * min(p_greater, p_less)))


def bootstrap_ci(values, confidence: float = 0.95, n_resamples: int = 10_000,
                 seed: int = 0) -> tuple[float, float]:
    r"""Percentile bootstrap interval for the mean of ``values``.

    Draw ``n_resamples`` samples of size n with replacement, take each one's
    mean :math:`\bar x^*_1, \dots, \bar x^*_B`, and report their quantiles

    .. math::
        \Big(q_{\alpha/2}(\bar x^*),\ q_{1-\alpha/2}(\bar x^*)\Big), \qquad \alpha = 1 - \text{confidence},

    with linear interpolation between order statistics. The resamples are
    ``numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))``, scipy's,
    so the interval equals ``scipy.stats.bootstrap`` with ``method="percentile"``.

    >>> low, high = bootstrap_ci([0.2, 0.0, 0.4, 0.1, 0.3], n_resamples=1000)
    >>> round(low, 2), round(high, 2)
    (0.08, 0.32)
    """
    values = _scores(values, "values")
    if len(values) < 2:
        raise ValueError("values must hold at least 2 numbers: one value has no spread to resample")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a number, got {confidence!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (e.g. 0.95), got {confidence}")
    n_resamples = check_k(n_resamples, "n_resamples")
    rng = np.random.default_rng(_seed(seed))
    means = np.empty(n_resamples)
    for start, size in _batches(n_resamples, len(values)):  # scipy's resamples, a batch at a time
        means[start:start + size] = np.mean(values[rng.integers(0, len(values), (size, len(values)))], axis=-1)
    alpha = (1 - float(confidence)) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def holm_rejections(p_values, alpha: float = 0.05) -> np.ndarray:
    r"""Which of m hypotheses Holm's step-down procedure rejects, at family-wise error rate ``alpha``.

    Sort the p-values, :math:`p_{(1)} \le \dots \le p_{(m)}`, and reject
    :math:`H_{(1)}, \dots, H_{(k-1)}` where :math:`k` is the first step with

    .. math::
        p_{(k)} > \frac{\alpha}{m - k + 1}.

    The chance of any false rejection stays at most ``alpha`` (as with Bonferroni's
    :math:`p \le \alpha/m`, which Holm never rejects less than). Returns a bool array
    in the order of ``p_values``.

    >>> holm_rejections([0.01, 0.04, 0.03, 0.2]).tolist()   # 0.01 <= 0.05/4; then 0.03 > 0.05/3
    [True, False, False, False]
    """
    p = _scores(p_values, "p_values")
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"p_values must lie in [0, 1], got {p[(p < 0) | (p > 1)][0]}")
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"alpha must be a number, got {alpha!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1 (e.g. 0.05), got {alpha}")
    m = len(p)
    order = np.argsort(p, kind="stable")
    passes = p[order] <= alpha / (m - np.arange(m))          # step k compares with alpha / (m - k + 1)
    rejected = np.empty(m, dtype=bool)
    rejected[order] = np.cumprod(passes).astype(bool)       # stop at the first failure
    return rejected
