"""How far LexicalJudge agrees with people on the held-out halves, and how far people agree.

Issue 10's order: labels committed (commit "Triad labels: ..."), LexicalJudge tuned on the dev
halves only and frozen ("Freeze LexicalJudge ...", 6917387), then the held-out halves scored for
the first time ("Held-out agreement recorded ...", c65846e). The figures live in
``data/triad/judge_freeze.json``. Run with ``pytest -s`` to see them.
"""
import json
import math
from pathlib import Path

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge, agreement_summary, judge_items, read_triad_labels
from ragmetrics_lite.triad.lexical import NEGATION_CUES, NEGATION_EXCEPTIONS, stopwords_sha256

DATA = Path(__file__).resolve().parent.parent / "data" / "triad"
FREEZE = json.loads((DATA / "judge_freeze.json").read_text(encoding="utf-8"))
SECOND = DATA / "second_labeller"

# Held-out figures below issue 10's bounds when first scored (c65846e). They were reported to the
# lead and NOT fed back into the judge. strict=True: the day a task meets the bounds, its XPASS
# fails and the entry must be removed. Delete this mapping to make every bound a hard failure.
BELOW_BOUNDS_WHEN_FROZEN = {
    "faithfulness": "accuracy 0.375 < 0.60 and kappa -0.25 < 0.40 (near-copy 0s vs paraphrased 1s)",
    "context_relevancy": "kappa 0.333 < 0.40",
    "answer_relevancy": "accuracy 0.583 < 0.60 and kappa 0.167 < 0.40",
}


def _summary(task, split):
    items = read_triad_labels(DATA, task)
    judged = judge_items(items[items["split"] == split], task, LexicalJudge())
    return agreement_summary(judged["label"], judged["judge"])


def test_the_default_judge_is_the_frozen_one():
    judge = LexicalJudge()
    assert FREEZE["thresholds"] == {"support_threshold": judge.support_threshold,
                                    "relevance_threshold": judge.relevance_threshold,
                                    "address_threshold": judge.address_threshold}
    assert FREEZE["stopwords_sha256"] == stopwords_sha256()
    assert FREEZE["negation_cues"] == list(NEGATION_CUES)
    assert FREEZE["negation_exceptions"] == list(NEGATION_EXCEPTIONS)


@pytest.mark.parametrize("split", ["dev", "heldout"])
@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_figures_equal_the_recorded_ones(task, split):
    summary = _summary(task, split)
    recorded = FREEZE[split][task]
    print(f"\n{task} {split}: " + ", ".join(f"{k} {summary[k]:.3f}" for k in summary.index))
    assert summary["n"] == recorded["n"]
    for key in ("accuracy", "majority_share", "kappa"):
        assert summary[key] == pytest.approx(recorded[key], abs=1e-6)


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_heldout_not_below_the_recorded_level(task):
    summary, recorded = _summary(task, "heldout"), FREEZE["heldout"][task]
    assert summary["accuracy"] >= recorded["accuracy"] - 1e-9
    assert summary["kappa"] >= recorded["kappa"] - 1e-9


@pytest.mark.parametrize("task", [
    pytest.param(task, marks=pytest.mark.xfail(strict=True, reason=f"below the bounds when frozen: {why}"))
    if (why := BELOW_BOUNDS_WHEN_FROZEN.get(task)) else task
    for task in TRIAD_TASKS
])
def test_heldout_agreement_meets_the_bounds(task):
    summary = _summary(task, "heldout")
    print(f"\n{task} heldout: accuracy {summary['accuracy']:.3f} (majority {summary['majority_share']:.3f}), "
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
    assert elapsed < 2.0  # about 0.4 s on the development machine; generous for shared CI
