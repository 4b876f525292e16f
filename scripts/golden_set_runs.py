"""Regenerate the golden set's run files: every system in SYSTEMS, over every query.

    python scripts/golden_set_runs.py            # rewrite data/golden_set/runs/*.run
    python scripts/golden_set_runs.py --check    # exit 1 if a committed run differs from a fresh one

``--check`` compares in memory and writes nothing; a rewrite goes through
``repo_files.write_in_repository`` (a new file renamed over the old one, never through a symlink).

Runs are regenerated, never edited by hand (data/golden_set/README.md, freeze rules);
tests/test_golden_set.py checks the committed ones against a fresh regeneration.
Notebook 18 reads the runs; the systems themselves are built with ragmetrics_lite.course.search.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import ragmetrics_lite as rml
from ragmetrics_lite.course import search

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repo_files import write_in_repository  # noqa: E402

GOLDEN_SET = Path(__file__).resolve().parents[1] / "data" / "golden_set"
RUNS = GOLDEN_SET / "runs"
DEPTH = 100  # every passage with a score above 0 in this 84-passage corpus


def load(folder: Path = GOLDEN_SET) -> tuple[dict, dict]:
    """The corpus and the queries as ``{id: row}``."""
    return search.read_corpus(folder / "corpus.jsonl"), search.read_queries(folder / "queries.jsonl")


def bm25_jieba(corpus: dict, queries: dict) -> dict:
    """The baseline: BM25 (k1 1.5, b 0.75, Lucene) over jieba tokens of title + text."""
    index = search.bm25_index({doc: search.passage_text(p) for doc, p in corpus.items()}, rml.tokenize)
    return search.search_all(index, {q: row["text"] for q, row in queries.items()}, DEPTH)


# The second system, designed on the development half only, after the qrels were frozen. Its
# synonym table comes from reading the baseline's dev misses at Hit Rate@3: each entry maps a
# user's word (a jieba token of the query) to the knowledge base's words for it.
SYNONYMS = {
    "忘": ["忘记"],              # q21 忘了密码: jieba cuts 忘 / 了, the passage says 忘记
    "退": ["退款", "退货"],       # q23 能退吗: the policy says 退款 and 退货
    "孩子": ["产假", "陪产假"],   # q25 老婆生孩子: the leave rules say 陪产假
    "休": ["假期", "请假"],       # q25 休几天
    "大屏": ["会议", "平板", "投屏"],  # q27 放到大屏上: the manual says 会议平板 and 投屏
    "画面": ["投屏"],            # q27
    "开车": ["停车"],            # q29 开车停哪里: the page says 停车
    "停": ["停车"],              # q29
}
HALF_LIFE_DAYS = 365  # the recency prior: a passage a year older than the newest weighs half


def bm25_synonyms_recency(corpus: dict, queries: dict) -> dict:
    """The second system: the baseline's BM25 and tokens, queries expanded with SYNONYMS, and
    every score multiplied by a recency prior from the passage's `updated` date."""
    index = search.bm25_index({doc: search.passage_text(p) for doc, p in corpus.items()}, rml.tokenize)
    weights = search.recency_weights({doc: p["updated"] for doc, p in corpus.items()}, HALF_LIFE_DAYS)
    expanded = {q: search.expand_query(row["text"], SYNONYMS) for q, row in queries.items()}
    return search.search_all(index, expanded, DEPTH, weights)


SYSTEMS = {"bm25_jieba": bm25_jieba, "bm25_synonyms_recency": bm25_synonyms_recency}


def regenerate(folder: Path = GOLDEN_SET) -> dict[str, dict]:
    """``{system name: run}`` computed afresh."""
    corpus, queries = load(folder)
    return {name: system(corpus, queries) for name, system in SYSTEMS.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed runs, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name, run in regenerate().items():
        path = RUNS / f"{name}.run"
        fresh = search.run_text(run, name).encode("utf-8")
        if args.check:
            if not (path.is_file() and path.read_bytes() == fresh):
                stale.append(name)
        else:
            write_in_repository(path, fresh)
            print(f"wrote {path.relative_to(GOLDEN_SET.parents[1])}: {sum(map(len, run.values()))} lines")
    if stale:
        print(f"stale runs (rerun scripts/golden_set_runs.py): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
