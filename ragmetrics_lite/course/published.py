"""Notebook 19's published human-judged sets, read into tidy tables (files in ``data/external/``).

* :func:`ragchecker_pairs`: RAGChecker's meta-evaluation set (Ru et al. 2024): one row per instance,
  a query answered by two RAG systems and both annotators' preferences (−2: the first response is
  much better, 2: the second is) on correctness, completeness and overall. The file holds each
  instance twice, once per annotator, in adjacent records; the first is called annotator A's.
* :func:`wikieval_members`: the WikiEval pairs of the ragas paper's Table 1, as the copy of another
  study holds them (``ff``, ``ar``, ``cr``: 50 questions x 2 members), one row per member, with
  ``better``, the member WikiEval's construction made better. The files' ``label`` column does not
  say which: it is 0 in the first fifty rows and 1 in the last fifty. The answer written from the
  page appears in both ``ff`` and ``ar`` (against one written without the page, and an incomplete
  one), and the better ``cr`` context is the page itself, the ``ff`` context (against the page with
  sentences from other pages added). ``ar.csv`` and ``cr.csv`` garble some non-ASCII characters
  (``2022–23`` reads ``2022â\\x80?3``), so texts are matched on their ASCII letters (:func:`letters`).
  ``ragas_llama3`` is the score that study recorded for the row with ragas and a local
  Llama-3-8B-Instruct (NaN where the model's reply did not parse), joined by question and letters,
  since two of its output files carry no label; ``lexical`` and ``embedding`` are the suite's frozen
  judges' scores recorded once in ``data/triad/judge_scores.json`` (``scripts/score_judges.py``).

The papers' own figures are kept here as data (``RAGCHECKER_TABLE2``, ``RAGCHECKER_WITHIN_ONE``,
``WIKIEVAL_TABLE1``), for the notebook to set its results beside. Provenance and licences:
``data/external/README.md``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from .paths import data_path

__all__ = ["ASPECTS", "WIKIEVAL_FILES", "RAGCHECKER_TABLE2", "RAGCHECKER_WITHIN_ONE", "WIKIEVAL_TABLE1",
           "letters", "ragchecker_pairs", "wikieval_members"]

ASPECTS = ("correctness", "completeness", "overall")
#: RAGChecker's Table 2 (Ru et al. 2024, arXiv:2408.08067): Pearson and Spearman x 100 with people's
#: preference for correctness, completeness and overall, in that order, and two annotators' agreement.
RAGCHECKER_TABLE2 = {
    "BLEU-avg (paper)": [38.89, 35.32, 32.13, 21.85, 35.14, 29.42],
    "ROUGE-L (paper)": [31.75, 31.72, 47.88, 45.67, 43.10, 43.21],
    "BERTScore (paper)": [30.34, 27.05, 37.93, 40.05, 33.51, 35.57],
    "RAGAS answer similarity (paper)": [41.07, 43.21, 53.16, 61.35, 48.31, 57.23],
    "RAGChecker, an LLM judge (paper)": [49.66, 46.95, 60.67, 58.11, 61.93, 60.90],
    "human-human (paper)": [63.67, 59.19, 71.91, 68.36, 70.09, 68.89],
}
#: The share of instances (%) where RAGChecker's two annotators differ by at most one step, per aspect.
RAGCHECKER_WITHIN_ONE = {"correctness": 90.71, "completeness": 91.79, "overall": 90.36}
#: The ragas paper's Table 1 (Es et al. 2023, arXiv:2309.15217): pairwise agreement on WikiEval.
WIKIEVAL_TABLE1 = {
    "ragas + GPT-3.5 (paper)": {"faithfulness": 0.95, "answer relevance": 0.78, "context relevance": 0.70},
    "GPT Score (paper)": {"faithfulness": 0.72, "answer relevance": 0.52, "context relevance": 0.63},
    "GPT Ranking (paper)": {"faithfulness": 0.54, "answer relevance": 0.40, "context relevance": 0.52},
}
#: Each WikiEval file: the metric it tests, the column judged, the score column of the recorded ragas run.
WIKIEVAL_FILES = {"ff": ("faithfulness", "answer", "faithfulness_score"),
                  "ar": ("answer relevance", "answer", "answer_relevance_score"),
                  "cr": ("context relevance", "context", "context_relevance_score")}
#: The task names under which data/triad/judge_scores.json records each metric.
RECORDED_TASKS = {"faithfulness": "faithfulness", "answer relevance": "answer_relevancy",
                  "context relevance": "context_relevancy"}


def letters(text: str) -> str:
    """The ASCII letters of a text, the part every copy of a WikiEval text spells the same way.

    >>> letters("In the 2022â\\x80?3 season")
    'Intheseason'
    """
    return re.sub(r"[^A-Za-z]", "", text)


def ragchecker_pairs(folder=None) -> pd.DataFrame:
    """RAGChecker's 280 instances: domain, query, reference, both responses and their systems, and
    the labels ``A <aspect>`` and ``B <aspect>`` of the two annotators (module docstring). ``folder``:
    ``data/external/ragchecker`` by default."""
    folder = Path(folder) if folder is not None else data_path("external/ragchecker")
    records = json.loads((folder / "human_labeled_data.json").read_text(encoding="utf-8"))
    first, second = records[0::2], records[1::2]
    if len(first) != len(second) or any(a["instance_id"] != b["instance_id"] for a, b in zip(first, second)):
        raise ValueError("human_labeled_data.json must hold each instance in two adjacent records")
    table = pd.DataFrame({"domain": [r["dataset"] for r in first], "query": [r["query"] for r in first],
                          "reference": [r["gt_answer"] for r in first]})
    for side in ("1", "2"):
        table[f"response {side} from"] = [r[f"model{side}"]["model_name"] for r in first]
        table[f"response {side}"] = [r[f"model{side}"]["response"] for r in first]
    for aspect in ASPECTS:
        table[f"A {aspect}"] = [r[f"{aspect}_label"] for r in first]
        table[f"B {aspect}"] = [r[f"{aspect}_label"] for r in second]
    return table.rename_axis("instance")


def _better_keys(frames: dict[str, pd.DataFrame]) -> dict[tuple[str, str], str]:
    """The letters of the better member, by (file, question), read from WikiEval's construction."""
    better = {}
    for question, ff_rows in frames["ff"].groupby("question", sort=False):
        ar_rows = frames["ar"][frames["ar"]["question"] == question]
        shared = set(ff_rows["answer"].map(letters)) & set(ar_rows["answer"].map(letters))
        if len(shared) != 1:
            raise ValueError(f"expected one answer in both ff.csv and ar.csv for {question!r}, found {len(shared)}")
        better[("ff", question)] = better[("ar", question)] = shared.pop()
        better[("cr", question)] = letters(ff_rows["context"].iloc[0])   # the page itself
    return better


def _recorded(members: pd.DataFrame, judge_scores, ff_questions: list[str]) -> pd.DataFrame:
    """Add the frozen judges' recorded scores: per metric and judge, ``first`` (the label-0 member)
    and ``second`` (label 1), listed in the order of ff.csv's questions."""
    recorded = json.loads(Path(judge_scores).read_text(encoding="utf-8"))["wikieval_scores"]
    for judge in ("lexical", "embedding"):
        values = []
        for metric, question, label in zip(members["metric"], members["question"], members["label"]):
            found = recorded[RECORDED_TASKS[metric]][judge][("first", "second")[label]]
            values.append(found[ff_questions.index(question)])
        members[judge] = pd.array(values, dtype="Float64").astype(float)
    return members


def wikieval_members(folder=None, judge_scores="triad/judge_scores.json") -> pd.DataFrame:
    """One row per member of every WikiEval pair: ``metric``, ``question``, ``label``, ``text``,
    ``better``, ``ragas_llama3`` and, unless ``judge_scores`` is None, ``lexical`` and ``embedding``.
    ``folder``: ``data/external/wikieval`` by default; ``judge_scores``: a path in ``data/`` or in full."""
    folder = Path(folder) if folder is not None else data_path("external/wikieval")
    frames = {file: pd.read_csv(folder / f"{file}.csv") for file in WIKIEVAL_FILES}
    better = _better_keys(frames)
    tables = []
    for file, (metric, column, score) in WIKIEVAL_FILES.items():
        frame = frames[file].assign(key=frames[file][column].map(letters))
        frame["better"] = [better[(file, q)] == key for q, key in zip(frame["question"], frame["key"])]
        if not (frame.groupby("question")["better"].sum() == 1).all():
            raise ValueError(f"{file}.csv: not exactly one better member per question")
        outputs = pd.read_csv(folder / f"{file}_ragas_output.csv")
        outputs = outputs.assign(key=outputs[column].map(letters)).rename(columns={score: "ragas_llama3"})
        frame = frame.merge(outputs[["question", "key", "ragas_llama3"]], on=["question", "key"], how="left",
                            validate="one_to_one")
        tables.append(frame.assign(metric=metric, text=frame[column]))
    columns = ["metric", "question", "label", "text", "better", "ragas_llama3"]
    members = pd.concat(tables, ignore_index=True)[columns]
    if judge_scores is not None:
        questions = frames["ff"]["question"].drop_duplicates().tolist()
        members = _recorded(members, data_path(judge_scores), questions)
    return members
