"""The triad labels and a judge's agreement with them.

``data/triad/{task}.jsonl`` holds one labelled item per line, written by model sessions following the
labelling guideline (schema and how they were written in ``data/triad/README.md``); half of each file
is ``heldout``. :func:`judge_items` asks a judge about every item and :func:`agreement_summary`
compares its verdicts with the labels; :func:`read_second_labels` reads a second labeller's labels
for a sample of the items, :func:`read_judge_scores` the offline judges' figures as scored once after
their freeze. Notebooks 12, 13 (all three tasks), 14 and 18.
"""
from __future__ import annotations

import json
import math
import numbers
from pathlib import Path

import numpy as np
import pandas as pd

from ..stats.agreement import cohens_kappa
from ..trec_io import read_jsonl
from .judges import Judge
from .metrics import ask_judge, judge_or_default

__all__ = ["TRIAD_TASKS", "TASK_FIELDS", "AGREEMENT_BAR", "read_triad_labels", "read_second_labels", "judge_items",
           "agreement_summary", "meets_agreement_bar", "read_judge_scores"]

TRIAD_TASKS = ("faithfulness", "context_relevancy", "answer_relevancy")
#: The two texts each task compares: (judged against, judged item).
TASK_FIELDS = {
    "faithfulness": ("context", "statement"),
    "context_relevancy": ("question", "sentence"),
    "answer_relevancy": ("question", "statement"),
}
#: The bar a judge must clear on held-out items: accuracy at least the majority label's share + 0.10. Kappa is
#: reported with its 95 % bootstrap interval, not held to a threshold (on ~100 items its standard error is ~0.1).
AGREEMENT_BAR = {"accuracy_over_majority": 0.10}
_COMMON = ("id", "split", "lang", "phenomenon")
_CHOICES = {"split": ("dev", "heldout"), "lang": ("zh", "en")}


def _check_task(task: object) -> str:
    if not isinstance(task, str) or task not in TRIAD_TASKS:
        shown = f"a {type(task).__name__}" if isinstance(task, pd.DataFrame) else repr(task)
        raise ValueError(f"task must be one of {TRIAD_TASKS}, got {shown}")
    return task


def _zero_ones(values, name: str) -> list[int]:
    """Labels as 0/1 ints: True/False and 1.0/0.0 too; anything else (NA, 0.7, "1") names its position."""
    labels = []
    for position, value in enumerate(values):
        if not (isinstance(value, (numbers.Real, np.bool_)) and value in (0, 1)):
            raise ValueError(f"{name}[{position}] is {value!r}: every label must be 1 or 0")
        labels.append(int(value))
    return labels


def _check_item(item: object, where: str, task: str) -> dict:
    if not isinstance(item, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(item).__name__}")
    for field in (*_COMMON, *TASK_FIELDS[task], "label"):
        if field not in item:
            raise ValueError(f"{where}: missing field {field!r}")
    for field in (*_COMMON, *TASK_FIELDS[task]):
        if not isinstance(item[field], str) or not item[field].strip():
            raise ValueError(f"{where}: {field} must be a non-empty string, got {item[field]!r}")
    for field, allowed in _CHOICES.items():
        if item[field] not in allowed:
            raise ValueError(f"{where}: {field} must be one of {allowed}, got {item[field]!r}")
    if isinstance(item["label"], bool) or item["label"] not in (0, 1):
        raise ValueError(f"{where}: label must be 1 or 0, got {item['label']!r}")
    return item


def _read_items(path: Path, check, shown: str) -> list[dict]:
    """Each non-blank line of ``path`` through ``check(item, where)``, ids unique, at least one item.
    Errors name the file as ``shown`` and the line."""
    items = read_jsonl(path, check, key="id", name=shown)
    if not items:
        raise ValueError(f"{shown} holds no items")
    return items


def _check_second(item: object, where: str) -> dict:
    if not isinstance(item, dict) or "id" not in item or "label" not in item:
        raise ValueError(f"{where}: expected a JSON object with an id and a label, got {item!r}")
    if isinstance(item["label"], bool) or item["label"] not in (0, 1):
        raise ValueError(f"{where}: label must be 1 or 0, got {item['label']!r}")
    return item


def read_triad_labels(directory, task: str) -> pd.DataFrame:
    """One row per item of ``{directory}/{task}.jsonl``, every line checked against the schema.

    Columns: id, split, lang, phenomenon, the task's two texts, label, note. Notebook
    ``13_faithfulness`` reads ``read_triad_labels("../data/triad", "faithfulness")``.

    >>> import tempfile, pathlib
    >>> temporary = tempfile.TemporaryDirectory()
    >>> folder = pathlib.Path(temporary.name)
    >>> _ = (folder / "answer_relevancy.jsonl").write_text(
    ...     '{"id": "a1", "split": "dev", "lang": "en", "phenomenon": "direct", '
    ...     '"question": "How do I get a refund?", "statement": "Open the order page.", "label": 1, "note": ""}\\n')
    >>> read_triad_labels(folder, "answer_relevancy")[["id", "label"]]
       id  label
    0  a1      1
    >>> temporary.cleanup()
    """
    task = _check_task(task)
    items = _read_items(Path(directory) / f"{task}.jsonl", lambda item, where: _check_item(item, where, task),
                        f"{task}.jsonl")
    columns = [*_COMMON, *TASK_FIELDS[task], "label", "note"]
    frame = pd.DataFrame(items).reindex(columns=columns)
    frame["note"] = frame["note"].fillna("")
    frame["label"] = frame["label"].astype(int)
    return frame


def read_second_labels(directory, task: str) -> pd.DataFrame:
    """The items a second labeller labelled: :func:`read_triad_labels`' rows for the ids in
    ``{directory}/second_labeller/{task}.jsonl`` (lines ``{"id": ..., "label": 1 or 0}``), in the
    first file's order, with the second labeller's label as ``second_label``. An id the first file
    lacks is an error. Notebooks 12, 13, 14 and 18 compare the two labellers this way.

    >>> import tempfile, pathlib
    >>> temporary = tempfile.TemporaryDirectory()
    >>> folder = pathlib.Path(temporary.name)
    >>> (folder / "second_labeller").mkdir()
    >>> _ = (folder / "answer_relevancy.jsonl").write_text(
    ...     '{"id": "a1", "split": "dev", "lang": "en", "phenomenon": "direct", '
    ...     '"question": "How do I get a refund?", "statement": "Open the order page.", "label": 1, "note": ""}\\n')
    >>> _ = (folder / "second_labeller" / "answer_relevancy.jsonl").write_text('{"id": "a1", "label": 0}\\n')
    >>> read_second_labels(folder, "answer_relevancy")[["id", "label", "second_label"]]
       id  label  second_label
    0  a1      1             0
    >>> temporary.cleanup()
    """
    first = read_triad_labels(directory, task)
    shown = f"second_labeller/{task}.jsonl"
    second = {item["id"]: item["label"] for item in _read_items(Path(directory) / shown, _check_second, shown)}
    unknown = sorted(set(second) - set(first["id"]))
    if unknown:
        raise ValueError(f"{shown}: id(s) {unknown[:5]} are not in {task}.jsonl")
    both = first[first["id"].isin(second)].reset_index(drop=True)
    both["second_label"] = both["id"].map(second).astype(int)
    return both

def judge_items(items: pd.DataFrame, task: str, judge: Judge | None = None) -> pd.DataFrame:
    """``items`` plus ``judge`` (1/0, the judge's verdict) and ``reason``: one judge call per item.

    Notebook ``13_faithfulness`` judges every labelled item this way (``judge=None``: each task's default).

    >>> items = pd.DataFrame({"question": ["怎么申请退款？"], "statement": ["在订单页申请退款。"]})
    >>> judge_items(items, "answer_relevancy")[["judge"]]
       judge
    0      1
    """
    if isinstance(task, pd.DataFrame) and isinstance(items, str):
        raise TypeError(f"judge_items(items, task, judge) takes the items first: got the task {items!r} first")
    task = _check_task(task)
    if not isinstance(items, pd.DataFrame):
        raise TypeError(f"items must be a DataFrame (from read_triad_labels), got {type(items).__name__}")
    against, item_field = TASK_FIELDS[task]
    missing = [c for c in (against, item_field) if c not in items.columns]
    if missing:
        raise ValueError(f"items lacks the column(s) {missing} that task {task!r} needs")
    judge = judge_or_default(judge)
    verdicts = []
    for first, second in zip(items[against], items[item_field]):
        if task == "faithfulness":
            verdicts += ask_judge(judge, "support", [second], [first], 1)
        elif task == "context_relevancy":
            verdicts += ask_judge(judge, "context_relevance", first, [second], 1)
        else:
            verdicts += ask_judge(judge, "answer_relevance", first, [second], 1)
    out = items.copy()
    out["judge"] = [int(v.verdict) for v in verdicts]
    out["reason"] = [v.reason for v in verdicts]
    return out


def agreement_summary(truth, predicted) -> pd.Series:
    """n (an int), accuracy, majority_share (accuracy of always answering the commoner label) and kappa.

    Cohen's kappa as :func:`ragmetrics_lite.cohens_kappa` (= ``sklearn.metrics.cohen_kappa_score``);
    NaN when both sides use one label only. The Series has dtype ``object`` so that ``n`` stays an
    int; a table of several summaries becomes numeric with ``pd.DataFrame(summaries).T.infer_objects()``.
    Notebook ``13_faithfulness``.

    >>> agreement_summary([1, 1, 0, 0], [1, 0, 0, 0])
    n                    4
    accuracy          0.75
    majority_share     0.5
    kappa              0.5
    dtype: object
    """
    truth, predicted = _zero_ones(truth, "truth"), _zero_ones(predicted, "predicted")
    if len(truth) != len(predicted):
        raise ValueError(f"truth and predicted must label the same items: {len(truth)} and {len(predicted)}")
    if not truth:
        raise ValueError("truth and predicted are empty")
    n = len(truth)
    accuracy = sum(t == p for t, p in zip(truth, predicted)) / n
    majority = max(truth.count(0), truth.count(1)) / n
    kappa = float(cohens_kappa(truth, predicted)) if len(set(truth) | set(predicted)) > 1 else math.nan
    return pd.Series({"n": n, "accuracy": accuracy, "majority_share": majority, "kappa": kappa}, dtype=object)


def meets_agreement_bar(summary) -> bool:
    """Whether an :func:`agreement_summary` clears :data:`AGREEMENT_BAR` (kappa does not decide it).

    Compared with a 1e-9 tolerance, so that a figure exactly on the bar (accuracy 0.6 against a
    majority share of 0.5, whose float difference is 0.0999...) counts as clearing it.

    Notebooks 12, 13, 14 and 18 hold the judges' held-out figures against it.

    >>> meets_agreement_bar(agreement_summary([1, 1, 0, 0, 1], [1, 1, 0, 0, 0]))
    True
    >>> meets_agreement_bar(agreement_summary([1, 0, 1, 0], [1, 1, 1, 1]))   # always "yes": the majority share
    False
    """
    margin = float(summary["accuracy"]) - float(summary["majority_share"])
    return margin >= AGREEMENT_BAR["accuracy_over_majority"] - 1e-9


def read_judge_scores(directory, task: str) -> pd.DataFrame:
    """Both offline judges' recorded agreement on ``task``, a row each: ``default`` (``judge=None``'s,
    chosen on ``dev_accuracy``, rounds 1-2), then round 3's held-out figures with 95 % bootstrap
    intervals (``_low``, ``_high``), scored once after both freezes (``judge_scores.json``), and ``meets_bar``.

    >>> import pathlib, ragmetrics_lite
    >>> folder = pathlib.Path(ragmetrics_lite.__file__).parents[1] / "data" / "triad"
    >>> read_judge_scores(folder, "answer_relevancy")[["default", "dev_accuracy", "accuracy", "meets_bar"]].round(3)
               default  dev_accuracy  accuracy  meets_bar
    judge
    lexical      False         0.792     0.677       True
    embedding     True         0.844     0.740       True
    """
    task = _check_task(task)
    scores = json.loads((Path(directory) / "judge_scores.json").read_text(encoding="utf-8"))
    freeze = json.loads((Path(directory) / "embedding_freeze.json").read_text(encoding="utf-8"))
    held = scores["heldout"][task]
    rows = {judge: {"default": scores["default_judge"][task] == judge,
                    "dev_accuracy": freeze["dev"][task][judge]["accuracy"], **held[judge]["heldout"]}
            for judge in ("lexical", "embedding")}
    table = pd.DataFrame.from_dict(rows, orient="index").rename_axis("judge")
    table["meets_bar"] = [meets_agreement_bar(row) for _, row in table.iterrows()]
    return table[["default", "dev_accuracy", "n", "majority_share", "accuracy", "accuracy_low", "accuracy_high",
                  "kappa", "kappa_low", "kappa_high", "meets_bar"]]
