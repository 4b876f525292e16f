"""Every retrieved document that carries a judgment, with its rank in trec_eval's order and its grade.

Reference replicated: ``trec_eval -c -q``. A query's ranking is its run rows
by score descending, ties broken by doc id descending, compared as strings.
The per-query functions take a ranking as given; this module finds every
query's ranking at once, with numpy, in three steps over the run's rows:

1. **Grades.** Each query's rows must sit together, as they do from a dict
   or a file written query by query (otherwise a stable sort of their query
   codes groups them). Each row's grade is looked up in its query's
   judgments, one dict per query (``UNJUDGED`` where the judgments do not
   list it); from a DataFrame, that dict also finds a repeated row.
2. **Order.** Each query's rows are sorted by score: the queries' scores
   become the rows of a matrix, padded past each query's end, and numpy sorts
   every matrix row on its own (n log(depth) work instead of n log(n)). Where
   a few long lists among short ones would more than double the matrix, the
   rows are sorted as a whole instead. Rows that tie in (query, score) are
   then put in doc-id order.
3. **Ranks.** A row's rank is its position among its query's sorted rows.
   Only the rows that carry a judgment are kept (one in fourteen in
   ``bench/run.py``): an unjudged row adds nothing to any metric. They are
   handed to the kernels sorted by query, then rank.

The result feeds the kernels (``kernels.py``).
"""
from __future__ import annotations

from itertools import chain, islice, repeat

import numpy as np

from .._validation import refuse_repeated_row
from .kernels import Ranked, group_bounds, ranked

__all__ = ["rank", "UNJUDGED"]

UNJUDGED = np.iinfo(np.int64).min  # the grade of a row the judgments do not list (not "judged 0")


def rank(qrels, judged_codes: np.ndarray, run, run_codes: np.ndarray, count: int, level: int) -> Ranked:
    """The retrieved judged documents of ``count`` judged queries, ranked, as the kernels' arrays.

    ``qrels`` and ``run`` are the flat columns ``retrieval/_frames.py`` builds:
    ``qrels`` one ``{doc_id: grade}`` mapping per query (``inner``, with
    ``lengths`` and the chained grades in ``value``); ``run`` in rows
    (``query_id``, ``doc_id`` and ``value`` per row) or, from a dict, one
    ``{doc_id: score}`` mapping per query. ``judged_codes`` and ``run_codes``
    give each entry of their ``query_id`` its query's code (0 .. count - 1
    for judged queries, higher for the others).
    """
    if len(qrels.value) and qrels.value.min() == UNJUDGED:
        raise ValueError(f"a qrels grade of {UNJUDGED} is out of range")
    query = run_codes if run.lengths is None else np.repeat(run_codes, run.lengths)
    judged = [{}] * (max(count, int(query.max(initial=-1)) + 1))  # one shared empty dict per query
    for code, mapping in zip(judged_codes.tolist(), qrels.inner):
        judged[code] = mapping
    rows = _grouped(query)
    if rows is not None:  # a DataFrame whose rows of one query are not all together
        run = run._replace(query_id=run.query_id[rows], doc_id=run.doc_id[rows], value=run.value[rows])
        query = query[rows]
    starts, ends = group_bounds(query)
    grade = _grades(run, run_codes, query, starts, ends, judged)
    order = _by_score(query, run.value, starts, ends, lambda tied: _docs_at(run, tied))
    rank_of = np.empty(len(order), dtype=np.int64)
    rank_of[order] = np.arange(1, len(order) + 1)  # each row's place in the whole order, from 1,
    rank_of -= np.repeat(starts, ends - starts)  # less the rows of the queries before its own
    hits = np.flatnonzero((grade != UNJUDGED) & (query < count))
    hits = hits[np.lexsort((rank_of[hits], query[hits]))]  # by query, then rank
    judged_query = np.repeat(judged_codes, qrels.lengths)
    return ranked(count, query[hits], rank_of[hits], grade[hits], judged_query, qrels.value, level)


def _grouped(query: np.ndarray) -> np.ndarray | None:
    """None when each query's rows sit together (always so from a dict), else the rows in an order
    that puts them together."""
    starts, _ = group_bounds(query)
    if len(np.unique(query[starts])) == len(starts):
        return None
    return np.argsort(query, kind="stable")


def _grades(run, run_codes: np.ndarray, query: np.ndarray, starts: np.ndarray, ends: np.ndarray,
            judged: list[dict]) -> np.ndarray:
    """The grade of every run row (UNJUDGED where its query's judgments do not list it), chained in C
    query by query (:func:`_block_grades`); a dict's rows are read from the caller's own mappings."""
    if run.inner is not None:
        docs, codes, query_ids = run.inner, run_codes.tolist(), run.query_id
    else:
        docs = map(run.doc_id.__getitem__, map(slice, starts.tolist(), ends.tolist()))
        codes, query_ids = query[starts].tolist(), run.query_id[starts]
    blocks = map(_block_grades, docs, map(judged.__getitem__, codes), query_ids)
    return np.fromiter(chain.from_iterable(blocks), dtype=np.int64, count=len(run.value))


def _block_grades(docs, judged: dict, query_id):
    """The grades of one query's retrieved docs, in their order (UNJUDGED where not judged), from
    one dict: the docs as keys, then the judgments on top (a judged document the query did not
    retrieve is added after them, past what is read). One hash per doc also finds a repeated one."""
    grades = dict.fromkeys(docs, UNJUDGED)
    if len(grades) < len(docs):
        refuse_repeated_row("run", query_id, list(docs))
    grades.update(judged)
    return islice(grades.values(), len(docs))


def _by_score(query: np.ndarray, score: np.ndarray, starts: np.ndarray, ends: np.ndarray, docs_at) -> np.ndarray:
    """The rows in ranking order: each query's rows (``starts`` to ``ends``, left in place) by score
    descending, ties broken by doc id descending as strings (``docs_at(rows)`` gives some rows' ids)."""
    lengths = ends - starts
    width = int(lengths.max(initial=0))
    if len(lengths) * width <= 2 * len(score) + 1024:  # the padded matrix: one row per query
        padded = np.full((len(lengths), width), np.inf)
        inside = np.arange(width) < lengths[:, None]
        padded[inside] = -score
        order = (starts[:, None] + np.argsort(padded, axis=1))[inside]
    else:
        order = np.lexsort((-score, np.repeat(np.arange(len(starts)), lengths)))
    q, s = query[order], score[order]
    tie = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if tie.any():
        tied = np.zeros(len(order), dtype=bool)
        tied[1:] |= tie
        tied[:-1] |= tie
        rows = order[tied]  # runs of rows with one (query, score), in place in ``order``
        by_doc = np.lexsort((-_string_order(docs_at(rows)), -score[rows], np.searchsorted(starts, rows, "right")))
        order[tied] = rows[by_doc]
    return order


def _string_order(ids: np.ndarray) -> np.ndarray:
    """Each id's position among the distinct ids sorted as strings (code point = UTF-8 byte order)."""
    return np.unique(np.array([str(doc) for doc in ids.tolist()], dtype=str), return_inverse=True)[1]


def _docs_at(run, rows: np.ndarray) -> np.ndarray:
    """The doc ids of some run rows (from a dict: read only from the mappings those rows are in, as
    building every row's id would cost as much as the rest of the ranking)."""
    if run.doc_id is not None:
        return run.doc_id[rows]
    ends = np.cumsum(run.lengths)
    mapping = np.searchsorted(ends, rows, side="right")
    offset = rows - (ends - run.lengths)[mapping]
    keys = {m: list(run.inner[m]) for m in np.unique(mapping).tolist()}
    docs = (keys[m][i] for m, i in zip(mapping.tolist(), offset.tolist()))
    return np.fromiter(docs, dtype=object, count=len(rows))
