"""LexicalJudge's rules one by one: content words, numbers, negation cues and their exceptions."""
import re
import time

import pytest

from ragmetrics_lite.triad import LexicalJudge, Verdict
from ragmetrics_lite.triad.lexical import (
    DEFAULT_RULES,
    NEGATION_CUES,
    RULES,
    NEGATION_EXCEPTIONS,
    default_stopwords,
    negation_cues,
    numbers_in,
    quantities_in,
    stopwords_sha256,
)

JUDGE = LexicalJudge()
CONTEXT = ["本产品支持 7 天退款，退款需提供订单号。", "Refunds are processed within 3 business days."]


def support(statement, contexts=CONTEXT, judge=JUDGE):
    [verdict] = judge.support([statement], contexts)
    assert isinstance(verdict, Verdict) and isinstance(verdict.verdict, bool)
    return verdict


def test_supported_statement_and_readable_reason():
    verdict = support("产品支持 7 天退款。")
    assert verdict.verdict and re.fullmatch(r"\d/\d content words in the context", verdict.reason)


def test_a_number_missing_from_the_context_makes_it_unsupported():
    verdict = support("产品支持 30 天退款。")
    assert not verdict.verdict and "number 30 天 not in the closest context sentence" in verdict.reason
    assert not support("Refunds are processed within 5 business days.").verdict
    assert support("Refunds are processed within 3 business days.").verdict


def test_numbers_are_read_from_the_raw_text():
    # jieba cuts "30 天无理由" into 30 / 天无 / 理由; the regex still sees 30.
    assert numbers_in("30 天无理由退款") == ["30"]
    assert numbers_in("1,000 元, 3.50 米, 95%, 007") == ["1000", "3.5", "95%", "7"]
    # digits glued to a letter name a thing (product B5, version v2.1), they are not quantities
    assert numbers_in("B5 耳机, v2.1, mp3") == []
    assert LexicalJudge().content_words("B5 耳机") == ["b5", "耳机"]
    assert numbers_in("no digits here") == []


@pytest.mark.parametrize("statement", ["本产品不支持 7 天退款。", "本产品没有 7 天退款。",
                                       "Refunds are not processed within 3 business days.",
                                       "Refunds are never processed within 3 business days.",
                                       "Refunds aren't processed within 3 business days."])
def test_a_negation_the_context_lacks_makes_it_unsupported(statement):
    verdict = support(statement)
    assert not verdict.verdict and "the statement negates" in verdict.reason


def test_a_negation_the_statement_lacks_makes_it_unsupported():
    verdict = support("本产品支持退款。", ["本产品不支持退款。"])
    assert not verdict.verdict and "the closest context clause negates (不)" in verdict.reason
    assert support("本产品不支持退款。", ["本产品不支持退款。"]).verdict


def test_negation_is_compared_with_the_closest_sentence_only():
    contexts = ["本产品支持 7 天退款。", "运费不退还。"]
    assert support("本产品支持 7 天退款。", contexts).verdict
    assert support("运费不退还。", contexts).verdict


@pytest.mark.parametrize("text", ["无论如何都可以退款", "不仅可以退款", "非常快", "未来会支持", "是否支持退款",
                                  "Refunds are not only fast but free."])
def test_negation_exceptions_are_not_cues(text):
    assert negation_cues(text) == []


def test_negation_cues_found_in_order():
    assert negation_cues("无法退款，也没有补偿，不能换货") == ["无", "没有", "不"]
    assert negation_cues("No refund, nothing back; we cannot and won’t") == ["no", "nothing", "cannot", "n't"]
    assert negation_cues("Knot notable nobody") == ["nobody"]  # whole words only


def test_every_exception_contains_a_cue():
    for exception in NEGATION_EXCEPTIONS:
        assert any(cue in exception for cue in NEGATION_CUES), exception


def test_content_words_drop_stop_words_numbers_and_cues():
    # units (days, 小时) are compared by the quantity rule, not as words
    assert JUDGE.content_words("The refunds are not processed in 3 days") == ["refunds", "processed"]
    assert JUDGE.content_words("什么是退款？") == ["退款"]


def test_english_words_match_by_a_crude_stem():
    assert support("A refund was delivered.", ["Refunds are delivered."]).verdict
    assert support("The parcel was delivered.", ["Delivery of the parcel."]).verdict
    assert not support("A refund was delivered quickly.", ["Exchanges are delivered."]).verdict


def test_support_threshold_decides():
    contexts = ["退款需提供订单号。"]
    statement = "退款需提供订单号和发票。"  # 退款, 需, 提供, 订单号 found, 发票 missing: 4/5
    assert JUDGE.content_words(statement) == ["退款", "需", "提供", "订单号", "发票"]
    assert not support(statement, contexts, LexicalJudge(support_threshold=0.81)).verdict
    assert support(statement, contexts, LexicalJudge(support_threshold=0.8)).verdict


def test_relevance_and_address_thresholds_decide():
    question, text = "公司的退款政策是什么？", ["退款需在 7 天内申请。"]
    assert LexicalJudge(relevance_threshold=0.2).context_relevance(question, text)[0].verdict
    assert not LexicalJudge(relevance_threshold=0.9).context_relevance(question, text)[0].verdict
    assert LexicalJudge(address_threshold=0.2).answer_relevance(question, text)[0].verdict
    assert not LexicalJudge(address_threshold=0.9).answer_relevance(question, text)[0].verdict
    reason = LexicalJudge(relevance_threshold=0.2).context_relevance(question, text)[0].reason
    # 退款 is 1 of the question's 3 words (公司, 退款, 政策) and 1 of the text's 3 (退款, 需, 申请; 天内 is a unit)
    assert reason == "overlap F1 0.33 >= 0.2: 33% of the question's words in the text, 33% of its words in the question"


def test_no_content_words():
    assert support("是的。") == Verdict(False, "no content words to check")
    assert JUDGE.answer_relevance("是什么？", ["退款。"]) == [Verdict(False, "the question has no content words")]


def test_empty_inputs_give_empty_lists():
    assert JUDGE.support([], CONTEXT) == []
    assert JUDGE.context_relevance("q", []) == [] and JUDGE.answer_relevance("q", []) == []


@pytest.mark.parametrize("kwargs", [{"support_threshold": 1.5}, {"relevance_threshold": -0.1},
                                    {"address_threshold": "0.5"}, {"support_threshold": True}])
def test_thresholds_are_checked(kwargs):
    with pytest.raises(ValueError, match="must be a number in"):
        LexicalJudge(**kwargs)


def test_thresholds_are_keyword_only():
    with pytest.raises(TypeError):
        LexicalJudge(0.5)


def test_custom_stopwords():
    judge = LexicalJudge(stopwords=["退款"])
    assert "退款" not in judge.content_words("退款政策")
    with pytest.raises(TypeError, match="not a single string"):
        LexicalJudge(stopwords="的")


def test_stopword_file_is_generic_and_has_no_negation_cues():
    words = default_stopwords()
    assert {"的", "了", "是", "the", "of", "is"} <= words
    assert not words & set(NEGATION_CUES)
    assert re.fullmatch(r"[0-9a-f]{64}", stopwords_sha256())


def test_deterministic():
    assert [JUDGE.support(["产品支持 30 天退款。"], CONTEXT) for _ in range(3)].count(
        JUDGE.support(["产品支持 30 天退款。"], CONTEXT)) == 3


def test_fast_once_the_dictionary_is_loaded():
    JUDGE.support(["预热。"], ["预热。"])
    start = time.perf_counter()
    for _ in range(100):
        JUDGE.support(["产品支持 30 天无理由退款。"], CONTEXT)
        JUDGE.context_relevance("公司的退款政策是什么？", CONTEXT)
    assert time.perf_counter() - start < 2.0


def test_partial_support_fails_on_the_words_the_context_lacks():
    contexts = ["会员可在签收后 7 天内申请退货。"]
    assert support("会员可在签收后 7 天内申请退货。", contexts).verdict
    verdict = support("会员可在签收后 7 天内申请退货，运费由商家承担。", contexts)
    assert not verdict.verdict and "(missing: 运费, 商家, 承担)" in verdict.reason


def test_a_number_must_be_in_the_sentence_that_says_the_rest():
    contexts = ["新规定：发票须在消费后 90 天内提交。旧规定的 60 天期限取消。"]
    assert support("发票须在消费后 90 天内提交。", contexts).verdict
    verdict = support("发票须在消费后 60 天内提交。", contexts)
    assert not verdict.verdict and "number 60 天 not in the closest context sentence" in verdict.reason


def test_abbreviations_do_not_cut_the_sentence_for_the_number_check():
    assert support("Parcels ordered before 2 p.m. on weekdays leave the same day.",
                   ["Parcels ordered before 2 p.m. on weekdays leave the same day."]).verdict


def test_double_negation_cancels():
    contexts = ["所有访客都必须登记。"]
    assert support("没有哪位访客可以不登记。", contexts).verdict  # 没有 ... 不: two cues, positive
    assert not support("访客不必登记。", contexts).verdict


def test_negation_is_compared_clause_by_clause():
    contexts = ["满 200 元免运费，不满 200 元收 10 元运费。"]
    assert support("满 200 元免运费。", contexts).verdict
    assert support("不满 200 元收 10 元运费。", contexts).verdict


@pytest.mark.parametrize("text, expected", [
    ("W2 手表充满电需要 90 分钟。", [("90", "分钟")]),
    ("年假最多能攒十天，三十天内，两次，一百零五元", [("10", "天"), ("30", "天"), ("2", "次"), ("105", "元")]),
    ("报销一律使用电子发票，统一管理。", []),  # numerals before no measure word are not numbers
    ("需要一个订单号，十分方便，百分之三十", []),  # a lone 一 is "a"; 十分 is "very"
    ("Up to eighteen yuan, twenty-four hours, 3 to 5 working days.",
     [("18", "yuan"), ("24", "hours"), ("3", ""), ("5", "working day")]),
    ("3 到 5 个工作日，1 至 2 天", [("3", ""), ("5", "工作日"), ("1", ""), ("2", "天")]),  # a range's first number
    ("No one pays; the new one is free.", []),  # "one" counts only before a unit
    ("一周内，一个半小时，半天，a week, half an hour, 80 yuan a day", [
        ("1", "周"), ("1.5", "小时"), ("0.5", "天"), ("1", "week"), ("0.5", "hour"), ("80", "yuan")]),
])
def test_quantities_are_value_and_unit_with_number_words(text, expected):
    assert [(q.value, q.unit) for q in quantities_in(text)] == expected


@pytest.mark.parametrize("text, dimension, base", [
    ("48 小时", "time", 172800), ("两天", "time", 172800), ("two weeks", "time", 1209600), ("14 days", "time", 1209600),
    ("90 分钟", "time", 5400), ("an hour and a half", "time", 5400), ("5,200 mAh", "charge", 5200),
    ("5.2 Ah", "charge", 5200), ("1.5 kg", "mass", 1500), ("1500 克", "mass", 1500), ("9 折", "share", 90),
    ("90%", "share", 90), ("1.2 万元", "money", 12000), ("3 个工作日", "workday", 3), ("六个月", "month", 6),
    ("半年", "month", 6), ("2025 年", "date", None), ("9 a.m.", "clock", None), ("3 个半月", "month", 3.5),
    ("12:30 前", "clock", None),
])
def test_units_are_converted_to_a_base_unit(text, dimension, base):
    [q] = quantities_in(text)
    assert q.dimension == dimension and (q.base == base if base is not None else q.base is None)


def test_converted_units_support_a_statement_and_working_days_are_not_days():
    converting = LexicalJudge(rules=RULES)  # "units" is off by default (DEFAULT_RULES)
    assert support("报销款两天内到账。", ["报销款将在 48 小时内到账。"], converting).verdict
    assert support("The battery holds 5.2 Ah.", ["The battery holds 5,200 mAh."], converting).verdict
    assert support("会员打九折。", ["会员享 90% 的价格。"], LexicalJudge(support_threshold=0.0, rules=RULES)).verdict
    assert not support("退款 3 天内到账。", ["退款 3 个工作日内到账。"], converting).verdict
    verdict = support("报销款两天内到账。", ["报销款将在 48 小时内到账。"])
    assert not verdict.verdict and "number 2 天 not in the closest context sentence" in verdict.reason


def test_the_unit_must_agree_unless_one_side_has_none():
    contexts = ["W2 手表充满电需要 90 分钟。"]
    assert support("W2 手表充满电需要 90 分钟。", contexts).verdict
    verdict = support("W2 手表充满电需要 90 小时。", contexts)
    assert not verdict.verdict and "number 90 小时 not in the closest context sentence" in verdict.reason
    assert support("Standard delivery takes 3 to 5 working days.", ["Standard delivery takes 3 to 5 working days."]).verdict
    assert not support("Standard delivery takes 3 to 5 calendar days.",
                       ["Standard delivery takes 3 to 5 working days."]).verdict
    anything = LexicalJudge(support_threshold=0.0)  # the quantity rule alone
    assert support("订单满 99 元包邮。", ["订单满 99，包邮。"], anything).verdict  # no unit in the context
    assert not support("订单满 99 元包邮。", ["订单满 99 件，包邮。"], anything).verdict


def test_numbers_written_in_words_are_compared_as_numbers():
    assert support("年假最多可累计十天。", ["年假最多可累计 10 天。"]).verdict
    assert not support("年假最多可累计三十天。", ["年假最多可累计 10 天。"]).verdict
    assert not support("A taxi is reimbursed up to eighteen yuan.", ["A taxi is reimbursed up to 80 yuan."]).verdict


def test_relevance_is_an_f1_of_the_overlap_both_ways():
    judge = LexicalJudge()
    assert judge.overlap("怎么申请退款？", "申请退款。") == (1.0, 1.0, 1.0)
    in_text, in_question, f1 = judge.overlap("怎么申请退款？", "在订单页点击申请退款，填写原因后提交即可。")
    assert in_text == 1.0 and in_question < 0.5 and f1 == pytest.approx(2 * in_question / (1 + in_question))
    assert judge.overlap("怎么申请退款？", "公司成立于 2008 年。") == (0.0, 0.0, 0.0)
    assert judge.overlap("是什么？", "退款。") == (0.0, 0.0, 0.0)  # no content words in the question


# ---------------------------------------------------------------- round 3: the guideline's rules
from ragmetrics_lite.triad.answer_types import (  # noqa: E402
    ANSWER_EVIDENCE,
    QUESTION_TYPES,
    answer_type_found,
    cues_in,
    expected_answer_types,
    superseded,
)


@pytest.mark.parametrize("question, types", [
    ("报销多久能到账？", ["duration"]), ("When does the sale end?", ["time"]), ("这款耳机多少钱？", ["amount"]),
    ("How many colours are there?", ["number"]), ("能用微信付款吗？", ["yes_no"]), ("Can I pay by card?", ["yes_no"]),
    ("怎么修改密码？", ["step"]), ("Where do I collect my badge?", ["place"]), ("为什么订单被取消了？", ["reason"]),
    ("How heavy is the scale?", ["weight"]), ("蓝牙能连多远？", ["distance"]), ("食堂几点开门？", ["clock"]),
    ("保修政策是怎样的？", ["open"]), ("年假有几天，怎么申请？", ["duration", "step"]), ("I lost my card.", []),
])
def test_the_question_says_what_kind_of_answer_it_wants(question, types):
    assert expected_answer_types(question) == types


def test_every_answer_type_has_evidence_words_or_quantities():
    assert set(QUESTION_TYPES) == set(ANSWER_EVIDENCE)
    assert answer_type_found("duration", "大约两周。") and answer_type_found("duration", "It ships the same day.")
    assert not answer_type_found("duration", "该规定于 2024 年修订。")  # a year is a date, not a duration
    assert answer_type_found("amount", "运费 12 元。") and not answer_type_found("amount", "充满电要 2 小时。")
    assert answer_type_found("weight", "净重 1.2 kg。") and not answer_type_found("weight", "容量 450 毫升。")
    assert answer_type_found("yes_no", "不支持。") and answer_type_found("yes_no", "No, it is not.")
    assert answer_type_found("clock", "9 a.m. to 5 p.m.") and not answer_type_found("clock", "About 40 minutes.")


@pytest.mark.parametrize("question, text, task, rule", [
    ("蓝牙耳机能防水吗？", "这个要看情况，我也说不准。", "answer", "evasion"),
    ("Does the lamp have a timer?", "Many customers ask whether the lamp has a timer.", "answer", "echo"),
    ("发票怎么开？", "很多人想知道发票怎么开。", "context", "echo"),
    ("What is the current parking fee?", "The parking fee has been changed twice.", "answer", "history"),
    ("现在的押金是多少？", "旧版规定（已废止）：押金为 100 元。", "context", "superseded"),
    ("What is the deposit now?", "Until March 2025, the deposit was 100 yuan.", "context", "superseded"),
    ("押金多少钱？", "本页不涉及押金的规定。", "context", "not covered"),
    ("押金多少钱？", "押金的规定很清楚。", "answer", "answer type"),
])
def test_each_rule_names_itself_in_the_reason(question, text, task, rule):
    problems = LexicalJudge().rule_problems(question, text, task)
    assert any(p.startswith(rule + ":") for p in problems), problems
    method = JUDGE.context_relevance if task == "context" else JUDGE.answer_relevance
    [verdict] = method(question, [text])
    assert not verdict.verdict and rule + ":" in verdict.reason
    # switched off, the rule says nothing
    name = rule.replace(" ", "_")
    assert not any(p.startswith(rule + ":") for p in LexicalJudge(rules=[r for r in RULES if r != name])
                   .rule_problems(question, text, task))


@pytest.mark.parametrize("question, text", [
    ("现在的押金是多少？", "自 2025 年 3 月起，押金调整为 200 元，旧版的 100 元标准不再执行。"),  # says what holds now
    ("What was the deposit before 2025?", "Until March 2025, the deposit was 100 yuan."),  # asks about the past
    ("押金多少钱？", "押金为 200 元，抱歉给您带来不便。"),                                # a value despite the apology
    ("How long does delivery take?", "It depends on the city, usually 2 days."),            # a hedge with content
])
def test_rules_leave_real_answers_alone(question, text):
    assert LexicalJudge().rule_problems(question, text, "context") == []
    assert LexicalJudge().rule_problems(question, text, "answer") == []


def test_superseded_needs_no_statement_of_what_holds_now():
    assert superseded("旧版规定：押金 100 元。") == ["旧版"]
    assert superseded("自 2025 年起押金为 200 元；旧版规定的 100 元已废止。") == []
    assert superseded("Your card is not charged until the item ships.") == []  # until + an event, not a date


def test_cues_match_english_at_word_boundaries():
    assert cues_in("The old scheme has been retired.", ("retired", "red")) == ["retired"]
    assert cues_in("我不知道", ("不知道",)) == ["不知道"]


def test_a_quantity_of_the_asked_kind_counts_without_shared_words():
    [verdict] = JUDGE.answer_relevance("W2 手表充满电要多久？", ["大约一个半小时。"])
    assert verdict.verdict and "gives the quantity asked for" in verdict.reason
    [verdict] = JUDGE.answer_relevance("W2 手表充满电要多久？", ["我们公司成立于 2012 年。"])
    assert not verdict.verdict


def test_rules_are_checked():
    with pytest.raises(ValueError, match="unknown rule"):
        LexicalJudge(rules=["units", "synonyms"])
    with pytest.raises(TypeError, match="not a single string"):
        LexicalJudge(rules="units")
    assert set(DEFAULT_RULES) < set(RULES) and "units" not in DEFAULT_RULES
    assert "rules=" in repr(LexicalJudge(rules=RULES)) and "rules=" not in repr(LexicalJudge())


def test_a_55k_character_context_is_judged_in_linear_time():
    """Each clause's closest context clauses were found again for every context clause (cubic): this
    context of 5,000 sentences (55,000 characters) did not finish in 14 minutes; now about 1 s."""
    import ragmetrics_lite as rml

    context = "产品支持 7 天退款。" * 5_000
    start = time.perf_counter()
    assert rml.faithfulness("产品支持 7 天退款。" * 10, [context]) == 1.0
    assert time.perf_counter() - start < 10.0  # generous: the aim is under 2 s on an idle machine
