"""Annotator agreement: Cohen's kappa for two raters, Fleiss' kappa for many.

Derived in ``notebooks/17_human_evaluation.ipynb``. References replicated:

- :func:`cohens_kappa` equals ``sklearn.metrics.cohen_kappa_score(a, b, weights=..., labels=...)``
  (Cohen 1960; weighted kappa, Cohen 1968). Like scikit-learn, the linear and quadratic weights
  use a label's *position* in ``labels``, not its value (its doctests show the difference). Where
  scikit-learn silently drops the items whose label is not in ``labels``, this function raises: a
  dropped item is a silently wrong kappa.
- :func:`fleiss_kappa` is Fleiss (1971), the formula of
  ``statsmodels.stats.inter_rater.fleiss_kappa(counts)``. statsmodels is not a dependency, so
  ``tests/test_agreement.py`` checks it against an exact rational computation on random tables and
  against the worked example its docstring quotes. :func:`rating_counts` builds its input from raw
  labels, like ``statsmodels.stats.inter_rater.aggregate_raters``.

Kappa is undefined (0/0) when the expected agreement is 1, i.e. every rating falls in one and
the same category: both functions then return NaN with a :class:`RagMetricsWarning`, as
scikit-learn returns NaN for Cohen's kappa.
"""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .._validation import RagMetricsWarning

__all__ = ["cohens_kappa", "fleiss_kappa", "rating_counts"]

_WEIGHTS = (None, "linear", "quadratic")


def _labels_of(values: object, what: str) -> list:
    """A list of labels (numbers or strings, one kind); refuse text, NaN, booleans, nesting."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a sequence of labels, got {type(values).__name__}")
    out = list(np.asarray(values, dtype=object).tolist()) if isinstance(values, np.ndarray) else list(values)
    for i, value in enumerate(out):
        if type(value) in (int, str):  # the usual labels, let through without the slow ABC checks below
            continue
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
            raise TypeError(f"{what}[{i}] must be a number or a string label, got {type(value).__name__} {value!r}")
        if isinstance(value, numbers.Real) and not math.isfinite(value):
            raise ValueError(f"{what}[{i}] must be a finite label, got {value}")
    if len({isinstance(value, str) for value in out}) > 1:
        raise TypeError(f"{what} mixes numbers and strings: give every label the same kind")
    return out


def _category_order(observed: list, labels: object, what: str) -> list:
    """The categories in kappa's order: ``labels`` as given, or the sorted observed labels."""
    if labels is None:
        return sorted(set(observed))
    order = _labels_of(labels, "labels")
    if not order:
        raise ValueError("labels must hold at least one label")
    if len(set(order)) != len(order):
        raise ValueError(f"labels must not repeat a label, got {order}")
    if observed and isinstance(observed[0], str) != isinstance(order[0], str):
        raise TypeError(f"{what} and labels must be the same kind (numbers or strings)")
    missing = sorted(set(observed) - set(order))
    if missing:
        raise ValueError(f"{what} holds labels that are not in labels: {missing}")
    return order


def _undefined(message: str) -> float:
    warnings.warn(f"kappa is undefined (0/0): {message}; returning NaN", RagMetricsWarning, stacklevel=3)
    return math.nan


def cohens_kappa(a, b, weights: str | None = None, labels=None) -> float:
    r"""Cohen's kappa between two raters' labels ``a`` and ``b`` of the same items.

    .. math::
        \kappa = 1 - \frac{\sum_{ij} w_{ij}\, O_{ij}}{\sum_{ij} w_{ij}\, E_{ij}},
        \qquad E_{ij} = \frac{O_{i\cdot}\, O_{\cdot j}}{n}

    where :math:`O` is the confusion matrix (rows ``a``, columns ``b``), :math:`E` the matrix
    expected by chance from the two raters' own label frequencies, and :math:`w_{ij}` is 0 on the
    diagonal and 1 elsewhere (``weights=None``, so kappa = (p_o - p_e) / (1 - p_e)),
    :math:`|i - j|` (``"linear"``) or :math:`(i - j)^2` (``"quadratic"``), with :math:`i, j` the
    *positions* of the labels in ``labels`` (default: the sorted observed labels).
    Equals ``sklearn.metrics.cohen_kappa_score``. Notebook: ``17_human_evaluation``.

    >>> round(cohens_kappa([3, 2, 0, 1, 3, 0], [3, 2, 1, 1, 2, 0]), 4)
    0.5714
    >>> round(cohens_kappa([0, 1, 3], [1, 3, 3], weights="linear"), 4)  # 1 -> 3 is one step here
    0.25
    >>> round(cohens_kappa([0, 1, 3], [1, 3, 3], weights="linear", labels=range(4)), 4)  # the 0-3 scale
    0.3077
    """
    if weights not in _WEIGHTS:
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    a, b = _labels_of(a, "a"), _labels_of(b, "b")
    if len(a) != len(b):
        raise ValueError(f"a and b must label the same items: got {len(a)} and {len(b)} labels")
    if not a:
        raise ValueError("a and b are empty: kappa needs at least one item")
    if isinstance(a[0], str) != isinstance(b[0], str):
        raise TypeError("a and b must use the same kind of labels (numbers or strings)")
    order = _category_order(a + b, labels, "a and b")
    position = {label: i for i, label in enumerate(order)}
    rows = np.array([position[x] for x in a], dtype=float)
    cols = np.array([position[y] for y in b], dtype=float)
    weight = {None: lambda step: (step != 0).astype(float), "linear": np.abs, "quadratic": np.square}[weights]
    observed_disagreement = float(np.sum(weight(rows - cols)))  # sum of w * O, item by item: no matrix
    chance_disagreement = _chance_disagreement(np.bincount(rows.astype(int), minlength=len(order)),
                                               np.bincount(cols.astype(int), minlength=len(order)), weights)
    if chance_disagreement == 0:  # a sum of non-negative terms: zero only when one label takes all
        return _undefined(f"both raters used only the label {a[0]!r}, so the expected agreement is 1")
    return float(1 - observed_disagreement * len(a) / chance_disagreement)


def _chance_disagreement(row_counts: np.ndarray, col_counts: np.ndarray, weights: str | None) -> float:
    """n times the sum of w * E: sum over i, j of w(i - j) r_i c_j, from the label counts r and c alone,
    in time and memory linear in the number of labels (the matrix of 5,000 labels took 1.2 GB)."""
    r, c = row_counts.astype(float), col_counts.astype(float)
    n, at = r.sum(), np.arange(len(r), dtype=float)
    if weights is None:  # every pair but i == j
        return float(n * n - np.dot(r, c))
    if weights == "quadratic":  # (i - j)^2 around each side's mean position: a sum of squares
        mean_r, mean_c = np.dot(r, at) / n, np.dot(c, at) / n
        spread = np.dot(r, (at - mean_r) ** 2) + np.dot(c, (at - mean_c) ** 2)
        return float(n * spread + n * n * (mean_r - mean_c) ** 2)
    # linear: sum over j of |i - j| c_j, for every i at once, from running sums of c_j and j c_j
    below, below_at = np.cumsum(c) - c, np.cumsum(c * at) - c * at
    above, above_at = c.sum() - below - c, np.dot(c, at) - below_at - c * at
    return float(np.dot(r, at * below - below_at + above_at - at * above))


def fleiss_kappa(counts) -> float:
    r"""Fleiss' kappa from an items x categories matrix of rating counts.

    ``counts[i][j]`` is how many raters put item ``i`` in category ``j``; every item has the same
    number of ratings :math:`n \ge 2` (the raters may differ from item to item). With :math:`N`
    items,

    .. math::
        P_i = \frac{\sum_j n_{ij}^2 - n}{n(n-1)},\quad \bar P = \frac{1}{N}\sum_i P_i,\quad
        p_j = \frac{\sum_i n_{ij}}{N n},\quad \bar P_e = \sum_j p_j^2,\quad
        \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}

    (Fleiss 1971). Check: Wikipedia's "Fleiss' kappa" worked example (10 items, 14 raters,
    5 categories) gives P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210. The formula of
    ``statsmodels.stats.inter_rater.fleiss_kappa``. Build ``counts`` from raw labels with
    :func:`rating_counts`. Notebook: ``17_human_evaluation``.

    >>> round(fleiss_kappa([[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 2, 1]]), 4)
    0.3182
    """
    table = _count_matrix(counts)
    n = table.sum(axis=1)[0]
    agreement_per_item = ((table**2).sum(axis=1) - n) / (n * (n - 1))
    shares = table.sum(axis=0) / table.sum()
    chance_agreement = float(np.sum(shares**2))
    if np.count_nonzero(shares) == 1:
        return _undefined("every rating is in one category, so the expected agreement is 1")
    return float((agreement_per_item.mean() - chance_agreement) / (1 - chance_agreement))


def _count_matrix(counts) -> np.ndarray:
    """Validate an items x categories count matrix with equal row sums >= 2."""
    if isinstance(counts, (str, bytes)):
        raise TypeError("counts must be an items x categories matrix of numbers, got a string")
    cells = np.asarray(counts, dtype=object)  # each cell as given: True and "3" are not counts
    if cells.ndim != 2:
        raise ValueError(f"counts must be 2-D (items x categories), got {cells.ndim}-D")
    for (item, category), cell in np.ndenumerate(cells):
        if isinstance(cell, (bool, np.bool_)) or not isinstance(cell, numbers.Real):
            raise TypeError(f"counts[{item}][{category}] is {cell!r}: counts must be a matrix of numbers (how "
                            "many raters chose each category), not booleans, strings or missing values")
    table = cells.astype(float)
    if table.shape[0] == 0 or table.shape[1] == 0:
        raise ValueError(f"counts is empty (shape {table.shape}): need at least one item and one category")
    if not np.isfinite(table).all() or (table < 0).any() or (table != np.round(table)).any():
        raise ValueError("counts must hold whole numbers >= 0 (how many raters chose each category)")
    per_item = table.sum(axis=1)
    if (per_item != per_item[0]).any():
        uneven = int(np.argmax(per_item != per_item[0]))
        raise ValueError(f"every item needs the same number of ratings: item 0 has {per_item[0]:g}, "
                         f"item {uneven} has {per_item[uneven]:g}")
    if per_item[0] < 2:
        raise ValueError(f"each item needs at least 2 ratings to measure agreement, got {per_item[0]:g}")
    return table


def rating_counts(ratings, categories=None) -> pd.DataFrame:
    """Items x categories counts from raw labels: ``ratings[i]`` holds the labels item ``i`` got.

    Columns are ``categories`` in the given order (default: the sorted observed labels), so a
    category nobody used still gets its column of zeros. Feed the result to :func:`fleiss_kappa`.
    Like ``statsmodels.stats.inter_rater.aggregate_raters``. Notebook: ``17_human_evaluation``.

    >>> rating_counts([[3, 3, 2], [0, 1, 0]], categories=range(4)).to_numpy().tolist()
    [[0, 0, 1, 2], [2, 1, 0, 0]]
    """
    if isinstance(ratings, (str, bytes)) or not isinstance(ratings, Iterable):
        raise TypeError(f"ratings must be a sequence of items, each a sequence of labels, got {type(ratings).__name__}")
    items = [_labels_of(item, f"ratings[{i}]") for i, item in enumerate(ratings)]
    if not items:
        raise ValueError("ratings is empty: need at least one item")
    every = [label for item in items for label in item]
    if len({isinstance(label, str) for label in every}) > 1:
        raise TypeError("ratings mixes numbers and strings: give every label the same kind")
    order = _category_order(every, categories, "ratings")
    position = {label: j for j, label in enumerate(order)}
    table = np.zeros((len(items), len(order)), dtype=int)
    item_index = np.repeat(np.arange(len(items)), [len(item) for item in items])
    np.add.at(table, (item_index, np.array([position[label] for label in every], dtype=int)), 1)
    return pd.DataFrame(table, columns=pd.Index(order, name="category"),
                        index=pd.RangeIndex(len(items), name="item"))
