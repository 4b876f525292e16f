"""Evaluate a whole run against judgments: one row per query, one column per metric.

Reference replicated: ``trec_eval -c -q`` (``pytrec_eval.RelevanceEvaluator``),
computed with numpy over every (query, rank) row at once instead of a Python
loop per query. The equivalent call is::

    pytrec_eval.RelevanceEvaluator(qrels, {"recall.5", "P.5", "success.5",
        "recip_rank", "map", "ndcg_cut.10"}, relevance_level=1).evaluate(run)

Differences from ``pytrec_eval`` (not from trec_eval): scores compare as
float64, as in trec_eval 10, where pytrec_eval still rounds them to float32;
every qrels query is scored, a query absent from the run scoring 0 (trec_eval
``-c``), where pytrec_eval leaves it out.

The metrics themselves, one kernel each, are declared in ``metric_table.py``;
this module finds every retrieved document that carries a judgment, with its
rank in trec_eval's order (score descending, ties broken by doc id descending
as strings) and its grade. Unjudged rows add nothing to any metric, so only
those hits (about one row in ten here) reach the kernels. Three ways, all
giving the same hits (``tests/test_speed_evaluate.py``):

* from a run dict: one lookup per judgment in its query's run mapping gives
  the document's score; its rank is 1 + the query's scores above it, counted by
  a binary search in the query's sorted scores (:func:`_hits_by_lookup`);
* from a DataFrame grouped by query: one dict per query gives the grade of
  every row (and finds a repeated row); the judged rows are ranked by the same
  count (:func:`_hits_in_blocks`);
* otherwise, and for any query where a judged document ties in score with
  another: sort the rows, ties by doc id, and look every row up
  (:func:`_hits_by_sorting`).
"""
from __future__ import annotations

import warnings
from itertools import chain, islice, repeat

import numpy as np
import pandas as pd

from ._frames import Table, as_strings, check_table_id_kinds, qrels_table, run_table
from ._validation import RagMetricsWarning, check_relevance_level
from .metric_table import DEFAULT_METRICS, METRICS, Ranked, group_bounds, known_metrics, parse_metric, ranked

__all__ = ["evaluate", "RagMetricsWarning"]


def _string_order(ids: np.ndarray) -> np.ndarray:
    """Each id's position among the distinct ids sorted as strings (code point = UTF-8 byte order)."""
    codes, distinct = pd.factorize(as_strings(ids))
    position = np.empty(len(distinct), dtype=np.int64)
    position[np.argsort(np.asarray(distinct, dtype=str), kind="stable")] = np.arange(len(distinct))
    return position[codes]


def _query_codes(table: Table, position: dict) -> np.ndarray:
    """Per entry of ``table.query_id``: the position of its query among the judged queries
    (``position``: id as a string -> position); other queries get codes after them (len(position),
    len(position) + 1, ...) so that their rows are still checked."""
    keys = as_strings(table.query_id, table.query_kind)
    if table.lengths is not None:  # from a dict: one key per query
        return _codes_of(keys, position)
    block = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else np.zeros(0, np.int64)
    if len(block) < len(keys) // 4:  # rows come in blocks of one query: code the first of each block
        return np.repeat(_codes_of(keys[block], position), np.diff(np.r_[block, len(keys)]))
    return _codes_of(keys, position)


def _codes_of(keys: np.ndarray, position: dict) -> np.ndarray:
    codes = np.fromiter(map(position.get, keys, repeat(-1)), dtype=np.int64, count=len(keys))
    unknown = codes < 0
    if unknown.any():
        codes[unknown] = len(position) + pd.factorize(keys[unknown])[0]
    return codes


def _per_row(table: Table, codes: np.ndarray) -> np.ndarray:
    return codes if table.lengths is None else np.repeat(codes, table.lengths)


def _blocks(query: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Start and end of each query's rows when every query's rows sit together (always so from a
    dict, and from a DataFrame grouped by query); None when a query's rows are split up."""
    starts, ends = group_bounds(query)
    return (starts, ends) if len(np.unique(query[starts])) == len(starts) else None


def _trec_order(query: np.ndarray, score: np.ndarray, docs_at, blocks) -> np.ndarray:
    """Row order: query ascending, then score descending, ties broken by doc id descending.

    With ``blocks`` (see :func:`_blocks`), each query's block is sorted on its
    own (:func:`_blockwise_order`). Otherwise one numpy sort: complex numbers
    sort by real part, then by imaginary part, so ``query - 1j * score`` sorts
    by query, then by score descending. Only rows whose (query, score) is
    shared, which then sit next to each other, need their doc ids
    (``docs_at(rows)``) compared as strings.
    """
    order = _blockwise_order(query, score, *blocks) if blocks is not None else None
    if order is None:
        order = np.argsort(query - 1j * score)
    q, s = query[order], score[order]
    tie = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if tie.any():
        tied = np.zeros(len(order), dtype=bool)
        tied[1:] |= tie
        tied[:-1] |= tie
        rows = np.flatnonzero(tied)
        group = np.cumsum(np.r_[True, ~tie])[rows]  # one number per (query, score)
        by_doc = np.lexsort((-_string_order(docs_at(order[rows])), group))
        order[rows] = order[rows][by_doc]
    return order


def _blockwise_order(query: np.ndarray, score: np.ndarray, starts: np.ndarray, ends: np.ndarray):
    """The blocks in query order, each one's rows by score descending.

    The blocks become the rows of a matrix, padded with +inf past a block's end
    (scores are finite), and numpy sorts each row of ``-score`` on its own:
    n log(block) work instead of n log(n). None when padding would more than
    double the matrix (a few long lists among short ones).
    """
    if len(score) == 0:
        return np.zeros(0, dtype=np.int64)
    lengths = ends - starts
    width = int(lengths.max())
    if len(lengths) * width > 2 * len(score) + 1024:
        return None
    by_query = np.argsort(query[starts])
    starts, lengths = starts[by_query], lengths[by_query]
    if (lengths == width).all():  # as many rows for every query: the blocks tile the rows
        within = np.argsort(-score.reshape(-1, width)[by_query], axis=1)
        return (starts[:, None] + within).ravel()
    rows = starts[:, None] + np.arange(width)  # each block's rows, padded past its end
    inside = np.arange(width) < lengths[:, None]
    padded = np.full(rows.shape, np.inf)
    padded[inside] = -score[rows[inside]]
    return (starts[:, None] + np.argsort(padded, axis=1))[inside]


def _judged_by_query(qrels: Table, codes: np.ndarray, count: int) -> list[dict]:
    """Per judged query (by code), its ``{doc_id: grade}`` mapping (see :func:`_by_query`)."""
    judged = [{} for _ in range(count)]
    for code, mapping in zip(codes.tolist(), qrels.inner):
        judged[code] = mapping
    return judged


def _by_query(qrels: Table, codes: np.ndarray) -> tuple[Table, np.ndarray]:
    """Judgments from a DataFrame as one ``{doc_id: grade}`` mapping per query, the form a dict
    of dicts has (``inner``, ``lengths``), with one code per query; a repeated (query, document)
    row is an error. (A run stays in rows: building 10,000 dicts of 100 costs more than sorting.)"""
    rows = np.argsort(codes, kind="stable")
    starts, ends = group_bounds(codes[rows])
    docs, grades = qrels.doc_id[rows].tolist(), qrels.value[rows].tolist()
    inner = [dict(zip(docs[a:b], grades[a:b])) for a, b in zip(starts.tolist(), ends.tolist())]
    lengths = ends - starts
    repeated = np.flatnonzero(np.fromiter(map(len, inner), dtype=np.int64, count=len(inner)) < lengths)
    if len(repeated):
        a, b = starts[repeated[0]], ends[repeated[0]]
        _refuse_duplicate("qrels", qrels.query_id[rows[a]], docs[a:b])
    grouped = qrels._replace(query_id=qrels.query_id[rows[starts]], lengths=lengths, doc_id=None,
                             value=qrels.value[rows], inner=inner)
    return grouped, codes[rows[starts]]


def _groups(codes: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    """Code, start and end of each run of equal codes, as three lists to zip where they are read
    (10,000 tuples kept alive would set off the garbage collector several times)."""
    starts, ends = group_bounds(codes)
    return codes[starts].tolist(), starts.tolist(), ends.tolist()


def _refuse_duplicate(name: str, query_id, docs: list) -> None:
    seen = set()
    for doc in docs:
        if doc in seen:
            raise ValueError(f"{name} has more than one row for query {query_id!r}, document {doc!r}")
        seen.add(doc)


def _grades(run: Table, codes: np.ndarray, order: np.ndarray, judged: list[dict], blocks) -> np.ndarray:
    """The grade of every run row, in ``order`` (UNJUDGED where the judgments do not list it),
    chained in C, query by query: from a dict, one lookup per row in the query's judgments; from a
    DataFrame, one dict per query (:func:`_block_grades`), which also refuses a repeated row.

    ``codes``: from a dict, one per query; from a DataFrame, one per row, with
    ``blocks`` when each query's rows sit together (read in place: gathering a
    million doc ids in another order costs as much as the lookups), else read in
    ``order``, which groups them. ``order`` None: the grades in row order.
    """
    empty: dict = {}
    if run.inner is not None:  # from a dict: look up each query's own keys, in the table's row order
        lookups = (map((judged[code] if code < len(judged) else empty).get, mapping, repeat(UNJUDGED))
                   for code, mapping in zip(codes.tolist(), run.inner))
        return np.fromiter(chain.from_iterable(lookups), dtype=np.int64, count=len(run.value))[order]
    in_place = blocks is not None
    rows = np.arange(len(codes)) if in_place else order
    docs = run.doc_id if in_place else run.doc_id[order]
    code, start, end = _groups(codes if in_place else codes[order])
    queries = run.query_id[rows[start]]
    judgments = (judged[c] if c < len(judged) else empty for c in code)
    in_blocks = map(_block_grades, map(docs.__getitem__, map(slice, start, end)), judgments, queries)
    grade = np.fromiter(chain.from_iterable(in_blocks), dtype=np.int64, count=len(docs))
    return grade[order] if in_place and order is not None else grade


def _block_grades(docs: np.ndarray, judged: dict, query_id):
    """The grades of one query's retrieved docs, in their order (UNJUDGED where not judged), from
    one dict: the docs as keys, then the judgments on top (a judged document the query did not
    retrieve is added after them, past what is read). One hash per doc also finds a repeated one."""
    grades = dict.fromkeys(docs, UNJUDGED)
    if len(grades) < len(docs):
        _refuse_duplicate("run", query_id, docs.tolist())
    grades.update(judged)
    return islice(grades.values(), len(docs))


UNJUDGED = np.iinfo(np.int64).min  # the grade lookup's default: tells "not judged" from "judged 0"


def _rank(qrels: Table, run: Table, level: int) -> Ranked:
    """The retrieved documents that carry a judgment, with their ranks in trec_eval's order and
    their grades, as the kernels' shared arrays (and a warning about unmatched queries)."""
    judged_ids = as_strings(qrels.query_id, qrels.query_kind)  # a dict's keys are distinct already
    queries = sorted(judged_ids.tolist() if qrels.lengths is not None else pd.unique(judged_ids).tolist())
    position = dict(zip(queries, range(len(queries))))
    queries = pd.Index(np.array(queries, dtype=object), name="query_id")
    judged_codes, run_codes = _query_codes(qrels, position), _query_codes(run, position)
    _warn_about_queries(queries, run, run_codes)
    grades = qrels.value
    if len(grades) and grades.min() == UNJUDGED:
        raise ValueError(f"a qrels grade of {UNJUDGED} is out of range")
    if qrels.inner is None:
        qrels, judged_codes = _by_query(qrels, judged_codes)
    judged = _judged_by_query(qrels, judged_codes, len(queries))
    if run.inner is not None:
        query, rank, grade = _hits_by_lookup(qrels, judged_codes, run, run_codes, judged)
    else:
        query, rank, grade = (_hits_in_blocks(run, run_codes, judged)
                              or _hits_by_sorting(run, run_codes, judged))
    return ranked(queries, query, rank, grade, _per_row(qrels, judged_codes), qrels.value, level)


def _hits_by_sorting(run: Table, run_codes: np.ndarray, judged: list[dict]):
    """``(query, rank, grade)`` of every retrieved judged document, sorted by query then rank: the
    whole run put in trec_eval's order (ties broken by doc id), then one grade lookup per row."""
    count = len(judged)
    run_q = _per_row(run, run_codes)
    blocks = _blocks(run_q)
    order = _trec_order(run_q, run.value, run.docs_at, blocks)
    grade = _grades(run, run_codes if run.inner is not None else run_q, order, judged, blocks)
    query = run_q[order]
    scored = int(np.searchsorted(query, count))  # rows of judged queries come first
    rows = np.flatnonzero(grade[:scored] != UNJUDGED)
    retrieved = np.bincount(query[:scored], minlength=count)
    rank = rows - (np.cumsum(retrieved) - retrieved)[query[rows]] + 1
    return query[rows], rank, grade[rows]


def _hits_by_lookup(qrels: Table, judged_codes: np.ndarray, run: Table, run_codes: np.ndarray,
                    judged: list[dict]):
    """As :func:`_hits_by_sorting`, from a run dict, with one lookup per judgment instead of one per
    retrieved row: each judged document's score is read from its query's run mapping, then ranked
    by :func:`_rank_by_counting`.
    """
    count = len(judged)
    scores = _sorted_scores(run.value, run.lengths)
    if scores is None:
        return _hits_by_sorting(run, run_codes, judged)
    run_of = np.full(count, -1)  # per judged query: its position in the run, or -1
    in_run = np.flatnonzero(run_codes < count)
    run_of[run_codes[in_run]] = in_run
    where = run_of[judged_codes]
    mappings = [run.inner[i] if i >= 0 else {} for i in where.tolist()]
    lookups = (map(mapping.get, judgments, repeat(np.nan)) for mapping, judgments in zip(mappings, qrels.inner))
    score = np.fromiter(chain.from_iterable(lookups), dtype=float, count=len(qrels.value))
    found = np.flatnonzero(~np.isnan(score))  # judgments whose document was retrieved (scores are finite)
    query = np.repeat(judged_codes, qrels.lengths)[found]
    return _rank_by_counting(scores, np.repeat(where, qrels.lengths)[found], score[found], query,
                             qrels.value[found], lambda blocks: _hits_by_sorting(
                                 _sub_run(run, blocks), run_codes[blocks], judged))


def _hits_in_blocks(run: Table, run_q: np.ndarray, judged: list[dict]):
    """As :func:`_hits_by_sorting`, from a DataFrame whose rows come query by query: the grades
    read in row order (:func:`_grades`), then the judged rows ranked by :func:`_rank_by_counting`.
    None when the rows are not grouped so, or a few long lists would make the padding too big."""
    blocks = _blocks(run_q)
    if blocks is None or (scores := _sorted_scores(run.value, blocks[1] - blocks[0])) is None:
        return None
    starts, ends = blocks
    grade = _grades(run, run_q, None, judged, blocks)
    rows = np.flatnonzero((grade != UNJUDGED) & (run_q < len(judged)))
    block = np.searchsorted(starts, rows, side="right") - 1

    def sort_blocks(tied: np.ndarray):
        lengths = ends[tied] - starts[tied]
        members = _ranges(starts[tied], lengths)
        part = run._replace(query_id=run.query_id[members], doc_id=run.doc_id[members], value=run.value[members])
        return _hits_by_sorting(part, run_q[members], judged)

    return _rank_by_counting(scores, block, run.value[rows], run_q[rows], grade[rows], sort_blocks)


def _rank_by_counting(scores: np.ndarray, block: np.ndarray, score: np.ndarray, query: np.ndarray,
                      grade: np.ndarray, sort_blocks) -> tuple:
    """``(query, rank, grade)`` of retrieved judged documents, sorted by query then rank, without
    sorting the run: a document's rank is 1 + the number of its query's scores above its own, by a
    binary search in its block's row of ``scores`` (:func:`_sorted_scores`). A block where a judged
    document shares its score with another is handed to ``sort_blocks(blocks)``, where doc ids
    break the tie (:func:`_hits_by_sorting`)."""
    above = _count_below(scores, block, -score)  # the document itself comes next, then any tie
    width = scores.shape[1]
    tied = (above + 1 < width) & (scores.ravel()[block * width + np.minimum(above + 1, width - 1)] == -score)
    tie_blocks = np.unique(block[tied])
    keep = ~np.isin(block, tie_blocks)
    query, rank, grade = query[keep], above[keep] + 1, grade[keep]
    if len(tie_blocks):
        query, rank, grade = (np.concatenate(pair) for pair in zip((query, rank, grade), sort_blocks(tie_blocks)))
    order = np.argsort(query * (int(rank.max(initial=0)) + 1) + rank)  # by query, then rank
    return query[order], rank[order], grade[order]


def _sorted_scores(values: np.ndarray, lengths: np.ndarray) -> np.ndarray | None:
    """One row per block of ``lengths`` consecutive values: the block's scores negated and sorted
    ascending, padded with +inf; None when padding would more than double the matrix (a few long
    lists among short ones)."""
    width = int(lengths.max()) if len(lengths) else 0
    if width == 0 or len(lengths) * width > 2 * len(values) + 1024:
        return None
    if (lengths == width).all():
        return np.sort(-values.reshape(-1, width), axis=1)
    padded = np.full((len(lengths), width), np.inf)
    padded[np.arange(width) < lengths[:, None]] = -values
    return np.sort(padded, axis=1)


def _count_below(rows: np.ndarray, which: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Per i: how many entries of the sorted row ``rows[which[i]]`` are below ``value[i]``, by a
    binary search run on every i at once (halving steps: is the (count + step)-th entry below?)."""
    width = rows.shape[1]
    flat, base = rows.ravel(), which * width
    count = np.zeros(len(which), dtype=np.int64)
    step = 1 << (width.bit_length() - 1)
    while step:
        probe = count + step
        below = (probe <= width) & (flat[base + np.minimum(probe, width) - 1] < value)
        count = np.where(below, probe, count)
        step >>= 1
    return count


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The row numbers start, start + 1, ..., start + length - 1 of each block, concatenated."""
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()))


def _sub_run(run: Table, members: np.ndarray) -> Table:
    """The run restricted to some of its queries (from a dict)."""
    lengths = run.lengths[members]
    rows = _ranges((np.cumsum(run.lengths) - run.lengths)[members], lengths)
    return run._replace(query_id=run.query_id[members], lengths=lengths, value=run.value[rows],
                        inner=[run.inner[i] for i in members.tolist()])


def _warn_about_queries(queries: pd.Index, run: Table, run_codes: np.ndarray) -> None:
    """One warning for judged queries without results, one for run queries without judgments."""
    weights = None if run.lengths is None else run.lengths
    rows = np.bincount(run_codes, weights=weights, minlength=len(queries)) if len(run_codes) else np.zeros(len(queries))
    missing = [queries[i] for i in np.flatnonzero(rows[: len(queries)] == 0)]
    unjudged = run_codes >= len(queries)
    if weights is not None:
        unjudged &= run.lengths > 0
    extra = sorted(set(as_strings(run.query_id[unjudged]))) if unjudged.any() else []
    if missing:
        warnings.warn(
            f"{len(missing)} of {len(queries)} judged queries have no results in the run and "
            f"score 0 on every metric (trec_eval -c): {_preview(missing)}",
            RagMetricsWarning, stacklevel=4)
    if extra:
        warnings.warn(
            f"{len(extra)} run queries have no judgments and are ignored: {_preview(extra)}",
            RagMetricsWarning, stacklevel=4)


def _preview(ids: list[str], most: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def evaluate(qrels, run, metrics=DEFAULT_METRICS, relevance_level: int = 1) -> pd.DataFrame:
    """Score every judged query; ``evaluate(...).mean()`` is the report.

    ``qrels``: ``{query_id: {doc_id: grade}}`` or a DataFrame ``query_id, doc_id,
    relevance`` (or ``{query_id: [relevant ids]}``, grade 1 each). ``run``:
    ``{query_id: {doc_id: score}}``, a DataFrame ``query_id, doc_id, score``, or
    ``{query_id: [ids, best first]}`` (a list keeps its order). The run is
    ordered by score descending, ties broken by doc id descending (compared as
    strings), as trec_eval does. A judged query with no results (also an empty
    run) scores 0 on every metric, with a warning.
    Metric names ({known}) come from ``metric_table.METRICS``.
    Derived notebook by notebook in ``notebooks/01``-``07``; first used in
    ``notebooks/00_rag_evaluation_map.ipynb``.

    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d9": 2}}
    >>> run = {"q1": {"d1": 0.9, "d3": 0.8, "d2": 0.7}, "q2": {"d4": 0.5, "d9": 0.4}}
    >>> evaluate(qrels, run, ["precision@2", "mrr", "map"])
              precision@2  mrr       map
    query_id
    q1                0.5  1.0  0.833333
    q2                0.5  0.5  0.500000
    >>> evaluate({"q1": {"d2"}}, {"q1": ["d1", "d2"]}, ["mrr"])["mrr"].tolist()
    [0.5]
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    parsed = [parse_metric(name) for name in metrics]
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"a metric is listed twice in {list(metrics)}")
    level = check_relevance_level(relevance_level)
    judged, ran = qrels_table(qrels), run_table(run)
    check_table_id_kinds(judged, ran)
    ranked = _rank(judged, ran, level)
    columns = {name: METRICS[family].kernel(ranked, k) for name, (family, k) in zip(metrics, parsed)}
    return pd.DataFrame(columns, index=ranked.queries)


evaluate.__doc__ = evaluate.__doc__.replace("{known}", known_metrics())
