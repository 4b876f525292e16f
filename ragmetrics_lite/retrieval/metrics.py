"""Per-query retrieval metrics with trec_eval's semantics.

Reference replicated: NIST trec_eval 10 (``pytrec_eval`` in Python). The
equivalent call for one query is::

    pytrec_eval.RelevanceEvaluator({"q": relevant}, {"P.5", "recall.5", ...},
                                   relevance_level=1).evaluate({"q": run})

with the run's scores making ``retrieved`` its order; each function's docstring names its measure.

Conventions, all trec_eval's:

* ``relevant`` is ``{doc_id: grade}`` (ints; documents not in it are unjudged,
  grade 0) or a collection of relevant ids (grade 1 each).
* ``retrieved`` is the ranked list of ids, best first.
* A document is relevant when its grade >= ``relevance_level`` (default 1).
  Negative grades are legal and count as not relevant, with gain 0 (trec_eval
  reads them as "pooled but not judged"; for every metric here that has the
  same effect as grade 0).
* Recall and AP divide by *every* relevant document in the judgments,
  retrieved or not, also with a cut-off. Precision@k divides by k even when
  fewer than k documents were retrieved.
* NDCG uses the grade itself as the gain (``gain="linear"``), the discount
  1/log2(rank + 1), and an ideal ranking built from every judged document
  with a grade > 0; it ignores ``relevance_level``.
* A query with nothing relevant scores 0, never NaN.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .._validation import as_grades, as_ranking, check_grade, check_id_kinds, check_k, check_relevance_level

__all__ = ["recall_at_k", "precision_at_k", "hit_at_k", "reciprocal_rank", "average_precision", "r_precision",
           "dcg_at_k", "ndcg_at_k", "judged_at_k"]

GAINS = ("linear", "exponential")


def _prepare(relevant, retrieved, relevance_level=1):
    """Validated ``(grades, ranking, relevant_ids)`` for one query."""
    grades = as_grades(relevant)
    ranking = as_ranking(retrieved)
    check_id_kinds(("relevant", grades), ("retrieved", ranking))
    level = check_relevance_level(relevance_level)
    relevant_ids = {doc for doc, grade in grades.items() if grade >= level}
    return grades, ranking, relevant_ids


def _hits(ranking: list, relevant_ids: set, k: int | None) -> list[bool]:
    """For each of the top-k ranks, whether the document there is relevant."""
    top = ranking if k is None else ranking[:k]
    return [doc in relevant_ids for doc in top]


def recall_at_k(relevant, retrieved, k: int, relevance_level: int = 1) -> float:
    r"""Share of all relevant documents that appear in the top k.

    .. math:: \mathrm{Recall@k} = \frac{|\mathrm{relevant} \cap \mathrm{top}_k|}{|\mathrm{relevant}|}

    trec_eval ``recall_k``. Derived in ``notebooks/01_recall_at_k.ipynb``.

    >>> recall_at_k({"a", "b", "c"}, ["a", "x", "b", "y", "z"], k=5)
    0.6666666666666666
    """
    k = check_k(k)
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    if not relevant_ids:
        return 0.0
    return sum(_hits(ranking, relevant_ids, k)) / len(relevant_ids)


def precision_at_k(relevant, retrieved, k: int, relevance_level: int = 1) -> float:
    r"""Share of the top k that is relevant; divides by k even if fewer were retrieved.

    .. math:: \mathrm{P@k} = \frac{|\mathrm{relevant} \cap \mathrm{top}_k|}{k}

    trec_eval ``P_k``. Derived in ``notebooks/03_precision_at_k.ipynb``.

    >>> precision_at_k({"a"}, ["a", "b"], k=4)
    0.25
    """
    k = check_k(k)
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    return sum(_hits(ranking, relevant_ids, k)) / k


def hit_at_k(relevant, retrieved, k: int, relevance_level: int = 1) -> float:
    r"""1.0 if at least one relevant document is in the top k, else 0.0.

    .. math:: \mathrm{Hit@k} = [\,|\mathrm{relevant} \cap \mathrm{top}_k| \ge 1\,]

    Its mean over queries is the hit rate. trec_eval ``success_k``.
    Derived in ``notebooks/02_hit_rate_at_k.ipynb``.

    >>> hit_at_k({"a", "b"}, ["x", "y", "b"], k=2), hit_at_k({"a", "b"}, ["x", "y", "b"], k=3)
    (0.0, 1.0)
    """
    k = check_k(k)
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    return 1.0 if any(_hits(ranking, relevant_ids, k)) else 0.0


def reciprocal_rank(relevant, retrieved, k: int | None = None, relevance_level: int = 1) -> float:
    r"""1 / rank of the first relevant document (0 if none in the top k).

    .. math:: \mathrm{RR} = \frac{1}{\mathrm{rank}_{\text{first relevant}}}

    trec_eval ``recip_rank`` (with ``k``: on the run truncated to k).
    Its mean over queries is MRR. Derived in ``notebooks/04_mrr.ipynb``.

    >>> reciprocal_rank({"b"}, ["a", "b", "c"])
    0.5
    >>> reciprocal_rank({"c"}, ["a", "b", "c"], k=2)
    0.0
    """
    k = check_k(k, allow_none=True)
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    for rank, is_relevant in enumerate(_hits(ranking, relevant_ids, k), start=1):
        if is_relevant:
            return 1.0 / rank
    return 0.0


def average_precision(relevant, retrieved, k: int | None = None, relevance_level: int = 1) -> float:
    r"""Mean of Precision@rank over the ranks of relevant documents, divided by *all* relevant.

    .. math:: \mathrm{AP@k} = \frac{1}{|\mathrm{relevant}|}
              \sum_{i \le k,\ d_i \in \mathrm{relevant}} \mathrm{P@}i

    Relevant documents never retrieved (or below k) contribute 0 but still
    count in the denominator. trec_eval ``map`` (``map_cut_k`` with ``k``).
    Derived in ``notebooks/05_map.ipynb``.

    >>> round(average_precision({"d1", "d4", "d7"}, ["d1", "n2", "n3", "d4", "n5", "n6", "d7"]), 4)
    0.6429
    """
    k = check_k(k, allow_none=True)
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    if not relevant_ids:
        return 0.0
    found, total = 0, 0.0
    for rank, is_relevant in enumerate(_hits(ranking, relevant_ids, k), start=1):
        if is_relevant:
            found += 1
            total += found / rank
    return total / len(relevant_ids)


def r_precision(relevant, retrieved, relevance_level: int = 1) -> float:
    r"""Precision at rank R, where R is the number of relevant documents.

    .. math:: \mathrm{R\text{-}Precision} = \frac{|\mathrm{relevant} \cap \mathrm{top}_R|}{R},
              \quad R = |\mathrm{relevant}|

    At that cut-off precision and recall are equal. trec_eval ``Rprec``.
    Derived in ``notebooks/03_precision_at_k.ipynb``.

    >>> r_precision({"a", "b"}, ["a", "x", "b"])
    0.5
    """
    _, ranking, relevant_ids = _prepare(relevant, retrieved, relevance_level)
    if not relevant_ids:
        return 0.0
    return sum(_hits(ranking, relevant_ids, len(relevant_ids))) / len(relevant_ids)


def _gain(grade: int, gain: str) -> float:
    """Linear: the grade; exponential: 2**grade - 1. Grades <= 0 give 0."""
    if grade <= 0:
        return 0.0
    if gain == "exponential" and grade > 1023:  # 2.0**1024 is past the largest float
        raise ValueError(f"exponential gain 2**{grade} - 1 is too large for a float (grades up to 1023); "
                         "use gain='linear' for grades this large")
    return float(grade) if gain == "linear" else 2.0**grade - 1.0


def _check_gain(gain: str) -> str:
    if gain not in GAINS:
        raise ValueError(f"gain must be one of {GAINS}, got {gain!r}")
    return gain


def dcg_at_k(relevances: Sequence[int], k: int | None, gain: str = "linear") -> float:
    r"""Discounted cumulative gain of grades given in rank order.

    .. math:: \mathrm{DCG@k} = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)},
              \quad g(r) = r \text{ (linear) or } 2^r - 1 \text{ (exponential)}

    Negative grades give gain 0, as in trec_eval. ``k=None`` uses every grade.
    Derived in ``notebooks/06_dcg.ipynb``.

    >>> round(dcg_at_k([3, 2, 1, 3], k=4), 3)
    6.054
    >>> round(dcg_at_k([3, 2, 1, 3], k=4, gain="exponential"), 3)
    12.408
    """
    k = check_k(k, allow_none=True)
    _check_gain(gain)
    if isinstance(relevances, (str, bytes)):
        raise TypeError("relevances must be a list of integer grades in rank order, not a string")
    grades = [check_grade(g, f"rank {i}") for i, g in enumerate(relevances, start=1)]
    top = grades if k is None else grades[:k]
    return sum(_gain(g, gain) / math.log2(rank + 1) for rank, g in enumerate(top, start=1))


def ndcg_at_k(relevant, retrieved, k: int | None, gain: str = "linear") -> float:
    r"""DCG of the ranking divided by the DCG of the ideal ranking (IDCG).

    .. math:: \mathrm{NDCG@k} = \frac{\mathrm{DCG@k}}{\mathrm{IDCG@k}}

    The ideal ranking sorts *every* judged document with a grade > 0 by grade,
    retrieved or not; unjudged documents have grade 0. There is no
    ``relevance_level``: graded gain needs no threshold. trec_eval
    ``ndcg_cut_k`` (``ndcg`` with ``k=None``). Derived in ``notebooks/07_ndcg.ipynb``.

    >>> round(ndcg_at_k({101: 3, 205: 2, 309: 1}, [999, 205, 101, 888, 309], k=5), 4)
    0.6612
    """
    k = check_k(k, allow_none=True)
    _check_gain(gain)
    grades, ranking, _ = _prepare(relevant, retrieved)
    ideal = sorted((g for g in grades.values() if g > 0), reverse=True)
    ideal_dcg = dcg_at_k(ideal, k, gain)
    if ideal_dcg == 0:
        return 0.0
    return dcg_at_k([grades.get(doc, 0) for doc in ranking], k, gain) / ideal_dcg


def judged_at_k(relevant, retrieved, k: int) -> float:
    r"""Share of the top k that carries a judgment (any grade, 0 included), divided by k.

    .. math:: \mathrm{Judged@k} = \frac{|\mathrm{judged} \cap \mathrm{top}_k|}{k}

    Not a quality metric: it says how much of a ranking the judgments cover.
    Every other metric reads an unjudged document as not relevant, so a system
    whose top k is poorly judged (one designed after the pool was judged) is
    underrated by them. Divides by k even when fewer than k were retrieved, so
    an empty ranking (a query missing from the run) scores 0. ``relevant``
    must be ``{doc_id: grade}``: a bare collection of ids lists no judged
    non-relevant documents. trec_eval has no such measure. ir_measures'
    ``Judged@k`` differs: it breaks score ties by doc id ascending
    (``evaluate`` follows trec_eval: descending), and it skips queries
    missing from the run instead of scoring them 0; its recent versions also
    divide by the number retrieved when fewer than k were.
    Derived in ``notebooks/18_capstone_golden_set.ipynb``.

    >>> judged_at_k({"a": 2, "b": 0}, ["a", "x", "b", "y"], k=4)
    0.5
    >>> judged_at_k({"a": 2}, [], k=10)
    0.0
    """
    k = check_k(k)
    if not isinstance(relevant, Mapping):  # a set of ids would count only the relevant ones as judged
        raise TypeError(f"relevant must be {{doc_id: grade}} (every judged document, grade 0 included), "
                        f"got {type(relevant).__name__}")
    grades, ranking, _ = _prepare(relevant, retrieved)
    return sum(doc in grades for doc in ranking[:k]) / k
