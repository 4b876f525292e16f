"""The inputs of ``ragmetrics-lite compare``, read and checked before any figure is computed.

A bad file or option raises ``ValueError`` naming the file and the line, or the option: the command
exits 2. Both runs are scored here with :func:`evaluate`, so that an unknown metric or a bad
relevance level is bad input too; the queries a run misses are handled as ``evaluate`` handles them
(a judged query without results scores 0, a run query without judgments is ignored), and its
warnings become notes of the report.

Formats beyond the TREC files (read by :mod:`trec_io`):

* durations (``--latency``): one number of milliseconds per line, or a CSV whose header names
  ``query_id`` and ``ms``; blank lines and lines starting with ``#`` are skipped;
* judged scores (``--judged``): ``.csv`` or ``.jsonl`` rows ``system`` (``baseline`` or
  ``candidate``), ``query_id``, ``metric``, ``value`` and optionally ``judge`` (the judge's name,
  e.g. ``LexicalJudge``), one per query and metric for each system;
* a judge's agreement: ``*freeze*.json`` files in ``--triad-dir`` (``data/triad/judge_freeze.json``
  in this repository), whose ``judge`` names the judge and ``heldout`` maps each task to its
  held-out ``n``, ``accuracy``, ``majority_share`` and ``kappa``.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import warnings
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from .retrieval.evaluate import evaluate
from .retrieval.table import DEFAULT_METRICS
from .trec_io import jsonl_objects, read_jsonl, read_qrels, read_run, text_lines

__all__ = ["Prepared", "Progress", "prepare", "read_argument", "read_durations", "read_judged", "judge_agreement"]

SIDES = ("baseline", "candidate")
LARGE_INPUT_BYTES = 5_000_000  # about a second or two of reading
LARGE_WORK = 20_000_000  # queries x resamples x metrics: about a second or two of resampling


class Prepared(NamedTuple):
    """What :func:`prepare` read: per-query scores of each side, and what the report needs beside them."""

    scores: dict[str, pd.DataFrame]  # side -> one row per judged query, one column per metric
    judged: dict[str, pd.DataFrame] | None  # side -> one row per query, one column per judged metric
    agreement: dict[str, dict]  # judged metric -> its judge and measured agreement (or why unknown)
    latency: dict[str, list[float]] | None  # side -> durations in ms
    floors: dict[str, float]  # metric -> --fail-under
    latency_limit: tuple[float, bool] | None  # --max-latency-increase: (value, in percent?)
    selection: str  # which queries are compared, in words
    notes: list[str]


class Progress:
    """A line on stderr per step, only when the inputs are large enough to take a second or two."""

    def __init__(self, args: argparse.Namespace) -> None:
        files = [args.qrels, args.baseline, args.candidate, args.judged, *(args.latency or [])]
        self.on = sum(os.path.getsize(f) for f in files if f and os.path.isfile(f)) > LARGE_INPUT_BYTES

    def expect(self, queries: int, metrics: int, resamples: int) -> None:
        self.on = self.on or queries * metrics * resamples > LARGE_WORK

    def __call__(self, message: str) -> None:
        if self.on:
            print(f"ragmetrics-lite compare: {message}", file=sys.stderr, flush=True)


def _usage(args: argparse.Namespace) -> None:
    """Options that make no sense together or alone, refused before any file is read."""
    if args.split is not None and args.queries is None:
        raise ValueError("--split needs --queries FILE (the queries file that holds each query's split)")
    if args.max_latency_increase is not None and args.latency is None:
        raise ValueError("--max-latency-increase needs --latency BASELINE_FILE CANDIDATE_FILE")
    if args.gate_judged and args.judged is None:
        raise ValueError("--gate-judged needs --judged FILE")
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must lie between 0 and 1, got {args.alpha}")
    if not 0 <= args.max_drop < math.inf:
        raise ValueError(f"--max-drop must be a number >= 0, got {args.max_drop}")
    if args.resamples < 1 or args.seed < 0:
        raise ValueError("--resamples must be 1 or more and --seed 0 or more")


def prepare(args: argparse.Namespace, progress: Progress) -> Prepared:
    """Read every input and score both runs; ``ValueError`` or ``OSError`` on bad input."""
    _usage(args)
    metrics = list(args.metrics or DEFAULT_METRICS)
    progress(f"reading {args.qrels}, {args.baseline} and {args.candidate}")
    qrels = read_argument(read_qrels, args.qrels, "QRELS")
    runs = {side: read_argument(read_run, getattr(args, side), f"{side.upper()}_RUN") for side in SIDES}
    notes, selection, keep = [], f"every judged query of {args.qrels}", None
    if args.queries is not None:
        keep, selection = _selected_queries(args.queries, args.split)
        qrels = qrels[qrels["query_id"].isin(keep)]
        runs = {side: run[run["query_id"].isin(keep)] for side, run in runs.items()}
    progress(f"scoring both runs on {len(metrics)} metrics")
    scores = {side: _scored(qrels, run, metrics, args.level, side, notes) for side, run in runs.items()}
    judged, agreement = None, {}
    if args.judged is not None:
        judged, judges = read_judged(args.judged, keep)
        agreement = judge_agreement(args.triad_dir, judges, args.judged)
    latency = None if args.latency is None else dict(zip(SIDES, map(read_durations, args.latency)))
    floors = _floors(args.fail_under, metrics, [] if judged is None else list(judged["baseline"].columns))
    limit = None if args.max_latency_increase is None else _latency_limit(args.max_latency_increase)
    return Prepared(scores, judged, agreement, latency, floors, limit, selection, notes)


def read_argument(reader, path: str, label: str) -> pd.DataFrame:
    """``reader(path)`` for the file a command-line argument names; a missing file or a folder is one line
    naming the argument (``RUN results.txt: No such file or directory``), not errno's text."""
    try:
        return reader(path)
    except OSError as error:
        raise ValueError(f"{label} {path}: {error.strerror or error}") from None


def _scored(qrels, run, metrics, level, side, notes) -> pd.DataFrame:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = evaluate(qrels, run, metrics, relevance_level=level)
    notes += [f"{side} run: {warning.message}" for warning in caught]
    return table


def _selected_queries(path: str, split: str | None) -> tuple[set, str]:
    """The query ids ``path`` lists (of ``split`` only, when given), and a phrase saying so."""
    def check(row, where):
        if not isinstance(row, dict) or not isinstance(row.get("query_id"), (str, int)):
            raise ValueError(f"{where}: expected an object with a query_id")
        if split is not None and not isinstance(row.get("split"), str):
            raise ValueError(f"{where}: --split {split} needs a string 'split' on every query")
        return row
    rows = read_jsonl(path, check, key="query_id")
    if split is None:
        return {str(row["query_id"]) for row in rows}, f"the {len(rows)} queries of {path}"
    chosen = {str(row["query_id"]) for row in rows if row["split"] == split}
    if not chosen:
        raise ValueError(f"{path}: no query of split {split!r} (its splits: {sorted({r['split'] for r in rows})})")
    return chosen, f"the {len(chosen)} queries of split {split!r} in {path}"


def _number(text: object, where: str, what: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(text, bool) or not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number, got {text!r}")
    return value


def _floors(values: list[str], metrics: list[str], judged: list[str]) -> dict[str, float]:
    """``--fail-under X`` (every --metric) or ``--fail-under METRIC=X`` (that metric, retrieval or judged)."""
    floors = {}
    for value in values:
        name, _, number = value.rpartition("=")
        if name and name not in metrics + judged:
            raise ValueError(f"--fail-under {value}: {name!r} is not compared (metrics: {', '.join(metrics + judged)})")
        floors.update(dict.fromkeys([name] if name else metrics, _number(number, f"--fail-under {value}", "X")))
    return floors


def _latency_limit(text: str) -> tuple[float, bool]:
    percent = text.endswith("%")
    value = _number(text.removesuffix("%"), f"--max-latency-increase {text}", "the increase")
    if value < 0:
        raise ValueError(f"--max-latency-increase {text}: the increase must be >= 0")
    return value, percent


def read_durations(path: str) -> list[float]:
    """Durations in ms from ``path``: one per line, or a CSV with the columns ``query_id`` and ``ms``.

    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> f = pathlib.Path(folder.name) / "ms.csv"
    >>> _ = f.write_text("query_id,ms\\nq1,120.5\\nq2,80\\n")
    >>> read_durations(f)
    [120.5, 80.0]
    >>> folder.cleanup()
    """
    lines = [(n, line) for n, line in text_lines(path) if line.strip() and line.strip()[0] != "#"]
    if not lines:
        raise ValueError(f"{path}: no durations (one number of ms per line, or a CSV with query_id, ms)")
    column, rows = None, lines
    if "," in lines[0][1]:
        header = [name.strip() for name in next(csv.reader([lines[0][1]]))]
        if "query_id" not in header or "ms" not in header:
            raise ValueError(f"{path}, line {lines[0][0]}: a CSV of durations names the columns query_id "
                             f"and ms, got {header}")
        column, rows = header.index("ms"), lines[1:]
    durations = []
    for number, line in rows:
        fields = next(csv.reader([line])) if column is not None else [line.strip()]
        where = f"{path}, line {number}"
        if column is not None and len(fields) != len(header):
            raise ValueError(f"{where}: expected {len(header)} fields as in the header, got {len(fields)}")
        durations.append(_number(fields[column or 0], where, "a duration in ms"))
        if durations[-1] < 0:
            raise ValueError(f"{where}: a duration cannot be negative, got {fields[column or 0]}")
    return durations


def _judged_rows(path: str):
    """``(where, row)`` for each row of a ``.csv`` or ``.jsonl`` file of judged scores."""
    if str(path).endswith(".jsonl"):
        for _, where, row in jsonl_objects(path):
            yield where, row
    elif str(path).endswith(".csv"):
        reader = csv.DictReader(line for _, line in text_lines(path))  # UTF-8, a byte-order mark ignored
        for row in reader:
            yield f"{path}, line {reader.line_num}", row
    else:
        raise ValueError(f"{path}: --judged reads a .csv or a .jsonl file")


def read_judged(path: str, keep: set | None = None) -> tuple[dict[str, pd.DataFrame], dict[str, str | None]]:
    """Judged scores: per side a query x metric table, and per metric the judge that scored it (or None)."""
    records, first, judges = [], {}, {}
    for where, row in _judged_rows(path):
        if not isinstance(row, dict) or any(row.get(c) in (None, "") for c in ("system", "query_id", "metric")):
            raise ValueError(f"{where}: a judged row holds system, query_id, metric and value, got {row!r}")
        side, query_id, metric = row["system"], str(row["query_id"]), str(row["metric"])
        if side not in SIDES:
            raise ValueError(f"{where}: system must be 'baseline' or 'candidate', got {side!r}")
        if (side, query_id, metric) in first:
            earlier = first[side, query_id, metric]
            raise ValueError(f"{where}: {side} {query_id} {metric} appears twice (first at {earlier})")
        first[side, query_id, metric] = where
        judges.setdefault(metric, set()).add(row.get("judge") or None)
        records.append((side, query_id, metric, _number(row.get("value"), where, "value")))
    if not records:
        raise ValueError(f"{path}: no judged scores")
    several = {m: sorted(map(str, j)) for m, j in judges.items() if len(j) > 1}
    if several:
        raise ValueError(f"{path}: one judge per metric, please; several score {several}")
    frame = pd.DataFrame(records, columns=["system", "query_id", "metric", "value"])
    if keep is not None:
        frame = frame[frame["query_id"].isin(keep)]
    tables = {side: frame[frame["system"] == side].pivot(index="query_id", columns="metric", values="value")
              for side in SIDES}
    metrics = list(dict.fromkeys(frame["metric"]))
    return {side: table.reindex(columns=metrics) for side, table in tables.items()}, {
        m: next(iter(judges[m])) for m in metrics}


def judge_agreement(folder: str, judges: dict[str, str | None], judged_file: str) -> dict[str, dict]:
    """Per judged metric: its judge and the held-out agreement a freeze file in ``folder`` records,
    or ``why`` it is unknown. A metric names a task as the freeze files do (``faithfulness``)."""
    measured = {}
    for path in sorted(Path(folder).glob("*freeze*.json")):
        try:
            freeze = json.loads(path.read_text(encoding="utf-8-sig"))
            for task, figures in (freeze.get("heldout") or {}).items():
                measured[freeze.get("judge"), task] = {**figures, "round": freeze.get("round"), "source": str(path)}
        except (ValueError, AttributeError, TypeError):
            raise ValueError(f"{path}: not a judge's freeze file (JSON with 'judge' and 'heldout')") from None
    found = {}
    for metric, judge in judges.items():
        task = metric.lower().replace(" ", "_").replace("-", "_")
        if judge is None:
            found[metric] = {"judge": None, "why": f"{judged_file} names no judge (add a 'judge' column)"}
        elif (judge, task) not in measured:
            found[metric] = {"judge": judge, "why": f"no *freeze*.json in {folder} measures {judge} on {task}"}
        else:
            found[metric] = {"judge": judge, **measured[judge, task]}
    return found
