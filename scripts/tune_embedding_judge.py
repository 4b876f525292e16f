"""Tune EmbeddingJudge on the development items only, choose the default judge of each metric, and
write the freeze record.

Development items: rounds 1 and 2 of data/triad (f001-f128, c001-c096, a001-a096, ``split ==
"dev"``); round 3, the held-out set, is never read here. For each task the candidates are a design
and a threshold:

* designs, simplest first: faithfulness ``checks`` off, then on (the lexical judge's number and
  negation checks); context and answer relevancy ``rules`` none, then the lexical judge's
  ``DEFAULT_RULES`` (answer type, evasion, echo, history, superseded, not covered);
* thresholds: cosines 0.00, 0.01, ..., 0.99.

The rule, with ties fixed here: the highest accuracy against the first labeller (the development
items are balanced, so kappa = 2 x accuracy - 1 orders them the same way); among equals the
earlier (simpler) design; within it the middle of the tied thresholds (the lower of two middles).
The same rule applied to round 1 alone and scored on round 2, and the reverse, estimates how well
it generalises across labellers and topics.

The default judge of each metric is the one with the higher development accuracy, the lexical
judge (as frozen in data/triad/judge_freeze.json) or the tuned embedding judge; a tie keeps the
lexical judge. Both were tuned on these same items, so both figures flatter their judge.

    python scripts/tune_embedding_judge.py            # print the choice
    python scripts/tune_embedding_judge.py --write    # and write data/triad/embedding_freeze.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_figures import DATA, TRIAD_TASKS, figures, items  # noqa: E402

from ragmetrics_lite.triad import LexicalJudge, judge_items  # noqa: E402
from ragmetrics_lite.triad import vectors  # noqa: E402
from ragmetrics_lite.triad.embedding import CHECKED_SENTENCES, EmbeddingJudge  # noqa: E402
from ragmetrics_lite.triad.lexical import DEFAULT_RULES  # noqa: E402

FREEZE = DATA / "embedding_freeze.json"
GRID = [round(0.01 * i, 2) for i in range(100)]
PARAMETER = {"faithfulness": "support_threshold", "context_relevancy": "relevance_threshold",
             "answer_relevancy": "address_threshold"}
#: The designs of each task, simplest first: (name, EmbeddingJudge keyword arguments).
DESIGNS = {
    "faithfulness": [("cosine only", {"checks": False}), ("cosine and lexical checks", {"checks": True})],
    "context_relevancy": [("cosine only", {"rules": ()}), ("cosine and cue rules", {"rules": DEFAULT_RULES})],
    "answer_relevancy": [("cosine only", {"rules": ()}), ("cosine and cue rules", {"rules": DEFAULT_RULES})],
}


def evidence(task: str, frame, options: dict) -> list:
    """Per item: (best cosine, rules broken) for support, or the per-sentence list for relevance."""
    judge = EmbeddingJudge(**options)
    if task == "faithfulness":
        return [[judge.support_evidence(s, [c])] for c, s in zip(frame["context"], frame["statement"])]
    where = "context" if task == "context_relevancy" else "answer"
    column = "sentence" if task == "context_relevancy" else "statement"
    return [judge.relevance_evidence(q, t, where) for q, t in zip(frame["question"], frame[column])]


def verdicts(found: list, threshold: float) -> np.ndarray:
    """The judge's 0/1 verdicts at one threshold: some sentence reaches it and breaks no rule."""
    return np.array([int(any(e.cosine >= threshold and not e.problems for e in one)) for one in found])


def choose(task: str, frame) -> dict:
    """The rule of the module docstring, on ``frame``'s items."""
    labels = frame["label"].to_numpy()
    scored = []   # (accuracy, -design index, threshold)
    for index, (_, options) in enumerate(DESIGNS[task]):
        found = evidence(task, frame, options)
        scored += [(float((verdicts(found, t) == labels).mean()), -index, t) for t in GRID]
    best = max(s[0] for s in scored)
    design = -max(s[1] for s in scored if s[0] == best)
    tied = sorted(s[2] for s in scored if s[0] == best and s[1] == -design)
    name, options = DESIGNS[task][design]
    return {"design": name, "options": options, "threshold": tied[(len(tied) - 1) // 2],
            "accuracy": best, "tied_thresholds": [tied[0], tied[-1]]}


def cross_round(task: str) -> dict:
    """Tune on one round, score the other."""
    out = {}
    for tuned, scored in (("round1", "round2"), ("round2", "round1")):
        choice, other = choose(task, items(task, tuned)), items(task, scored)
        found = evidence(task, other, choice["options"])
        accuracy = float((verdicts(found, choice["threshold"]) == other["label"].to_numpy()).mean())
        out[f"{tuned}_to_{scored}"] = {"design": choice["design"], "threshold": choice["threshold"],
                                       "accuracy": accuracy, "n": len(other)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {FREEZE.relative_to(DATA.parent.parent)}")
    args = parser.parse_args(argv)
    chosen, dev, cv, defaults = {}, {}, {}, {}
    for task in TRIAD_TASKS:
        frame = items(task, "dev")
        chosen[task] = choose(task, frame)
        cv[task] = cross_round(task)
        print(f"{task}: {chosen[task]['design']}, threshold {chosen[task]['threshold']:.2f} "
              f"(ties {chosen[task]['tied_thresholds']}), dev accuracy {chosen[task]['accuracy']:.3f}; "
              + ", ".join(f"{k} {v['accuracy']:.3f}" for k, v in cv[task].items()))
    options = {"checks": chosen["faithfulness"]["options"]["checks"],
               "rules": list(chosen["context_relevancy"]["options"]["rules"]),
               "answer_rules": list(chosen["answer_relevancy"]["options"]["rules"])}
    if options["rules"] != options["answer_rules"]:
        raise SystemExit("context and answer relevancy chose different rules: one judge cannot hold both")
    thresholds = {PARAMETER[task]: chosen[task]["threshold"] for task in TRIAD_TASKS}
    judge = EmbeddingJudge(**thresholds, rules=options["rules"], checks=options["checks"])
    for task in TRIAD_TASKS:
        frame = items(task, "dev")
        mine = judge_items(frame, task, judge)
        lexical = judge_items(frame, task, LexicalJudge())
        dev[task] = {"embedding": figures(mine["label"], mine["judge"]),
                     "lexical": figures(lexical["label"], lexical["judge"])}
        assert dev[task]["embedding"]["accuracy"] == chosen[task]["accuracy"], "the sweep and the judge disagree"
        better = dev[task]["embedding"]["accuracy"] > dev[task]["lexical"]["accuracy"]
        defaults[task] = "embedding" if better else "lexical"
        print(f"{task}: dev accuracy embedding {dev[task]['embedding']['accuracy']:.3f}, lexical "
              f"{dev[task]['lexical']['accuracy']:.3f}: default {defaults[task]}")
    record = {
        "judge": "EmbeddingJudge",
        "frozen_on": datetime.date.today().isoformat(),
        "model": {"package": vectors.MODEL_PACKAGE, "version": vectors.model_version(),
                  "cache": Path(str(vectors.cache_file())).name},
        "tuned_on": {"split": "dev", "rounds": [1, 2], "n": {task: len(items(task, "dev")) for task in TRIAD_TASKS}},
        "grid": [GRID[0], GRID[-1], 0.01],
        "thresholds": thresholds,
        "rules": options["rules"],
        "checks": options["checks"],
        "checked_sentences": CHECKED_SENTENCES,
        "designs": {task: {k: v for k, v in chosen[task].items() if k != "options"} for task in TRIAD_TASKS},
        "cross_round": cv,
        "dev": dev,
        "default_judge": defaults,
        "default_rule": "the higher development accuracy; a tie keeps the lexical judge",
    }
    if args.write:
        FREEZE.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {FREEZE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
