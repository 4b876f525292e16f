"""One vectorised kernel per retrieval metric, over every query at once.

A kernel gets a :class:`Ranked` batch (every retrieved document that carries
a judgment, with its rank in trec_eval's order and its grade, plus the arrays
the kernels share) and returns one score per query. Each kernel computes what
the per-query function named in its docstring computes for one query
(``ragmetrics_lite.retrieval.metrics``); ``tests/test_metric_table.py`` checks
every kernel against that function on random batches.

A retrieved document without a judgment has grade 0 and is not relevant: it
adds nothing to any metric, so only its rank matters, and that is already
counted in the ranks of the documents below it. That is why the kernels see
only the judged rows.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Ranked", "ranked", "group_bounds", "recall", "precision", "hit_rate", "mrr", "average_precision",
           "r_precision", "dcg", "ndcg", "judged"]


class Ranked(NamedTuple):
    """The retrieved documents that carry a judgment, as flat arrays sorted by query then rank."""

    count: int  # number of judged queries; query codes are 0 .. count - 1
    query: np.ndarray  # per retrieved judged document: its query's code
    rank: np.ndarray  # its 1-based rank within the query's whole ranking
    grade: np.ndarray  # its grade (0 or negative included)
    relevant: np.ndarray  # grade >= relevance_level
    relevant_so_far: np.ndarray  # relevant documents of its query at this rank or above
    num_relevant: np.ndarray  # per query: judged documents with grade >= relevance_level
    ideal_query: np.ndarray  # per positive judgment, in ideal order: its query
    ideal_rank: np.ndarray  # ... its rank in the ideal ranking
    ideal_grade: np.ndarray  # ... its grade


def ranked(count: int, query: np.ndarray, rank: np.ndarray, grade: np.ndarray,
           judged_query: np.ndarray, judged_grade: np.ndarray, level: int) -> Ranked:
    """The shared arrays, from the retrieved judged documents (sorted by query, then rank) and every
    judgment (``judged_query``, ``judged_grade``: one entry per judgment)."""
    relevant = grade >= level
    found = np.cumsum(relevant)  # relevant rows so far over the whole batch, minus earlier queries'
    starts, ends = group_bounds(query)
    relevant_so_far = found - np.repeat(found[starts] - relevant[starts], ends - starts)
    num_relevant = np.bincount(judged_query, weights=judged_grade >= level, minlength=count)
    positive = judged_grade > 0
    ideal = np.lexsort((-judged_grade[positive], judged_query[positive]))
    ideal_query = judged_query[positive][ideal]
    ideal_grade = judged_grade[positive][ideal]
    ideal_starts, ideal_ends = group_bounds(ideal_query)
    ideal_rank = np.arange(len(ideal_query)) - np.repeat(ideal_starts, ideal_ends - ideal_starts) + 1
    return Ranked(count, query, rank, grade, relevant, relevant_so_far, num_relevant,
                  ideal_query, ideal_rank, ideal_grade)


def group_bounds(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each run of equal codes (runs of one query's rows)."""
    if len(codes) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    return starts, np.r_[starts[1:], len(codes)]


# --------------------------------------------------------------------------- shared steps
def per_query_sum(r: Ranked, values: np.ndarray, query: np.ndarray | None = None) -> np.ndarray:
    """Sum of ``values`` over each query's rows (0 for a query without rows)."""
    return np.bincount(r.query if query is None else query, weights=values, minlength=r.count)


def divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (nothing relevant)."""
    out = np.zeros(len(numerator))
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def within(rank: np.ndarray, k: int | None) -> np.ndarray:
    """Which ranks are in the top k (all of them without a cut-off)."""
    return np.ones(len(rank), dtype=bool) if k is None else rank <= k


def hits_within(r: Ranked, k: int | None) -> np.ndarray:
    """Per query: relevant documents in the top k."""
    return per_query_sum(r, r.relevant & within(r.rank, k))


def discounted_gain(r: Ranked, k: int | None, ideal: bool = False) -> np.ndarray:
    """Per query: sum of grade / log2(rank + 1) over the top k (of the ideal ranking with ``ideal``)."""
    if ideal:
        rank, grade, query = r.ideal_rank, r.ideal_grade, r.ideal_query
    else:
        rank, grade, query = r.rank, r.grade, r.query
    keep = within(rank, k) & (grade > 0)
    return per_query_sum(r, grade[keep] / np.log2(rank[keep] + 1), query[keep])


# --------------------------------------------------------------------------- kernels
def recall(r: Ranked, k: int) -> np.ndarray:
    """``recall_at_k``: relevant in the top k / every relevant judgment."""
    return divide(hits_within(r, k), r.num_relevant)


def precision(r: Ranked, k: int) -> np.ndarray:
    """``precision_at_k``: relevant in the top k / k."""
    return hits_within(r, k) / k


def hit_rate(r: Ranked, k: int) -> np.ndarray:
    """``hit_at_k``: 1 where the top k holds a relevant document."""
    return (hits_within(r, k) > 0).astype(float)


def mrr(r: Ranked, k: int | None) -> np.ndarray:
    """``reciprocal_rank``: 1 / rank of each query's first relevant row (rows are sorted by query, then rank)."""
    rows = np.flatnonzero(r.relevant & within(r.rank, k))
    first = rows[np.r_[True, r.query[rows[1:]] != r.query[rows[:-1]]]] if len(rows) else rows
    out = np.zeros(r.count)
    out[r.query[first]] = 1.0 / r.rank[first]
    return out


def average_precision(r: Ranked, k: int | None) -> np.ndarray:
    """``average_precision``: sum of precision at each relevant rank (within k), over every relevant."""
    precision_at_hits = np.where(r.relevant & within(r.rank, k), r.relevant_so_far / r.rank, 0.0)
    return divide(per_query_sum(r, precision_at_hits), r.num_relevant)


def r_precision(r: Ranked, k: None) -> np.ndarray:
    """``r_precision``: relevant in the top R / R, R the number of relevant judgments."""
    in_r = r.relevant & (r.rank <= r.num_relevant[r.query])
    return divide(per_query_sum(r, in_r), r.num_relevant)


def dcg(r: Ranked, k: int) -> np.ndarray:
    """``dcg_at_k`` of the grades in rank order."""
    return discounted_gain(r, k)


def ndcg(r: Ranked, k: int | None) -> np.ndarray:
    """``ndcg_at_k``: DCG / the DCG of the ideal ranking of every positive judgment."""
    return divide(discounted_gain(r, k), discounted_gain(r, k, ideal=True))


def judged(r: Ranked, k: int) -> np.ndarray:
    """``judged_at_k``: judged documents in the top k / k (every row of the batch carries a judgment)."""
    return per_query_sum(r, within(r.rank, k)) / k
