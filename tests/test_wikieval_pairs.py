"""Which member of each WikiEval pair is the better one, read from the files themselves.

The three pair files (data/external/wikieval/{ff,ar,cr}.csv) hold 50 questions twice. Their
``label`` column only says which half of the file a row is in: it is not the preferred member.
WikiEval's construction is what tells the members apart (scripts/judge_figures.py,
``wikieval_pairs``), and these tests check that reading: each ff pair shares one answer, almost
word for word, with its ar pair (the answer written from the page), and the cr context nearest the
ff context is also the shorter one (the other had sentences added).
"""
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import judge_figures  # noqa: E402

FOLDER = ROOT / "data" / "external" / "wikieval"


@pytest.fixture(scope="module")
def pairs():
    return judge_figures.wikieval_pairs()


@pytest.mark.parametrize("name", ["ff", "ar", "cr"])
def test_the_label_is_the_half_of_the_file(name):
    rows = pd.read_csv(FOLDER / f"{name}.csv")
    assert len(rows) == 100
    assert rows["label"].tolist() == [0] * 50 + [1] * 50
    assert rows["question"].iloc[:50].tolist() == rows["question"].iloc[50:].tolist()


def test_the_label_is_not_the_preferred_member():
    rows = pd.read_csv(FOLDER / "ff.csv")
    gpt4 = rows[rows["question"] == "When was GPT-4 released and what are some of its capabilities?"]
    context = gpt4["context"].iloc[0]
    assert "March 14, 2023" in context
    by_label = dict(zip(gpt4["label"], gpt4["answer"]))
    assert "March 14, 2023" in by_label[0]                   # label 0 repeats the page
    assert "2025" in by_label[1] and "2025" not in context    # label 1 gives a year the page does not


def test_each_ff_pair_shares_one_answer_with_its_ar_pair(pairs):
    ff, ar = pairs["ff"], pairs["ar"]
    assert len(ff) == len(ar) == 50
    assert (ff["match"] >= 0.97).all()        # one ff answer and one ar answer are the same text
    assert (ff["runner_up"] < 0.97).all()     # every other pairing of the four answers is not
    shared = [getattr(row, row.preferred) for row in ff.itertuples()]
    also = [getattr(row, row.preferred) for row in ar.itertuples()]
    assert all(judge_figures._same_text(a, b) == m for a, b, m in zip(shared, also, ff["match"]))


def test_the_preferred_cr_context_is_the_one_without_added_sentences(pairs):
    cr = pairs["cr"]
    assert (cr["match"] > cr["runner_up"]).all()   # nearer the page (the ff context) than the other member
    for row in cr.itertuples():
        good = getattr(row, row.preferred)
        bad = row.second if row.preferred == "first" else row.first
        assert len(good) < len(bad)                # and shorter: the other had sentences added


def test_both_labels_are_preferred_in_some_pairs(pairs):
    for frame in pairs.values():
        counts = frame["preferred"].value_counts()
        assert 15 <= counts["first"] <= 35 and 15 <= counts["second"] <= 35
