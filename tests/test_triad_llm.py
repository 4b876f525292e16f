"""LLMJudge driven by scripted ``complete`` functions, its reply parser on hostile replies, and the
repository conftest that keeps the LLM variables out of tests and notebooks. The HTTP client is
tested against a local server in ``test_triad_endpoint.py``.

Nothing here reaches a network: an autouse fixture makes any socket connection fail.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import ragmetrics_lite.triad.llm as llm
from ragmetrics_lite.triad.judges import Judge, Verdict
from ragmetrics_lite.triad.llm import LLMJudge, LLMReplyError

from .helpers import load_script, refuse_network, run_with_blocked

ROOT = Path(__file__).resolve().parents[1]
VARIABLES = ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY")


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    refuse_network(monkeypatch)


# ------------------------------------------------------------------------ scripted models
def verdicts_json(*words: str, reasons: list[str] | None = None) -> str:
    reasons = reasons or [f"reason {i}" for i in range(1, len(words) + 1)]
    return json.dumps({"verdicts": [{"verdict": w, "reason": r} for w, r in zip(words, reasons)]},
                      ensure_ascii=False)


class Scripted:
    """A ``complete`` that records every prompt and returns its canned replies in turn."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.prompts: list[str] = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        return self.replies.pop(0)


def prompt_items(prompt: str) -> list[str]:
    """The numbered items ``1. "..."`` of a prompt, decoded from their JSON quoting."""
    return [json.loads(m.group(1)) for m in re.finditer(r'(?m)^\d+\. (".*")$', prompt)]


class KeywordModel:
    """A model that reads the items back out of the prompt: "yes" for each item holding a keyword."""

    def __init__(self, *keywords: str):
        self.keywords = keywords
        self.prompts: list[str] = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        words = ["yes" if any(k in item for k in self.keywords) else "no" for item in prompt_items(prompt)]
        return verdicts_json(*words)


QUESTION_ZH = "怎么申请退款？"
QUESTION_EN = "How do I ask for a refund?"
CONTEXTS_ZH = ["产品支持 7 天退款。", "公司成立于 2010 年。"]
STATEMENTS_ZH = ["产品支持 7 天退款。", "产品支持 30 天无理由退款。"]
STATEMENTS_EN = ["Refunds are possible within 7 days.", "The company was founded in 2010."]

CALLS = {  # method name -> (arguments with Chinese items, the items judged)
    "support": ((STATEMENTS_ZH, CONTEXTS_ZH), STATEMENTS_ZH),
    "context_relevance": ((QUESTION_ZH, CONTEXTS_ZH), CONTEXTS_ZH),
    "answer_relevance": ((QUESTION_ZH, STATEMENTS_ZH), STATEMENTS_ZH),
}


# ------------------------------------------------------------------------- the three methods
def test_llm_judge_is_a_judge():
    judge = LLMJudge(Scripted())
    assert isinstance(judge, Judge) and isinstance(judge.name, str) and judge.name


@pytest.mark.parametrize("method", sorted(CALLS))
def test_one_call_one_verdict_per_item_in_order(method):
    args, items = CALLS[method]
    model = Scripted(verdicts_json("no", "yes", reasons=["第一条的理由", "second reason"]))
    got = getattr(LLMJudge(model), method)(*args)
    assert got == [Verdict(False, "第一条的理由"), Verdict(True, "second reason")]
    assert all(type(v) is Verdict and type(v.verdict) is bool for v in got)
    assert len(model.prompts) == 1
    assert prompt_items(model.prompts[0]) == items  # numbered in order, decodable


@pytest.mark.parametrize("method", sorted(CALLS))
def test_empty_list_makes_no_call(method):
    def must_not_be_called(prompt):
        raise AssertionError("complete() was called for an empty list")

    args, _ = CALLS[method]
    empty_args = ([], args[1]) if method == "support" else (args[0], [])
    assert getattr(LLMJudge(must_not_be_called), method)(*empty_args) == []


def test_many_items_still_one_call():
    statements = [f"Statement number {i}." for i in range(25)]
    model = KeywordModel("1")
    verdicts = LLMJudge(model).answer_relevance(QUESTION_EN, statements)
    assert len(model.prompts) == 1 and len(verdicts) == 25
    assert [v.verdict for v in verdicts] == ["1" in s for s in statements]
    assert "Statements (25):" in model.prompts[0] and "exactly 25: one object per" in model.prompts[0]


def test_support_prompt_holds_every_context_numbered_and_json_quoted():
    model = Scripted(verdicts_json("yes", "no"))
    LLMJudge(model).support(STATEMENTS_ZH, CONTEXTS_ZH)
    prompt = model.prompts[0]
    for i, context in enumerate(CONTEXTS_ZH, start=1):
        assert f"[{i}] {json.dumps(context, ensure_ascii=False)}" in prompt
    assert "共 2 段" in prompt and "共 2 条" in prompt and "恰好 2 项" in prompt


def test_support_without_contexts_still_asks_and_says_so():
    model = Scripted(verdicts_json("no"))
    assert LLMJudge(model, language="en").support(["Refunds take 7 days."], []) == [Verdict(False, "reason 1")]
    assert "(no context given)" in model.prompts[0]


@pytest.mark.parametrize("method", ["context_relevance", "answer_relevance"])
def test_question_appears_json_quoted(method):
    model = Scripted(verdicts_json("yes"))
    question = 'What does "30 天" mean?\nAnd 7 天?'
    getattr(LLMJudge(model), method)(question, ["x"])
    assert f"问题：{json.dumps(question, ensure_ascii=False)}" in model.prompts[0]


# ---------------------------------------------------------------------------- the prompts
TEMPLATES = {
    ("support", "zh"): llm.SUPPORT_PROMPT_ZH,
    ("support", "en"): llm.SUPPORT_PROMPT_EN,
    ("context_relevance", "zh"): llm.CONTEXT_RELEVANCE_PROMPT_ZH,
    ("context_relevance", "en"): llm.CONTEXT_RELEVANCE_PROMPT_EN,
    ("answer_relevance", "zh"): llm.ANSWER_RELEVANCE_PROMPT_ZH,
    ("answer_relevance", "en"): llm.ANSWER_RELEVANCE_PROMPT_EN,
}


def first_line(text: str) -> str:
    return text.splitlines()[0]


def prompt_of(judge_language: str, method: str, args: tuple) -> str:
    model = Scripted(verdicts_json(*["yes"] * len(args[0 if method == "support" else 1])))
    getattr(LLMJudge(model, language=judge_language), method)(*args)
    return model.prompts[0]


@pytest.mark.parametrize("method", sorted(CALLS))
@pytest.mark.parametrize("language, args_language, expected", [
    ("auto", "zh", "zh"), ("auto", "en", "en"), ("zh", "en", "zh"), ("en", "zh", "en")])
def test_prompt_language(method, language, args_language, expected):
    english = {"support": (STATEMENTS_EN, ["Refunds are possible within 7 days of purchase."]),
               "context_relevance": (QUESTION_EN, STATEMENTS_EN),
               "answer_relevance": (QUESTION_EN, STATEMENTS_EN)}
    args = CALLS[method][0] if args_language == "zh" else english[method]
    prompt = prompt_of(language, method, args)
    template = TEMPLATES[method, expected]
    assert prompt.startswith(first_line(template))
    other = TEMPLATES[method, "en" if expected == "zh" else "zh"]
    assert first_line(other) not in prompt


@pytest.mark.parametrize("method, args", [
    ("support", (STATEMENTS_EN, ["退款期限为 7 天。"])),          # CJK only in the context
    ("context_relevance", (QUESTION_ZH, ["Refunds take 7 days."])),  # only in the question
    ("answer_relevance", (QUESTION_EN, ["Refunds take 7 days.", "退款需要七天。"])),  # in one item
])
def test_auto_picks_chinese_when_any_input_has_cjk(method, args):
    assert prompt_of("auto", method, args).startswith(first_line(TEMPLATES[method, "zh"]))


def test_cjk_punctuation_or_kana_alone_is_not_chinese():
    prompt = prompt_of("auto", "answer_relevance", (QUESTION_EN, ["Refunds take 7 days。", "カタカナ"]))
    assert prompt.startswith(first_line(llm.ANSWER_RELEVANCE_PROMPT_EN))


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_template_asks_for_the_verdict_json_and_fills_every_placeholder(key):
    template = TEMPLATES[key]
    assert '{"verdicts": [{"verdict": "yes", "reason": ' in template
    assert '"yes"' in template and '"no"' in template
    method, language = key
    args = CALLS[method][0]
    prompt = prompt_of(language, method, args)
    assert "$" not in prompt  # every placeholder filled
    expected_placeholders = {"items", "count"} | ({"context", "context_count"} if method == "support"
                                                  else {"question"})
    assert set(re.findall(r"\$(\w+)", template)) == expected_placeholders


def test_chinese_prompts_say_the_definitions_and_keep_keys_english():
    assert "直接推出" in llm.SUPPORT_PROMPT_ZH
    assert "follows directly" in llm.SUPPORT_PROMPT_EN
    for language in ("zh", "en"):
        for method in CALLS:
            template = TEMPLATES[method, language]
            assert '"verdict"' in template and '"reason"' in template
    assert "键名保持英文" in llm.SUPPORT_PROMPT_ZH


def test_items_are_embedded_unescaped_and_literally():
    tricky = ['他说："7 天内可以退款。"', "第一行\n第二行", "costs $count or ${items} {0} %s"]
    model = Scripted(verdicts_json("yes", "yes", "yes"))
    LLMJudge(model).answer_relevance(QUESTION_ZH, tricky)
    prompt = model.prompts[0]
    assert "\\u" not in prompt                      # no \uXXXX escapes: Chinese stays Chinese
    assert "7 天内可以退款" in prompt and "第二行" in prompt
    for i, item in enumerate(tricky, start=1):
        assert f"{i}. {json.dumps(item, ensure_ascii=False)}" in prompt
    assert prompt_items(prompt) == tricky            # no placeholder inside an item was substituted


# --------------------------------------------------------------------------- parsing replies
@pytest.mark.parametrize("reply", [
    '```json\n{"verdicts": [{"verdict": "yes", "reason": "ok"}, {"verdict": "no", "reason": "no"}]}\n```',
    '```\n{"verdicts": [{"verdict": "yes", "reason": "ok"}, {"verdict": "no", "reason": "no"}]}\n```',
    '\n\n  ```JSON\n{"verdicts": [{"verdict": "yes", "reason": "ok"}, {"verdict": "no", "reason": "no"}]}```  \n',
    '  {"verdicts": [{"verdict": " YES ", "reason": " ok "}, {"verdict": "No", "reason": "no"}]}\n',
    '{"verdicts": [{"verdict": "yes", "reason": "ok", "statement": "extra keys are fine"},'
    ' {"verdict": "no", "reason": "no"}]}',
])
def test_accepted_replies(reply):
    got = LLMJudge(Scripted(reply)).support(STATEMENTS_ZH, CONTEXTS_ZH)
    assert got == [Verdict(True, "ok"), Verdict(False, "no")]


MALFORMED = [
    ("not JSON", "The first statement is supported, the second is not.", "is not JSON"),
    ("prose before the JSON", 'Here you are: {"verdicts": [{"verdict": "yes", "reason": "a"},'
                              ' {"verdict": "no", "reason": "b"}]}', "is not JSON"),
    ("cut off", '{"verdicts": [{"verdict": "yes", "reason": "a"}, {"verdict": "no", "rea', "is not JSON"),
    ("too few", verdicts_json("yes"), "expected 2 verdicts (one per item), got 1"),
    ("too many", verdicts_json("yes", "no", "yes"), "expected 2 verdicts (one per item), got 3"),
    ("maybe", verdicts_json("yes", "maybe"), "verdict 2 is 'maybe', expected \"yes\" or \"no\""),
    ("idk", verdicts_json("idk", "no"), "verdict 1 is 'idk'"),
    ("a number", '{"verdicts": [{"verdict": 1, "reason": "a"}, {"verdict": 0, "reason": "b"}]}',
     "verdict 1 is 1, expected"),
    ("missing verdicts", '{"statements": [{"verdict": "yes", "reason": "a"}]}', 'the key "verdicts"'),
    ("a bare list", '[{"verdict": "yes", "reason": "a"}, {"verdict": "no", "reason": "b"}]',
     'the key "verdicts"'),
    ("verdicts not a list", '{"verdicts": "yes, no"}', '"verdicts" must be a list, got str'),
    ("missing verdict", '{"verdicts": [{"reason": "a"}, {"verdict": "no", "reason": "b"}]}',
     'verdict 1 is not an object with the keys "verdict" and "reason"'),
    ("missing reason", '{"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "b"}]}',
     'verdict 1 is not an object with the keys "verdict" and "reason"'),
    ("reason not str", '{"verdicts": [{"verdict": "yes", "reason": "a"}, {"verdict": "no", "reason": null}]}',
     "the reason of verdict 2 is NoneType"),
    ("empty", "", "is not JSON"),
]


@pytest.mark.parametrize("label, reply, problem", MALFORMED, ids=[m[0] for m in MALFORMED])
@pytest.mark.parametrize("method", sorted(CALLS))
def test_malformed_reply_raises_quoting_it(method, label, reply, problem):
    args, _ = CALLS[method]
    with pytest.raises(LLMReplyError) as caught:
        getattr(LLMJudge(Scripted(reply)), method)(*args)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert message.startswith(f"LLMJudge.{method}: ")
    assert problem in message and problem in caught.value.problem
    assert repr(reply) in message           # the whole reply is quoted (they are all short)
    assert caught.value.reply == reply


def test_reply_error_pickles_with_its_fields():
    import pickle

    error = LLMReplyError("LLMJudge.support", "the reply is not JSON", "不是 JSON")
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.where, again.problem, again.reply) == \
        (LLMReplyError, str(error), "LLMJudge.support", "the reply is not JSON", "不是 JSON")


def test_long_reply_is_quoted_truncated():
    reply = "我不确定。" * 200
    with pytest.raises(LLMReplyError) as caught:
        LLMJudge(Scripted(reply)).support(STATEMENTS_ZH, CONTEXTS_ZH)
    message = str(caught.value)
    assert "我不确定。我不确定。" in message and "(1000 characters in all)" in message
    assert len(message) < 500 and caught.value.reply == reply


@pytest.mark.parametrize("reply, type_name", [
    (None, "NoneType"), ({"verdicts": []}, "dict"), (b'{"verdicts": []}', "bytes"), (["yes"], "list")])
@pytest.mark.parametrize("method", sorted(CALLS))
def test_non_str_reply_is_a_type_error_naming_the_type(method, reply, type_name):
    args, _ = CALLS[method]
    with pytest.raises(TypeError, match=f"complete\\(\\) must return a str, got {type_name}"):
        getattr(LLMJudge(lambda prompt: reply), method)(*args)


# ------------------------------------------------------------------ hostile replies (issue 27)
def refused(reply: str) -> LLMReplyError:
    with pytest.raises(LLMReplyError) as caught:
        LLMJudge(lambda prompt: reply).support(["a."], ["a."])
    return caught.value


@pytest.mark.parametrize("reply", ["```json\n" + "\n" * 2000 + "{", "```" + " " * 20_000 + "x",
                                   "```" + "\n" * 50_000 + "```x"])
def test_a_fence_that_never_closes_is_read_in_linear_time(reply):
    """r"^```[A-Za-z]*\\s*(.*?)\\s*```$" backtracked cubically: 2,000 newlines 7.5-22 s, 20,000 spaces
    over 14 minutes (a model cut off at its token limit in a newline loop writes exactly this)."""
    import time

    start = time.perf_counter()
    assert "the reply is not JSON" in str(refused(reply))
    assert time.perf_counter() - start < 1.0  # milliseconds


def test_nesting_huge_numbers_and_huge_replies_are_reply_errors():
    """A reply nested 100,000 levels raised RecursionError, a 5,000-digit integer a bare ValueError."""
    assert "nested too deeply" in refused("[" * 100_000 + "]" * 100_000).problem
    assert "4300 digits" in refused('{"verdicts": [' + "1" * 5_000 + "]}").problem
    too_long = refused(" " * llm.MAX_REPLY_CHARACTERS + verdicts_json("yes"))
    assert f"over the limit of {llm.MAX_REPLY_CHARACTERS:,}" in too_long.problem
    assert len(str(too_long)) < 600  # the quote is a bounded prefix


def test_a_quoted_reply_never_shows_a_credential():
    reply = 'I cannot. {"Authorization": "Bearer sk-proj-AbCdEf0123456789xyz", "api_key": "hunter2hunter2"}'
    message = str(refused(reply))
    for secret in ("sk-proj-AbCdEf0123456789xyz", "hunter2hunter2", "AbCdEf"):
        assert secret not in message
    assert "I cannot." in message and "***" in message


# ------------------------------------------------------------------------- bad construction/input
@pytest.mark.parametrize("complete", [None, "gpt-4o", 42])
def test_complete_must_be_callable(complete):
    with pytest.raises(TypeError, match="complete must be a callable"):
        LLMJudge(complete)


@pytest.mark.parametrize("language", ["chinese", "ZH", None, ""])
def test_language_must_be_auto_zh_or_en(language):
    with pytest.raises(ValueError, match="language must be one of"):
        LLMJudge(Scripted(), language=language)


@pytest.mark.parametrize("call, fragment", [
    (lambda j: j.support("产品支持 7 天退款。", CONTEXTS_ZH), "statements must be a list of str, got str"),
    (lambda j: j.support(STATEMENTS_ZH, "产品支持 7 天退款。"), "contexts must be a list of str, got str"),
    (lambda j: j.support(STATEMENTS_ZH, None), "contexts must be a list of str, got NoneType"),
    (lambda j: j.support(["ok", 7], CONTEXTS_ZH), "statements[1] must be a str, got int"),
    (lambda j: j.context_relevance(None, CONTEXTS_ZH), "question must be a str, got NoneType"),
    (lambda j: j.context_relevance(QUESTION_ZH, [None]), "texts[0] must be a str, got NoneType"),
    (lambda j: j.answer_relevance(QUESTION_ZH, "一句话。"), "statements must be a list of str, got str"),
])
def test_bad_inputs_are_type_errors_before_any_call(call, fragment):
    model = Scripted()
    with pytest.raises(TypeError, match=re.escape(fragment)):
        call(LLMJudge(model))
    assert model.prompts == []


# ------------------------------------------------------------------------ with the metrics
def test_the_triad_package_exports_the_llm_names():
    import ragmetrics_lite.triad as triad

    for name in ("LLMJudge", "LLMReplyError", "openai_compatible_complete", "llm_judge_from_environment"):
        assert getattr(triad, name) is getattr(llm, name) and name in triad.__all__


def test_the_judge_and_its_client_need_no_requests():
    out = run_with_blocked("""
        import sys
        import ragmetrics_lite as rml
        from ragmetrics_lite.triad.llm import LLMJudge
        reply = '{"verdicts": [{"verdict": "yes", "reason": "r"}]}'
        print(rml.triad.faithfulness("Refunds take 7 days.", ["Refunds take 7 days."],
                                     judge=LLMJudge(lambda prompt: reply)))
        print(rml.triad.llm.openai_compatible_complete("http://h/v1", "m", cache=False).__name__)
        print("requests" in sys.modules)
    """, blocked=("requests",))
    assert out.split() == ["1.0", "openai_compatible_complete[m]", "False"]


def test_faithfulness_with_a_scripted_llm_judge():
    import ragmetrics_lite.triad as triad

    model = Scripted(verdicts_json("yes", "no", reasons=["上下文写明 7 天", "上下文没有 30 天"]))
    judge = LLMJudge(model)
    answer = "产品支持 7 天退款。产品支持 30 天无理由退款。"
    assert triad.faithfulness(answer, ["产品支持 7 天退款。"], judge=judge) == 0.5
    assert prompt_items(model.prompts[0]) == ["产品支持 7 天退款。", "产品支持 30 天无理由退款。"]
    frame = triad.faithfulness_verdicts(answer, ["产品支持 7 天退款。"],
                                        judge=LLMJudge(KeywordModel("7 天")))
    assert list(frame["statement"]) == ["产品支持 7 天退款。", "产品支持 30 天无理由退款。"]
    assert [bool(v) for v in frame["verdict"]] == [True, False]
    assert list(frame["reason"]) == ["reason 1", "reason 2"]


def test_relevancy_metrics_with_a_keyword_llm_judge():
    import ragmetrics_lite.triad as triad

    contexts = ["退款需要在 7 天内申请。公司成立于 2010 年。", "公司正在招聘工程师。", "退款会在 3 个工作日内到账。"]
    judge = LLMJudge(KeywordModel("退款"))
    assert triad.context_relevancy(QUESTION_ZH, contexts, judge=judge) == pytest.approx(2 / 4)
    # chunks 1 and 3 relevant: AP = (1/1 + 2/3) / 2
    assert triad.context_precision(QUESTION_ZH, contexts, judge=judge) == pytest.approx((1 + 2 / 3) / 2)
    answer = "公司成立于 2010 年。退款请在订单页面点击申请退款。"
    assert triad.answer_relevancy(QUESTION_ZH, answer, judge=judge) == pytest.approx(0.5)
    frame = triad.context_relevancy_verdicts(QUESTION_ZH, contexts, judge=judge)
    assert list(frame["chunk"]) == [1, 1, 2, 3]


def test_a_malformed_reply_reaches_the_metric_caller():
    import ragmetrics_lite.triad as triad

    with pytest.raises(LLMReplyError, match="'maybe'"):
        triad.faithfulness("产品支持 7 天退款。", ["产品支持 7 天退款。"],
                           judge=LLMJudge(Scripted(verdicts_json("maybe"))))


# ------------------------------------------------------------------------------ conftest.py
def test_conftest_names_the_variables_the_module_reads():
    assert load_script(ROOT / "conftest.py", "root_conftest").LLM_ENVIRONMENT_VARIABLES \
        == llm.LLM_ENVIRONMENT_VARIABLES == VARIABLES
    assert not any(name in os.environ for name in VARIABLES)  # this very run went through it


_PROBE_TEST = '''
import os

def test_the_llm_variables_are_gone():
    assert [name for name in os.environ if name.startswith("RAGMETRICS_LLM_")] == []
'''


def _probe_notebook() -> str:
    code = 'import os\nprint(sorted(name for name in os.environ if name.startswith("RAGMETRICS_LLM_")))'
    cell = {"cell_type": "code", "execution_count": 1, "id": "probe", "metadata": {}, "source": code,
            "outputs": [{"name": "stdout", "output_type": "stream", "text": "[]\n"}]}
    return json.dumps({"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3",
                       "language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5})


def test_pytest_and_nbval_kernels_run_without_the_variables_even_when_they_are_set():
    """A child pytest, with the three variables set, runs a test and a notebook that see none."""
    probe = Path(tempfile.mkdtemp(prefix=".conftest_probe_", dir=ROOT))  # under the root conftest
    try:
        (probe / "test_probe.py").write_text(_PROBE_TEST)
        (probe / "probe.ipynb").write_text(_probe_notebook())
        env = dict(os.environ, RAGMETRICS_LLM_BASE_URL="http://localhost:9/v1",
                   RAGMETRICS_LLM_MODEL="probe-model", RAGMETRICS_LLM_API_KEY="probe-key")
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", str(probe)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "2 passed" in done.stdout, done.stdout
    finally:
        shutil.rmtree(probe, ignore_errors=True)
