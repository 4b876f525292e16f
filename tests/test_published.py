"""ragmetrics_lite.course.published: notebook 19's readers of the published human-judged sets.

RAGChecker's records pair up by instance; WikiEval's better member, read from the construction
(the answer shared by ff.csv and ar.csv, the cr.csv context that is the page), is one per question
and sits in both halves of each file; the recorded Llama-3 ragas scores join one to one (45 of the
100 answer-relevance rows have none); the frozen judges' recorded scores land on the right rows.
"""
import json
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics_lite.course import published

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT / "data" / "external"
JUDGE_SCORES = ROOT / "data" / "triad" / "judge_scores.json"


@pytest.fixture(scope="module")
def members():
    return published.wikieval_members(EXTERNAL / "wikieval", judge_scores=JUDGE_SCORES)


def test_ragchecker_pairs_one_row_per_instance_with_both_annotators():
    pairs = published.ragchecker_pairs(EXTERNAL / "ragchecker")
    records = json.loads((EXTERNAL / "ragchecker" / "human_labeled_data.json").read_text(encoding="utf-8"))
    assert len(pairs) == 280 and pairs["domain"].nunique() == 10
    assert pairs["A overall"].tolist() == [r["overall_label"] for r in records[0::2]]
    assert pairs["B correctness"].tolist() == [r["correctness_label"] for r in records[1::2]]
    assert pairs.loc[0, "response 1 from"] == records[0]["model1"]["model_name"]


def test_ragchecker_pairs_refuses_records_out_of_order(tmp_path):
    records = json.loads((EXTERNAL / "ragchecker" / "human_labeled_data.json").read_text(encoding="utf-8"))
    (tmp_path / "human_labeled_data.json").write_text(json.dumps(records[1:] + records[:1]), encoding="utf-8")
    with pytest.raises(ValueError, match="two adjacent records"):
        published.ragchecker_pairs(tmp_path)


def test_one_better_member_per_question_in_both_halves(members):
    assert len(members) == 300
    per_question = members.groupby(["metric", "question"])["better"].sum()
    assert (per_question == 1).all() and len(per_question) == 150
    for metric, rows in members.groupby("metric"):
        assert rows["label"].tolist() == [0] * 50 + [1] * 50
        assert 15 <= rows.loc[rows["better"], "label"].sum() <= 35, metric


def test_the_better_answer_is_the_one_written_from_the_page(members):
    faithful = members[(members["metric"] == "faithfulness") & members["question"].str.startswith("When was GPT-4")]
    assert "March 14, 2023" in faithful.loc[faithful["better"], "text"].iloc[0]
    assert "2025" in faithful.loc[~faithful["better"], "text"].iloc[0]


def test_the_better_context_is_the_shorter_one(members):
    contexts = members[members["metric"] == "context relevance"]
    lengths = contexts.assign(length=contexts["text"].str.len()).pivot(index="question", columns="better",
                                                                       values="length")
    assert (lengths[True] < lengths[False]).all()


def test_the_recorded_llama_scores_join_one_to_one(members):
    missing = members.groupby("metric")["ragas_llama3"].apply(lambda s: int(s.isna().sum())).to_dict()
    assert missing == {"answer relevance": 45, "context relevance": 0, "faithfulness": 0}
    outputs = pd.read_csv(EXTERNAL / "wikieval" / "ff_ragas_output.csv")
    faithfulness = members.loc[members["metric"] == "faithfulness", "ragas_llama3"].to_numpy()
    assert (faithfulness == outputs["faithfulness_score"].to_numpy()).all()


def test_letters_ignores_what_the_copies_garble():
    assert published.letters("In the 2022–23 season") == published.letters("In the 2022\u00e2\x80?3 season")


def test_the_recorded_judge_scores_land_on_their_rows(members):
    recorded = json.loads(JUDGE_SCORES.read_text(encoding="utf-8"))["wikieval_scores"]
    questions = members.loc[members["metric"] == "faithfulness", "question"].iloc[:50].tolist()
    row = members[(members["metric"] == "answer relevance") & (members["question"] == questions[7])]
    for label, side in ((0, "first"), (1, "second")):
        expected = recorded["answer_relevancy"]["lexical"][side][7]
        assert row.loc[row["label"] == label, "lexical"].iloc[0] == pytest.approx(expected)
