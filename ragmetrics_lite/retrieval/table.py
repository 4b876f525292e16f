"""The retrieval metrics ``evaluate`` knows: one declaration each.

Each :class:`Metric` says what the metric is called, whether it takes a cut-off k, the trec_eval
measure it equals, its per-query function in ``retrieval/metrics.py`` (the definition) and the
kernel of the fast engine that computes it for every query at once (``fast/kernels.py``, tested
equal to the per-query function). The names ``evaluate`` accepts (:func:`parse_metric`), the
pytrec_eval measures (:func:`trec_eval_measure`), the known metrics in messages and ``-h``, and the
test of every kernel against its function on random data all come from this table: adding a metric
means one per-query function, one kernel and one declaration in ``METRICS``.

Reference replicated: trec_eval 10 ``-c`` (``pytrec_eval.RelevanceEvaluator``).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import NamedTuple

import numpy as np

from ..fast import kernels
from ..fast.kernels import Ranked
from . import metrics

__all__ = ["Metric", "METRICS", "DEFAULT_METRICS", "parse_metric", "trec_eval_measure", "known_metrics"]


class Metric(NamedTuple):
    """One retrieval metric: the declaration everything else is derived from."""

    name: str
    cutoff: str  # "required" (recall@5), "optional" (map or map@10) or "none" (r_precision)
    trec_eval: tuple[str | None, str | None]  # trec_eval's measure without / with the cut-off
    per_query: Callable  # (grades: dict, ranking: list, k, relevance_level) -> float, from metrics.py
    kernel: Callable[[Ranked, int | None], np.ndarray]  # (batch, k) -> one score per query
    notebook: str


# --------------------------------------------------------------------------- per-query functions, one signature
# Each adapter carries its metric function's name and docstring (``functools.wraps``), so the table
# names the function a learner reads (``inspect.unwrap(Metric.per_query)``).
def _with_level(function: Callable) -> Callable:
    """``function(relevant, retrieved, k, relevance_level)``, the signature every ``per_query`` has."""
    @wraps(function)
    def per_query(grades, ranking, k, relevance_level):
        return function(grades, ranking, k, relevance_level=relevance_level)
    return per_query


@wraps(metrics.r_precision)
def _r_precision(grades, ranking, k, relevance_level):
    return metrics.r_precision(grades, ranking, relevance_level=relevance_level)


@wraps(metrics.ndcg_at_k)
def _ndcg(grades, ranking, k, relevance_level):
    return metrics.ndcg_at_k(grades, ranking, k)  # graded: no relevance level


@wraps(metrics.judged_at_k)
def _judged(grades, ranking, k, relevance_level):
    return metrics.judged_at_k(grades, ranking, k)  # judged or not: no relevance level


@wraps(metrics.dcg_at_k)
def _dcg(grades, ranking, k, relevance_level):
    return metrics.dcg_at_k([grades.get(doc, 0) for doc in ranking], k)


# --------------------------------------------------------------------------- the table
METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("recall", "required", (None, "recall"), _with_level(metrics.recall_at_k), kernels.recall,
           "01_recall_at_k"),
    Metric("precision", "required", (None, "P"), _with_level(metrics.precision_at_k), kernels.precision,
           "03_precision_at_k"),
    Metric("hit_rate", "required", (None, "success"), _with_level(metrics.hit_at_k), kernels.hit_rate,
           "02_hit_rate_at_k"),
    # mrr@k is recip_rank on the run cut to k: trec_eval has no such measure
    Metric("mrr", "optional", ("recip_rank", None), _with_level(metrics.reciprocal_rank), kernels.mrr,
           "04_mrr"),
    Metric("map", "optional", ("map", "map_cut"), _with_level(metrics.average_precision),
           kernels.average_precision, "05_map"),
    Metric("ndcg", "optional", ("ndcg", "ndcg_cut"), _ndcg, kernels.ndcg, "07_ndcg"),
    Metric("dcg", "required", (None, None), _dcg, kernels.dcg, "06_dcg"),
    Metric("r_precision", "none", ("Rprec", None), _r_precision, kernels.r_precision, "03_precision_at_k"),
    # ir_measures' Judged@k breaks ties by id ascending and skips queries missing from the run (judged_at_k)
    Metric("judged", "required", (None, None), _judged, kernels.judged, "18_capstone_golden_set"),
)}
DEFAULT_METRICS = ("recall@5", "precision@5", "hit_rate@5", "mrr", "map", "ndcg@10")


def known_metrics() -> str:
    """The metric names ``evaluate`` accepts, as one line.

    >>> known_metrics()[:40]
    'recall@k, precision@k, hit_rate@k, mrr o'
    """
    forms = {"required": "{0}@k", "optional": "{0} or {0}@k", "none": "{0}"}
    return ", ".join(forms[m.cutoff].format(name) for name, m in METRICS.items())


def parse_metric(name: str) -> tuple[str, int | None]:
    """``"ndcg@10" -> ("ndcg", 10)``; a clear error for unknown names, a missing k or a bad k.

    >>> parse_metric("ndcg@10"), parse_metric("mrr")
    (('ndcg', 10), ('mrr', None))
    >>> parse_metric("ndcg@-1")
    Traceback (most recent call last):
    ...
    ValueError: bad cut-off in 'ndcg@-1': k must be a whole number >= 1, e.g. 'ndcg@10'
    """
    if not isinstance(name, str):
        raise TypeError(f"a metric name must be a string, got {name!r}")
    match = re.fullmatch(r"([a-z_]+)(?:@(.*))?", name, flags=re.DOTALL)
    family = match.group(1) if match else None
    if family not in METRICS:
        raise ValueError(f"unknown metric {name!r}; known metrics: {known_metrics()}")
    cutoff, k_text = METRICS[family].cutoff, match.group(2)
    if k_text is None:
        if cutoff == "required":
            raise ValueError(f"{name!r} needs its cut-off k, e.g. '{family}@5'; known metrics: {known_metrics()}")
        return family, None
    if cutoff == "none":
        raise ValueError(f"{family!r} takes no cut-off (R is the number of relevant documents)")
    if not re.fullmatch(r"[0-9]+", k_text) or int(k_text) < 1:
        raise ValueError(f"bad cut-off in {name!r}: k must be a whole number >= 1, e.g. '{family}@10'")
    return family, int(k_text)


def trec_eval_measure(name: str) -> tuple[str, str] | None:
    """The pytrec_eval measure for a metric name: (what to ask for, the key of its result).

    None where trec_eval has no such measure (``mrr@k`` is ``recip_rank`` on the
    run cut to k; DCG is not reported by trec_eval).

    >>> trec_eval_measure("ndcg@10"), trec_eval_measure("hit_rate@5"), trec_eval_measure("mrr")
    (('ndcg_cut.10', 'ndcg_cut_10'), ('success.5', 'success_5'), ('recip_rank', 'recip_rank'))
    >>> trec_eval_measure("mrr@10") is None
    True
    """
    family, k = parse_metric(name)
    plain, with_cut = METRICS[family].trec_eval
    if k is None:
        return None if plain is None else (plain, plain)
    return None if with_cut is None else (f"{with_cut}.{k}", f"{with_cut}_{k}")
