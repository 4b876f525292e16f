"""Judgments and runs, in any form ``evaluate`` takes, as validated flat columns: a :class:`Table` each.

A dict of dicts is flattened without building a Python tuple per row: its keys, the length of each
inner dict and the chained inner values go straight into arrays, while the doc ids stay in the
caller's own mappings, which then serve as the grade lookup. A DataFrame column is taken as it is
(string, categorical or integer columns are not converted by Python ``str`` or factorized).

The checks are vectorised: a column of the right type is checked with one numpy call; only a column
that fails is walked value by value, to name the first bad row in the error message. Judgments from
a DataFrame are grouped into one mapping per query (:func:`judgments_by_query`), which refuses a
repeated (query, document) row; a run stays in rows, and the fast engine finds its repeated rows
while it looks up their grades. :func:`query_codes` numbers the queries as the engine and the
result's index need them.
"""
from __future__ import annotations

import numbers
import operator
from collections.abc import Collection, Mapping
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._validation import as_grades, as_ranking, check_finite, check_grade, check_id_kinds, refuse_repeated_row

QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "score"]


class Table(NamedTuple):
    """Judgments or a run as flat arrays: row i is ``(query_id[group i], doc_id[i], value[i])``.

    From a dict, ``query_id`` holds each query once and ``lengths`` its number
    of rows; from a DataFrame, ``query_id`` has one entry per row and
    ``lengths`` is None.
    """

    name: str  # "qrels" or "run", for error messages
    query_id: np.ndarray
    lengths: np.ndarray | None
    doc_id: np.ndarray | None  # None from a dict: built by ``docs()`` only when needed
    value: np.ndarray  # int64 grades or float64 scores
    query_kind: str = ""  # id_kind of query_id and of doc_id, inferred once
    doc_kind: str = ""
    inner: list | None = None  # from a dict: each query's own {doc_id: value} mapping, already checked

    def row_query_ids(self) -> np.ndarray:
        return self.query_id if self.lengths is None else np.repeat(self.query_id, self.lengths)

    def docs(self) -> np.ndarray:
        """Every row's doc id as an array (from a dict: chained from its mappings)."""
        if self.doc_id is not None:
            return self.doc_id
        return _object_array(chain.from_iterable(self.inner), int(self.lengths.sum()))


def _object_array(items, count: int) -> np.ndarray:
    return np.fromiter(items, dtype=object, count=count)


def _is_number_type(kind: type) -> bool:
    return issubclass(kind, numbers.Real) and not issubclass(kind, (bool, np.bool_))


class _Chained:
    """The values of many mappings, read in C without building a list."""

    def __init__(self, inner: list[Mapping], count: int):
        self.inner, self.count = inner, count

    def __iter__(self):
        return chain.from_iterable(mapping.values() for mapping in self.inner)

    def __len__(self) -> int:
        return self.count


def _as_array(values, dtype) -> np.ndarray:
    if isinstance(values, _Chained):
        return np.fromiter(values, dtype=dtype, count=len(values))
    return np.asarray(values, dtype=dtype).reshape(-1)


def _all_numbers(values, integers_only: bool = False) -> bool:
    """One look at the dtype (a Series) or at the set of value types (a list)."""
    if isinstance(values, pd.Series) and values.dtype != object:
        if integers_only:
            return pd.api.types.is_integer_dtype(values) and not pd.api.types.is_bool_dtype(values)
        return (pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
                and not pd.api.types.is_complex_dtype(values))  # numpy would drop the imaginary part
    kinds = set(map(type, values))
    return kinds <= {int} if integers_only else all(map(_is_number_type, kinds))


def _grade_values(values, rows) -> np.ndarray:
    """Grades as int64: integers, or floats with integer values; else the first bad one named. A grade
    beyond int64 (a uint64 2**64 - 1, a Python int or a float too large) goes the slow way, and is named."""
    try:
        unsigned = getattr(values, "dtype", None) is not None and values.dtype.kind == "u"
        if _all_numbers(values, integers_only=True) and not (unsigned and len(values) and values.max() >= 2**63):
            return _as_array(values, np.int64)
        if _all_numbers(values):
            grades = _as_array(values, float)
            if np.isfinite(grades).all() and (grades == np.round(grades)).all() and (abs(grades) < 2**63).all():
                return grades.astype(np.int64)
    except OverflowError:  # a Python int past int64 in a dict
        pass
    return np.array([check_grade(value, f"query {q!r}, document {d!r}") for q, d, value in rows()],
                    dtype=np.int64)


def _score_values(values, rows) -> np.ndarray:
    """Scores as float64, every one finite; else the first bad one named."""
    if isinstance(values, _Chained):  # from a dict: into an object array, then one look at its types
        objects = np.fromiter(values, dtype=object, count=len(values))
        numbers = pd.api.types.infer_dtype(objects, skipna=False) in ("floating", "integer", "mixed-integer-float")
        scores = objects.astype(float) if numbers else None  # booleans, text, None... are "mixed" or worse
    else:
        scores = _as_array(values, float) if _all_numbers(values) else None
    if scores is not None and np.isfinite(scores).all():
        return scores
    return np.array([check_finite(value, f"score of query {q!r}, document {d!r}") for q, d, value in rows()],
                    dtype=float)


def _from_frame(frame: pd.DataFrame, columns: list[str], name: str) -> tuple:
    """The id columns as arrays (string, categorical or integer columns as they are), their kinds,
    and the value column; a missing id is an error naming its row."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} DataFrame needs the columns {columns}; missing {missing}")
    query_id, doc_id = frame[columns[0]].to_numpy(), frame[columns[1]].to_numpy()
    kinds = id_kind(query_id), id_kind(doc_id)
    for column, ids, kind in (("query_id", query_id, kinds[0]), ("doc_id", doc_id, kinds[1])):
        if kind in ("string", "integer", "empty"):
            continue  # no None or NaN among them
        absent = pd.isna(ids)
        if absent.any():
            row = frame[columns].iloc[int(np.argmax(absent))]
            raise ValueError(f"{name} {column} is missing (None or NaN) in the row {row.to_dict()}")
    return query_id, doc_id, frame[columns[2]], kinds


def _flatten(nested: Mapping, inner: list[Mapping], name: str, values_to_array) -> Table:
    """``{query: {doc: value}}`` as a Table: keys, lengths, the chained inner values (module docstring)."""
    lengths = np.fromiter(map(len, inner), dtype=np.int64, count=len(inner))
    query_id = _object_array(nested, len(nested))
    values = _Chained(inner, int(lengths.sum()))
    table = Table(name, query_id, lengths, None, np.empty(0), inner=inner)
    rows = lambda: zip(table.row_query_ids(), table.docs(), values)  # noqa: E731 (only on the error path)
    table = table._replace(value=values_to_array(values, rows))
    doc_kind = _kind_of(lambda: chain.from_iterable(inner), len(values))
    return table._replace(query_kind=id_kind(query_id), doc_kind=doc_kind)


def _kind_of(ids, count: int) -> str:
    """``id_kind`` of ``count`` ids (``ids()`` iterates over them): 'string', 'integer', 'empty' or
    'mixed'. All strings is the common case, checked first by counting them."""
    if count and operator.countOf(map(type, ids()), str) == count:
        return "string"
    kinds = set(map(type, ids()))
    if not kinds:
        return "empty"
    if kinds <= {str}:
        return "string"
    if all(issubclass(k, numbers.Integral) and not issubclass(k, (bool, np.bool_)) for k in kinds):
        return "integer"
    return "mixed"  # checked id by id, which names the offending id


def qrels_table(qrels) -> Table:
    """Validated judgments as a :class:`Table` (int64 grades); empty judgments are an error."""
    if isinstance(qrels, pd.DataFrame):
        query_id, doc_id, grades, kinds = _from_frame(qrels, QRELS_COLUMNS, "qrels")
        if len(grades) == 0:
            raise ValueError("qrels is empty (a DataFrame with no rows): there is nothing to evaluate against")
        value = _grade_values(grades, lambda: zip(query_id, doc_id, grades))
        return Table("qrels", query_id, None, doc_id, value, *kinds)
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be {{query_id: {{doc_id: grade}}}} or a DataFrame, got {type(qrels).__name__}")
    if not qrels:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    inner = [judged if type(judged) is dict and judged else _judgments(q, judged) for q, judged in qrels.items()]
    return _flatten(qrels, inner, "qrels", _grade_values)


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


def _ranked_as_scores(ranked) -> Mapping:
    """A ranked list becomes scores n, n-1, ..., 1 so that its order is kept."""
    if isinstance(ranked, Mapping):
        return ranked
    ids = as_ranking(ranked)
    return {doc: float(len(ids) - i) for i, doc in enumerate(ids)}


def run_table(run) -> Table:
    """Validated run as a :class:`Table` (float64 scores); a run with no rows is valid."""
    if isinstance(run, pd.DataFrame):
        query_id, doc_id, scores, kinds = _from_frame(run, RUN_COLUMNS, "run")
        value = _score_values(scores, lambda: zip(query_id, doc_id, scores))
        return Table("run", query_id, None, doc_id, value, *kinds)
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be {{query_id: {{doc_id: score}}}} or a DataFrame, got {type(run).__name__}")
    inner = [ranked if type(ranked) is dict else _ranked_as_scores(ranked) for ranked in run.values()]
    return _flatten(run, inner, "run", _score_values)


def id_kind(ids: np.ndarray) -> str:
    """'string', 'integer', 'empty' or what else pandas infers, in one pass over the array."""
    if ids.dtype.kind in "iu":
        return "integer"
    return pd.api.types.infer_dtype(ids, skipna=False)


def check_table_id_kinds(qrels: Table, run: Table) -> None:
    """Query ids, and document ids, must be all strings or all integers on both sides (checked id by id,
    naming the offending one, only when a column's type is not one of those)."""
    for column in ("query_id", "doc_id"):
        kind = column.replace("_id", "_kind")
        kinds = {getattr(table, kind) for table in (qrels, run)} - {"empty"}
        if kinds <= {"string"} or kinds <= {"integer"}:
            continue
        sides = [(f"{table.name} {column}", table.query_id if column == "query_id" else table.docs())
                 for table in (qrels, run)]
        check_id_kinds(*((name, pd.unique(ids)) for name, ids in sides))


def as_strings(ids: np.ndarray, kind: str | None = None) -> np.ndarray:
    """Ids as an object array of Python strings, as trec_eval reads them ('101' sorts before '99')."""
    if ids.dtype == object and (kind or id_kind(ids)) in ("string", "empty"):
        return ids
    return _object_array(map(str, ids.tolist()), len(ids))


def judgments_by_query(qrels: Table) -> Table:
    """Judgments as one ``{doc_id: grade}`` mapping per query (the form a dict of dicts has), queries
    in trec_eval's order; a DataFrame's repeated (query, document) row is an error naming it."""
    if qrels.inner is not None:
        return qrels
    codes = pd.factorize(as_strings(qrels.query_id, qrels.query_kind), sort=True)[0]
    rows = np.argsort(codes, kind="stable")
    starts = np.flatnonzero(np.r_[True, codes[rows][1:] != codes[rows][:-1]])
    lengths = np.diff(np.r_[starts, len(rows)])
    docs, grades = qrels.doc_id[rows].tolist(), qrels.value[rows].tolist()
    inner = [dict(zip(docs[a:a + n], grades[a:a + n])) for a, n in zip(starts.tolist(), lengths.tolist())]
    for mapping, start, length in zip(inner, starts.tolist(), lengths.tolist()):
        if len(mapping) < length:
            refuse_repeated_row("qrels", qrels.query_id[rows[start]], docs[start:start + length])
    return qrels._replace(query_id=qrels.query_id[rows[starts]], lengths=lengths, doc_id=None,
                          value=qrels.value[rows], inner=inner)


def query_codes(qrels: Table, run: Table) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The judged queries, as strings in trec_eval's order (sorted as strings), and a code for each
    entry of ``qrels.query_id`` and ``run.query_id``: the position of its query among them. A run
    query without judgments gets a code after them (one per such query)."""
    judged = as_strings(qrels.query_id, qrels.query_kind)
    queries = sorted(judged.tolist())  # judgments_by_query: one entry per query
    position = dict(zip(queries, range(len(queries))))
    return queries, _codes(judged, position), _codes(as_strings(run.query_id, run.query_kind), position)


def _codes(keys: np.ndarray, position: dict) -> np.ndarray:
    found, distinct = pd.factorize(keys)
    codes = np.fromiter(map(position.get, distinct, repeat(-1)), dtype=np.int64, count=len(distinct))
    unknown = codes < 0
    codes[unknown] = len(position) + np.arange(int(unknown.sum()))
    return codes[found]
