"""The retrieval metrics ``evaluate`` knows: one declaration and one vectorised kernel each.

Each :class:`Metric` says what the metric is called, whether it takes a
cut-off k, the trec_eval measure it equals, its readable per-query twin in
``retrieval.py`` and its kernel. Everything else is derived from this table:
the names ``evaluate`` accepts (:func:`parse_metric`), the pytrec_eval measure
to compare with (:func:`trec_eval_measure`), the list of known metrics in error
messages and in ``python -m ragmetrics_lite -h``, and the test that checks every
kernel against its per-query twin on random data. Adding a metric means one
kernel and one declaration in ``METRICS``.

A kernel gets a :class:`Ranked` batch (every retrieved document that carries a
judgment, with its rank in trec_eval's order and its grade, plus the arrays
the kernels share) and returns one score per query.

Reference replicated: trec_eval 10 ``-c`` (``pytrec_eval.RelevanceEvaluator``).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import retrieval

__all__ = ["Metric", "Ranked", "ranked", "METRICS", "DEFAULT_METRICS", "parse_metric", "trec_eval_measure",
           "known_metrics"]


class Ranked(NamedTuple):
    """The retrieved documents that carry a judgment, as flat arrays sorted by query then rank.

    A retrieved document without a judgment has grade 0 and is not relevant:
    it adds nothing to any metric, so only its rank matters, and that is
    already counted in the ranks of the documents below it. The arrays every
    kernel needs (which rows are relevant, how many relevant rows each query
    has seen so far) are computed once, by :func:`ranked`, and shared.
    """

    queries: pd.Index  # every judged query, sorted; metrics are reported for these
    query: np.ndarray  # per retrieved judged document: position of its query in ``queries``
    rank: np.ndarray  # its 1-based rank within the query's whole ranking
    grade: np.ndarray  # its grade (0 or negative included)
    relevant: np.ndarray  # grade >= relevance_level
    relevant_so_far: np.ndarray  # relevant documents of its query at this rank or above
    num_relevant: np.ndarray  # per query: judged documents with grade >= relevance_level
    ideal_query: np.ndarray  # per positive judgment, in ideal order: its query
    ideal_rank: np.ndarray  # ... its rank in the ideal ranking
    ideal_grade: np.ndarray  # ... its grade


def ranked(queries: pd.Index, query: np.ndarray, rank: np.ndarray, grade: np.ndarray,
           judged_query: np.ndarray, judged_grade: np.ndarray, level: int) -> Ranked:
    """The shared arrays, from the retrieved judged documents (sorted by query, then rank) and every
    judgment (``judged_query``, ``judged_grade``: one entry per qrels row)."""
    relevant = grade >= level
    found = np.cumsum(relevant)  # relevant rows so far over the whole batch, minus earlier queries'
    starts, ends = group_bounds(query)
    relevant_so_far = found - np.repeat(found[starts] - relevant[starts], ends - starts)
    num_relevant = np.bincount(judged_query, weights=judged_grade >= level, minlength=len(queries))
    positive = judged_grade > 0
    ideal = np.lexsort((-judged_grade[positive], judged_query[positive]))
    ideal_query, ideal_grade = judged_query[positive][ideal], judged_grade[positive][ideal]
    ideal_starts, ideal_ends = group_bounds(ideal_query)
    ideal_rank = np.arange(len(ideal_query)) - np.repeat(ideal_starts, ideal_ends - ideal_starts) + 1
    return Ranked(queries, query, rank, grade, relevant, relevant_so_far, num_relevant,
                  ideal_query, ideal_rank, ideal_grade)


def group_bounds(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each run of equal, already sorted codes."""
    if len(codes) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    return starts, np.r_[starts[1:], len(codes)]


class Metric(NamedTuple):
    """One retrieval metric: the declaration everything else is derived from."""

    name: str
    cutoff: str  # "required" (recall@5), "optional" (map or map@10) or "none" (r_precision)
    trec_eval: tuple[str | None, str | None]  # trec_eval's measure without / with the cut-off
    per_query: Callable  # (grades: dict, ranking: list, k, relevance_level) -> float, from retrieval.py
    kernel: Callable[[Ranked, int | None], np.ndarray]  # (batch, k) -> one score per query
    notebook: str
    # The metric's row in docs/cheatsheet.md (scripts/study_aids.py; plain text, no LaTeX):
    function: str | None = None  # the public per-query function in retrieval.py
    formula: str | None = None
    value_range: str | None = None
    compares: str | None = None  # what it compares with what
    misses: str | None = None  # what it cannot see
    use_when: str | None = None


# --------------------------------------------------------------------------- kernel helpers
def per_query_sum(r: Ranked, values: np.ndarray, query: np.ndarray | None = None) -> np.ndarray:
    """Sum of ``values`` over each query's rows (0 for a query without rows)."""
    return np.bincount(r.query if query is None else query, weights=values, minlength=len(r.queries))


def divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (nothing relevant)."""
    out = np.zeros(len(numerator))
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def within(rank: np.ndarray, k: int | None) -> np.ndarray:
    return np.ones(len(rank), dtype=bool) if k is None else rank <= k


def hits_within(r: Ranked, k: int | None) -> np.ndarray:
    """Per query: relevant documents in the top k."""
    return per_query_sum(r, r.relevant & within(r.rank, k))


def dcg(r: Ranked, k: int | None, ideal: bool = False) -> np.ndarray:
    """Per query: sum of grade / log2(rank + 1) over the top k (of the ideal ranking with ``ideal``)."""
    rank, grade, query = (r.ideal_rank, r.ideal_grade, r.ideal_query) if ideal else (r.rank, r.grade, r.query)
    keep = within(rank, k) & (grade > 0)
    return per_query_sum(r, grade[keep] / np.log2(rank[keep] + 1), query[keep])


# --------------------------------------------------------------------------- kernels
def recall_kernel(r: Ranked, k: int) -> np.ndarray:
    return divide(hits_within(r, k), r.num_relevant)


def precision_kernel(r: Ranked, k: int) -> np.ndarray:
    return hits_within(r, k) / k


def hit_rate_kernel(r: Ranked, k: int) -> np.ndarray:
    return (hits_within(r, k) > 0).astype(float)


def mrr_kernel(r: Ranked, k: int | None) -> np.ndarray:
    """1 / rank of each query's first relevant row (rows are sorted by query, then rank)."""
    rows = np.flatnonzero(r.relevant & within(r.rank, k))
    first = rows[np.r_[True, r.query[rows[1:]] != r.query[rows[:-1]]]] if len(rows) else rows
    out = np.zeros(len(r.queries))
    out[r.query[first]] = 1.0 / r.rank[first]
    return out


def map_kernel(r: Ranked, k: int | None) -> np.ndarray:
    """Sum of precision at each relevant rank (within k), over every relevant document."""
    precision_at_hits = np.where(r.relevant & within(r.rank, k), r.relevant_so_far / r.rank, 0.0)
    return divide(per_query_sum(r, precision_at_hits), r.num_relevant)


def r_precision_kernel(r: Ranked, k: None) -> np.ndarray:
    in_r = r.relevant & (r.rank <= r.num_relevant[r.query])
    return divide(per_query_sum(r, in_r), r.num_relevant)


def dcg_kernel(r: Ranked, k: int) -> np.ndarray:
    return dcg(r, k)


def ndcg_kernel(r: Ranked, k: int | None) -> np.ndarray:
    return divide(dcg(r, k), dcg(r, k, ideal=True))


def judged_kernel(r: Ranked, k: int) -> np.ndarray:
    return per_query_sum(r, within(r.rank, k)) / k  # every row of the batch carries a judgment


# --------------------------------------------------------------------------- per-query twins
def _with_level(function: Callable) -> Callable:
    """``function(relevant, retrieved, k, relevance_level)`` as a twin (the common signature)."""
    def twin(grades, ranking, k, relevance_level):
        return function(grades, ranking, k, relevance_level=relevance_level)
    twin.__name__ = function.__name__
    return twin


def _r_precision_twin(grades, ranking, k, relevance_level):
    return retrieval.r_precision(grades, ranking, relevance_level=relevance_level)


def _ndcg_twin(grades, ranking, k, relevance_level):
    return retrieval.ndcg_at_k(grades, ranking, k)  # graded: no relevance level


def _judged_twin(grades, ranking, k, relevance_level):
    return retrieval.judged_at_k(grades, ranking, k)  # judged or not: no relevance level


def _dcg_twin(grades, ranking, k, relevance_level):
    return retrieval.dcg_at_k([grades.get(doc, 0) for doc in ranking], k)


# --------------------------------------------------------------------------- the table
METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("recall", "required", (None, "recall"), _with_level(retrieval.recall_at_k), recall_kernel,
           "01_recall_at_k", function="recall_at_k",
           formula="|relevant ∩ top-k| / |relevant|", value_range="[0, 1]",
           compares="the top k of the ranking with every document judged relevant for the query",
           misses="order inside the top k, graded relevance, how much of the top k is noise",
           use_when="the generator needs all the relevant passages (coverage, multi-part questions), "
                    "with k as many chunks as the prompt holds"),
    Metric("precision", "required", (None, "P"), _with_level(retrieval.precision_at_k), precision_kernel,
           "03_precision_at_k", function="precision_at_k",
           formula="|relevant ∩ top-k| / k", value_range="[0, 1] (at most |relevant| / k)",
           compares="the top k of the ranking with the relevance judgments",
           misses="relevant documents below k, order inside the top k, graded relevance",
           use_when="every retrieved chunk costs prompt space and noise misleads the generator"),
    Metric("hit_rate", "required", (None, "success"), _with_level(retrieval.hit_at_k), hit_rate_kernel,
           "02_hit_rate_at_k", function="hit_at_k",
           formula="mean over queries of [at least one relevant document in the top k]",
           value_range="[0, 1]",
           compares="whether the top k holds at least one relevant document",
           misses="how many relevant documents were found, their ranks, the noise beside them",
           use_when="one relevant passage is enough to answer (FAQ, single-fact lookups)"),
    # mrr@k is recip_rank on the run cut to k: trec_eval has no such measure
    Metric("mrr", "optional", ("recip_rank", None), _with_level(retrieval.reciprocal_rank), mrr_kernel,
           "04_mrr", function="reciprocal_rank",
           formula="mean over queries of 1 / rank of the first relevant document (0 if none)",
           value_range="[0, 1]",
           compares="the rank of the first relevant document",
           misses="every relevant document after the first, graded relevance",
           use_when="the reader (user or generator) relies on the first good hit"),
    Metric("map", "optional", ("map", "map_cut"), _with_level(retrieval.average_precision), map_kernel,
           "05_map", function="average_precision",
           formula="AP = Σ P@i over the ranks i of relevant documents / |relevant|; MAP = mean AP",
           value_range="[0, 1]",
           compares="the ranks of all relevant documents, against every relevant document judged",
           misses="graded relevance (binary only); relevant documents nobody judged",
           use_when="binary judgments, and every relevant document should be near the top"),
    Metric("ndcg", "optional", ("ndcg", "ndcg_cut"), _ndcg_twin, ndcg_kernel, "07_ndcg",
           function="ndcg_at_k",
           formula="DCG@k / IDCG@k (IDCG: every judged document sorted by grade)", value_range="[0, 1]",
           compares="graded gains in rank order with the best possible order of the judged documents",
           misses="how much relevant material exists (one weak document ranked first scores 1); "
                  "unjudged documents count as 0",
           use_when="graded judgments (0-3) where order matters, averaged across queries"),
    Metric("dcg", "required", (None, None), _dcg_twin, dcg_kernel, "06_dcg", function="dcg_at_k",
           formula="Σ_{i ≤ k} grade_i / log2(i + 1)", value_range="[0, IDCG@k] (no bound shared by queries)",
           compares="graded gains in rank order, discounted by rank",
           misses="comparability across queries (not normalised)",
           use_when="comparing rankings of the same query, or as NDCG's numerator"),
    Metric("r_precision", "none", ("Rprec", None), _r_precision_twin, r_precision_kernel, "03_precision_at_k",
           function="r_precision",
           formula="|relevant ∩ top-R| / R, R = |relevant|", value_range="[0, 1]",
           compares="the top R with the relevant set (precision = recall at R)",
           misses="everything below rank R, graded relevance",
           use_when="the number of relevant documents varies a lot from query to query"),
    # ir_measures' Judged@k breaks ties by id ascending and skips queries missing from the run (judged_at_k)
    Metric("judged", "required", (None, None), _judged_twin, judged_kernel, "18_capstone_golden_set",
           function="judged_at_k",
           formula="|judged ∩ top-k| / k (judged: any grade in the qrels, 0 included)", value_range="[0, 1]",
           compares="the top k with the set of judged documents, whatever their grade",
           misses="relevance itself: it measures the judgments' coverage, not the ranking's quality",
           use_when="before trusting a new system's scores on a pool judged from another system's runs"),
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
