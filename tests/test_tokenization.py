"""tokenize: the source notes' token lists, other text, quietness, and jieba left alone."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from ragmetrics_lite._validation import as_tokens
from ragmetrics_lite.text.tokenization import CJK_IDEOGRAPH, ngrams, tokenize, word_list_entries

from .helpers import run_with_blocked

# The four example sentences of the source notes and the token lists they print.
NOTES_EXAMPLES = [
    ("埃菲尔铁塔的高度为 330 米", ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]),
    ("埃菲尔铁塔的高度是 330 米", ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]),
    (
        "埃菲尔铁塔高 330 米，是法国巴黎的标志性建筑",
        ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"],
    ),
    (
        "巴黎的埃菲尔铁塔有 330 米高，是著名的旅游景点",
        ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"],
    ),
]


@pytest.mark.parametrize("text, expected", NOTES_EXAMPLES)
def test_reproduces_the_notes_token_lists(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize("text, expected", NOTES_EXAMPLES)
def test_same_tokens_without_the_spaces_around_330(text, expected):
    assert tokenize(text.replace(" ", "")) == expected


def test_default_jieba_keeps_the_two_compounds_the_word_list_splits():
    assert tokenize(NOTES_EXAMPLES[2][0], word_list=False) == [
        "埃菲尔铁塔", "高", "330", "米", "是", "法国巴黎", "的", "标志性", "建筑",
    ]
    assert tokenize(NOTES_EXAMPLES[3][0], word_list=False) == [
        "巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游景点",
    ]
    # the BLEU pair needs no word list at all
    for text, expected in NOTES_EXAMPLES[:2]:
        assert tokenize(text, word_list=False) == expected


def test_word_list_is_word_entries_only():
    entries = word_list_entries()
    assert 0 < len(entries) <= 10
    for word, frequency in entries:
        assert isinstance(word, str) and word.strip() == word and " " not in word
        assert frequency is None or (isinstance(frequency, int) and frequency >= 0)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The Eiffel Tower is 330 metres tall.", ["The", "Eiffel", "Tower", "is", "330", "metres", "tall"]),
        ("高度为 330.5 米，约 1083 英尺", ["高度", "为", "330.5", "米", "约", "1083", "英尺"]),
        (
            "GPT-4o的准确率是95.5%，比去年高3.2个百分点！",
            ["GPT", "4o", "的", "准确率", "是", "95.5%", "比", "去年", "高", "3.2", "个", "百分点"],
        ),
        ("RAG系统用BM25和向量检索", ["RAG", "系统", "用", "BM25", "和", "向量", "检索"]),
        ("价格：¥199.00元 😀", ["价格", "199.00", "元"]),
        ("第一行\n第二行\t制表\u3000全角空格", ["第一行", "第二行", "制表", "全角", "空格"]),
        ("Hello, World!", ["Hello", "World"]),
        ("", []),
        (" \t\n", []),
        ("！？。", []),
    ],
)
def test_other_text(text, expected):
    assert tokenize(text) == expected


def test_keep_punct_keeps_punctuation_and_symbols_but_not_whitespace():
    assert tokenize("价格：¥199.00元 😀", keep_punct=True) == ["价格", "：", "¥", "199.00", "元", "😀"]
    assert tokenize("Hello, World!", keep_punct=True) == ["Hello", ",", "World", "!"]
    assert tokenize(NOTES_EXAMPLES[2][0], keep_punct=True)[4] == "，"


def test_case_is_kept():
    assert tokenize("BLEU bleu") == ["BLEU", "bleu"]


@pytest.mark.parametrize("bad", [None, 330, b"bytes", ["埃菲尔铁塔"]])
def test_text_must_be_a_string(bad):
    with pytest.raises(TypeError, match="text must be a str"):
        tokenize(bad)


def test_tokens_always_pass_the_metrics_token_check():
    text = "GPT-4o 的准确率\t是 95.5%！ C++ e-mail 😀 法国巴黎"
    for keep_punct in (False, True):
        for word_list in (False, True):
            tokens = tokenize(text, keep_punct=keep_punct, word_list=word_list)
            assert as_tokens(tokens) == tokens


def test_ngrams():
    tokens = NOTES_EXAMPLES[0][1]
    assert ngrams(tokens, 1) == [(t,) for t in tokens]
    assert ngrams(tokens, 2) == [
        ("埃菲尔铁塔", "的"), ("的", "高度"), ("高度", "为"), ("为", "330"), ("330", "米"),
    ]
    assert ngrams(tokens, 6) == [tuple(tokens)]
    assert ngrams(tokens, 7) == []
    assert ngrams([], 1) == []


@pytest.mark.parametrize(
    "tokens, n, error, message",
    [
        ("埃菲尔铁塔", 1, TypeError, "call tokenize first"),
        ({"a", "b"}, 1, TypeError, "list of tokens"),
        (["a", 1], 1, TypeError, "must be a str"),
        (["a", ""], 1, ValueError, "empty or contains whitespace"),
        (["a b"], 1, ValueError, "empty or contains whitespace"),
        (["a"], 0, ValueError, "n must be >= 1"),
        (["a"], 1.0, TypeError, "n must be an int"),
    ],
)
def test_ngrams_refuses_bad_input(tokens, n, error, message):
    with pytest.raises(error, match=message):
        ngrams(tokens, n)


def _run_quietly(code: str, tmp_path) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter whose temporary directory is ``tmp_path``."""
    env = dict(os.environ, TMPDIR=str(tmp_path), TEMP=str(tmp_path), TMP=str(tmp_path))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=120
    )


def test_quiet_no_cache_file_global_jieba_left_alone_and_word_list_false_is_plain_jieba(tmp_path):
    done = _run_quietly(
        """
        import os, tempfile, unicodedata
        import jieba, jieba.finalseg
        import ragmetrics_lite as rm
        texts = ["巴黎的埃菲尔铁塔有 330 米高，是著名的旅游景点", "GPT-4o的准确率是95.5%！", "法国巴黎 e-mail"]
        ours = [rm.tokenize(t) for t in texts]
        plain_ours = [rm.tokenize(t, word_list=False) for t in texts]
        print(ours[0], os.listdir(tempfile.gettempdir()), flush=True)
        assert not jieba.dt.initialized, "the global tokenizer was initialised"
        assert jieba.finalseg.Force_Split_Words == set()
        jieba.setLogLevel(60)  # from here on the global jieba runs; keep its start-up log out of stderr
        assert jieba.lcut("法国巴黎") == ["法国巴黎"]
        def plain(text):
            return [t for t in jieba.lcut(text)
                    if t.strip() and not all(unicodedata.category(c)[0] in "PS" for c in t)]
        for text, mine in zip(texts, plain_ours):
            assert mine == plain(text), (mine, plain(text))
        print("ok")
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
    assert done.stdout == f"{expected} []\nok\n"  # [] : nothing written to the temporary directory


def test_tokenize_works_with_the_references_blocked():
    out = run_with_blocked(
        """
        import ragmetrics_lite as rm
        print(rm.tokenize("巴黎的埃菲尔铁塔有330米高"), rm.ngrams(["a", "b", "c"], 2), len(rm.word_list_entries()))
        """
    )
    assert out == "['巴黎', '的', '埃菲尔铁塔', '有', '330', '米', '高'] [('a', 'b'), ('b', 'c')] 2\n"


def test_cjk_ideograph_is_an_ideograph_of_the_unified_extension_a_or_compatibility_blocks():
    ideographs = ["一", "龥", "\u3400", "\u4db5", "\uf900", "豈", "退"]
    others = ["\u4dc0", "䷀", "あ", "ア", "한", "，", "A", "1", "\U00020000"]
    assert all(CJK_IDEOGRAPH.fullmatch(char) for char in ideographs)
    assert not any(CJK_IDEOGRAPH.fullmatch(char) for char in others)


# ------------------------------------------------------------------ jieba's HMM in linear time
RUNS = ["的" * 300, "的的了了" * 40, "亖亗亘亙亚" * 20, "我们的产品支持七天无理由退款吗", "abc的的12.5%的的", "丶" * 7]


@pytest.mark.parametrize("word_list", [False, True])
@pytest.mark.parametrize("text", RUNS)
def test_the_linear_hmm_cuts_as_jiebas_own(text, word_list):
    """The private tokenizer's cut equals jieba's own method run on the same tokenizer (same dictionary)."""
    import jieba
    from ragmetrics_lite.text import tokenization

    tokenizer = tokenization._tokenizer(word_list)
    assert tokenizer._Tokenizer__cut_DAG(text) == list(jieba.Tokenizer._Tokenizer__cut_DAG(tokenizer, text))
    assert tokenization._hmm_words(jieba.finalseg, text) == list(jieba.finalseg.cut(text))


def test_a_long_run_of_one_ideograph_is_cut_in_linear_time():
    """jieba's HMM copies its path at every character: "的" * 40,000 took 43 s; 20,000 about 11 s."""
    import time

    tokenize("的")  # the tokenizer is built outside the timing
    start = time.perf_counter()
    assert tokenize("的" * 20_000) == ["的"] * 20_000
    assert time.perf_counter() - start < 5.0  # generous: about 0.3 s on an idle machine
