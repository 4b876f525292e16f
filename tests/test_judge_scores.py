"""The lexical and embedding judges against the labels, as scored once after their freezes.

data/triad/judge_scores.json (scripts/score_judges.py) holds, for round 3's held-out items and each
of its two halves, both judges' accuracy and Cohen's kappa with 95 % bootstrap intervals, and their
pairwise agreement on the WikiEval pairs. These tests recompute the figures and fail when one
drops below its record, and hold the judge each metric uses by default (``judge=None``) to the bar
on the held-out items and on each labeller's half: accuracy at least the majority label's share +
0.10. The other judge's figures are reported and guarded by their record only: a judge is not the
default where it agrees less (embedding faithfulness and lexical context relevancy on one half are
below the bar, as ``judge_scores.json`` records). Run with ``pytest -s`` to see the figures. The labels were written by model sessions following a written guideline
(data/triad/README.md); WikiEval's preferred members come from its construction (data/external/README.md).
"""
import json
import math
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from ragmetrics_lite.triad import TRIAD_TASKS, LexicalJudge
from ragmetrics_lite.triad.embedding import EmbeddingJudge

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import judge_figures  # noqa: E402

SCORES = json.loads((ROOT / "data" / "triad" / "judge_scores.json").read_text(encoding="utf-8"))
JUDGES = {"lexical": LexicalJudge, "embedding": EmbeddingJudge}
PARTS = ("heldout", "heldout_a", "heldout_b")
BELOW = {(b["task"], b["judge"], b["part"]): f"accuracy {b['accuracy']:.3f} < majority {b['majority_share']:.3f} + 0.10"
         for b in SCORES["below_bar"]}
CASES = [(task, judge, part) for task in TRIAD_TASKS for judge in JUDGES for part in PARTS]


@lru_cache(maxsize=None)
def _judged(task: str, judge: str):
    return judge_figures.judged(task, "heldout", JUDGES[judge]())


def _figures(task: str, judge: str, part: str) -> dict:
    """A part's figures; the halves are the first and second half of the held-out items (judge_figures.items)."""
    frame = _judged(task, judge)
    half = len(frame) // 2
    frame = {"heldout": frame, "heldout_a": frame.iloc[:half], "heldout_b": frame.iloc[half:]}[part]
    return judge_figures.figures(frame["label"], frame["judge"])


def test_scored_after_both_freezes():
    assert SCORES["lexical_freeze_commit"].startswith("88ab3c8")     # "Freeze LexicalJudge round 3"
    assert SCORES["embedding_freeze_commit"].startswith("019f753")   # "freeze: EmbeddingJudge ..."
    freeze = json.loads((ROOT / "data" / "triad" / "embedding_freeze.json").read_text(encoding="utf-8"))
    assert SCORES["default_judge"] == freeze["default_judge"]


@pytest.mark.parametrize("task, judge, part", CASES)
def test_heldout_figures_equal_the_recorded_ones(task, judge, part):
    found, recorded = _figures(task, judge, part), SCORES["heldout"][task][judge][part]
    print(f"\n{task} {judge} {part}: accuracy {found['accuracy']:.3f} [{found['accuracy_low']:.3f}, "
          f"{found['accuracy_high']:.3f}], kappa {found['kappa']:.3f} "
          f"[{found['kappa_low']:.3f}, {found['kappa_high']:.3f}]")
    assert found["n"] == recorded["n"]
    for key in ("accuracy", "majority_share", "kappa", "accuracy_low", "accuracy_high", "kappa_low", "kappa_high"):
        assert found[key] >= recorded[key] - 1e-9                 # never below the record
        assert found[key] == pytest.approx(recorded[key], abs=1e-12)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_the_default_judge_clears_the_majority_by_ten_points(task, part):
    found = _figures(task, SCORES["default_judge"][task], part)
    assert found["accuracy"] >= found["majority_share"] + 0.10 - 1e-9


def test_the_figures_below_the_bar_are_the_recorded_ones_and_none_is_a_default():
    below = {(task, judge, part) for task, judge, part in CASES
             if _figures(task, judge, part)["accuracy"] < _figures(task, judge, part)["majority_share"] + 0.10 - 1e-9}
    assert below == set(BELOW)
    assert all(SCORES["default_judge"][task] != judge for task, judge, _ in below)


def test_the_halves_are_the_two_labellers_halves():
    for task in TRIAD_TASKS:
        whole = judge_figures.items(task, "heldout")
        first, second = judge_figures.items(task, "heldout_a"), judge_figures.items(task, "heldout_b")
        assert first["id"].tolist() + second["id"].tolist() == whole["id"].tolist()
        assert len(first) == len(second) == SCORES["heldout"][task]["lexical"]["heldout_a"]["n"]
        assert first["label"].mean() == second["label"].mean() == 0.5


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_wikieval_agreement_follows_from_the_recorded_scores(task):
    preferred = _pairs()[judge_figures.WIKIEVAL_FILES[task][0]]["preferred"].tolist()
    for judge in JUDGES:
        scores = SCORES["wikieval_scores"][task][judge]
        first = [math.nan if s is None else s for s in scores["first"]]
        second = [math.nan if s is None else s for s in scores["second"]]
        found = judge_figures.pairwise_agreement(first, second, preferred)
        print(f"\nWikiEval {task} {judge}: {found['agreement']:.2f} [{found['agreement_low']:.2f}, "
              f"{found['agreement_high']:.2f}], ties {found['ties']}, no score {found['no_score']}")
        assert found == SCORES["wikieval"][task][judge]


def _pairs():
    return judge_figures.wikieval_pairs()


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_a_seeded_sample_of_wikieval_scores_is_recomputed(task, judge):
    frame = _pairs()[judge_figures.WIKIEVAL_FILES[task][0]]
    if judge == "lexical" and task == "faithfulness":   # its time grows fast with the context: the shortest two
        rows = frame["context"].str.len().sort_values(kind="stable").index[:2].tolist()
    else:
        rows = random.Random(28).sample(range(len(frame)), 2)
    recorded = SCORES["wikieval_scores"][task][judge]
    for row in rows:
        for side in ("first", "second"):
            text = frame.at[row, side]
            score = judge_figures.item_score(task, frame.at[row, "question"], frame.at[row, "context"], text,
                                             JUDGES[judge]())
            expected = recorded[side][row]
            assert (math.isnan(score) and expected is None) or score == pytest.approx(expected, abs=1e-12)


def test_the_defaults_kept_their_order_on_the_heldout_items():
    """What embedding.py's docstring says: each metric's default judge agreed more often on round 3 too."""
    for task, default in SCORES["default_judge"].items():
        other = "lexical" if default == "embedding" else "embedding"
        figures = SCORES["heldout"][task]
        assert figures[default]["heldout"]["accuracy"] > figures[other]["heldout"]["accuracy"]
