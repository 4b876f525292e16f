"""Evaluate a whole run against judgments: one row per query, one column per metric.

Reference replicated: ``trec_eval -c -q`` (``pytrec_eval.RelevanceEvaluator``).
The equivalent call is::

    pytrec_eval.RelevanceEvaluator(qrels, {"recall.5", "P.5", "success.5",
        "recip_rank", "map", "ndcg_cut.10"}, relevance_level=1).evaluate(run)

Differences from ``pytrec_eval`` (not from trec_eval): scores compare as
float64, as in trec_eval 10, where pytrec_eval still rounds them to float32;
every qrels query is scored, a query absent from the run scoring 0 (trec_eval
``-c``), where pytrec_eval leaves it out.

A run goes one way down: the metric names are read from the table
(``table.py``), the inputs validated into flat columns (``_frames.py``), then
the fast engine (``ragmetrics_lite.fast``) ranks every query's judged
documents and computes each metric's column with its kernel, which gives what
the metric's per-query function (``metrics.py``) gives for each query.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .._validation import RagMetricsWarning, check_relevance_level
from ..fast.ranking import rank
from ._frames import Table, as_strings, check_table_id_kinds, judgments_by_query, qrels_table, query_codes, run_table
from .table import DEFAULT_METRICS, METRICS, known_metrics, parse_metric

__all__ = ["evaluate"]


def evaluate(qrels, run, metrics=DEFAULT_METRICS, relevance_level: int = 1) -> pd.DataFrame:
    """Score every judged query; ``evaluate(...).mean()`` is the report.

    ``qrels``: ``{query_id: {doc_id: grade}}`` or a DataFrame ``query_id, doc_id,
    relevance`` (or ``{query_id: [relevant ids]}``, grade 1 each). ``run``:
    ``{query_id: {doc_id: score}}``, a DataFrame ``query_id, doc_id, score``, or
    ``{query_id: [ids, best first]}`` (a list keeps its order). The run is
    ordered by score descending, ties broken by doc id descending (compared as
    strings), as trec_eval does. A judged query with no results (also an empty
    run) scores 0 on every metric, with a warning.
    Metric names ({known}) come from ``retrieval.table.METRICS``.
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
    judged, ran = qrels_table(qrels), run_table(run)
    check_table_id_kinds(judged, ran)
    judged = judgments_by_query(judged)
    queries, judged_codes, run_codes = query_codes(judged, ran)
    _warn_about_queries(queries, ran, run_codes)
    batch = rank(judged, judged_codes, ran, run_codes, len(queries), level)
    columns = {name: METRICS[family].kernel(batch, k) for name, (family, k) in zip(metrics, parsed)}
    return pd.DataFrame(columns, index=pd.Index(np.array(queries, dtype=object), name="query_id"))


evaluate.__doc__ = evaluate.__doc__.replace("{known}", known_metrics())


def _warn_about_queries(queries: list[str], run: Table, run_codes: np.ndarray) -> None:
    """One warning for judged queries without results, one for run queries without judgments."""
    rows = np.bincount(run_codes, weights=run.lengths, minlength=len(queries))
    missing = [queries[i] for i in np.flatnonzero(rows[: len(queries)] == 0)]
    unjudged = run_codes >= len(queries)
    if run.lengths is not None:
        unjudged &= run.lengths > 0
    extra = sorted(set(as_strings(run.query_id[unjudged]))) if unjudged.any() else []
    if missing:
        warnings.warn(
            f"{len(missing)} of {len(queries)} judged queries have no results in the run and "
            f"score 0 on every metric (trec_eval -c): {_preview(missing)}",
            RagMetricsWarning, stacklevel=3)
    if extra:
        warnings.warn(
            f"{len(extra)} run {'query has' if len(extra) == 1 else 'queries have'} no judgments and "
            f"{'is' if len(extra) == 1 else 'are'} ignored: {_preview(extra)}",
            RagMetricsWarning, stacklevel=3)


def _preview(ids: list[str], most: int = 5) -> str:
    """The first ids, each with the code points of any invisible character it holds (a byte-order mark,
    a zero-width space: why '\\ufeffq1' matches no 'q1')."""
    def shown(i: str) -> str:
        hidden = sorted({f"U+{ord(c):04X}" for c in i if not c.isprintable()})
        return repr(i) + (f" (holds {', '.join(hidden)})" if hidden else "")
    return ", ".join(map(shown, ids[:most])) + (f" and {len(ids) - most} more" if len(ids) > most else "")
