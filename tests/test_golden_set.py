"""The capstone golden set (data/golden_set/) is consistent: schema, counts, splits, pool, runs.

What data/golden_set/README.md promises, checked: every judged passage exists,
every query has an answer graded >= 2, at least 80 passages and 40 queries with
at least 6 of each type, dev and held-out balanced within each type, the qrels
and runs parse with the helper's readers, the baseline's top 10 is in the pool,
and the committed runs equal a fresh regeneration by scripts/golden_set_runs.py.
"""
from __future__ import annotations

import datetime
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.course import search

from .helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "data" / "golden_set"
TYPES = ("direct", "paraphrased", "keyword-mismatched", "multi-answer", "outdated-competitor")
BASELINE = "bm25_jieba"


@pytest.fixture(scope="module")
def corpus():
    return search.read_corpus(FOLDER / "corpus.jsonl")


@pytest.fixture(scope="module")
def queries():
    return search.read_queries(FOLDER / "queries.jsonl")


@pytest.fixture(scope="module")
def qrels():
    return rml.read_qrels(FOLDER / "qrels.txt")


@pytest.fixture(scope="module")
def script():
    return load_script(ROOT / "scripts" / "golden_set_runs.py")


def run_paths():
    return sorted((FOLDER / "runs").glob("*.run"))


# --------------------------------------------------------------------------- corpus and queries
def test_the_corpus_has_80_passages_with_dates_and_chunk_numbers_in_order(corpus):
    assert len(corpus) >= 80
    chunks: dict[str, list[int]] = {}
    for doc_id, passage in corpus.items():
        assert re.fullmatch(r"[a-z0-9-]+(#[1-9][0-9]*)?", doc_id), doc_id
        assert set(passage) == {"doc_id", "title", "text", "updated"}
        assert passage["title"].strip() and len(passage["text"]) >= 30, doc_id
        datetime.date.fromisoformat(passage["updated"])
        if "#" in doc_id:
            document, n = doc_id.split("#")
            chunks.setdefault(document, []).append(int(n))
    assert len(chunks) >= 5
    excerpts = []
    for document, numbers in chunks.items():
        assert document not in corpus  # a chunked document has no unchunked passage too
        if numbers[0] == 1:
            assert numbers == list(range(1, len(numbers) + 1)), document  # every chunk, in reading order
        else:  # an old version kept only in part: its chunks keep their numbers, in order
            assert numbers == sorted(set(numbers)), document
            excerpts.append(document)
    assert sorted(excerpts) == ["drive-manual-2024", "s1-manual-v1"]  # as README.md says


def test_texts_are_simplified_chinese_within_gb2312(corpus, queries):
    texts = [p["title"] + p["text"] for p in corpus.values()] + [q["text"] for q in queries.values()]
    outside = {c for text in texts for c in text if c.encode("gb2312", errors="replace") == b"?" and c != "?"}
    assert outside == set()


def test_queries_count_types_and_ids(queries):
    assert len(queries) >= 40
    types = Counter(q["type"] for q in queries.values())
    assert set(types) == set(TYPES) and min(types.values()) >= 6, types
    assert list(queries) == [f"q{i:02d}" for i in range(1, len(queries) + 1)]
    assert len({q["text"] for q in queries.values()}) == len(queries)


def test_dev_and_heldout_alternate_within_each_type(queries):
    by_type: dict[str, list[str]] = {}
    for query_id, query in queries.items():
        by_type.setdefault(query["type"], []).append(query_id)
    for kind, ids in by_type.items():
        splits = [queries[q]["split"] for q in sorted(ids)]
        assert splits == [("dev", "heldout")[i % 2] for i in range(len(ids))], kind
    halves = Counter(q["split"] for q in queries.values())
    assert set(halves) == {"dev", "heldout"} and abs(halves["dev"] - halves["heldout"]) <= len(TYPES)


# --------------------------------------------------------------------------- qrels
def test_qrels_parse_and_judge_only_corpus_passages_of_known_queries(qrels, corpus, queries):
    assert list(qrels.columns) == ["query_id", "doc_id", "relevance"]
    assert set(qrels.doc_id) <= set(corpus)
    assert set(qrels.query_id) == set(queries)
    assert qrels.relevance.between(0, 3).all()


def test_every_query_has_a_passage_graded_two_or_more(qrels, queries):
    best = qrels.groupby("query_id").relevance.max()
    assert best.reindex(list(queries)).ge(2).all(), best[best < 2]


def test_every_outdated_competitor_query_judges_an_older_passage_zero(qrels, corpus, queries):
    """The type's promise: the current answer competes with an outdated passage (graded 0, older)."""
    for query_id, query in queries.items():
        if query["type"] != "outdated-competitor":
            continue
        judged = qrels[qrels.query_id == query_id]
        answers = [corpus[d]["updated"] for d in judged[judged.relevance >= 2].doc_id]
        zeros = [corpus[d]["updated"] for d in judged[judged.relevance == 0].doc_id]
        assert any(z < min(answers) for z in zeros), query_id


def test_the_pool_holds_the_baselines_top_10(qrels):
    run = rml.read_run(FOLDER / "runs" / f"{BASELINE}.run")
    judged = set(zip(qrels.query_id, qrels.doc_id))
    for query_id, rows in run.groupby("query_id"):
        top = [d for d, _ in search.trec_ranking(dict(zip(rows.doc_id, rows.score)))][:10]
        assert all((query_id, d) in judged for d in top), query_id


# --------------------------------------------------------------------------- runs
def test_runs_parse_and_retrieve_only_corpus_passages(corpus, queries, script):
    paths = run_paths()
    assert [p.stem for p in paths] == sorted(script.SYSTEMS)
    for path in paths:
        run = rml.read_run(path)
        assert set(run.doc_id) <= set(corpus), path.name
        assert set(run.query_id) <= set(queries), path.name
        assert (run.score > 0).all(), path.name


def test_committed_runs_equal_a_fresh_regeneration(script, tmp_path):
    """Runs are regenerated, never edited (about 3 s: jieba cuts the corpus, bm25s indexes it)."""
    for name, run in script.regenerate().items():
        search.write_run(run, tmp_path / f"{name}.run", name)
        fresh = rml.read_run(tmp_path / f"{name}.run")
        committed = rml.read_run(FOLDER / "runs" / f"{name}.run")
        pd.testing.assert_frame_equal(committed[["query_id", "doc_id"]], fresh[["query_id", "doc_id"]])
        assert ((committed.score - fresh.score).abs() <= 1e-6 * fresh.score.abs()).all(), name
