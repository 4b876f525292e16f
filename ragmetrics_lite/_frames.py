"""Judgments and runs as validated DataFrames, whatever form the caller gave them in.

``qrels``: ``{query_id: {doc_id: grade}}`` (or ``{query_id: [relevant ids]}``)
or a DataFrame with columns ``query_id, doc_id, relevance``.
``run``: ``{query_id: {doc_id: score}}`` (or ``{query_id: [ids, best first]}``)
or a DataFrame with columns ``query_id, doc_id, score``.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ._validation import as_grades, as_ranking, check_finite, check_grade, check_id_kinds

QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "score"]


def _check_columns(frame: pd.DataFrame, columns: list[str], name: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} DataFrame needs the columns {columns}; missing {missing}")
    frame = frame[columns].reset_index(drop=True)
    duplicated = frame.duplicated(["query_id", "doc_id"])
    if duplicated.any():
        query_id, doc_id = frame.loc[duplicated.idxmax(), ["query_id", "doc_id"]]
        raise ValueError(f"{name} has more than one row for query {query_id!r}, document {doc_id!r}")
    return frame


def _check_values(values: pd.Series, check, what: str) -> list:
    """Run ``check`` on each value; the error names the first bad row."""
    return [check(v, f"{what} in row {i}") for i, v in enumerate(values.tolist())]


def qrels_frame(qrels) -> pd.DataFrame:
    """Validated judgments as a DataFrame ``query_id, doc_id, relevance`` (int64)."""
    if isinstance(qrels, pd.DataFrame):
        frame = _check_columns(qrels, QRELS_COLUMNS, "qrels")
        grades = _check_values(frame["relevance"], check_grade, "relevance")
        return frame.assign(relevance=np.array(grades, dtype=np.int64))
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be {{query_id: {{doc_id: grade}}}} or a DataFrame, got {type(qrels).__name__}")
    rows = [(q, doc, grade) for q, judged in qrels.items() for doc, grade in as_grades(judged).items()]
    return pd.DataFrame(rows, columns=QRELS_COLUMNS).astype({"relevance": "int64"})


def _scores(ranked) -> Mapping:
    """A ranked list becomes scores n, n-1, ..., 1 so that its order is kept."""
    if isinstance(ranked, Mapping):
        return ranked
    ids = as_ranking(ranked)
    return {doc: float(len(ids) - i) for i, doc in enumerate(ids)}


def run_frame(run) -> pd.DataFrame:
    """Validated run as a DataFrame ``query_id, doc_id, score`` (float64)."""
    if isinstance(run, pd.DataFrame):
        frame = _check_columns(run, RUN_COLUMNS, "run")
        scores = _check_values(frame["score"], check_finite, "score")
        return frame.assign(score=np.array(scores, dtype=np.float64))
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be {{query_id: {{doc_id: score}}}} or a DataFrame, got {type(run).__name__}")
    rows = [
        (q, doc, check_finite(score, f"score of query {q!r}, document {doc!r}"))
        for q, ranked in run.items()
        for doc, score in _scores(ranked).items()
    ]
    return pd.DataFrame(rows, columns=RUN_COLUMNS).astype({"score": "float64"})


def check_frame_id_kinds(qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    """Query ids, and document ids, must be all strings or all integers on both sides."""
    for column in ("query_id", "doc_id"):
        check_id_kinds(
            (f"qrels {column}", pd.unique(qrels[column])),
            (f"run {column}", pd.unique(run[column])),
        )
