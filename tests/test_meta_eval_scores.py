"""data/external/ragchecker/scores.csv, the file notebook 19 reads, against scripts/meta_eval_scores.py.

Scoring all 560 responses takes about a minute, so a seeded sample of instances is recomputed and
compared with the file (the embedding cosine for one instance, since the model's start-up costs more
than the scoring); the recipe's tokens are compared with the suite's private copy of jieba's
tokenizer (the script compares them with ``jieba.lcut`` itself when it writes the file); and the
file's recipe columns must reproduce the paper's BLEU-avg and ROUGE-L rows, the figures the notebook
asserts.
"""
import json
import random
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ragmetrics_lite.course import published
from ragmetrics_lite.text.tokenization import _tokenizer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import meta_eval_scores as script  # noqa: E402

FOLDER = ROOT / "data" / "external" / "ragchecker"
RECORDS = json.loads((FOLDER / script.SOURCE).read_text(encoding="utf-8"))
SCORES = pd.read_csv(FOLDER / script.SCORES)
LEXICAL = ["bleu_avg_recipe", "rouge_l_recipe", "bleu_suite", "rouge_l_suite", "rouge_1", "rouge_2", "meteor",
           "recipe_tokens", "suite_tokens"]
SAMPLE = random.Random(19).sample(range(280), 3)


def test_the_file_holds_both_responses_of_every_instance():
    assert len(SCORES) == 560
    assert SCORES["instance"].tolist() == [i for i in range(280) for _ in script.RESPONSES]
    assert SCORES["response"].tolist() == list(script.RESPONSES) * 280
    assert SCORES.columns.tolist()[3:] == LEXICAL[:-2] + ["embedding"] + LEXICAL[-2:]
    assert not SCORES.isna().any(axis=None)


def test_a_seeded_sample_is_recomputed():
    found = script.score_rows(RECORDS, SAMPLE, with_embedding=False).set_index(["instance", "response"])
    stored = SCORES.set_index(["instance", "response"]).loc[found.index]
    assert (found["model"] == stored["model"]).all()
    for column in LEXICAL:
        assert np.allclose(found[column], stored[column], rtol=0, atol=1e-12), column


def test_a_seeded_embedding_cosine_is_recomputed():
    # one instance: the sentence model loads once for it (about 1.5 s of CPU), these texts are not in the cache
    instance = RECORDS[2 * SAMPLE[0]]
    found = script.embedding_scores([instance[side]["response"] for side in script.RESPONSES],
                                    [instance["gt_answer"]] * len(script.RESPONSES))
    stored = SCORES.loc[SCORES["instance"] == SAMPLE[0], "embedding"].to_numpy()
    assert np.allclose(found, stored, rtol=0, atol=1e-7)


def test_the_recipe_tokens_are_jiebas_with_whitespace_kept():
    texts = [RECORDS[2 * i][side]["response"] for i in SAMPLE for side in script.RESPONSES]
    texts.append("BLEU-avg\r\nis 0.39,\tnot\u20090.5  (ROUGE-L)")
    for text in texts:
        expected = [script.visible(token) for token in _tokenizer(False).lcut(text)]
        assert script.recipe_tokens(text) == expected


def test_bleu_avg_is_bleu_without_its_brevity_penalty():
    import ragmetrics_lite as rml

    candidate, reference = ["a", "b", "c", "a", "b"], ["a", "b", "c", "d", "a", "b", "x", "y"]
    assert script.bleu_avg(candidate, reference) == pytest.approx(
        rml.bleu(candidate, [reference]) / rml.brevity_penalty(len(candidate), len(reference)), abs=1e-12)
    assert script.bleu_avg(["a"], ["a"]) == 0.0  # no 2-gram: a precision is 0


@pytest.mark.parametrize("column, paper", [("bleu_avg_recipe", "BLEU-avg (paper)"),
                                           ("rouge_l_recipe", "ROUGE-L (paper)")])
def test_the_recipe_columns_reproduce_the_paper(column, paper):
    wide = SCORES.pivot(index="instance", columns="response", values=column)
    difference = np.repeat((wide["model2"] - wide["model1"]).to_numpy(), 2)
    found = []
    for aspect in published.ASPECTS:
        labels = [record[f"{aspect}_label"] for record in RECORDS]
        found += [100 * stats.pearsonr(difference, labels)[0], 100 * stats.spearmanr(difference, labels)[0]]
    assert np.round(found, 2).tolist() == published.RAGCHECKER_TABLE2[paper]
