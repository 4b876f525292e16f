"""Exercises for the retrieval notebooks 01-07: a learner writes each metric as a plain function.

Each exercise's expected values come from ``ragmetrics_lite``'s own metrics
(trec_eval semantics), never from a second copy of the formula. The
functions in this module named like the metrics (``recall_at_k``,
``hit_rate``, ...) are the reference *solutions* that ``solution()`` prints;
the tests prove that each passes its exercise. The private ``_``-functions
are known mistakes, each with the diagnosis printed when an answer behaves
exactly like it; three come from the source notes themselves (MRR scoring
the first result whether relevant or not, AP averaged over the retrieved
relevant documents only, IDCG from the retrieved list only).

>>> from ragmetrics_lite.exercises import q01_recall
>>> q01_recall.check(recall_at_k)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math
import statistics

from .. import retrieval as metrics
from ._checker import Case, FunctionExercise, Mistake

__all__ = [
    "q01_recall",
    "q02_hit_rate",
    "q03_precision",
    "q04_mrr",
    "q05_average_precision",
    "q06_dcg",
    "q07_ndcg",
]

# A small id space, so that random rankings often hit relevant documents.
_IDS = [f"d{i}" for i in range(1, 8)]


def _random_query(rng):
    """A random (relevant set, ranked list): relevant ids come from d1-d5, the ranking from d1-d7."""
    relevant = set(rng.sample(_IDS[:5], rng.choice((0, 1, 2, 2, 3, 3, 4))))
    retrieved = rng.sample(_IDS, rng.choice((0, 1, 2, 3, 4, 5, 5, 6, 6)))
    return relevant, retrieved


def _random_query_at_k(rng):
    relevant, retrieved = _random_query(rng)
    return relevant, retrieved, rng.randint(1, 6)


def _random_dataset_at_k(rng):
    queries = [_random_query(rng) for _ in range(rng.randint(1, 4))]
    return [q[0] for q in queries], [q[1] for q in queries], rng.randint(1, 6)


def _random_dataset(rng):
    queries = [_random_query(rng) for _ in range(rng.randint(1, 4))]
    return [q[1] for q in queries], [q[0] for q in queries]


def _random_grades_at_k(rng):
    return [rng.randint(0, 3) for _ in range(rng.randint(0, 6))], rng.randint(1, 7)


def _random_judged_query_at_k(rng):
    judged = rng.sample(_IDS[:5], rng.choice((0, 1, 2, 3, 3, 4, 4, 5)))
    ground_truth = {doc: rng.choice((0, 1, 1, 2, 2, 3)) for doc in judged}
    return ground_truth, _random_query(rng)[1], rng.randint(1, 6)


def _notebook(name: str) -> str:
    return f"notebooks/{name}.ipynb"


# ============================================================================ q01 Recall@K
def recall_at_k(relevant, retrieved, k):
    if not relevant:
        return 0.0
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / len(relevant)


def _recall_over_k(relevant, retrieved, k):
    return sum(1 for doc in retrieved[:k] if doc in relevant) / k


def _recall_over_found(relevant, retrieved, k):
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / found if found else 0.0


def _recall_over_found_unguarded(relevant, retrieved, k):
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / found


def _recall_is_hit(relevant, retrieved, k):
    return any(doc in relevant for doc in retrieved[:k])


def _recall_over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    return sum(1 for doc in top if doc in relevant) / len(top) if top else 0.0


def _recall_whole_list(relevant, retrieved, k):
    return recall_at_k(relevant, retrieved, len(retrieved))


def _recall_unguarded(relevant, retrieved, k):
    return sum(1 for doc in retrieved[:k] if doc in relevant) / len(relevant)


_HIT = (
    "this gives the hit (success@k), 1 whenever a relevant document is in the top k (dividing the "
    "relevant documents found by themselves does the same); Recall@k divides by all relevant documents"
)

q01_recall = FunctionExercise(
    "q01_recall",
    """
    Write recall_at_k(relevant, retrieved, k): the share of the relevant documents (a set of ids)
    that appear among the first k ids of the ranked list retrieved (Recall@K, 召回率@K); return 0.0
    when nothing is relevant.
    """,
    notebook=_notebook("01_recall_at_k"),
    reference=lambda relevant, retrieved, k: metrics.recall_at_k(relevant, retrieved, k),
    argnames=("relevant", "retrieved", "k"),
    edge_cases=[
        Case((set(), [], 1), "nothing is relevant"),
        Case(({"d1"}, [], 1), "nothing was retrieved"),
        Case(({"d1"}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d2", "d1"], 1), "the relevant document is just below the cut-off"),
        Case(({"d1"}, ["d2", "d1"], 2), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1"], 3), "k is larger than the list"),
        Case(({"d1", "d2"}, ["d1", "d2"], 2), "everything retrieved is relevant"),
        Case(
            ({"d1", "d4", "d7"}, ["d1", "d2", "d4", "d5", "d6"], 5),
            "2 of 3 relevant documents in the top 5",
        ),
    ],
    random_case=_random_query_at_k,
    hint="""
    Count the relevant ids in retrieved[:k], then divide by len(relevant): every relevant document,
    found or not, is in the denominator. Check for an empty relevant set first.
    """,
    solution=recall_at_k,
    mistakes=[
        Mistake(
            _recall_over_k,
            "this divides by k, which is Precision@k; Recall@k divides by the number of relevant "
            "documents",
        ),
        Mistake(_recall_over_found, _HIT),
        Mistake(
            _recall_is_hit,
            "this returns True or False, the hit (success@k); Recall@k is a number, the relevant "
            "documents in the top k divided by all relevant documents",
        ),
        Mistake(
            _recall_over_found_unguarded,
            "this divides by the relevant documents that were found, so any hit gives 1.0; divide by "
            "all relevant documents",
        ),
        Mistake(
            _recall_over_retrieved,
            "this divides by the number of documents retrieved; Recall@k divides by the number of "
            "relevant documents",
        ),
        Mistake(
            _recall_whole_list,
            "this counts relevant documents below rank k too; look only at retrieved[:k]",
        ),
        Mistake(_recall_unguarded, "this fails when nothing is relevant; return 0.0 for such a query"),
    ],
)


# ============================================================================ q02 Hit Rate@K
def hit_rate(relevant_sets, rankings, k):
    hits = 0
    for relevant, retrieved in zip(relevant_sets, rankings):
        if any(doc in relevant for doc in retrieved[:k]):
            hits += 1
    return hits / len(rankings)


def _expected_hit_rate(relevant_sets, rankings, k):
    hits = [metrics.hit_at_k(relevant, ranking, k) for relevant, ranking in zip(relevant_sets, rankings)]
    return statistics.fmean(hits)


def _hit_rate_as_recall(relevant_sets, rankings, k):
    return sum(recall_at_k(rel, ranking, k) for rel, ranking in zip(relevant_sets, rankings)) / len(rankings)


def _hit_rate_counts_every_hit(relevant_sets, rankings, k):
    found = sum(sum(1 for doc in ranking[:k] if doc in rel) for rel, ranking in zip(relevant_sets, rankings))
    return found / len(rankings)


def _hit_rate_whole_list(relevant_sets, rankings, k):
    return hit_rate(relevant_sets, rankings, max([len(r) for r in rankings] + [1]))


q02_hit_rate = FunctionExercise(
    "q02_hit_rate",
    """
    Write hit_rate(relevant_sets, rankings, k): over a dataset of queries (relevant_sets[i] and
    rankings[i] belong to query i), the share of queries whose top k holds at least one relevant
    document (Hit Rate@K, 命中率@K).
    """,
    notebook=_notebook("02_hit_rate_at_k"),
    reference=_expected_hit_rate,
    argnames=("relevant_sets", "rankings", "k"),
    edge_cases=[
        Case(([set()], [[]], 1), "nothing is relevant"),
        Case(([{"d1"}], [["d1"]], 1), "a hit at rank 1"),
        Case(([{"d1"}], [["d2", "d1"]], 1), "the relevant document is just below the cut-off"),
        Case(([{"d1", "d2"}], [["d1"]], 3), "one of two relevant documents found, k larger than the list"),
        Case(([{"d1"}, {"d2"}], [["d1"], ["d1"]], 1), "one query of two has a hit"),
        Case(([{"d1", "d2"}, {"d3"}], [["d1", "d2"], ["d4"]], 2), "two hits in one query, none in the other"),
        Case(
            ([{"d1", "d2", "d3", "d4"}], [["d1", "d5", "d6", "d7", "d8"]], 5),
            "1 of 4 relevant documents found: a hit all the same",
        ),
        Case(
            ([{"d1"}] * 10, [["d1"]] * 7 + [["d2"]] * 3, 1),
            "10 queries, 7 with a hit",
        ),
    ],
    random_case=_random_dataset_at_k,
    hint="""
    For each query ask one yes/no question: is any id in its ranking[:k] relevant? Count the yeses
    and divide by the number of queries. How many relevant documents were found does not matter.
    """,
    solution=hit_rate,
    mistakes=[
        Mistake(
            _hit_rate_as_recall,
            "this is the mean Recall@k; a query counts 1 as soon as one relevant document is in its "
            "top k",
        ),
        Mistake(
            _hit_rate_counts_every_hit,
            "this counts every relevant document found; a query counts at most 1",
        ),
        Mistake(_hit_rate_whole_list, "this looks below rank k too; look only at each ranking[:k]"),
    ],
)


# ============================================================================ q03 Precision@K
def precision_at_k(relevant, retrieved, k):
    found = sum(1 for doc in retrieved[:k] if doc in relevant)
    return found / k


def _precision_over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    return sum(1 for doc in top if doc in relevant) / len(top) if top else 0.0


def _precision_over_retrieved_unguarded(relevant, retrieved, k):
    top = retrieved[:k]
    return sum(1 for doc in top if doc in relevant) / len(top)


def _precision_over_relevant(relevant, retrieved, k):
    return recall_at_k(relevant, retrieved, k)


def _precision_whole_list(relevant, retrieved, k):
    return sum(1 for doc in retrieved if doc in relevant) / k


_DIVIDE_BY_K = (
    "this divides by the number of documents retrieved; Precision@k divides by k even when fewer "
    "than k documents were retrieved"
)

q03_precision = FunctionExercise(
    "q03_precision",
    """
    Write precision_at_k(relevant, retrieved, k): the share of the top k positions of the ranked
    list retrieved that hold a relevant document (Precision@K, 精确率@K). Divide by k even when
    fewer than k documents were retrieved.
    """,
    notebook=_notebook("03_precision_at_k"),
    reference=lambda relevant, retrieved, k: metrics.precision_at_k(relevant, retrieved, k),
    argnames=("relevant", "retrieved", "k"),
    edge_cases=[
        Case((set(), [], 1), "nothing is relevant"),
        Case(({"d1"}, [], 1), "nothing was retrieved"),
        Case(({"d1"}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d1"], 2), "k is larger than the list"),
        Case(({"d1"}, ["d2", "d1"], 1), "the relevant document is just below the cut-off"),
        Case(({"d1"}, ["d2", "d1"], 2), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1", "d2"], 2), "everything retrieved is relevant"),
        Case(({"d1", "d4", "d7"}, ["d1", "d2", "d4", "d5", "d6"], 5), "2 of the top 5 are relevant"),
    ],
    random_case=_random_query_at_k,
    hint="""
    Count the relevant ids in retrieved[:k] and divide by k itself. A list shorter than k still
    has k positions to fill: the empty ones count as misses.
    """,
    solution=precision_at_k,
    mistakes=[
        Mistake(_precision_over_retrieved, _DIVIDE_BY_K),
        Mistake(_precision_over_retrieved_unguarded, _DIVIDE_BY_K),
        Mistake(
            _precision_over_relevant,
            "this divides by the number of relevant documents, which is Recall@k",
        ),
        Mistake(
            _precision_whole_list,
            "this counts relevant documents below rank k too; look only at retrieved[:k]",
        ),
    ],
)


# ============================================================================ q04 MRR
def mrr(predictions, ground_truths):
    total = 0.0
    for retrieved, relevant in zip(predictions, ground_truths):
        for rank, doc in enumerate(retrieved, start=1):
            if doc in relevant:
                total += 1 / rank
                break
    return total / len(predictions)


def _expected_mrr(predictions, ground_truths):
    pairs = zip(predictions, ground_truths)
    scores = [metrics.reciprocal_rank(relevant, ranking) for ranking, relevant in pairs]
    return statistics.fmean(scores)


def _mrr_first_result(predictions, ground_truths):
    return sum(1.0 for retrieved in predictions if retrieved) / len(predictions)


def _mrr_always_one(predictions, ground_truths):
    return 1.0


def _mrr_hit_rate(predictions, ground_truths):
    hits = [any(doc in relevant for doc in ranking) for ranking, relevant in zip(predictions, ground_truths)]
    return sum(hits) / len(predictions)


def _mrr_every_hit(predictions, ground_truths):
    total = 0.0
    for retrieved, relevant in zip(predictions, ground_truths):
        total += sum(1 / rank for rank, doc in enumerate(retrieved, start=1) if doc in relevant)
    return total / len(predictions)


def _mrr_skips_misses(predictions, ground_truths):
    scores = [metrics.reciprocal_rank(rel, ranking) for ranking, rel in zip(predictions, ground_truths)]
    hits = [s for s in scores if s > 0]
    return sum(hits) / len(hits) if hits else 0.0


_FIRST_RESULT = (
    "this is the score of the first result, relevant or not; use the rank of the first relevant one"
)

q04_mrr = FunctionExercise(
    "q04_mrr",
    """
    Write mrr(predictions, ground_truths): predictions[i] is the ranked list of ids for query i and
    ground_truths[i] its set of relevant ids. Score each query 1/rank of its first relevant result
    (0 if there is none) and return the mean over the queries (MRR, 平均倒数排名).
    """,
    notebook=_notebook("04_mrr"),
    reference=_expected_mrr,
    argnames=("predictions", "ground_truths"),
    edge_cases=[
        Case(([["d2"]], [{"d1"}]), "the only result is not relevant"),
        Case(([[]], [{"d1"}]), "nothing was retrieved"),
        Case(([["d1"]], [set()]), "nothing is relevant"),
        Case(([["d1"]], [{"d1"}]), "the first result is relevant"),
        Case(([["d2", "d1"]], [{"d1"}]), "the first relevant result is at rank 2"),
        Case(([["d1", "d2"]], [{"d1", "d2"}]), "two relevant results; only the first counts"),
        Case(([["d1"], ["d2"]], [{"d1"}, {"d1"}]), "one query of two has no relevant result"),
        Case(
            ([["d1", "d2", "d3"], ["d4", "d5", "d6"], ["d7", "d8", "d9"]], [{"d1"}, {"d6"}, {"d8"}]),
            "first relevant results at ranks 1, 3 and 2",
        ),
    ],
    random_case=_random_dataset,
    hint="""
    For each query walk down the list with enumerate(retrieved, start=1); at the first relevant id
    add 1 / rank and break. A query with no relevant result adds 0 but still counts in the mean.
    """,
    solution=mrr,
    mistakes=[
        Mistake(_mrr_first_result, _FIRST_RESULT),
        Mistake(_mrr_always_one, _FIRST_RESULT),
        Mistake(
            _mrr_hit_rate,
            "this scores 1 for every query with a relevant result anywhere, which is the hit rate; "
            "score 1/rank of the first relevant result",
        ),
        Mistake(
            _mrr_every_hit,
            "this adds 1/rank for every relevant result; stop after the first one (break)",
        ),
        Mistake(
            _mrr_skips_misses,
            "this leaves out the queries without a relevant result; each of them counts 0 in the mean",
        ),
    ],
)


# ============================================================================ q05 Average precision
def average_precision(relevant, retrieved):
    if not relevant:
        return 0.0
    found, total = 0, 0.0
    for rank, doc in enumerate(retrieved, start=1):
        if doc in relevant:
            found += 1
            total += found / rank
    return total / len(relevant)


def _precisions_at_hits(relevant, retrieved):
    found, precisions = 0, []
    for rank, doc in enumerate(retrieved, start=1):
        if doc in relevant:
            found += 1
            precisions.append(found / rank)
    return precisions


def _ap_over_found(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return sum(precisions) / len(precisions) if precisions else 0.0


def _ap_over_found_unguarded(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return sum(precisions) / len(precisions)


def _ap_is_precision_of_list(relevant, retrieved):
    return sum(1 for doc in retrieved if doc in relevant) / len(retrieved) if retrieved else 0.0


def _ap_is_precision_at_last_hit(relevant, retrieved):
    precisions = _precisions_at_hits(relevant, retrieved)
    return precisions[-1] if precisions else 0.0


def _ap_every_rank(relevant, retrieved):
    if not relevant or not retrieved:
        return 0.0
    precisions = [metrics.precision_at_k(relevant, retrieved, rank) for rank in range(1, len(retrieved) + 1)]
    return sum(precisions) / len(precisions)


def _ap_unguarded(relevant, retrieved):
    return sum(_precisions_at_hits(relevant, retrieved)) / len(relevant)


_OVER_FOUND = (
    "this divides by the relevant documents that were retrieved; AP divides by all relevant "
    "documents, so a missed one counts 0"
)
_PRECISION_AT_K = "this is Precision@K, not the mean of the precisions at the ranks of the relevant documents"

q05_average_precision = FunctionExercise(
    "q05_average_precision",
    """
    Write average_precision(relevant, retrieved): at each rank of the ranked list retrieved that
    holds a relevant document, take the precision of the list down to that rank; add these up and
    divide by the number of ALL relevant documents, retrieved or not (AP, 平均精度). Return 0.0
    when nothing is relevant.
    """,
    notebook=_notebook("05_map"),
    reference=lambda relevant, retrieved: metrics.average_precision(relevant, retrieved),
    argnames=("relevant", "retrieved"),
    edge_cases=[
        Case((set(), []), "nothing is relevant"),
        Case(({"d1"}, []), "nothing was retrieved"),
        Case(({"d1"}, ["d1"]), "the relevant document is at rank 1"),
        Case(({"d1"}, ["d2", "d1"]), "the relevant document is last"),
        Case(({"d1", "d2"}, ["d1"]), "one of two relevant documents was never retrieved"),
        Case(({"d1", "d2"}, ["d2", "d1"]), "everything retrieved is relevant"),
        Case(({"d1", "d2"}, ["d1", "d3", "d2"]), "relevant documents at ranks 1 and 3"),
        Case(
            ({"d1", "d4", "d7"}, ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10"]),
            "relevant documents at ranks 1, 4 and 7 of 10",
        ),
    ],
    random_case=_random_query,
    hint="""
    Walk down the list with enumerate(retrieved, start=1) and count the relevant ids seen so far;
    at each relevant id add found / rank. Divide the sum by len(relevant), not by the number found.
    """,
    solution=average_precision,
    mistakes=[
        Mistake(_ap_over_found, _OVER_FOUND),
        Mistake(_ap_over_found_unguarded, _OVER_FOUND),
        Mistake(_ap_is_precision_of_list, _PRECISION_AT_K),
        Mistake(_ap_is_precision_at_last_hit, _PRECISION_AT_K),
        Mistake(
            _ap_every_rank,
            "this averages the precision at every rank; AP takes it only at the ranks of relevant "
            "documents",
        ),
        Mistake(_ap_unguarded, "this fails when nothing is relevant; return 0.0 for such a query"),
    ],
)


# ============================================================================ q06 DCG
def dcg_at_k(relevances, k):
    return sum(rel / math.log2(rank + 1) for rank, rel in enumerate(relevances[:k], start=1))


def _dcg_natural_log(relevances, k):
    return sum(rel / math.log(rank + 1) for rank, rel in enumerate(relevances[:k], start=1))


def _dcg_log2_rank(relevances, k):
    return sum(rel / math.log2(rank) for rank, rel in enumerate(relevances[:k], start=1))


def _dcg_log2_rank_top_undiscounted(relevances, k):
    return sum(rel / math.log2(rank) if rank > 1 else rel for rank, rel in enumerate(relevances[:k], start=1))


def _dcg_shifted(relevances, k):
    return sum(rel / math.log2(rank + 2) for rank, rel in enumerate(relevances[:k], start=1))


def _dcg_exponential(relevances, k):
    return metrics.dcg_at_k(relevances, k, gain="exponential")


def _dcg_whole_list(relevances, k):
    return dcg_at_k(relevances, len(relevances))


def _dcg_no_discount(relevances, k):
    return float(sum(relevances[:k]))


_LOG2_RANK = (
    "this divides by log2(rank) (or log2(i + 1) with i counting from 0), which is 0 at the top; "
    "the discount at rank r, counting from 1, is log2(r + 1)"
)

q06_dcg = FunctionExercise(
    "q06_dcg",
    """
    Write dcg_at_k(relevances, k): relevances holds the grades of the ranked documents, best rank
    first; add up grade / log2(rank + 1) over ranks 1..k (DCG, 折扣累积增益).
    """,
    notebook=_notebook("06_dcg"),
    reference=lambda relevances, k: metrics.dcg_at_k(relevances, k),
    argnames=("relevances", "k"),
    edge_cases=[
        Case(([], 1), "an empty list"),
        Case(([0], 1), "a grade-0 document"),
        Case(([1], 1), "one document at rank 1"),
        Case(([2], 3), "k is larger than the list"),
        Case(([0, 3], 1), "a relevant document just below the cut-off"),
        Case(([1, 1], 2), "two equal grades at ranks 1 and 2"),
        Case(([2, 3, 0], 3), "grades 2, 3, 0"),
        Case(([3, 2, 1, 3], 4), "grades 3, 2, 1, 3"),
    ],
    random_case=_random_grades_at_k,
    hint="""
    Loop over enumerate(relevances[:k], start=1) and add rel / math.log2(rank + 1): rank 1 is
    divided by log2(2) = 1, rank 2 by log2(3), and so on. The gain is the grade itself.
    """,
    solution=dcg_at_k,
    solution_imports="import math",
    mistakes=[
        Mistake(_dcg_natural_log, "this uses the natural log; the discount is log2(rank + 1)"),
        Mistake(_dcg_log2_rank, _LOG2_RANK),
        Mistake(
            _dcg_log2_rank_top_undiscounted,
            "this divides by log2(rank), with rank 1 left undiscounted; this exercise divides by "
            "log2(rank + 1)",
        ),
        Mistake(_dcg_shifted, "this shifts the discount down one rank; rank 1 is divided by log2(2) = 1"),
        Mistake(
            _dcg_exponential,
            "this uses the exponential gain 2**rel - 1; this exercise uses the grade itself as the "
            "gain",
        ),
        Mistake(_dcg_whole_list, "this adds the grades below rank k too; use relevances[:k]"),
        Mistake(
            _dcg_no_discount,
            "this is the cumulative gain with no discount; divide each grade by log2(rank + 1)",
        ),
    ],
)


# ============================================================================ q07 NDCG
def ndcg_at_k(ground_truth, retrieved_ids, k):
    def dcg(grades):
        return sum(g / math.log2(rank + 1) for rank, g in enumerate(grades[:k], start=1))

    ideal = sorted((g for g in ground_truth.values() if g > 0), reverse=True)
    idcg = dcg(ideal)
    if idcg == 0:
        return 0.0
    return dcg([ground_truth.get(doc, 0) for doc in retrieved_ids]) / idcg


def _ndcg(ground_truth, retrieved_ids, k, ideal, cut_ideal=True, cut_dcg=True, gain="linear"):
    """NDCG from the given ideal grades, each DCG cut at k or not, built on the helper's DCG."""
    idcg = metrics.dcg_at_k(ideal, k if cut_ideal else None, gain)
    if idcg == 0:
        return 0.0
    grades = [ground_truth.get(doc, 0) for doc in retrieved_ids]
    return metrics.dcg_at_k(grades, k if cut_dcg else None, gain) / idcg


def _ndcg_ideal_from_retrieved(ground_truth, retrieved_ids, k):
    ideal = sorted((ground_truth.get(doc, 0) for doc in retrieved_ids), reverse=True)
    return _ndcg(ground_truth, retrieved_ids, k, ideal)


def _ndcg_ideal_from_top_k(ground_truth, retrieved_ids, k):
    ideal = sorted((ground_truth.get(doc, 0) for doc in retrieved_ids[:k]), reverse=True)
    return _ndcg(ground_truth, retrieved_ids, k, ideal)


def _all_judged_grades(ground_truth):
    return sorted((g for g in ground_truth.values() if g > 0), reverse=True)


def _ndcg_ideal_uncut(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, _all_judged_grades(ground_truth), cut_ideal=False)


def _ndcg_dcg_uncut(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, _all_judged_grades(ground_truth), cut_dcg=False)


def _ndcg_exponential(ground_truth, retrieved_ids, k):
    return _ndcg(ground_truth, retrieved_ids, k, _all_judged_grades(ground_truth), gain="exponential")


def _ndcg_unguarded(ground_truth, retrieved_ids, k):
    ideal = _all_judged_grades(ground_truth)
    grades = [ground_truth.get(doc, 0) for doc in retrieved_ids]
    return metrics.dcg_at_k(grades, k) / metrics.dcg_at_k(ideal, k)


_IDEAL_FROM_RETRIEVED = (
    "this builds the ideal ranking from the retrieved documents only; IDCG sorts every judged "
    "document with a grade > 0, retrieved or not"
)

q07_ndcg = FunctionExercise(
    "q07_ndcg",
    """
    Write ndcg_at_k(ground_truth, retrieved_ids, k): ground_truth maps judged doc ids to grades
    (unjudged ids have grade 0). Divide the DCG@k of retrieved_ids by the IDCG@k, the DCG@k of
    every judged grade > 0 sorted from high to low; return 0.0 when the IDCG is 0 (NDCG,
    归一化折扣累积增益).
    """,
    notebook=_notebook("07_ndcg"),
    reference=lambda ground_truth, retrieved_ids, k: metrics.ndcg_at_k(ground_truth, retrieved_ids, k),
    argnames=("ground_truth", "retrieved_ids", "k"),
    edge_cases=[
        Case(({}, [], 1), "nothing is judged"),
        Case(({"d1": 1}, [], 1), "nothing was retrieved"),
        Case(({"d1": 0}, ["d1"], 1), "the only judged document has grade 0"),
        Case(({"d1": 1}, ["d1"], 1), "the relevant document is at rank 1"),
        Case(({"d1": 1, "d2": 1}, ["d1"], 1), "two relevant documents, k = 1"),
        Case(({"d1": 2, "d2": 1}, ["d2"], 1), "the best document was never retrieved"),
        Case(({"d1": 0, "d2": 1}, ["d1", "d2"], 2), "a grade-0 judged document on top"),
        Case(({"d1": 2, "d2": 2}, ["d2", "d1"], 2), "tied grades in either order"),
        Case(({"d1": 2, "d2": 3, "d3": 0}, ["d1", "d2", "d3"], 3), "grades 2, 3, 0 retrieved in that order"),
        Case(
            ({"A": 3, "B": 2, "C": 1, "D": 3}, ["A", "B", "C", "D"], 4),
            "grades 3, 2, 1, 3 retrieved in that order",
        ),
        Case(
            ({101: 3, 205: 2, 309: 1}, [999, 205, 101, 888, 309], 5),
            "unjudged ids 999 and 888 among the results",
        ),
    ],
    random_case=_random_judged_query_at_k,
    hint="""
    Look up each retrieved id with ground_truth.get(doc, 0) to get the grades in rank order. For
    the ideal ranking sort ALL the judged grades > 0 from high to low, not only those retrieved.
    Cut both lists at k, and return 0.0 if the ideal DCG is 0.
    """,
    solution=ndcg_at_k,
    solution_imports="import math",
    mistakes=[
        Mistake(_ndcg_ideal_from_retrieved, _IDEAL_FROM_RETRIEVED),
        Mistake(_ndcg_ideal_from_top_k, _IDEAL_FROM_RETRIEVED),
        Mistake(_ndcg_ideal_uncut, "the ideal DCG is not cut at k; cut the ideal ranking at k as well"),
        Mistake(_ndcg_dcg_uncut, "the DCG of the ranking is not cut at k; use the first k retrieved ids"),
        Mistake(
            _ndcg_exponential,
            "this uses the exponential gain 2**grade - 1; this exercise uses the grade itself as the "
            "gain",
        ),
        Mistake(
            _ndcg_unguarded,
            "this fails when no judged document has a grade > 0; return 0.0 when the IDCG is 0",
        ),
    ],
)
