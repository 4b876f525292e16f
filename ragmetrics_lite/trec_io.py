"""Read TREC qrels and run files into DataFrames.

Reference replicated: trec_eval's readers (``get_qrels.c``, ``get_trec_results.c``);
``pytrec_eval.parse_qrel`` / ``pytrec_eval.parse_run`` read the same files into
nested dicts.

* qrels line: ``query_id iteration doc_id relevance`` (four fields, integer relevance).
* run line: ``query_id Q0 doc_id rank score tag``; fields after the sixth are
  ignored and the rank column is not used (trec_eval orders by score).
* Fields are split on spaces and tabs only, as trec_eval splits them (a no-break space is
  part of an id). A line whose first non-blank character is ``#`` is a comment; a ``#``
  anywhere else is part of an id.
* Numbers as trec_eval reads them: a grade is ASCII digits with an optional sign (and fits
  in 64 bits); a score may add a decimal point and an exponent. Python's ``int`` and
  ``float`` would also take ``1_0``, full-width digits and ``nan``.
* Every file is UTF-8, read a line at a time (at most ``MAX_LINE_BYTES`` a line, so a file
  without line breaks cannot fill memory), a byte-order mark at its start ignored
  (``utf-8-sig``: Notepad and Excel write one). An id holding a control character (a tab or
  a line break inside a CSV or JSON Lines id would forge lines of the printed report) is
  refused. Errors name the file and the line number.

The same readers take CSV (``.csv``, a header row naming ``query_id, doc_id``
and ``relevance`` or ``score``; other columns are ignored) and JSON Lines
(``.jsonl``, one object per line with those keys), so that the command line
``python -m ragmetrics_lite evaluate`` reads what a learner's own pipeline
writes. :func:`read_jsonl` is the one JSON Lines reader of the package (qrels and runs in
``.jsonl``, the golden set's corpus and queries, the triad labels).
"""
from __future__ import annotations

import csv
import functools
import json
import math
import os
import re
from array import array
from collections.abc import Iterator

import numpy as np
import pandas as pd

__all__ = ["read_qrels", "read_run", "read_jsonl", "text_lines"]

MAX_LINE_BYTES = 2**20
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # C0 and C1 control characters: never in an id
_CONTROL_BUT_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")  # in a TREC line, tabs separate fields
_FIELD_BREAK = re.compile("[ \t]+")
_INTEGER = re.compile("[+-]?[0-9]+")
_DECIMAL = re.compile("[+-]?(?:[0-9]+(?:[.][0-9]*)?|[.][0-9]+)(?:[eE][+-]?[0-9]+)?")


def text_lines(path: str | os.PathLike, name: str | None = None) -> Iterator[tuple[int, str]]:
    """``(line number, line with its line break)`` of a UTF-8 text file, a byte-order mark at its start
    dropped, one line of at most ``MAX_LINE_BYTES`` read at a time; a longer line or bytes that are not
    UTF-8 are a ValueError naming the file (as ``name``, default the path) and the line."""
    shown = os.fspath(path) if name is None else name
    with open(path, "rb") as handle:
        for number, raw in enumerate(iter(functools.partial(handle.readline, MAX_LINE_BYTES + 1), b""), start=1):
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise ValueError(f"{shown}, line {number}: longer than {MAX_LINE_BYTES:,} bytes (not a text file?)")
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise ValueError(f"{shown}, line {number}: not UTF-8 text (byte 0x{raw[error.start]:02x} at "
                                 f"byte {error.start + 1} of the line)") from None
            yield number, line


def jsonl_objects(path: str | os.PathLike, name: str | None = None) -> Iterator[tuple[int, str, object]]:
    """``(line number, where, value)`` for each non-blank line of a JSON Lines file, ``where`` naming the file
    (as ``name``, default the path) and the line; a line that is not JSON is an error there."""
    shown = os.fspath(path) if name is None else name
    for number, line in text_lines(path, shown):
        if not line.strip():
            continue
        where = f"{shown}, line {number}"
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as error:  # RecursionError: nested deeper than Python's stack
            raise ValueError(f"{where}: not valid JSON ({getattr(error, 'msg', 'nested too deeply')})") from None
        yield number, where, value


def read_jsonl(path: str | os.PathLike, check=None, *, key: str | None = None,
               name: str | None = None) -> list:
    """Every line of a JSON Lines file, each passed through ``check(value, where)`` when given.

    ``check`` returns the value to keep or raises ``ValueError`` naming ``where`` (file and line).
    With ``key``, each value is an object whose ``key`` must not repeat. Blank lines are skipped.

    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> f = pathlib.Path(folder.name) / "items.jsonl"
    >>> _ = f.write_text('{"id": "a"}\\n\\n{"id": "a"}\\n')
    >>> read_jsonl(f, key="id", name="items.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: items.jsonl, line 3: id 'a' appears twice
    >>> folder.cleanup()
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


def _number(text: str, what: str, path: str, line: int, integer: bool) -> float | int:
    """A grade (``integer``) or a score as trec_eval reads it (module docstring), else a ValueError."""
    well_formed = len(text) <= 400 and (_INTEGER if integer else _DECIMAL).fullmatch(text)
    if well_formed:
        value = int(text) if integer else float(text)
        if (-2**63 <= value < 2**63) if integer else math.isfinite(value):
            return value
    shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"
    if well_formed:
        limit = "64-bit integer, as in trec_eval" if integer else "finite float"
        raise ValueError(f"{path}, line {line}: {what} {shown} is out of range (a {limit})")
    kind, allowed = ("an integer", "ASCII digits") if integer else ("a number", "ASCII digits, a point, an exponent")
    raise ValueError(f"{path}, line {line}: {what} must be {kind}, got {shown}: {allowed} and an optional sign, "
                     "as trec_eval reads numbers")


def _checked_id(text: str, what: str, where: str) -> str:
    found = _CONTROL.search(text)
    if found:
        raise ValueError(f"{where}: {what} {text!r} holds the control character U+{ord(found.group()):04X}; "
                         "ids are printable text (a tab or a line break would forge lines of the report)")
    return text


def _trec_rows(path, parse_line) -> Iterator[tuple[int, str, str, str]]:
    """``(line, query_id, doc_id, value text)`` from a TREC file, fields split on spaces and tabs."""
    shown = os.fspath(path)
    for number, line in text_lines(path):
        stripped = line.strip(" \t\r\n")
        if not stripped or stripped[0] == "#":
            continue
        if _CONTROL_BUT_TAB.search(stripped):  # refused, ASCII's other whitespace among them: split() then splits
            _checked_id(stripped.replace("\t", " "), "the line", f"{shown}, line {number}")  # as trec_eval
        fields = stripped.split() if stripped.isascii() else _FIELD_BREAK.split(stripped)
        yield number, *parse_line(shown, number, fields)


def _table_rows(path, value_column: str) -> Iterator[tuple[int, str, str, str]]:
    """``(line, query_id, doc_id, value text)`` from a CSV or JSON Lines file."""
    name = os.fspath(path)
    wanted = ["query_id", "doc_id", value_column]
    if name.endswith(".jsonl"):
        for number, where, row in jsonl_objects(path):
            if not isinstance(row, dict) or any(c not in row for c in wanted):
                raise ValueError(f"{where}: a JSON Lines row is an object with the keys {wanted}, got {row!r}")
            ids = [row["query_id"], row["doc_id"]]
            if not all(isinstance(i, (str, int)) and not isinstance(i, bool) for i in ids):
                raise ValueError(f"{where}: query_id and doc_id must be strings or integers, got {ids!r}")
            yield number, *(_checked_id(str(i), c, where) for i, c in zip(ids, wanted)), str(row[value_column])
        return
    reader = csv.DictReader(line for _, line in text_lines(path))
    try:
        missing = [c for c in wanted if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{name}, line 1: the CSV header needs the columns {wanted}; missing {missing}")
        for row in reader:
            where = f"{name}, line {reader.line_num}"
            if None in row.values() or None in row:
                raise ValueError(f"{where}: expected {len(reader.fieldnames)} fields as in the header")
            ids = (_checked_id(row[c], c, where) for c in wanted[:2])
            yield reader.line_num, *ids, row[value_column]
    except csv.Error as error:  # a field over csv's size limit, a stray quote ...
        raise ValueError(f"{name}, line {reader.line_num}: not CSV as expected ({error})") from None


def _read(path, value_column: str, parse_line) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The query ids, doc ids and values of a TREC, CSV (``.csv``) or JSON Lines (``.jsonl``) file, a
    repeated (query, document) refused. Each distinct id is kept once and a row is three numbers (and its
    line), so memory follows the distinct ids: holding each row's strings took 14 times the file."""
    integer = value_column == "relevance"
    table = os.fspath(path).endswith((".csv", ".jsonl"))
    rows = _table_rows(path, value_column) if table else _trec_rows(path, parse_line)
    codes: dict[str, int] = {}
    queries, docs, lines, values = array("q"), array("q"), array("q"), array("q" if integer else "d")
    shown = os.fspath(path)
    for number, query_id, doc_id, text in rows:
        queries.append(codes.setdefault(query_id, len(codes)))
        docs.append(codes.setdefault(doc_id, len(codes)))
        lines.append(number)
        values.append(_number(text, value_column, shown, number, integer))
    ids = np.empty(len(codes), dtype=object)
    ids[:] = list(codes)
    query, doc = np.frombuffer(queries, np.int64), np.frombuffer(docs, np.int64)
    _refuse_repeated(shown, ids, query, doc, np.frombuffer(lines, np.int64))
    return ids[query], ids[doc], np.frombuffer(values, np.int64 if integer else float)


def _refuse_repeated(shown: str, ids: np.ndarray, query: np.ndarray, doc: np.ndarray, lines: np.ndarray) -> None:
    """The first line that repeats an earlier line's (query, document) pair, named with that earlier line."""
    keys = query * max(len(ids), 1) + doc
    order = np.argsort(keys, kind="stable")  # equal pairs stay in file order
    ordered = keys[order]
    repeats = order[1:][ordered[1:] == ordered[:-1]]
    if len(repeats):
        row = int(repeats.min())
        first = int(order[np.searchsorted(ordered, keys[row])])
        raise ValueError(f"{shown}, line {lines[row]}: document {ids[doc[row]]!r} appears twice for query "
                         f"{ids[query[row]]!r} (first on line {lines[first]})")


def _qrels_line(path: str, line: int, fields: list[str]) -> tuple[str, str, str]:
    if len(fields) != 4:
        raise ValueError(
            f"{path}, line {line}: a qrels line has 4 fields (query_id iteration doc_id relevance), "
            f"found {len(fields)}: {' '.join(fields)!r}"
        )
    return fields[0], fields[2], fields[3]


def _run_line(path: str, line: int, fields: list[str]) -> tuple[str, str, str]:
    if len(fields) < 6:
        raise ValueError(
            f"{path}, line {line}: a run line has 6 fields (query_id Q0 doc_id rank score tag), "
            f"found {len(fields)}: {' '.join(fields)!r}"
        )
    return fields[0], fields[2], fields[4]


def read_qrels(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC qrels file (or ``.csv`` / ``.jsonl``) into columns ``query_id, doc_id, relevance``; a file
    without judgments is an error naming it.

    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> f = pathlib.Path(folder.name) / "qrels"
    >>> _ = f.write_text("# judged by A\\nq1 0 d1 2\\nq1 0 d#2 0\\n")
    >>> read_qrels(f).values.tolist()
    [['q1', 'd1', 2], ['q1', 'd#2', 0]]
    >>> folder.cleanup()
    """
    query_id, doc_id, relevance = _read(path, "relevance", _qrels_line)
    if len(relevance) == 0:
        raise ValueError(f"{os.fspath(path)}: no judgments (no qrels line): there is nothing to evaluate against")
    return _frame(query_id, doc_id, "relevance", relevance)


def read_run(path: str | os.PathLike) -> pd.DataFrame:
    """Read a TREC run file (or ``.csv`` / ``.jsonl``) into columns ``query_id, doc_id, score``.

    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> f = pathlib.Path(folder.name) / "run"
    >>> _ = f.write_text("q1 Q0 d1 1 2.5 bm25 extra words\\nq1 Q0 d2 2 1.0 bm25\\n")
    >>> read_run(f).values.tolist()
    [['q1', 'd1', 2.5], ['q1', 'd2', 1.0]]
    >>> folder.cleanup()
    """
    query_id, doc_id, score = _read(path, "score", _run_line)
    return _frame(query_id, doc_id, "score", score)


def _frame(query_id: np.ndarray, doc_id: np.ndarray, name: str, values: np.ndarray) -> pd.DataFrame:
    """The three columns, ids as Python strings in object columns (as trec_eval compares them)."""
    return pd.DataFrame({"query_id": pd.Series(query_id, dtype=object), "doc_id": pd.Series(doc_id, dtype=object),
                         name: values})
