"""Claims notebook 13 makes in prose, checked on their own.

* TruLens splits an answer with NLTK's Punkt, which ends sentences only at ``. ? !``: a Chinese
  answer punctuated with 。 stays one "statement", where ``split_statements`` finds each sentence.
* DeepEval's "idk" (a claim the context does not mention) costs nothing unless
  ``penalize_ambiguous_claims``; a direct contradiction ("no") does, so the notes' answer gets 1/2
  from DeepEval as from ragas, and nothing to judge is 1 there, NaN here.
* On the notes' refund context, of the notebook's blind-spot probes the round-3 lexical judge
  misses the paraphrase and, with its default rules, the same period in another unit (168 小时 for
  7 天: the rule ``units`` is off); the antonym 禁止 fails because the word is not in the context (not
  because its meaning is read), and a number written in words (三十天) is read as 30 天.
* jieba glues the unit 天 to the 无 of 无理由 (token 天无, no token 天), which is why numbers and
  negation cues are read on the raw text, where both are found.
* The rounds story on the recorded figures (``judge_freeze.json``): round 2's held-out faithfulness
  cleared issue 10's bar by one item, round 3's (on twice as many fresh items) clears its accuracy
  part and misses its kappa part by several items.
"""
from __future__ import annotations

import importlib
import json
import math
import warnings
from pathlib import Path

import pytest

import ragmetrics_lite as rml

FREEZE = Path(__file__).resolve().parents[1] / "data" / "triad" / "judge_freeze.json"
CONTEXTS = ["本产品自签收之日起 7 天内可以申请退款。", "申请退款需要提供订单号，审核通过后 3 个工作日内原路退回。"]
UNFAITHFUL = "本产品支持 30 天无理由退款。退款需要提供订单号。"
exercise = importlib.import_module("ragmetrics_lite.course.exercises.q13_idk_verdicts")


def test_punkt_leaves_a_chinese_answer_in_one_piece_but_split_statements_does_not():
    punkt = pytest.importorskip("nltk.tokenize.punkt")
    assert punkt.PunktSentenceTokenizer().tokenize(UNFAITHFUL) == [UNFAITHFUL]
    assert rml.triad.split_statements(UNFAITHFUL) == ["本产品支持 30 天无理由退款。", "退款需要提供订单号。"]


@pytest.mark.parametrize("verdicts, penalize, expected", [
    (["no", "yes"], False, 0.5),      # the notes' answer: 30 days contradicts 7 days
    (["yes", "idk"], False, 1.0),     # an unmentioned claim costs nothing by default
    (["yes", "idk"], True, 0.5),      # ... and counts against the answer when penalized
    (["idk", "idk"], True, 0.0),
])
def test_deepeval_style_scores(verdicts, penalize, expected):
    assert exercise.reference_solution(verdicts, penalize) == expected
    assert exercise._reference(verdicts, penalize) == expected


def test_nothing_to_judge_is_nan_here_and_one_in_deepevals_convention():
    assert math.isnan(exercise._reference([], False)) and math.isnan(exercise.reference_solution([], True))
    assert exercise._empty_is_one([], False) == 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert math.isnan(rml.triad.faithfulness("", CONTEXTS))
    assert [w.category for w in caught] == [rml.RagMetricsWarning]


def test_the_notes_answer_is_half_faithful_and_its_30_day_claim_fails_on_number_and_negation():
    table = rml.triad.faithfulness_verdicts(UNFAITHFUL, CONTEXTS)
    assert table.verdict.tolist() == [False, True]
    assert "number 30" in table.reason[0] and "negates (无)" in table.reason[0]


def test_jieba_hides_the_unit_and_the_negation_so_both_are_read_on_the_raw_text():
    claim = "产品支持 30 天无理由退款"   # the notebook's example
    tokens = rml.tokenize(claim)
    assert "天无" in tokens and "天" not in tokens and "无" not in tokens
    assert rml.triad.lexical.numbers_in(claim) == ["30"] and rml.triad.lexical.negation_cues(claim) == ["无"]


@pytest.mark.parametrize("statement, label, judge, why", [
    ("收到货一周之内都能退钱。", True, False, "0/"),                # paraphrase, no shared content word
    ("本产品签收后 7 天内禁止申请退款。", False, False, "missing: 禁止"),  # antonym: 禁止 is not in the context
    ("本产品签收后三十天内可以申请退款。", False, False, "number 30 天"),  # a number in words is read
])
def test_the_lexical_judge_on_the_notebooks_blind_spot_probes(statement, label, judge, why):
    (verdict,) = rml.triad.LexicalJudge().support([statement], CONTEXTS)
    assert verdict.verdict is judge and why in verdict.reason
    # the antonym is caught only for want of the word: where the context uses 禁止 elsewhere, it passes
    assert rml.triad.LexicalJudge().support(["本产品签收后 7 天内禁止申请退款。"],
                                            CONTEXTS + ["本产品禁止转售。"])[0].verdict


def test_another_unit_is_read_only_with_the_units_rule():
    statement = "本产品签收后 168 小时内可以申请退款。"   # 168 hours = 7 days: the guideline labels it supported
    (default,) = rml.triad.LexicalJudge().support([statement], CONTEXTS)
    assert "units" not in rml.triad.lexical.DEFAULT_RULES and "units" in rml.triad.lexical.RULES
    assert default.verdict is False and "number 168 小时 not in the closest context sentence" in default.reason
    (converted,) = rml.triad.LexicalJudge(rules=rml.triad.lexical.RULES).support([statement], CONTEXTS)
    assert converted.verdict is True
    # conversion keeps the value: 30 天 is still not 7 天
    assert not rml.triad.LexicalJudge(rules=rml.triad.lexical.RULES).support(["本产品签收后三十天内可以申请退款。"], CONTEXTS)[0].verdict


def _one_item_less(summary: dict) -> dict:
    """The same balanced held-out set with one more item judged wrong (kappa = 2 accuracy - 1)."""
    accuracy = summary["accuracy"] - 1 / summary["n"]
    return {**summary, "accuracy": accuracy, "kappa": 2 * accuracy - 1}


def test_round_two_cleared_the_bar_by_one_item_and_round_three_misses_its_kappa_part():
    freeze = json.loads(FREEZE.read_text(encoding="utf-8"))
    round2, round3 = freeze["round2"]["heldout"]["faithfulness"], freeze["heldout"]["faithfulness"]
    assert round2["n"] == 64 and round3["n"] == 128 and round2["majority_share"] == round3["majority_share"] == 0.5
    assert rml.triad.meets_agreement_bar(round2) and not rml.triad.meets_agreement_bar(_one_item_less(round2))
    assert not rml.triad.meets_agreement_bar(round3)
    assert round3["accuracy"] - round3["majority_share"] >= rml.triad.AGREEMENT_BAR["accuracy_over_majority"]
    assert round3["kappa"] < rml.triad.AGREEMENT_BAR["kappa"]
    more_right = [{**round3, "accuracy": round3["accuracy"] + k / 128, "kappa": round3["kappa"] + 2 * k / 128} for k in (6, 7)]
    assert [rml.triad.meets_agreement_bar(s) for s in more_right] == [False, True]   # "several items short": 7


def test_the_exercise_takes_its_expected_values_from_the_helper(monkeypatch):
    monkeypatch.setattr(exercise, "faithfulness", lambda answer, contexts, judge=None: 0.125)
    assert exercise.q13_idk_verdicts.expected(exercise.q13_idk_verdicts.edge_cases[4]) == 0.125
