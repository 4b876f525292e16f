r"""Prediction-powered inference (PPI, 预测驱动推断): a judged mean, corrected by a few labelled items.

A judge (a metric, an embedding model, an LLM) scores every item cheaply; people label only a few.
The mean of the judge's scores is biased by its errors; the mean of the people's labels is unbiased
but rests on few items. PPI (Angelopoulos, Bates, Fannjiang, Jordan, Zrnic, "Prediction-powered
inference", Science 382, 2023) adds to the labelled mean the judge's mean on the unlabelled items and
subtracts the judge's mean on the labelled ones, where its error can be measured; PPI++
(Angelopoulos, Duchi, Zrnic, arXiv:2311.01453, 2023) weights the judge by a power-tuning factor λ
chosen from the data, so that a bad judge cannot make the interval much wider than the labels alone.
ARES uses it to put intervals on LLM-judged RAG scores. Derived in
``notebooks/19_do_metrics_agree_with_people.ipynb``.

Reference replicated: ``ppi_py.ppi_mean_ci(Y, Yhat, Yhat_unlabeled, alpha=0.1, lam=None)`` of the
authors' package ``ppi-python`` (one-dimensional, two-sided, no sample weights), with its defaults
(:func:`ppi_mean_ci` lists them); the spreads in the interval are numpy's ``std`` (divisor n), the
tuned λ its covariance over n and the pooled variance of the predictions over n + N − 1, as in
``ppi_py``. ``ppi-python`` pulls numba, llvmlite, statsmodels and gdown, so it is not a dependency:
``tests/test_ppi.py`` checks the interval against the closed form written out independently (scipy's
normal quantile, ``numpy.cov``) and checks that intervals cover the true mean at their nominal rate
on simulated data.

One difference, on purpose: when every prediction is the same number, ``ppi_py``'s tuned λ is 0/0
and its interval NaN; here λ is 0, since a constant judge carries no information (for such a judge
every λ gives the same interval, the one from the labels alone).
"""
from __future__ import annotations

import math
import numbers
from statistics import NormalDist

import numpy as np

from .significance import _scores

__all__ = ["ppi_mean_ci"]


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"alpha must be a number, got {alpha!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie between 0 and 1 (0.1 gives a 90% interval), got {alpha}")
    return float(alpha)


def _check_lam(lam: object) -> float | None:
    if lam is None:
        return None
    if isinstance(lam, bool) or not isinstance(lam, numbers.Real):
        raise TypeError(f"lam must be a number or None (tuned from the data), got {lam!r}")
    if not math.isfinite(lam):
        raise ValueError(f"lam must be a finite number, got {lam}")
    return float(lam)


def _tuned_lam(labels: np.ndarray, predicted: np.ndarray, predicted_unlabeled: np.ndarray) -> float:
    """PPI++'s λ for a mean: cov(Y, Ŷ) / ((1 + n/N) var(all predictions)), clipped to [0, 1]."""
    n, big_n = len(labels), len(predicted_unlabeled)
    covariance = np.mean((labels - labels.mean()) * (predicted - predicted.mean()))
    spread = np.var(np.concatenate([predicted, predicted_unlabeled]), ddof=1)
    if spread == 0:
        return 0.0  # a constant judge: every λ gives the same interval (module docstring)
    return float(np.clip(covariance / ((1 + n / big_n) * spread), 0.0, 1.0))


def ppi_mean_ci(labels, predicted, predicted_unlabeled, alpha: float = 0.1,
                lam: float | None = None) -> tuple[float, float]:
    r"""Prediction-powered confidence interval for the mean of the labels.

    ``labels`` are people's labels :math:`Y_1..Y_n` of n items, ``predicted`` a judge's scores
    :math:`\hat Y_1..\hat Y_n` of the same items, ``predicted_unlabeled`` its scores
    :math:`\hat Y^u_1..\hat Y^u_N` of N items nobody labelled. With :math:`s^2` the variance
    (divisor n, numpy's default) and :math:`z = \Phi^{-1}(1 - \alpha/2)`:

    .. math::
        \hat\theta_\lambda = \bar Y + \lambda\,(\bar{\hat Y^u} - \bar{\hat Y}), \qquad
        \hat\sigma_\lambda^2 = \frac{s^2(Y - \lambda \hat Y)}{n} + \frac{\lambda^2 s^2(\hat Y^u)}{N}, \qquad
        \hat\theta_\lambda \pm z\,\hat\sigma_\lambda .

    ``lam=1`` is classic PPI, ``lam=0`` the interval from the labels alone; ``lam=None`` (the
    default, PPI++) tunes it: :math:`\hat\lambda = \widehat{\mathrm{cov}}(Y, \hat Y) /
    ((1 + n/N)\,\widehat{\mathrm{var}}(\hat Y \cup \hat Y^u))`, clipped to [0, 1]. Defaults as
    ``ppi_py.ppi_mean_ci`` (module docstring): ``alpha=0.1``, a 90 % interval. Returns
    ``(low, high)``.

    >>> labels = [1, 0, 1, 1, 0, 1]                       # people, on 6 items
    >>> judged = [0.9, 0.2, 0.8, 0.6, 0.1, 0.7]           # the judge, on the same 6
    >>> unlabeled = [0.9, 0.3, 0.7, 0.8, 0.2, 0.6, 0.9, 0.1]
    >>> [round(x, 3) for x in ppi_mean_ci(labels, judged, unlabeled, lam=0)]   # labels alone
    [0.35, 0.983]
    >>> [round(x, 3) for x in ppi_mean_ci(labels, judged, unlabeled)]          # PPI++, λ = 0.79
    [0.455, 0.899]
    """
    labels = _scores(labels, "labels")
    predicted = _scores(predicted, "predicted")
    predicted_unlabeled = _scores(predicted_unlabeled, "predicted_unlabeled")
    if len(predicted) != len(labels):
        raise ValueError(f"predicted must score the labelled items: got {len(predicted)} scores "
                         f"for {len(labels)} labels")
    if len(labels) < 2:
        raise ValueError("labels must hold at least 2 labelled items: one label has no spread")
    alpha, lam = _check_alpha(alpha), _check_lam(lam)
    if lam is None:
        lam = _tuned_lam(labels, predicted, predicted_unlabeled)
    estimate = labels.mean() + lam * (predicted_unlabeled.mean() - predicted.mean())
    variance = np.var(labels - lam * predicted) / len(labels)
    variance += lam**2 * np.var(predicted_unlabeled) / len(predicted_unlabeled)
    half_width = NormalDist().inv_cdf(1 - alpha / 2) * math.sqrt(variance)
    return float(estimate - half_width), float(estimate + half_width)
