"""search.py: bm25s with the stated parameters, runs in evaluate's order, run files that read back.

BM25 scores are checked against Lucene's formula written out here (bm25s is the
engine, not a reference we replicate, so this pins the parameters the docstring
states); the order against evaluate's own; the scipy-free import in a fresh
interpreter.
"""
from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.course import search

from .helpers import run_with_blocked

PASSAGES = {
    "p1": "报销 流程 线上 审批",
    "p2": "报销 流程 纸质 总监 签字 报销",
    "p3": "退款 政策 七 天",
    "p4": "退款 政策 七 天",  # an exact duplicate of p3: tied scores
    "p10": "会议 平板 投屏",
    "p2b": "报销",
}


def split(text: str) -> list[str]:
    return text.split()


def lucene_bm25(passages: dict, query: list[str], k1=1.5, b=0.75) -> dict:
    """BM25 as Lucene computes it, one passage at a time."""
    docs = {d: split(t) for d, t in passages.items()}
    avgdl = sum(map(len, docs.values())) / len(docs)
    scores = {}
    for d, tokens in docs.items():
        tf, total = Counter(tokens), 0.0
        for term in query:
            n = sum(term in set(t) for t in docs.values())
            if n == 0 or tf[term] == 0:
                continue
            idf = math.log(1 + (len(docs) - n + 0.5) / (n + 0.5))
            total += idf * tf[term] / (tf[term] + k1 * (1 - b + b * len(tokens) / avgdl))
        scores[d] = total
    return scores


@pytest.fixture(scope="module")
def index():
    return search.bm25_index(PASSAGES, analyzer=split)


@pytest.mark.parametrize("query", ["报销", "报销 流程", "退款 七 天 报销", "报销 报销", "投屏 会议 签字"])
def test_scores_are_lucene_bm25_with_the_stated_parameters(index, query):
    want = {d: s for d, s in lucene_bm25(PASSAGES, split(query)).items() if s > 0}
    got = search.search(index, query)
    assert set(got) == set(want)
    for doc, score in got.items():
        assert score == pytest.approx(want[doc], rel=1e-6)  # bm25s scores in float32
    assert search.BM25_PARAMETERS == {"k1": 1.5, "b": 0.75, "method": "lucene"}


def test_results_come_in_evaluates_order_without_zero_scores(index):
    got = search.search(index, "退款 政策 报销")
    assert all(score > 0 for score in got.values()) and "p10" not in got
    assert list(got) == [d for d, _ in search.trec_ranking(got)]
    assert got["p3"] == got["p4"] and list(got).index("p4") < list(got).index("p3")  # tie: larger id first
    # evaluate ranks the run the same way: with the last passage alone relevant, its rank is the length
    last = list(got)[-1]
    mrr = rml.evaluate({"q": {last: 1}}, {"q": got}, ["mrr"])["mrr"].iloc[0]
    assert mrr == pytest.approx(1 / len(got))


def test_ties_and_ids_compare_as_strings():
    assert search.trec_ranking({"d10": 1.0, "d9": 1.0, "d2": 2.0}) == [("d2", 2.0), ("d9", 1.0), ("d10", 1.0)]


def test_depth_cuts_after_ordering_and_unknown_or_empty_queries_find_nothing(index):
    full = search.search(index, "报销 退款")
    assert search.search(index, "报销 退款", depth=2) == dict(list(full.items())[:2])
    assert search.search(index, "不存在的词") == {}
    assert search.search(index, "") == {}
    with pytest.raises(ValueError, match="depth"):
        search.search(index, "报销", depth=0)
    with pytest.raises(TypeError, match="query must be a str"):
        search.search(index, ["报销"])


def test_weights_multiply_scores(index):
    plain = search.search(index, "报销")
    demoted = search.search(index, "报销", weights={"p2": 0.5})
    assert demoted["p2"] == pytest.approx(plain["p2"] * 0.5) and demoted["p1"] == plain["p1"]


def test_the_default_analyzer_is_tokenize():
    index = search.bm25_index({"a": "退款政策", "b": "报销流程"})
    assert index.analyzer is rml.tokenize
    assert list(search.search(index, "报销流程怎么走")) == ["b"]


def test_a_written_run_reads_back_the_same_scores_and_scores_the_same(index, tmp_path):
    run = search.search_all(index, {"q2": "报销 流程", "q1": "退款 政策 报销"})
    path = tmp_path / "bm25.run"
    search.write_run(run, path, "bm25")
    frame = rml.read_run(path)
    assert frame.query_id.tolist()[0] == "q1"  # queries sorted by id
    back = {q: dict(zip(g.doc_id, g.score)) for q, g in frame.groupby("query_id")}
    assert back == run  # exact: repr round-trips every float
    qrels = {"q1": {"p3": 2, "p4": 1}, "q2": {"p2": 1}}
    metrics = ["mrr", "ndcg@3", "map"]
    assert rml.evaluate(qrels, frame, metrics).equals(rml.evaluate(qrels, run, metrics))
    ranks = [int(line.split()[3]) for line in path.read_text().splitlines() if line.startswith("q1 ")]
    assert ranks == list(range(1, len(run["q1"]) + 1))


def test_bad_inputs_get_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="tag must be one word"):
        search.write_run({"q": {"d": 1.0}}, tmp_path / "r", "two words")
    with pytest.raises(ValueError, match="ids without spaces"):
        search.write_run({"q": {"a doc": 1.0}}, tmp_path / "r", "t")
    with pytest.raises(ValueError, match="non-empty"):
        search.bm25_index({})
    bad = tmp_path / "corpus.jsonl"
    row = {"doc_id": "d1", "title": "t", "text": "x", "updated": "2026-01-01"}
    bad.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2: doc_id 'd1' appears twice"):
        search.read_corpus(bad)
    bad.write_text(json.dumps({"doc_id": "d1", "title": "t"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: expected an object"):
        search.read_corpus(bad)


def test_metrics_and_the_module_import_without_scipy_and_bm25s_is_named_when_missing():
    out = run_with_blocked("""
        import ragmetrics_lite as rml
        from ragmetrics_lite.course import search
        print(rml.evaluate({"q": {"a": 1}}, {"q": {"b": 2.0, "a": 1.0}}, ["mrr"])["mrr"].iloc[0])
        print(search.trec_ranking({"a": 1.0, "b": 1.0}))
        try:
            search.bm25_index({"a": "x"})
        except ImportError as error:
            print("bm25s" in str(error))
    """, blocked=("scipy", "bm25s", "pytrec_eval"))
    assert out.split("\n")[:3] == ["0.5", "[('b', 1.0), ('a', 1.0)]", "True"]


def test_scores_are_float64_copies_of_bm25s_float32(index):
    got = search.search(index, "报销")
    assert all(type(s) is float and np.float32(s) == s for s in got.values())


# --------------------------------------------------------------------------- the second system's fixes
def test_expand_query_appends_each_expansion_once_and_keeps_the_text():
    synonyms = {"退": ["退款", "退货"], "停": ["停车"], "开车": ["停车"]}
    assert search.expand_query("东西不想要了能退吗", synonyms) == "东西不想要了能退吗 退款 退货"
    assert search.expand_query("开车停哪里", synonyms) == "开车停哪里 停车"
    assert search.expand_query("退款政策", synonyms) == "退款政策"  # 退款 is one token, not 退


def test_expand_query_fixes_a_vocabulary_mismatch():
    index = search.bm25_index({"parking": "停车说明 地下车库", "vpn": "远程连接公司内网"})
    assert search.search(index, "开车去哪里") == {}
    assert list(search.search(index, search.expand_query("开车去哪里", {"开车": ["停车"]}))) == ["parking"]


def test_recency_weights_halve_every_half_life_from_the_newest_date():
    weights = search.recency_weights({"a": "2026-03-01", "b": "2025-03-01", "c": "2024-03-01", "d": "2026-03-01"})
    assert weights == pytest.approx({"a": 1.0, "b": 0.5, "c": 0.25, "d": 1.0})
    assert search.recency_weights({"a": "2026-03-01", "b": "2026-01-30"}, half_life_days=30)["b"] == 0.5
    with pytest.raises(ValueError, match="half_life_days"):
        search.recency_weights({"a": "2026-03-01"}, half_life_days=0)
