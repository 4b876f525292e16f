"""How far LexicalJudge agrees with people, and how far people agree.

Issue 10's order, round 2: the round-2 held-out labels committed (``FREEZE["labels_commit"]``, a
commit "Triad labels round 2: ..."); LexicalJudge redesigned and tuned on the 160 round-1 items
only (``scripts/tune_lexical_judge.py``, which also estimates by cross-validation how well the
choice generalises) and frozen ("Freeze LexicalJudge round 2 ..."); only then the round-2 held-out
items scored for the first time. Round 1's record (its commits and figures, its held-out half now
development data) is kept under ``FREEZE["round1"]``. Run with ``pytest -s`` to see the figures.
"""
import json
import math
import re
from pathlib import Path

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge, agreement_summary, judge_items, read_triad_labels
from ragmetrics_lite.triad.lexical import (
    MEASURE_WORDS,
    NEGATION_CUES,
    NEGATION_EXCEPTIONS,
    NUMBER_EXCEPTIONS,
    stopwords_sha256,
)

DATA = Path(__file__).resolve().parent.parent / "data" / "triad"
FREEZE = json.loads((DATA / "judge_freeze.json").read_text(encoding="utf-8"))
SECOND = DATA / "second_labeller"
ROUND1_LAST = {"faithfulness": 64, "context_relevancy": 48, "answer_relevancy": 48}  # f064, c048, a048

# Round-2 held-out figures below issue 10's bounds when first scored ("Held-out round 2 scored",
# after the freeze 86a7236). Reported, NOT fed back into the judge. strict=True: the day a task
# meets the bounds its XPASS fails and the entry must go. Faithfulness met them (0.703 / 0.406).
BELOW_BOUNDS_WHEN_FROZEN = {
    "context_relevancy": "kappa 0.208 < 0.40 (accuracy 0.604 meets majority 0.5 + 0.10)",
    "answer_relevancy": "accuracy 0.542 < 0.60 and kappa 0.083 < 0.40",
}


def _items(task, part):
    """``dev``: the 160 round-1 items (tuning data in round 2); ``heldout``: the round-2 held-out items."""
    items = read_triad_labels(DATA, task)
    round1 = items["id"].map(lambda i: int(re.sub(r"\D", "", i)) <= ROUND1_LAST[task])
    return items[round1] if part == "dev" else items[~round1 & (items["split"] == "heldout")]


def _summary(task, part):
    judged = judge_items(_items(task, part), task, LexicalJudge())
    return agreement_summary(judged["label"], judged["judge"])


def test_the_default_judge_is_the_frozen_one():
    judge = LexicalJudge()
    assert FREEZE["round"] == 2
    assert FREEZE["thresholds"] == {"support_threshold": judge.support_threshold,
                                    "relevance_threshold": judge.relevance_threshold,
                                    "address_threshold": judge.address_threshold}
    assert FREEZE["stopwords_sha256"] == stopwords_sha256()
    assert FREEZE["negation_cues"] == list(NEGATION_CUES)
    assert FREEZE["negation_exceptions"] == list(NEGATION_EXCEPTIONS)
    assert FREEZE["measure_words"] == MEASURE_WORDS
    assert FREEZE["number_exceptions"] == list(NUMBER_EXCEPTIONS)


def test_round_one_is_kept():
    round1 = FREEZE["round1"]
    assert round1["labels_commit"].startswith("d812804") and round1["heldout_scored_after"].startswith("6917387")
    assert round1["thresholds"] == {"support_threshold": 0.4, "relevance_threshold": 0.4, "address_threshold": 0.6}
    assert set(round1["dev"]) == set(round1["heldout"]) == set(TRIAD_TASKS)


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_dev_figures_equal_the_recorded_ones(task):
    summary, recorded = _summary(task, "dev"), FREEZE["dev"][task]
    print(f"\n{task} dev: " + ", ".join(f"{k} {summary[k]:.3f}" for k in summary.index))
    assert isinstance(summary["n"], int) and summary["n"] == recorded["n"] == ROUND1_LAST[task]
    for key in ("accuracy", "majority_share", "kappa"):
        assert summary[key] == pytest.approx(recorded[key], abs=1e-6)


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_heldout_figures_equal_the_recorded_ones(task):
    summary, recorded = _summary(task, "heldout"), FREEZE["heldout"][task]
    print(f"\n{task} held-out (round 2): " + ", ".join(f"{k} {summary[k]:.3f}" for k in summary.index))
    assert summary["n"] == recorded["n"] == ROUND1_LAST[task]  # the same size as round 1
    for key in ("accuracy", "majority_share", "kappa"):
        assert summary[key] == pytest.approx(recorded[key], abs=1e-12)


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_heldout_not_below_the_recorded_level(task):
    summary, recorded = _summary(task, "heldout"), FREEZE["heldout"][task]
    assert summary["accuracy"] >= recorded["accuracy"] - 1e-9
    assert summary["kappa"] >= recorded["kappa"] - 1e-9


def test_heldout_scored_after_the_freeze():
    assert FREEZE["heldout_scored_after"].startswith("86a7236")   # "Freeze LexicalJudge round 2"
    assert FREEZE["labels_commit"].startswith("2758f37")          # "Triad labels round 2:"


@pytest.mark.parametrize("task", [
    pytest.param(task, marks=pytest.mark.xfail(strict=True, reason=f"below the bounds when frozen: {why}"))
    if (why := BELOW_BOUNDS_WHEN_FROZEN.get(task)) else task
    for task in TRIAD_TASKS
])
def test_heldout_agreement_meets_the_bounds(task):
    summary = _summary(task, "heldout")
    print(f"\n{task} held-out: accuracy {summary['accuracy']:.3f} (majority {summary['majority_share']:.3f}), "
          f"kappa {summary['kappa']:.3f}")
    assert summary["accuracy"] >= summary["majority_share"] + 0.10
    assert summary["kappa"] >= 0.40


def _second_labels(task):
    path = SECOND / f"{task}.jsonl"
    labels = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        assert {"id", "label"} <= set(item), f"{path.name} line {number}: id and label are required"
        assert item["label"] in (0, 1) and not isinstance(item["label"], bool), f"{path.name} line {number}"
        assert item["id"] not in labels, f"{path.name} line {number}: id {item['id']} twice"
        labels[item["id"]] = item["label"]
    return labels


@pytest.mark.skipif(not SECOND.is_dir(), reason="data/triad/second_labeller/ is not present yet (the lead adds it)")
@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_labellers_agreement(task):
    first = read_triad_labels(DATA, task).set_index("id")["label"]
    second = _second_labels(task)
    assert set(second) <= set(first.index), "the second labeller labelled ids the first file lacks"
    assert len(second) >= 30
    ids = sorted(second)
    a, b = [int(first[i]) for i in ids], [second[i] for i in ids]
    kappa = rml.cohens_kappa(a, b)
    accuracy = sum(x == y for x, y in zip(a, b)) / len(ids)
    print(f"\n{task}: labellers agree on {accuracy:.3f} of {len(ids)} shared items, Cohen's kappa {kappa:.3f}")
    assert math.isfinite(kappa) and -1.0 <= kappa <= 1.0


def test_all_three_label_files_are_judged_fast():
    import time

    rml.tokenize("预热")  # jieba's dictionary is loaded once per process
    items = {task: read_triad_labels(DATA, task) for task in TRIAD_TASKS}
    start = time.perf_counter()
    for task, frame in items.items():
        judge_items(frame, task)
    elapsed = time.perf_counter() - start
    print(f"\n{sum(map(len, items.values()))} labelled items judged in {elapsed:.3f} s")
    assert elapsed < 2.0  # about 1 s for 320 items on the development machine; generous for shared CI


def test_the_readme_quotes_the_recorded_heldout_figures():
    readme = (DATA.parent.parent / "README.md").read_text(encoding="utf-8")
    held = FREEZE["heldout"]
    quoted = (f"held-out Cohen's kappa of {held['faithfulness']['kappa']:.2f} on faithfulness (accuracy\n"
              f"{held['faithfulness']['accuracy']:.2f}), {held['context_relevancy']['kappa']:.2f} on context relevancy "
              f"and {held['answer_relevancy']['kappa']:.2f} on answer relevancy")
    assert quoted in readme
