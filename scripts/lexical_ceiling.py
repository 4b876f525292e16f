"""How far can a judge built on word and character overlap go? Leave-one-round-out over the triad labels.

LexicalJudge's held-out Cohen's kappa stays below the agreement bar of 0.40 (rml.triad.AGREEMENT_BAR,
data/triad/judge_freeze.json). This measures whether any lexical design could be expected to clear it.
For each task a logistic regression (scikit-learn) on lexical signals is fitted on two labelling rounds and
scored on the third; the rounds were written by different sessions on different topics (their ids are in
data/triad/README.md). The signals of an item (the judged text against the text it is judged against):

* the share of its character 1-, 2- and 3-grams found in the other text, of the other's 2-grams found in
  it, and the length ratio;
* LexicalJudge's own: word coverage and the number and negation checks (faithfulness); overlap both ways
  and its F1, and each guideline rule (relevance); and its verdict.

Two fits: every signal; and LexicalJudge's hard rules kept as vetoes (a statement that fails the number or
negation check is unsupported, a text that breaks a guideline rule is not relevant), the rest fitted on the
items not vetoed. Only the column with round 3 left out is clean: LexicalJudge's rules and word lists were
designed on rounds 1 and 2. A measurement, not a judge of the package. Run from the
repository root:

    python scripts/lexical_ceiling.py [--data data/triad] [--C 0.3]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragmetrics_lite import cohens_kappa  # noqa: E402
from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge, read_triad_labels  # noqa: E402
from ragmetrics_lite.triad.labels import TASK_FIELDS  # noqa: E402

DATA = ROOT / "data" / "triad"
#: The last id number of rounds 1 and 2 (data/triad/README.md); later ids are round 3.
ROUND_ENDS = {"faithfulness": (64, 128), "context_relevancy": (48, 96), "answer_relevancy": (48, 96)}
#: The guideline rules as LexicalJudge's reasons name them ("echo: ...").
RELEVANCE_RULES = ("evasion", "echo", "history", "superseded", "not covered", "answer type")
DESIGNS = ("LexicalJudge as frozen", "fitted, every signal", "fitted, hard rules as vetoes")


def labelling_round(item_id: str, task: str) -> int:
    """1, 2 or 3, from the id's number.

    >>> [labelling_round(i, "faithfulness") for i in ["f064", "f065", "f128", "f129"]]
    [1, 2, 2, 3]
    """
    number, (first, second) = int(item_id[1:]), ROUND_ENDS[task]
    return 1 if number <= first else 2 if number <= second else 3


def containment(text: str, other: str, n: int) -> float:
    """Share of ``text``'s distinct character n-grams (spaces dropped, lower case) found in ``other``.

    >>> containment("7 天退款", "支持 7 天内退款", 2), containment("", "abc", 2)
    (0.6666666666666666, 0.0)
    """
    def grams(t: str) -> set[str]:
        t = re.sub(r"\s+", "", t.lower())
        return {t[i:i + n] for i in range(len(t) - n + 1)}
    mine = grams(text)
    return len(mine & grams(other)) / len(mine) if mine else 0.0


def judge_signals(task: str, against: str, text: str, judge: LexicalJudge) -> tuple[list[float], bool]:
    """LexicalJudge's signals for one item, and whether its hard rules (numbers, negation, guideline) veto it."""
    if task == "faithfulness":
        verdict = judge.support([text], [against])[0]
        found = re.match(r"(\d+)/(\d+) content words", verdict.reason)
        coverage = int(found[1]) / int(found[2]) if found else 0.0
        vetoed = "number" in verdict.reason or "negates" in verdict.reason
        return [coverage, vetoed, verdict.verdict], vetoed
    kind = "context" if task == "context_relevancy" else "answer"
    problems = judge.rule_problems(against, text, kind)
    flags = [any(p.startswith(rule + ":") for p in problems) for rule in RELEVANCE_RULES]
    verdict = (judge.context_relevance if kind == "context" else judge.answer_relevance)(against, [text])[0]
    return [*judge.overlap(against, text), *flags, verdict.verdict], bool(problems)


def task_table(task: str, data: Path = DATA) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Signals (one row per item, the judge's verdict last), labels, rounds and vetoes of one task."""
    items, judge = read_triad_labels(data, task), LexicalJudge()
    against, judged = TASK_FIELDS[task]
    rows, vetoes = [], []
    for first, second in zip(items[against], items[judged]):
        overlap = [containment(second, first, n) for n in (1, 2, 3)]
        extra, vetoed = judge_signals(task, first, second, judge)
        rows.append([*overlap, containment(first, second, 2), len(second) / max(len(first), 1), *extra])
        vetoes.append(vetoed)
    rounds = np.array([labelling_round(i, task) for i in items["id"]])
    return np.array(rows, float), items["label"].to_numpy(), rounds, np.array(vetoes)


def left_out_kappas(signals, labels, rounds, vetoes, design: str, C: float) -> list[float]:
    """Kappa on each round (1, 2, 3) for a design fitted on the other two."""
    kappas = []
    for held in (1, 2, 3):
        test = rounds == held
        if design == DESIGNS[0]:
            predicted = signals[test, -1].astype(int)
        else:
            train = ~test & ~vetoes if design == DESIGNS[2] else ~test
            model = make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))
            predicted = model.fit(signals[train], labels[train]).predict(signals[test])
            if design == DESIGNS[2]:
                predicted = predicted * ~vetoes[test]
        kappas.append(cohens_kappa(labels[test], predicted))
    return kappas


def ceiling_table(data: Path = DATA, C: float = 0.3) -> pd.DataFrame:
    """One row per (task, design): kappa with the round left out, rounds 1, 2 and 3."""
    rows = {}
    for task in TRIAD_TASKS:
        table = task_table(task, data)
        for design in DESIGNS:
            rows[task, design] = left_out_kappas(*table, design, C)
    columns = ["round 1 left out", "round 2 left out", "round 3 left out (clean)"]
    index = pd.MultiIndex.from_tuples(list(rows), names=["task", "design"])
    return pd.DataFrame(list(rows.values()), index=index, columns=columns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the triad label files")
    parser.add_argument("--C", type=float, default=0.3, help="inverse regularisation strength (default 0.3)")
    args = parser.parse_args(argv)
    table = ceiling_table(args.data, args.C)
    print(f"Cohen's kappa with the first labeller, fitted on two rounds and scored on the third (C = {args.C}):")
    print(table.round(3).to_string())
    print("Round 3 is the held-out set LexicalJudge was frozen before; its rules were designed on rounds 1-2.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
