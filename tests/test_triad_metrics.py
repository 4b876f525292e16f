"""The triad metrics' arithmetic, tested with a scripted judge, independently of LexicalJudge."""
import math
import random
import warnings

import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning
from ragmetrics_lite.triad import (
    Judge,
    Verdict,
    answer_relevancy,
    answer_relevancy_verdicts,
    context_precision,
    context_precision_verdicts,
    context_relevancy,
    context_relevancy_verdicts,
    faithfulness,
    faithfulness_verdicts,
)
from tests.helpers import run_with_blocked


class ScriptedJudge(Judge):
    """Returns the scripted verdicts in order, one list per call, and records the calls."""

    name = "scripted"

    def __init__(self, *scripts):
        self.scripts = [list(s) for s in scripts]
        self.calls = []

    def _next(self, method, first, second):
        self.calls.append((method, first, second))
        return [Verdict(bool(v), f"scripted {v}") for v in self.scripts.pop(0)]

    def support(self, statements, contexts):
        return self._next("support", statements, contexts)

    def context_relevance(self, question, texts):
        return self._next("context_relevance", question, texts)

    def answer_relevance(self, question, statements):
        return self._next("answer_relevance", question, statements)


ANSWER = "第一句。第二句！Third one. Fourth?"


def test_faithfulness_is_the_share_of_supported_statements():
    judge = ScriptedJudge([1, 0, 1, 1])
    assert faithfulness(ANSWER, ["ctx a", "ctx b"], judge) == 0.75
    assert judge.calls == [("support", ["第一句。", "第二句！", "Third one.", "Fourth?"], ["ctx a", "ctx b"])]


def test_answer_relevancy_is_the_share_of_statements_that_address_the_question():
    judge = ScriptedJudge([0, 0, 1, 0])
    assert answer_relevancy("q?", ANSWER, judge) == 0.25
    assert judge.calls[0][:2] == ("answer_relevance", "q?")


def test_context_relevancy_counts_sentences_across_chunks_in_one_call():
    judge = ScriptedJudge([1, 0, 0, 0, 1])
    contexts = ["A1. A2.", "B1。B2。B3。"]
    frame = context_relevancy_verdicts("q?", contexts, judge)
    assert list(frame.columns) == ["chunk", "statement", "verdict", "reason"]
    assert frame["chunk"].tolist() == [1, 1, 2, 2, 2]
    assert frame["statement"].tolist() == ["A1.", "A2.", "B1。", "B2。", "B3。"]
    assert context_relevancy("q?", contexts, ScriptedJudge([1, 0, 0, 0, 1])) == pytest.approx(0.4)
    assert len(judge.calls) == 1


def test_verdict_frames_columns_and_dtypes():
    f = faithfulness_verdicts("a. b.", ["c"], ScriptedJudge([1, 0]))
    a = answer_relevancy_verdicts("q", "a. b.", ScriptedJudge([1, 0]))
    p = context_precision_verdicts("q", ["x", "y", "z"], ScriptedJudge([0, 1, 1]))
    assert list(f.columns) == list(a.columns) == ["statement", "verdict", "reason"]
    assert list(p.columns) == ["chunk", "statement", "verdict", "reason"]
    assert p["chunk"].tolist() == [1, 2, 3] and p["statement"].tolist() == ["x", "y", "z"]
    for frame in (f, a, p):
        assert frame["verdict"].dtype == bool
        assert frame["reason"].str.startswith("scripted").all()


def _ragas_context_precision(verdicts):
    """ragas 0.4.3 _context_precision.py: sum(precision@k * v_k) / (sum(v_k) + 1e-10)."""
    numerator = sum((sum(verdicts[: k + 1]) / (k + 1)) * verdicts[k] for k in range(len(verdicts)))
    return numerator / (sum(verdicts) + 1e-10)


def test_context_precision_equals_ragas_formula_on_random_verdicts():
    rng = random.Random(10)
    for trial in range(500):
        n = rng.randint(1, 12)
        share = rng.choice([0.0, 0.1, 0.5, 0.9, 1.0])
        verdicts = [int(rng.random() < share) for _ in range(n)]
        chunks = [f"chunk {i}" for i in range(n)]
        got = context_precision("q", chunks, ScriptedJudge(verdicts))
        assert got == pytest.approx(_ragas_context_precision(verdicts), abs=1e-9), verdicts
        if not any(verdicts):
            assert got == 0.0


def test_context_precision_examples():
    assert context_precision("q", ["a", "b", "c"], ScriptedJudge([1, 1, 0])) == 1.0
    assert context_precision("q", ["a", "b", "c"], ScriptedJudge([0, 0, 1])) == pytest.approx(1 / 3)
    assert context_precision("q", ["a", "b"], ScriptedJudge([0, 0])) == 0.0


def test_scores_stay_in_unit_interval():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 6)
        verdicts = [rng.randint(0, 1) for _ in range(n)]
        answer = " ".join(f"s{i}." for i in range(n))
        for score in (faithfulness(answer, ["c"], ScriptedJudge(verdicts)),
                      answer_relevancy("q", answer, ScriptedJudge(verdicts)),
                      context_relevancy("q", [answer], ScriptedJudge(verdicts)),
                      context_precision("q", [f"c{i}" for i in range(n)], ScriptedJudge(verdicts))):
            assert 0.0 <= score <= 1.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: faithfulness("", ["c"]), "the answer has no statements"),
        (lambda: faithfulness("  。 ", ["c"]), "the answer has no statements"),
        (lambda: faithfulness("a.", []), "contexts is empty"),
        (lambda: faithfulness("a.", ["", "  "]), "contexts is empty"),
        (lambda: answer_relevancy("q", " "), "the answer has no statements"),
        (lambda: answer_relevancy(" ", "a."), "the question is empty"),
        (lambda: context_relevancy("q", []), "the contexts hold no sentences"),
        (lambda: context_relevancy("q", ["  "]), "the contexts hold no sentences"),
        (lambda: context_relevancy("", ["a."]), "the question is empty"),
        (lambda: context_precision("q", []), "contexts is empty"),
        (lambda: context_precision("", ["a"]), "the question is empty"),
    ],
)
def test_nothing_to_judge_is_nan_with_a_warning(call, message):
    with pytest.warns(RagMetricsWarning, match=message):
        assert math.isnan(call())


def test_nothing_to_judge_never_calls_the_judge():
    judge = ScriptedJudge()
    with pytest.warns(RagMetricsWarning):
        frame = faithfulness_verdicts("", ["c"], judge)
    assert judge.calls == [] and frame.empty and list(frame.columns) == ["statement", "verdict", "reason"]


@pytest.mark.parametrize("function", [faithfulness, context_relevancy, context_precision,
                                      faithfulness_verdicts, context_relevancy_verdicts,
                                      context_precision_verdicts])
def test_contexts_must_be_a_list_of_str(function):
    with pytest.raises(TypeError, match="contexts must be a list of strings.*the string"):
        function("text", "a bare chunk")
    with pytest.raises(TypeError, match="contexts must be a list of strings.*None"):
        function("text", None)
    with pytest.raises(TypeError, match=r"contexts\[1\] must be a str, got int"):
        function("text", ["ok", 3])
    with pytest.raises(TypeError, match="contexts must be a list of strings, got set"):
        function("text", {"a"})


@pytest.mark.parametrize("call, name", [
    (lambda: faithfulness(None, ["c"]), "answer"),
    (lambda: answer_relevancy("q", 5), "answer"),
    (lambda: answer_relevancy(None, "a"), "question"),
    (lambda: context_relevancy(["q"], ["c"]), "question"),
    (lambda: context_precision(1.0, ["c"]), "question"),
])
def test_text_arguments_must_be_str(call, name):
    with pytest.raises(TypeError, match=f"{name} must be a str"):
        call()


@pytest.mark.parametrize("call", [
    lambda j: faithfulness("a. b.", ["c"], j),
    lambda j: answer_relevancy("q", "a. b.", j),
    lambda j: context_relevancy("q", ["a. b."], j),
    lambda j: context_precision("q", ["a", "b"], j),
])
def test_wrong_number_of_verdicts_is_a_value_error_naming_the_judge(call):
    for script in ([1], [1, 0, 1], []):
        with pytest.raises(ValueError, match=r"judge 'scripted' returned \d verdicts.*one per item"):
            call(ScriptedJudge(script))


def test_malformed_verdicts_are_refused():
    class Bad(ScriptedJudge):
        def support(self, statements, contexts):
            return ["yes" for _ in statements]

    with pytest.raises(TypeError, match="judge 'scripted': verdict 0 from support"):
        faithfulness("a.", ["c"], Bad())
    with pytest.raises(TypeError, match="judge must be a Judge"):
        faithfulness("a.", ["c"], judge="lexical")


def test_judge_interface_methods_are_abstract():
    with pytest.raises(NotImplementedError, match="support"):
        Judge().support(["a"], ["b"])


def test_default_judge_is_lexical_and_deterministic():
    args = ("产品支持 7 天退款。支持 30 天无理由退款。", ["产品支持 7 天退款，需提供订单号。"])
    first = faithfulness_verdicts(*args)
    for _ in range(3):
        pd.testing.assert_frame_equal(faithfulness_verdicts(*args), first)
    assert faithfulness(*args) == faithfulness(*args, judge=rml.LexicalJudge())


def test_top_level_reexports():
    for name in rml.triad.__all__:
        assert getattr(rml, name) is getattr(rml.triad, name) and name in rml.__all__


def test_works_with_reference_libraries_blocked():
    out = run_with_blocked(
        """
        import warnings
        import ragmetrics_lite as rml
        print(rml.triad.faithfulness("产品支持 7 天退款。", ["产品支持 7 天退款。"]))
        print(rml.triad.context_precision("退款政策？", ["公司历史。", "退款政策：7 天。"]))
        """
    )
    assert out.split() == ["1.0", "0.5"]


def test_the_shipped_scripted_judge_replays_and_refuses_a_count_mismatch():
    from ragmetrics_lite.triad import ScriptedJudge

    judge = ScriptedJudge([1, 0, True])
    assert [v.verdict for v in judge.support(["a", "b", "c"], ["ctx"])] == [True, False, True]
    assert [v.verdict for v in judge.answer_relevance("q", ["a", "b", "c"])] == [True, False, True]
    assert faithfulness("一。二。三。", ["ctx"], judge=judge) == 2 / 3
    with pytest.raises(ValueError, match="holds 3 verdicts but was asked about 2 texts"):
        context_relevancy("q", ["一。二。"], judge=judge)


# ------------------------------------------------------------------ the stand-in judge and bad judges
def test_scripted_judge_maps_yes_no_and_one_zero_and_refuses_the_rest():
    """ScriptedJudge stored bool(v): "no", "idk" and NaN all counted as yes (context precision 1.0)."""
    assert context_precision("q", ["c"], judge=rml.ScriptedJudge(["no"])) == 0.0
    assert context_precision("q", ["c", "d"], judge=rml.ScriptedJudge([" No", "YES"])) == 0.5
    assert rml.ScriptedJudge([1, 0, True, False]).verdicts == [True, False, True, False]
    for bad, phrase in ((["idk"], "penalize_ambiguous_claims"), ([math.nan], "nan"), ([2], "is 2"),
                        (["maybe"], "'maybe'"), ([None], "None")):
        with pytest.raises(ValueError, match=phrase):
            rml.ScriptedJudge(bad)
    with pytest.raises(TypeError, match="list of True/False"):
        rml.ScriptedJudge("yes")


def test_a_judge_returning_none_is_named_with_its_method():
    class ReturnsNone(Judge):
        name = "returns-none"

        def support(self, statements, contexts):
            return None

    with pytest.raises(TypeError, match=r"judge 'returns-none' \(ReturnsNone\) returned NoneType from support\(\)"):
        faithfulness("第一句。", ["第一句。"], judge=ReturnsNone())
