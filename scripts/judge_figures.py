"""Shared by the embedding judge's tuning and scoring scripts and their tests: which labelled items
form each part of data/triad, agreement figures with bootstrap intervals, and WikiEval pairwise
agreement.

Parts of ``data/triad`` (ids, not the ``split`` field, decide the rounds; the ``split`` field is
checked to agree): ``dev`` = rounds 1 and 2 (f001-f128, c001-c096, a001-a096), ``round1``,
``round2``; ``heldout`` = round 3 (f129-f256, c097-c192, a097-a192) and its two halves, each
written by its own labeller: ``heldout_a`` (customer-facing topics, the first half in file
order) and ``heldout_b`` (employee-facing and technical topics).

Intervals: a percentile bootstrap over items, 95 %, ``RESAMPLES`` resamples drawn as
``numpy.random.default_rng(SEED).integers(0, n, (RESAMPLES, n))``, the resamples of
``rml.bootstrap_ci``: the accuracy interval is ``rml.bootstrap_ci`` of the 0/1 agreements, and
kappa is recomputed on the same resamples (a resample with one label on both sides has no kappa
and is left out).
"""
from __future__ import annotations

import math
import re
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ragmetrics_lite as rml  # noqa: E402
from ragmetrics_lite.triad import TRIAD_TASKS, agreement_summary, read_triad_labels  # noqa: E402

DATA = ROOT / "data" / "triad"
WIKIEVAL = ROOT / "data" / "external" / "wikieval"
ROUND1_LAST = {"faithfulness": 64, "context_relevancy": 48, "answer_relevancy": 48}
ROUND2_LAST = {"faithfulness": 128, "context_relevancy": 96, "answer_relevancy": 96}
PARTS = ("dev", "round1", "round2", "heldout", "heldout_a", "heldout_b")
RESAMPLES, SEED, CONFIDENCE = 10_000, 0, 0.95
#: Which judge method each task asks, and the metric that counts its verdicts.
METHOD = {"faithfulness": "support", "context_relevancy": "context_relevance", "answer_relevancy": "answer_relevance"}


def items(task: str, part: str, data: Path = DATA) -> pd.DataFrame:
    """The labelled items of one part (see the module docstring), in file order."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, got {part!r}")
    labelled = read_triad_labels(data, task)
    number = labelled["id"].map(lambda i: int(re.sub(r"\D", "", i)))
    if ((number <= ROUND2_LAST[task]) != (labelled["split"] == "dev")).any():
        raise ValueError(f"{task}: the split field no longer matches rounds 1-2 = dev, round 3 = heldout")
    if part in ("dev", "round1", "round2"):
        lowest, highest = {"dev": (1, ROUND2_LAST[task]), "round1": (1, ROUND1_LAST[task]),
                           "round2": (ROUND1_LAST[task] + 1, ROUND2_LAST[task])}[part]
        return labelled[(number >= lowest) & (number <= highest)].reset_index(drop=True)
    heldout = labelled[number > ROUND2_LAST[task]].reset_index(drop=True)
    half = len(heldout) // 2
    return {"heldout": heldout, "heldout_a": heldout.iloc[:half], "heldout_b": heldout.iloc[half:]}[part].reset_index(
        drop=True)


def resampled_kappas(truth: np.ndarray, predicted: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Cohen's kappa of 0/1 labels on each resample (rows of ``indices``); NaN where p_e = 1."""
    t, p = truth[indices], predicted[indices]
    observed = (t == p).mean(axis=1)
    t1, p1 = t.mean(axis=1), p.mean(axis=1)
    expected = t1 * p1 + (1 - t1) * (1 - p1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected < 1, (observed - expected) / (1 - expected), np.nan)


def figures(truth, predicted, n_resamples: int = RESAMPLES, seed: int = SEED) -> dict:
    """n, accuracy, majority_share, kappa and 95 % percentile-bootstrap intervals for accuracy and kappa."""
    truth, predicted = np.asarray(truth, int), np.asarray(predicted, int)
    summary = agreement_summary(truth, predicted)
    agree = (truth == predicted).astype(float)
    accuracy_low, accuracy_high = rml.bootstrap_ci(agree, CONFIDENCE, n_resamples, seed)
    indices = np.random.default_rng(seed).integers(0, len(truth), (n_resamples, len(truth)))
    kappas = resampled_kappas(truth, predicted, indices)
    kappas = kappas[~np.isnan(kappas)]
    alpha = (1 - CONFIDENCE) / 2
    kappa_low, kappa_high = np.quantile(kappas, [alpha, 1 - alpha]) if kappas.size else (math.nan, math.nan)
    return {"n": int(summary["n"]), "accuracy": float(summary["accuracy"]),
            "majority_share": float(summary["majority_share"]), "kappa": float(summary["kappa"]),
            "accuracy_low": float(accuracy_low), "accuracy_high": float(accuracy_high),
            "kappa_low": float(kappa_low), "kappa_high": float(kappa_high)}


def judged(task: str, part: str, judge) -> pd.DataFrame:
    """The part's items with the judge's 0/1 verdict as ``judge`` and its ``reason``."""
    return rml.triad.judge_items(items(task, part), task, judge)


# ------------------------------------------------------------------ WikiEval
#: The pair file of each metric, and the column judged in it.
WIKIEVAL_FILES = {"faithfulness": ("ff", "answer"), "answer_relevancy": ("ar", "answer"),
                  "context_relevancy": ("cr", "context")}


def _same_text(a: str, b: str) -> float:
    """How alike two texts are: difflib's ratio on their words (1.0 = the same words in the same order)."""
    import difflib

    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


@lru_cache(maxsize=4)
def wikieval_pairs(folder: Path = WIKIEVAL) -> dict[str, pd.DataFrame]:
    """One row per question and file: ``question``, the two members (``first``: the row labelled 0,
    ``second``: the row labelled 1), the ff context, ``preferred`` (``"first"`` or ``"second"``), the
    member WikiEval's construction made better, recognised from the files themselves, and the
    evidence: ``match`` (how alike the texts that identify it are) and ``runner_up`` (the best
    other pairing). Cached: do not modify the frames.

    WikiEval answers each question three ways and gives it two contexts: ``answer``, written from
    the page; ``ungrounded_answer``, written without it (ff's other member); ``poor_answer``, asked
    for incomplete (ar's other member); and the page with sentences from pages linking to it added
    (cr's other member). So the ff member that reappears (near verbatim) among the ar pair is the
    answer written from the page, preferred in both files; the cr member nearest the ff context is
    the page without added sentences, preferred in cr. The ``label`` column does not say which
    member is preferred: it is 0 for the first fifty rows and 1 for the last fifty, the same
    question at rows i and i + 50 (tested in tests/test_wikieval_pairs.py).
    """
    files = {name: pd.read_csv(folder / f"{name}.csv") for name in ("ff", "ar", "cr")}
    rows = {name: [] for name in files}
    for question in files["ff"]["question"].drop_duplicates():
        pair = {name: frame[frame["question"] == question].sort_values("label") for name, frame in files.items()}
        ff, ar, cr = pair["ff"], pair["ar"], pair["cr"]
        match = np.array([[_same_text(f, a) for a in ar["answer"]] for f in ff["answer"]])
        f_best, a_best = np.unravel_index(match.argmax(), match.shape)
        context = ff["context"].iloc[0]
        near = [_same_text(context, c) for c in cr["context"]]
        c_best = int(np.argmax(near))
        answers = (float(match.max()), float(np.sort(match, axis=None)[-2]))
        for name, column, best, (found, runner_up) in (("ff", "answer", f_best, answers),
                                                       ("ar", "answer", a_best, answers),
                                                       ("cr", "context", c_best, (max(near), min(near)))):
            members = pair[name][column].tolist()
            rows[name].append({"question": question, "context": context, "first": members[0], "second": members[1],
                               "preferred": ("first", "second")[best], "match": found, "runner_up": runner_up})
    return {name: pd.DataFrame(found) for name, found in rows.items()}


def item_score(task: str, question: str, context: str, text: str, judge) -> float:
    """The metric's score for one WikiEval member with ``judge``: faithfulness of the answer given the
    context, answer relevancy given the question, context relevancy of the context given the question.
    NaN when the metric has nothing to judge."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rml.RagMetricsWarning)
        if task == "faithfulness":
            return rml.faithfulness(text, [context], judge)
        if task == "answer_relevancy":
            return rml.answer_relevancy(question, text, judge)
        return rml.context_relevancy(question, [text], judge)


def pairwise_agreement(first: list[float], second: list[float], preferred: list[str]) -> dict:
    """Share of pairs where the higher score is the preferred member's (a tie counts half); a pair
    with a NaN score counts as a failure, and such pairs are also counted apart (``no_score``)."""
    credit, no_score = [], 0
    for a, b, which in zip(first, second, preferred):
        if math.isnan(a) or math.isnan(b):
            no_score += 1
            credit.append(0.0)
            continue
        good, bad = (a, b) if which == "first" else (b, a)
        credit.append(1.0 if good > bad else 0.5 if good == bad else 0.0)
    ties = sum(c == 0.5 for c in credit)
    low, high = rml.bootstrap_ci(credit, CONFIDENCE, RESAMPLES, SEED)
    return {"pairs": len(credit), "agreement": float(np.mean(credit)), "agreement_low": float(low),
            "agreement_high": float(high), "ties": ties, "no_score": no_score}


__all__ = ["TRIAD_TASKS", "items", "figures", "judged", "wikieval_pairs", "item_score", "pairwise_agreement"]
