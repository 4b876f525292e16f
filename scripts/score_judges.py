"""Score the frozen lexical and embedding judges once: round 3's held-out items and the WikiEval pairs.

Run once, after the freeze commits (LexicalJudge: 88ab3c8, data/triad/judge_freeze.json;
EmbeddingJudge: "freeze: ...", data/triad/embedding_freeze.json); nothing here changes a judge.
Writes data/triad/judge_scores.json:

* ``heldout``: for each task, judge and part (``heldout``: all of round 3; ``heldout_a`` and
  ``heldout_b``: its halves, each written by one labeller), n, accuracy, the majority label's share,
  Cohen's kappa, and 95 % percentile-bootstrap intervals for accuracy and kappa (scripts/judge_figures.py);
* ``below_bar``: every (task, judge, part) whose accuracy is below the majority share + 0.10, the
  bar tests/test_judge_scores.py holds each figure to (such a test is a strict xfail quoting the
  figure, so that it fails the day the judge clears the bar);
* ``wikieval``: for each metric and judge, the pairwise agreement on the 50 pairs of its file with
  the member WikiEval's construction made better (a tie counts half; a pair with no score counts as
  a failure and is also counted under ``no_score``), with a 95 % percentile-bootstrap interval over
  pairs; ``wikieval_scores``: every member's score, for the tests and for notebooks.

    python scripts/score_judges.py
"""
from __future__ import annotations

import datetime
import json
import math
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_figures import (DATA, ROOT, TRIAD_TASKS, figures, item_score, judged,  # noqa: E402
                           pairwise_agreement, wikieval_pairs)

from ragmetrics_lite.triad import LexicalJudge  # noqa: E402
from ragmetrics_lite.triad.embedding import EmbeddingJudge  # noqa: E402

SCORES = DATA / "judge_scores.json"
PARTS = ("heldout", "heldout_a", "heldout_b")
BAR = 0.10   # accuracy at least the majority share + BAR


def _commit(message_start: str) -> str:
    """The full hash of the newest commit whose subject starts with ``message_start``."""
    found = subprocess.run(["git", "log", "--format=%H %s", "--", "data/triad"], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout.splitlines()
    return next(line.split(" ", 1)[0] for line in found if line.split(" ", 1)[1].startswith(message_start))


def _plain(value):
    """JSON without NaN: a NaN becomes null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def main() -> int:
    judges = {"lexical": LexicalJudge(), "embedding": EmbeddingJudge()}
    freeze = json.loads((DATA / "embedding_freeze.json").read_text(encoding="utf-8"))
    heldout, below = {}, []
    for task in TRIAD_TASKS:
        heldout[task] = {}
        for name, judge in judges.items():
            heldout[task][name] = {}
            for part in PARTS:
                frame = judged(task, part, judge)
                found = figures(frame["label"], frame["judge"])
                heldout[task][name][part] = found
                if found["accuracy"] < found["majority_share"] + BAR - 1e-9:
                    below.append({"task": task, "judge": name, "part": part, "accuracy": found["accuracy"],
                                  "majority_share": found["majority_share"]})
                print(f"{task} {name} {part}: n {found['n']}, accuracy {found['accuracy']:.3f} "
                      f"[{found['accuracy_low']:.3f}, {found['accuracy_high']:.3f}], kappa {found['kappa']:.3f} "
                      f"[{found['kappa_low']:.3f}, {found['kappa_high']:.3f}]", flush=True)
    pairs = wikieval_pairs()
    files = {"faithfulness": "ff", "answer_relevancy": "ar", "context_relevancy": "cr"}
    wikieval, scores = {}, {}
    for name in ("embedding", "lexical"):
        for task, file in files.items():
            frame, started = pairs[file], time.perf_counter()
            members = {side: [item_score(task, q, c, text, judges[name])
                              for q, c, text in zip(frame["question"], frame["context"], frame[side])]
                       for side in ("first", "second")}
            found = pairwise_agreement(members["first"], members["second"], frame["preferred"].tolist())
            wikieval.setdefault(task, {})[name] = found
            scores.setdefault(task, {})[name] = members
            print(f"WikiEval {file} {name}: agreement {found['agreement']:.3f} [{found['agreement_low']:.3f}, "
                  f"{found['agreement_high']:.3f}], ties {found['ties']}, no score {found['no_score']} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    record = {
        "scored_on": datetime.date.today().isoformat(),
        "lexical_freeze_commit": _commit("Freeze LexicalJudge round 3"),
        "embedding_freeze_commit": _commit("freeze: EmbeddingJudge"),
        "default_judge": freeze["default_judge"],
        "intervals": "95 % percentile bootstrap over items (pairs for WikiEval), 10,000 resamples, numpy seed 0, "
                     "the resamples of rml.bootstrap_ci; kappa recomputed on the same resamples",
        "bar": f"accuracy >= majority share + {BAR:.2f}",
        "heldout": heldout,
        "below_bar": below,
        "wikieval_preferred": "the member WikiEval's construction made better, read from the files "
                              "(scripts/judge_figures.py wikieval_pairs; data/external/README.md)",
        "wikieval": wikieval,
        "wikieval_scores": scores,
    }
    SCORES.write_text(json.dumps(_plain(record), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {SCORES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
