"""Evaluate a whole run against judgments: one row per query, one column per metric.

Reference replicated: ``trec_eval -c -q`` (``pytrec_eval.RelevanceEvaluator``),
computed with numpy over every (query, rank) row at once instead of a Python
loop per query. The equivalent call is::

    pytrec_eval.RelevanceEvaluator(qrels, {"recall.5", "P.5", "success.5",
        "recip_rank", "map", "ndcg_cut.10"}, relevance_level=1).evaluate(run)

Differences from ``pytrec_eval`` (not from trec_eval): scores compare as
float64, as in trec_eval 10, where pytrec_eval still rounds them to float32;
every qrels query is scored, a query absent from the run scoring 0 (trec_eval
``-c``), where pytrec_eval leaves it out.
"""
from __future__ import annotations

import re
import warnings
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._frames import check_frame_id_kinds, qrels_frame, run_frame
from ._validation import check_relevance_level

__all__ = ["evaluate", "trec_eval_measure", "METRICS", "RagMetricsWarning"]

#: metric family -> (its cut-off k: "required", "optional" or "none";
#:                   trec_eval's measure without / with the cut-off, None where it has none)
METRICS = {
    "recall": ("required", (None, "recall")),
    "precision": ("required", (None, "P")),
    "hit_rate": ("required", (None, "success")),
    "mrr": ("optional", ("recip_rank", None)),  # mrr@k: recip_rank on the run cut to k
    "map": ("optional", ("map", "map_cut")),
    "ndcg": ("optional", ("ndcg", "ndcg_cut")),
    "dcg": ("required", (None, None)),
    "r_precision": ("none", ("Rprec", None)),
}
DEFAULT_METRICS = ("recall@5", "precision@5", "hit_rate@5", "mrr", "map", "ndcg@10")


class RagMetricsWarning(UserWarning):
    """Something in the input was scored by a convention the caller may not expect."""


def _known_names() -> str:
    forms = {"required": "{}@k", "optional": "{} or {}@k", "none": "{}"}
    return ", ".join(forms[need].format(name, name) for name, (need, _) in METRICS.items())


def parse_metric(name: str) -> tuple[str, int | None]:
    """``"ndcg@10" -> ("ndcg", 10)``; a clear error for unknown names or a missing k.

    >>> parse_metric("ndcg@10"), parse_metric("mrr")
    (('ndcg', 10), ('mrr', None))
    """
    if not isinstance(name, str):
        raise TypeError(f"a metric name must be a string, got {name!r}")
    match = re.fullmatch(r"([a-z_]+)(?:@(\d+))?", name)
    family = match.group(1) if match else None
    if family not in METRICS:
        raise ValueError(f"unknown metric {name!r}; known metrics: {_known_names()}")
    need = METRICS[family][0]
    k = int(match.group(2)) if match.group(2) else None
    if need == "required" and k is None:
        raise ValueError(f"{name!r} needs its cut-off k, e.g. '{family}@5'; known metrics: {_known_names()}")
    if need == "none" and k is not None:
        raise ValueError(f"{family!r} takes no cut-off (R is the number of relevant documents)")
    if k is not None and k < 1:
        raise ValueError(f"the cut-off in {name!r} must be >= 1")
    return family, k


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
    plain, with_cut = METRICS[family][1]
    if k is None:
        return None if plain is None else (plain, plain)
    return None if with_cut is None else (f"{with_cut}.{k}", f"{with_cut}_{k}")


class _Ranked(NamedTuple):
    """Every retrieved (query, rank) row as flat arrays, plus per-query judgments."""

    queries: pd.Index  # every qrels query, sorted; metrics are reported for these
    query: np.ndarray  # per retrieved row: position of its query in ``queries``
    rank: np.ndarray  # 1-based rank within the query
    grade: np.ndarray  # the document's grade, 0 when unjudged
    num_relevant: np.ndarray  # per query: grades >= relevance_level
    ideal_query: np.ndarray  # per positive judgment, in ideal order: its query
    ideal_rank: np.ndarray  # ... its rank in the ideal ranking
    ideal_grade: np.ndarray  # ... its grade


def _rank_within(group: np.ndarray) -> np.ndarray:
    """1-based position of each row within its run of equal, already sorted group codes."""
    first_of_group = np.searchsorted(group, group, side="left")
    return np.arange(len(group)) - first_of_group + 1


def _sorted_codes(ids: pd.Series) -> np.ndarray:
    """Each id's position among the distinct ids sorted by code point (= UTF-8 byte order)."""
    codes, distinct = pd.factorize(ids)
    position = np.empty(len(distinct), dtype=np.int64)
    position[np.argsort(np.asarray(distinct, dtype=str), kind="stable")] = np.arange(len(distinct))
    return position[codes]


def _rank(qrels: pd.DataFrame, run: pd.DataFrame, level: int) -> _Ranked:
    """Order the run as trec_eval does and attach the grades.

    Ids become integer codes, so that sorting and looking up grades are numpy
    operations: queries are numbered in sorted order, documents by their
    position among all ids sorted as strings (code point order, which is the
    byte-wise order of UTF-8 that trec_eval uses).
    """
    queries = pd.Index(np.sort(qrels["query_id"].unique()).astype(object), name="query_id")
    judged_q, run_q = queries.get_indexer(qrels["query_id"]), queries.get_indexer(run["query_id"])
    run, run_q = run[run_q >= 0], run_q[run_q >= 0]  # run queries without judgments are ignored
    doc_codes = _sorted_codes(pd.concat([qrels["doc_id"], run["doc_id"]], ignore_index=True))
    judged_d, run_d = doc_codes[: len(qrels)], doc_codes[len(qrels):]
    # query ascending, then score descending, ties broken by doc id descending
    order = np.lexsort((-run_d, -run["score"].to_numpy(), run_q))
    query, doc = run_q[order], run_d[order]

    grades = qrels["relevance"].to_numpy(dtype=np.int64)
    width = int(doc_codes.max(initial=0)) + 1  # (query, doc) -> one integer key
    row = pd.Index(judged_q * width + judged_d).get_indexer(query * width + doc)
    grade = np.where(row >= 0, grades[row], 0)  # unjudged documents have grade 0

    num_relevant = np.bincount(judged_q, weights=grades >= level, minlength=len(queries))
    positive = grades > 0
    ideal = np.lexsort((-grades[positive], judged_q[positive]))
    ideal_query, ideal_grade = judged_q[positive][ideal], grades[positive][ideal]
    return _Ranked(queries, query, _rank_within(query), grade,
                   num_relevant, ideal_query, _rank_within(ideal_query), ideal_grade)


def _per_query_sum(r: _Ranked, values: np.ndarray, query: np.ndarray | None = None) -> np.ndarray:
    query = r.query if query is None else query
    return np.bincount(query, weights=values, minlength=len(r.queries))


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (nothing relevant)."""
    out = np.zeros(len(numerator))
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _within(rank: np.ndarray, k: int | None) -> np.ndarray:
    return np.ones(len(rank), dtype=bool) if k is None else rank <= k


def _dcg(r: _Ranked, k: int | None, ideal: bool = False) -> np.ndarray:
    rank, grade, query = (r.ideal_rank, r.ideal_grade, r.ideal_query) if ideal else (r.rank, r.grade, r.query)
    gain = np.where(_within(rank, k), np.maximum(grade, 0) / np.log2(rank + 1), 0.0)
    return _per_query_sum(r, gain, query)


def _compute(family: str, k: int | None, r: _Ranked, level: int) -> np.ndarray:
    relevant = r.grade >= level
    hits_in_k = _per_query_sum(r, relevant & _within(r.rank, k))
    if family == "recall":
        return _divide(hits_in_k, r.num_relevant)
    if family == "precision":
        return hits_in_k / k
    if family == "hit_rate":
        return (hits_in_k > 0).astype(float)
    if family == "mrr":
        first = np.full(len(r.queries), np.inf)
        np.minimum.at(first, r.query[relevant], r.rank[relevant])
        return np.where(first <= (k or np.inf), 1.0 / first, 0.0)
    if family == "map":
        found = pd.Series(relevant).groupby(r.query).cumsum().to_numpy()
        precision_at_hits = np.where(relevant & _within(r.rank, k), found / r.rank, 0.0)
        return _divide(_per_query_sum(r, precision_at_hits), r.num_relevant)
    if family == "r_precision":
        in_r = relevant & (r.rank <= r.num_relevant[r.query])
        return _divide(_per_query_sum(r, in_r), r.num_relevant)
    if family == "dcg":
        return _dcg(r, k)
    return _divide(_dcg(r, k), _dcg(r, k, ideal=True))  # ndcg


def _warn_about_queries(qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    judged, ran = set(qrels["query_id"]), set(run["query_id"])
    missing, extra = sorted(judged - ran), sorted(ran - judged)
    if missing:
        warnings.warn(
            f"{len(missing)} of {len(judged)} judged queries have no results in the run and "
            f"score 0 on every metric (trec_eval -c): {_preview(missing)}",
            RagMetricsWarning, stacklevel=3)
    if extra:
        warnings.warn(
            f"{len(extra)} run queries have no judgments and are ignored: {_preview(extra)}",
            RagMetricsWarning, stacklevel=3)


def _preview(ids: list[str], most: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def evaluate(qrels, run, metrics=DEFAULT_METRICS, relevance_level: int = 1) -> pd.DataFrame:
    """Score every judged query; ``evaluate(...).mean()`` is the report.

    ``qrels``: ``{query_id: {doc_id: grade}}`` or a DataFrame ``query_id, doc_id,
    relevance`` (or ``{query_id: [relevant ids]}``, grade 1 each). ``run``:
    ``{query_id: {doc_id: score}}``, a DataFrame ``query_id, doc_id, score``, or
    ``{query_id: [ids, best first]}`` (a list keeps its order). The run is
    ordered by score descending, ties broken by doc id descending (compared as
    strings), as trec_eval does.
    Metric names: ``recall@k``, ``precision@k``, ``hit_rate@k``, ``mrr``,
    ``mrr@k``, ``map``, ``map@k``, ``ndcg``, ``ndcg@k``, ``dcg@k``, ``r_precision``.
    Derived notebook by notebook in ``notebooks/01``-``07``; first used in
    ``notebooks/00_rag_evaluation_map.ipynb``.

    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d9": 2}}
    >>> run = {"q1": {"d1": 0.9, "d3": 0.8, "d2": 0.7}, "q2": {"d4": 0.5, "d9": 0.4}}
    >>> evaluate(qrels, run, ["precision@2", "mrr", "map"])
              precision@2  mrr       map
    query_id
    q1                0.5  1.0  0.833333
    q2                0.5  0.5  0.500000
    >>> evaluate({"q1": {"d2"}}, {"q1": ["d1", "d2"]}, ["mrr"])["mrr"].tolist()
    [0.5]
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    parsed = [parse_metric(name) for name in metrics]
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"a metric is listed twice in {list(metrics)}")
    level = check_relevance_level(relevance_level)
    qrels_df, run_df = qrels_frame(qrels), run_frame(run)
    check_frame_id_kinds(qrels_df, run_df)
    qrels_df, run_df = _as_strings(qrels_df), _as_strings(run_df)
    _warn_about_queries(qrels_df, run_df)
    ranked = _rank(qrels_df, run_df, level)
    columns = {name: _compute(family, k, ranked, level) for name, (family, k) in zip(metrics, parsed)}
    return pd.DataFrame(columns, index=ranked.queries)


def _as_strings(frame: pd.DataFrame) -> pd.DataFrame:
    """Ids as Python strings, as trec_eval reads them (so 101 sorts before 99: '101' < '99')."""
    columns = {}
    for column in ("query_id", "doc_id"):
        ids = frame[column]
        if pd.api.types.infer_dtype(ids) != "string":
            ids = ids.map(str)
        columns[column] = ids.astype(object)
    return frame.assign(**columns)
