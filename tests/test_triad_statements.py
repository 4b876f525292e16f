"""split_statements: Chinese and English sentence ends, numbers, versions, quotes, empty text."""
import pytest

from ragmetrics_lite.triad import split_statements


@pytest.mark.parametrize(
    "text, expected",
    [
        ("产品支持 7 天退款。退款需提供订单号！还有问题吗？", ["产品支持 7 天退款。", "退款需提供订单号！", "还有问题吗？"]),
        ("第一；第二;第三!第四?", ["第一；", "第二;", "第三!", "第四?"]),
        ("Refunds take 3.5 days. Version v2.1 fixed it.", ["Refunds take 3.5 days.", "Version v2.1 fixed it."]),
        ("See example.com for details", ["See example.com for details"]),
        ("It ends here.", ["It ends here."]),
        ("Wait... what?!", ["Wait...", "what?!"]),
        ('他说：“可以退款。”然后挂了电话。', ["他说：“可以退款。”", "然后挂了电话。"]),
        ('He said "yes." Then left.', ['He said "yes."', "Then left."]),
        ("（见附件。）下一句。", ["（见附件。）", "下一句。"]),
        ("  多余的空格。  \n\n 第二句  ", ["多余的空格。", "第二句"]),
        ("", []),
        ("   \n ", []),
        ("。。！", []),
        ("没有句号的一句话", ["没有句号的一句话"]),
    ],
)
def test_split_statements(text, expected):
    assert split_statements(text) == expected


def test_abbreviation_with_a_space_ends_a_sentence_documented_ambiguity():
    # "U.S." followed by a space looks like a sentence end: a rule cannot tell (see the module docstring).
    assert split_statements("The U.S. market grew.") == ["The U.S.", "market grew."]
    assert split_statements("Made in the U.S.") == ["Made in the U.S."]


@pytest.mark.parametrize("bad", [None, 3, ["a."], b"a."])
def test_non_str_is_a_type_error(bad):
    with pytest.raises(TypeError, match="text must be a str"):
        split_statements(bad)


def test_a_long_run_of_full_stops_is_split_in_linear_time():
    """Retrying the run from each of its dots took 34 s on "." * 16000 + "x"; once per run it is milliseconds."""
    import time

    start = time.perf_counter()
    assert split_statements("." * 16000 + "x") == ["." * 16000 + "x"]
    assert split_statements("a" + "." * 16000 + " b") == ["a" + "." * 16000, "b"]
    assert time.perf_counter() - start < 1.0  # generous: 0.01 s on an idle machine
