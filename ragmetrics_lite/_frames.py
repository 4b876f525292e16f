"""Judgments and runs as validated DataFrames, whatever form the caller gave them in.

``qrels``: ``{query_id: {doc_id: grade}}`` (or ``{query_id: [relevant ids]}``)
or a DataFrame with columns ``query_id, doc_id, relevance``.
``run``: ``{query_id: {doc_id: score}}`` (or ``{query_id: [ids, best first]}``)
or a DataFrame with columns ``query_id, doc_id, score``.

The checks are vectorised: a column of the right dtype is checked with one
numpy call; only a column that fails is walked value by value, to name the
first bad row in the error message.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

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


def _first_bad(frame: pd.DataFrame, column: str, check, prefix: str = "") -> None:
    """Walk the column with ``check`` so that the error names the query and document."""
    for query_id, doc_id, value in zip(frame["query_id"], frame["doc_id"], frame[column]):
        check(value, f"{prefix}query {query_id!r}, document {doc_id!r}")


def _grades(frame: pd.DataFrame) -> pd.DataFrame:
    """The relevance column as int64: integers, or floats with integer values."""
    values = frame["relevance"]
    if pd.api.types.is_integer_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return frame.astype({"relevance": "int64"})
    if pd.api.types.is_float_dtype(values):
        numbers = values.to_numpy(dtype=float)
        if np.isfinite(numbers).all() and (numbers == np.round(numbers)).all():
            return frame.assign(relevance=numbers.astype(np.int64))
    _first_bad(frame, "relevance", check_grade)
    raise AssertionError("unreachable: a bad relevance column passed every check")  # pragma: no cover


def _scores(frame: pd.DataFrame) -> pd.DataFrame:
    """The score column as float64, every score finite."""
    values = frame["score"]
    numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    if numeric and np.isfinite(values.to_numpy(dtype=float)).all():
        return frame.astype({"score": "float64"})
    _first_bad(frame, "score", check_finite, "score of ")
    raise AssertionError("unreachable: a bad score column passed every check")  # pragma: no cover


def _ranked_as_scores(ranked) -> Mapping:
    """A ranked list becomes scores n, n-1, ..., 1 so that its order is kept."""
    if isinstance(ranked, Mapping):
        return ranked
    ids = as_ranking(ranked)
    return {doc: float(len(ids) - i) for i, doc in enumerate(ids)}


def qrels_frame(qrels) -> pd.DataFrame:
    """Validated judgments as a DataFrame ``query_id, doc_id, relevance`` (int64)."""
    if isinstance(qrels, pd.DataFrame):
        return _grades(_check_columns(qrels, QRELS_COLUMNS, "qrels"))
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be {{query_id: {{doc_id: grade}}}} or a DataFrame, got {type(qrels).__name__}")
    if not qrels:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    rows = [(q, doc, grade) for q, judged in qrels.items() for doc, grade in _judgments(q, judged).items()]
    return _grades(pd.DataFrame(rows, columns=QRELS_COLUMNS))


def _judgments(query_id, judged) -> Mapping:
    """One query's judgments; a collection of ids gives grade 1 each. Grades are checked later."""
    if isinstance(judged, Mapping) and judged:
        return judged
    if isinstance(judged, (str, bytes)) or not isinstance(judged, (Mapping, Collection, np.ndarray)):
        return as_grades(judged)  # raises a TypeError that names the problem
    if len(judged) == 0:
        raise ValueError(
            f"qrels query {query_id!r} has no judgments: give {{doc_id: grade}} with at least one "
            "judged document (a query with nothing relevant can list its documents with grade 0)"
        )
    return as_grades(judged)


def run_frame(run) -> pd.DataFrame:
    """Validated run as a DataFrame ``query_id, doc_id, score`` (float64)."""
    if isinstance(run, pd.DataFrame):
        return _scores(_check_columns(run, RUN_COLUMNS, "run"))
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be {{query_id: {{doc_id: score}}}} or a DataFrame, got {type(run).__name__}")
    rows = [(q, doc, score) for q, ranked in run.items() for doc, score in _ranked_as_scores(ranked).items()]
    return _scores(pd.DataFrame(rows, columns=RUN_COLUMNS))


def _id_type(ids: np.ndarray) -> str:
    return pd.api.types.infer_dtype(ids, skipna=False)


def check_frame_id_kinds(qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    """Query ids, and document ids, must be all strings or all integers on both sides.

    The fast path asks pandas for each column's type once; anything else is
    checked id by id, which names the offending id.
    """
    for column in ("query_id", "doc_id"):
        for name, frame in (("qrels", qrels), ("run", run)):
            missing = frame[column].isna()
            if missing.any():
                row = frame.loc[missing.idxmax()]
                raise ValueError(f"{name} {column} is missing (None or NaN) in the row {row.to_dict()}")
        sides = [(f"qrels {column}", pd.unique(qrels[column])), (f"run {column}", pd.unique(run[column]))]
        kinds = {_id_type(ids) for _, ids in sides if len(ids)}
        if kinds <= {"string"} or kinds <= {"integer"}:
            continue
        check_id_kinds(*sides)
