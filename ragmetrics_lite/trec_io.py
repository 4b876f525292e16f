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
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterator

import pandas as pd

__all__ = ["read_qrels", "read_run"]


def _lines(path: str | os.PathLike) -> Iterator[tuple[int, list[str]]]:
    """``(line_number, fields)`` for each non-blank, non-comment line."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                yield number, stripped.split()


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


def read_qrels(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC qrels file into columns ``query_id, doc_id, relevance``.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = f.write_text("# judged by A\\nq1 0 d1 2\\nq1 0 d#2 0\\n")
    >>> read_qrels(f).values.tolist()
    [['q1', 'd1', 2], ['q1', 'd#2', 0]]
    """
    rows, seen = [], {}
    for number, fields in _lines(path):
        where = f"{os.fspath(path)}, line {number}"
        if len(fields) != 4:
            raise ValueError(
                f"{where}: a qrels line has 4 fields (query_id iteration doc_id relevance), "
                f"found {len(fields)}: {' '.join(fields)!r}"
            )
        query_id, _, doc_id, grade = fields
        _refuse_duplicate(seen, (query_id, doc_id), number, where)
        rows.append((query_id, doc_id, _number(grade, "relevance", where, integer=True)))
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])
    return frame.astype({"query_id": object, "doc_id": object, "relevance": "int64"})


def read_run(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC run file into columns ``query_id, doc_id, score``.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "run"
    >>> _ = f.write_text("q1 Q0 d1 1 2.5 bm25 extra words\\nq1 Q0 d2 2 1.0 bm25\\n")
    >>> read_run(f).values.tolist()
    [['q1', 'd1', 2.5], ['q1', 'd2', 1.0]]
    """
    rows, seen = [], {}
    for number, fields in _lines(path):
        where = f"{os.fspath(path)}, line {number}"
        if len(fields) < 6:
            raise ValueError(
                f"{where}: a run line has 6 fields (query_id Q0 doc_id rank score tag), "
                f"found {len(fields)}: {' '.join(fields)!r}"
            )
        query_id, _, doc_id, _, score = fields[:5]
        _refuse_duplicate(seen, (query_id, doc_id), number, where)
        rows.append((query_id, doc_id, _number(score, "score", where, integer=False)))
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    return frame.astype({"query_id": object, "doc_id": object, "score": "float64"})
