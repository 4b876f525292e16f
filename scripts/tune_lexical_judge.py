"""Choose LexicalJudge's three thresholds on the development items only, and estimate how well the
choice generalises by cross-validation.

Development items: every round-1 item of ``data/triad`` (ids f001-f064, c001-c048, a001-a048;
their round-1 held-out half was scored once and is now development data). Round-2 items (the
held-out set) are never read: rows with a higher id are dropped before anything is computed.

The rule (one threshold per task): on a 0.05 grid, take the threshold with the highest accuracy
against the first labeller; among equals, the middle one. The frozen default is that rule applied
to all development items. Its generalisation is estimated by applying the rule to one part and
scoring the other: round 1's dev -> held-out split, the reverse, and ``--repeats`` random halves
stratified by (phenomenon, label). Run from the repository root:

    python scripts/tune_lexical_judge.py [--repeats 200] [--seed 0]
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge, agreement_summary, judge_items, read_triad_labels  # noqa: E402

DATA = ROOT / "data" / "triad"
ROUND1_LAST = {"faithfulness": 64, "context_relevancy": 48, "answer_relevancy": 48}
PARAMETER = {"faithfulness": "support_threshold", "context_relevancy": "relevance_threshold",
             "answer_relevancy": "address_threshold"}
GRID = [round(0.05 * i, 2) for i in range(21)]


def development_items(task: str) -> pd.DataFrame:
    """Round-1 items only, with ``round1_split`` (their split in round 1, for the old-split check)."""
    items = read_triad_labels(DATA, task)
    number = items["id"].map(lambda i: int(re.sub(r"\D", "", i)))
    items = items[number <= ROUND1_LAST[task]].reset_index(drop=True)
    # In round 1 the split alternated dev, heldout within each (label, phenomenon) group in file order.
    position = items.groupby(["label", "phenomenon"]).cumcount()
    items["round1_split"] = np.where(position % 2 == 0, "dev", "heldout")
    return items


def verdicts_by_threshold(items: pd.DataFrame, task: str) -> np.ndarray:
    """A (thresholds x items) 0/1 matrix: the judge's verdict on each item at each grid threshold."""
    return np.array([judge_items(items, task, LexicalJudge(**{PARAMETER[task]: t}))["judge"].to_numpy()
                     for t in GRID])


def choose(verdicts: np.ndarray, labels: np.ndarray) -> int:
    """Index of the grid threshold with the best accuracy; the middle one among equals."""
    accuracy = (verdicts == labels).mean(axis=1)
    best = np.flatnonzero(accuracy == accuracy.max())
    return int(best[len(best) // 2])


def stratified_halves(items: pd.DataFrame, rng: random.Random) -> np.ndarray:
    """A random half of each (phenomenon, label) group (an odd group's extra item goes either way)."""
    mask = np.zeros(len(items), bool)
    for positions in items.groupby(["phenomenon", "label"]).indices.values():
        positions = list(positions)
        rng.shuffle(positions)
        mask[positions[: len(positions) // 2 + (len(positions) % 2) * rng.randint(0, 1)]] = True
    return mask


def score(verdicts, labels, train) -> dict:
    chosen = choose(verdicts[:, train], labels[train])
    summary = agreement_summary(labels[~train], verdicts[chosen, ~train])
    return {"threshold": GRID[chosen], "accuracy": summary["accuracy"], "kappa": summary["kappa"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for task in TRIAD_TASKS:
        items = development_items(task)
        labels = items["label"].to_numpy()
        verdicts = verdicts_by_threshold(items, task)
        chosen = choose(verdicts, labels)
        full = agreement_summary(labels, verdicts[chosen])
        print(f"\n{task}: {len(items)} development items; {PARAMETER[task]} = {GRID[chosen]} "
              f"(accuracy {full['accuracy']:.3f}, majority {full['majority_share']:.3f}, kappa {full['kappa']:.3f})")
        old = items["round1_split"].eq("dev").to_numpy()
        for name, train in (("round-1 dev -> round-1 held-out", old), ("round-1 held-out -> round-1 dev", ~old)):
            r = score(verdicts, labels, train)
            print(f"  {name}: threshold {r['threshold']}, accuracy {r['accuracy']:.3f}, kappa {r['kappa']:.3f}")
        rng = random.Random(args.seed)
        runs = pd.DataFrame([score(verdicts, labels, stratified_halves(items, rng)) for _ in range(args.repeats)])
        print(f"  {args.repeats} stratified random halves: accuracy {runs.accuracy.mean():.3f} "
              f"(sd {runs.accuracy.std():.3f}), kappa {runs.kappa.mean():.3f} (sd {runs.kappa.std():.3f}); "
              f"threshold median {runs.threshold.median()}, range {runs.threshold.min()}-{runs.threshold.max()}")
        sweep = (verdicts == labels).mean(axis=1)
        print("  accuracy by threshold: " + " ".join(f"{t}:{a:.2f}" for t, a in zip(GRID, sweep)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
