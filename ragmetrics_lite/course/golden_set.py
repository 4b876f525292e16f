"""Read a golden-set folder as notebook 18 uses it: the files that are there, and nothing else.

The folder's schema (``data/golden_set/README.md``, "Evaluate your own system")::

    queries.jsonl      {"query_id", "text", "type"?, "split"?}         required
    qrels.txt          TREC qrels: query_id 0 doc_id grade              required
    runs/NAME.run      TREC runs: query_id Q0 doc_id rank score tag     required, one per system
    corpus.jsonl       {"doc_id", "text", "title"?, "updated"?}         optional
    answers.jsonl      {"query_id", "answer", "reference"}              optional
    bad_cases.jsonl    {"query_id", "cause", "reading"}                 optional
    latency/NAME.txt   one duration in ms per line, for run NAME        optional

A query without ``type`` or ``split`` gets ``"all"``; a passage without ``title`` gets ``""``. A
missing optional file gives an empty value, and the notebook says which section it would enable.
Errors name the file and the line.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from ..trec_io import read_jsonl, read_qrels, read_run, text_lines

__all__ = ["GoldenSet", "read_golden_set"]


class GoldenSet(NamedTuple):
    corpus: dict[str, dict]  # doc_id -> {"doc_id", "title", "text", ...}; {} without corpus.jsonl
    queries: pd.DataFrame  # index query_id; columns text, type, split
    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame]
    answers: dict[str, list[str]]  # query_id -> [an answer, a reference answer]
    bad_cases: pd.DataFrame  # index query_id; columns cause, reading (no rows without bad_cases.jsonl)
    latency: dict[str, list[float]]  # run name -> durations in ms, for the runs that have a file


def _fields(required: tuple[str, ...], optional: tuple[str, ...] = ()):
    """A ``read_jsonl`` check: an object with the required string fields; optional ones strings if given."""
    def check(row, where):
        if not isinstance(row, dict) or any(not isinstance(row.get(f), str) for f in required):
            raise ValueError(f"{where}: expected an object with the string fields {list(required)}")
        wrong = [f for f in optional if f in row and not isinstance(row[f], str)]
        if wrong:
            raise ValueError(f"{where}: {wrong[0]!r} must be a string")
        return row
    return check


def _known(rows: list[dict], ids: pd.Index, path: Path) -> list[dict]:
    unknown = [row["query_id"] for row in rows if row["query_id"] not in ids]
    if unknown:
        raise ValueError(f"{path}: query {unknown[0]!r} is not in queries.jsonl")
    return rows


def _durations(path: Path) -> list[float]:
    durations = []
    for number, line in text_lines(path):  # UTF-8, a byte-order mark ignored
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                durations.append(float(line))
            except ValueError:
                raise ValueError(f"{path}, line {number}: expected a duration in ms, got {line.strip()!r}") from None
    return durations


def _given_answers(answers: dict, ids: pd.Index) -> dict[str, list[str]]:
    """Answers given instead of answers.jsonl, refused unless each is [an answer, a reference] to a known query."""
    for query_id, given in answers.items():
        pair = isinstance(given, list) and len(given) == 2 and all(isinstance(text, str) for text in given)
        if query_id not in ids or not pair:
            raise ValueError("answers given in place of answers.jsonl (notebook 18's e2e_questions) must map query "
                             f"ids of the golden set to [an answer, a reference answer], got {query_id!r}: {given!r}")
    return dict(answers)


def _answers(folder: Path, ids: pd.Index) -> dict[str, list[str]]:
    path = folder / "answers.jsonl"
    if not path.exists():
        return {}
    rows = _known(read_jsonl(path, _fields(("query_id", "answer", "reference")), key="query_id"), ids, path)
    return {row["query_id"]: [row["answer"], row["reference"]] for row in rows}


def _bad_cases(folder: Path, ids: pd.Index) -> pd.DataFrame:
    path = folder / "bad_cases.jsonl"
    if not path.exists():
        return pd.DataFrame(columns=["cause", "reading"]).rename_axis("query_id")
    rows = _known(read_jsonl(path, _fields(("query_id", "cause", "reading")), key="query_id"), ids, path)
    return pd.DataFrame(rows).set_index("query_id")


def _corpus(folder: Path) -> dict[str, dict]:
    path = folder / "corpus.jsonl"
    if not path.exists():
        return {}
    rows = read_jsonl(path, _fields(("doc_id", "text"), ("title", "updated")), key="doc_id")
    return {row["doc_id"]: {"title": "", **row} for row in rows}


def _queries(folder: Path, qrels: pd.DataFrame) -> pd.DataFrame:
    rows = read_jsonl(folder / "queries.jsonl", _fields(("query_id", "text"), ("type", "split")), key="query_id")
    queries = pd.DataFrame([{"type": "all", "split": "all", **row} for row in rows]).set_index("query_id")
    unmatched = set(queries.index).symmetric_difference(qrels["query_id"])
    if unmatched:
        raise ValueError(f"{folder}: queries.jsonl and qrels.txt must hold the same queries; "
                         f"only one of them holds {sorted(unmatched)[:5]}")
    return queries[["text", "type", "split"]]


def read_golden_set(folder: str | os.PathLike, run_names: list[str], answers: dict | None = None) -> GoldenSet:
    """The golden set in ``folder``, with the runs ``runs/NAME.run`` for each of ``run_names``.

    ``answers`` (``{query_id: [an answer, a reference answer]}``), when not empty, replaces answers.jsonl.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no golden-set folder {folder}")
    qrels = read_qrels(folder / "qrels.txt")
    queries = _queries(folder, qrels)
    runs = {name: read_run(folder / "runs" / f"{name}.run") for name in run_names}
    latency = {name: _durations(folder / "latency" / f"{name}.txt") for name in run_names
               if (folder / "latency" / f"{name}.txt").exists()}
    chosen = _given_answers(answers, queries.index) if answers else _answers(folder, queries.index)
    return GoldenSet(_corpus(folder), queries, qrels, runs, chosen, _bad_cases(folder, queries.index), latency)
