"""Choose LexicalJudge's three thresholds on the development items only, and estimate how well the
choice generalises by cross-validation.

Development items: the rows with ``split == "dev"`` in ``--data`` (default ``data/triad``): the 320
items of labelling rounds 1 and 2 (ids f001-f128, c001-c096, a001-a096); the held-out rows are never
read.

The rule (one threshold per task): on a 0.05 grid, take the threshold with the highest accuracy
against the first labeller; among equals, the middle one. The frozen default is that rule applied
to all development items. Its generalisation is estimated by applying the rule to one part and
scoring the other:

* cross-round: tune on round 1 (f001-f064, c001-c048, a001-a048), score round 2, and the reverse.
  The two rounds were written by different sessions on different topics, the closest thing to a
  fresh held-out set;
* ``--repeats`` random halves stratified by (phenomenon, label): mean and spread.

``--without RULE`` / ``--with RULE`` (repeatable) switch rules off or on from ``DEFAULT_RULES``
(``LexicalJudge(rules=...)``), to see what each rule is worth; ``--json`` prints the figures for
``data/triad/judge_freeze.json``. Run from the repository root:

    python scripts/tune_lexical_judge.py [--data data/triad] [--repeats 200] [--seed 0] [--without RULE] [--with RULE]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge, agreement_summary, judge_items, read_triad_labels  # noqa: E402
from ragmetrics_lite.triad.lexical import DEFAULT_RULES, RULES  # noqa: E402

DATA = ROOT / "data" / "triad"
ROUND1_LAST = {"faithfulness": 64, "context_relevancy": 48, "answer_relevancy": 48}
PARAMETER = {"faithfulness": "support_threshold", "context_relevancy": "relevance_threshold",
             "answer_relevancy": "address_threshold"}
GRID = [round(0.05 * i, 2) for i in range(21)]


def development_items(data: Path, task: str) -> pd.DataFrame:
    """The ``dev`` rows, with ``round`` (1 or 2, from the id number)."""
    items = read_triad_labels(data, task)
    items = items[items["split"] == "dev"].reset_index(drop=True)
    number = items["id"].map(lambda i: int(re.sub(r"\D", "", i)))
    items["round"] = np.where(number <= ROUND1_LAST[task], 1, 2)
    return items


def verdicts_by_threshold(items: pd.DataFrame, task: str, rules) -> np.ndarray:
    """A (thresholds x items) 0/1 matrix: the judge's verdict on each item at each grid threshold."""
    return np.array([judge_items(items, task, LexicalJudge(rules=rules, **{PARAMETER[task]: t}))["judge"].to_numpy()
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


def estimate(task: str, data: Path, repeats: int, seed: int, rules) -> dict:
    """The frozen-default choice on all dev items and its cross-validation estimates, as a dict."""
    items = development_items(data, task)
    labels = items["label"].to_numpy()
    verdicts = verdicts_by_threshold(items, task, rules)
    chosen = choose(verdicts, labels)
    full = agreement_summary(labels, verdicts[chosen])
    first = items["round"].eq(1).to_numpy()
    rng = random.Random(seed)
    runs = pd.DataFrame([score(verdicts, labels, stratified_halves(items, rng)) for _ in range(repeats)])
    return {
        "n": int(full["n"]), "threshold": GRID[chosen], "accuracy": full["accuracy"],
        "majority_share": full["majority_share"], "kappa": full["kappa"],
        "round1_to_round2": score(verdicts, labels, first),
        "round2_to_round1": score(verdicts, labels, ~first),
        "random_halves": {"repeats": repeats, "seed": seed, "stratified_by": ["phenomenon", "label"],
                          "accuracy_mean": runs.accuracy.mean(), "accuracy_sd": runs.accuracy.std(),
                          "kappa_mean": runs.kappa.mean(), "kappa_sd": runs.kappa.std(),
                          "threshold_median": float(runs.threshold.median())},
        "sweep": {t: round(float(a), 3) for t, a in zip(GRID, (verdicts == labels).mean(axis=1))},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--without", action="append", default=[], choices=RULES)
    parser.add_argument("--with", dest="with_", action="append", default=[], choices=RULES)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON (for judge_freeze.json)")
    args = parser.parse_args(argv)
    rules = [r for r in RULES if (r in DEFAULT_RULES or r in args.with_) and r not in args.without]
    results = {}
    for task in TRIAD_TASKS:
        r = results[task] = estimate(task, args.data, args.repeats, args.seed, rules)
        if args.json:
            continue
        h = r["random_halves"]
        print(f"\n{task}: {r['n']} development items; {PARAMETER[task]} = {r['threshold']} "
              f"(accuracy {r['accuracy']:.3f}, majority {r['majority_share']:.3f}, kappa {r['kappa']:.3f})")
        for name in ("round1_to_round2", "round2_to_round1"):
            c = r[name]
            print(f"  {name}: threshold {c['threshold']}, accuracy {c['accuracy']:.3f}, kappa {c['kappa']:.3f}")
        print(f"  {h['repeats']} stratified random halves: accuracy {h['accuracy_mean']:.3f} "
              f"(sd {h['accuracy_sd']:.3f}), kappa {h['kappa_mean']:.3f} (sd {h['kappa_sd']:.3f}); "
              f"threshold median {h['threshold_median']}")
        print("  accuracy by threshold: " + " ".join(f"{t}:{a:.2f}" for t, a in r["sweep"].items()))
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
