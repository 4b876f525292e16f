"""Read TREC qrels and run files into DataFrames.

Reference replicated: trec_eval's readers (``get_qrels.c``, ``get_trec_results.c``);
``pytrec_eval.parse_qrel`` / ``pytrec_eval.parse_run`` read the same files into
nested dicts.

* qrels line: ``query_id iteration doc_id relevance`` (four fields, integer relevance).
* run line: ``query_id Q0 doc_id rank score tag``; fields after the sixth are
  ignored and the rank column is not used (trec_eval orders by score).
* Fields are split on any whitespace. A line whose first non-blank character
  is ``#`` is a comment; a ``#`` anywhere else is part of an id.
* Errors name the file and the line number.

The same readers take CSV (``.csv``, a header row naming ``query_id, doc_id``
and ``relevance`` or ``score``; other columns are ignored) and JSON Lines
(``.jsonl``, one object per line with those keys), so that the command line
``python -m ragmetrics_lite evaluate`` reads what a learner's own pipeline
writes. :func:`read_jsonl` is the one JSON Lines reader of the package (qrels and runs in
``.jsonl``, the golden set's corpus and queries, the triad labels).
"""
from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterator

import pandas as pd

__all__ = ["read_qrels", "read_run", "read_jsonl"]


def _lines(path: str | os.PathLike) -> Iterator[tuple[int, list[str]]]:
    """``(line_number, fields)`` for each non-blank, non-comment line."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                yield number, stripped.split()


def jsonl_objects(path: str | os.PathLike, name: str | None = None) -> Iterator[tuple[int, str, object]]:
    """``(line number, where, value)`` for each non-blank line of a JSON Lines file, ``where`` naming the file
    (as ``name``, default the path) and the line; a line that is not JSON is an error there."""
    shown = os.fspath(path) if name is None else name
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{shown}, line {number}"
            try:
                yield number, where, json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{where}: not valid JSON ({error.msg})") from None


def read_jsonl(path: str | os.PathLike, check=None, *, key: str | None = None,
               name: str | None = None) -> list:
    """Every line of a JSON Lines file, each passed through ``check(value, where)`` when given.

    ``check`` returns the value to keep or raises ``ValueError`` naming ``where`` (file and line).
    With ``key``, each value is an object whose ``key`` must not repeat. Blank lines are skipped.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "items.jsonl"
    >>> _ = f.write_text('{"id": "a"}\\n\\n{"id": "a"}\\n')
    >>> read_jsonl(f, key="id", name="items.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: items.jsonl, line 3: id 'a' appears twice
    """
    items, seen = [], set()
    for _, where, value in jsonl_objects(path, name):
        if check is not None:
            value = check(value, where)
        if key is not None:
            if not isinstance(value, dict) or key not in value:
                raise ValueError(f"{where}: expected a JSON object with the key {key!r}")
            if value[key] in seen:
                raise ValueError(f"{where}: {key} {value[key]!r} appears twice")
            seen.add(value[key])
        items.append(value)
    return items


def _number(text: str, what: str, where: str, integer: bool) -> float | int:
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{where}: {what} must be {kind}, got {text!r}") from None
    if not integer and not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be finite, got {text!r}")
    return value


def _refuse_duplicate(seen: dict, key: tuple[str, str], number: int, where: str) -> None:
    if key in seen:
        raise ValueError(
            f"{where}: document {key[1]!r} appears twice for query {key[0]!r} "
            f"(first on line {seen[key]})"
        )
    seen[key] = number


def _table_rows(path, value_column: str) -> Iterator[tuple[str, int, str, str, str]]:
    """``(where, line, query_id, doc_id, value text)`` from a CSV or JSON Lines file."""
    name = os.fspath(path)
    wanted = ["query_id", "doc_id", value_column]
    if name.endswith(".jsonl"):
        for number, where, row in jsonl_objects(path):
            if not isinstance(row, dict) or any(c not in row for c in wanted):
                raise ValueError(f"{where}: a JSON Lines row is an object with the keys {wanted}, got {row!r}")
            ids = [row["query_id"], row["doc_id"]]
            if not all(isinstance(i, (str, int)) and not isinstance(i, bool) for i in ids):
                raise ValueError(f"{where}: query_id and doc_id must be strings or integers, got {ids!r}")
            yield where, number, str(ids[0]), str(ids[1]), str(row[value_column])
        return
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in wanted if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{name}, line 1: the CSV header needs the columns {wanted}; missing {missing}")
        for row in reader:
            where = f"{name}, line {reader.line_num}"
            if None in row.values() or None in row:
                raise ValueError(f"{where}: expected {len(reader.fieldnames)} fields as in the header")
            yield where, reader.line_num, row["query_id"], row["doc_id"], row[value_column]


def _read(path, value_column: str, parse_line) -> list[tuple[str, str, float | int]]:
    """Rows of a TREC, CSV (``.csv``) or JSON Lines (``.jsonl``) file, duplicates refused."""
    integer = value_column == "relevance"
    rows, seen = [], {}
    if os.fspath(path).endswith((".csv", ".jsonl")):
        lines = ((w, n, q, d, v) for w, n, q, d, v in _table_rows(path, value_column))
    else:
        lines = ((f"{os.fspath(path)}, line {n}", n, *parse_line(f"{os.fspath(path)}, line {n}", fields))
                 for n, fields in _lines(path))
    for where, number, query_id, doc_id, text in lines:
        _refuse_duplicate(seen, (query_id, doc_id), number, where)
        rows.append((query_id, doc_id, _number(text, value_column, where, integer=integer)))
    return rows


def _qrels_line(where: str, fields: list[str]) -> tuple[str, str, str]:
    if len(fields) != 4:
        raise ValueError(
            f"{where}: a qrels line has 4 fields (query_id iteration doc_id relevance), "
            f"found {len(fields)}: {' '.join(fields)!r}"
        )
    return fields[0], fields[2], fields[3]


def _run_line(where: str, fields: list[str]) -> tuple[str, str, str]:
    if len(fields) < 6:
        raise ValueError(
            f"{where}: a run line has 6 fields (query_id Q0 doc_id rank score tag), "
            f"found {len(fields)}: {' '.join(fields)!r}"
        )
    return fields[0], fields[2], fields[4]


def read_qrels(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC qrels file (or ``.csv`` / ``.jsonl``) into columns ``query_id, doc_id, relevance``.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = f.write_text("# judged by A\\nq1 0 d1 2\\nq1 0 d#2 0\\n")
    >>> read_qrels(f).values.tolist()
    [['q1', 'd1', 2], ['q1', 'd#2', 0]]
    """
    rows = _read(path, "relevance", _qrels_line)
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])
    return frame.astype({"query_id": object, "doc_id": object, "relevance": "int64"})


def read_run(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC run file (or ``.csv`` / ``.jsonl``) into columns ``query_id, doc_id, score``.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "run"
    >>> _ = f.write_text("q1 Q0 d1 1 2.5 bm25 extra words\\nq1 Q0 d2 2 1.0 bm25\\n")
    >>> read_run(f).values.tolist()
    [['q1', 'd1', 2.5], ['q1', 'd2', 1.0]]
    """
    rows = _read(path, "score", _run_line)
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    return frame.astype({"query_id": object, "doc_id": object, "score": "float64"})
