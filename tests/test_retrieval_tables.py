"""Small hand-computed tables: each expected number is written as the fraction or
log expression it comes from, never copied from our own output.

The examples are the source notes' worked examples. Where the notes print a
rounded number, the test also checks that rounding; where a note is wrong, the
test shows how the wrong number arises and asserts the right one.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import (
    average_precision,
    dcg_at_k,
    evaluate,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)

EXACT = 1e-12
log2 = math.log2


def near(value: float, expected: float | Fraction) -> bool:
    return abs(value - float(expected)) <= EXACT


# --------------------------------------------------------------------------- DCG
GRADES = [3, 2, 1, 3]  # the notes' four documents A, B, C, D in rank order
# rank i -> discount log2(i + 1) and the linear term grade / log2(i + 1)
DCG_TABLE = [
    (1, 1.0, 3 / 1.0),
    (2, log2(3), 2 / log2(3)),
    (3, 2.0, 1 / 2.0),
    (4, log2(5), 3 / log2(5)),
]


def test_dcg_table_rank_by_rank():
    for rank, discount, term in DCG_TABLE:
        assert near(2 ** discount, rank + 1)
        assert near(dcg_at_k(GRADES, rank) - (dcg_at_k(GRADES, rank - 1) if rank > 1 else 0.0), term)
    # the notes' rounded terms: 3.000, 1.262, 0.500, 1.292
    assert [round(term, 3) for _, _, term in DCG_TABLE] == [3.0, 1.262, 0.5, 1.292]


def test_dcg_linear_total():
    expected = 3 + 2 / log2(3) + 1 / 2 + 3 / log2(5)
    assert near(dcg_at_k(GRADES, 4), expected)
    assert round(dcg_at_k(GRADES, 4), 3) == 6.054  # the notes' DCG@4
    assert near(dcg_at_k(GRADES, None), expected) and near(dcg_at_k(GRADES, 10), expected)
    assert near(dcg_at_k(GRADES, 2), 3 + 2 / log2(3))


def test_dcg_exponential_total():
    """Gain 2**grade - 1: 7, 3, 1, 7."""
    expected = 7 / 1 + 3 / log2(3) + 1 / 2 + 7 / log2(5)
    assert near(dcg_at_k(GRADES, 4, gain="exponential"), expected)
    assert round(expected, 3) == 12.408


def test_dcg_negative_and_zero_grades_give_no_gain():
    assert near(dcg_at_k([-2, 0, 2], 3), 2 / 2)
    assert near(dcg_at_k([-2, 0, 2], 3, gain="exponential"), 3 / 2)
    assert dcg_at_k([], 5) == 0.0


def test_dcg_upper_bounds_in_the_notes():
    """The notes: 5 documents graded 3 -> DCG at most ~12.8; 1 document graded 3 -> ~3.0.

    With the discount 1/log2(i + 1) five 3s give 8.845; 12.8 is what the
    natural log gives (3 * sum 1/ln(i + 1) = 12.76). The second bound, 3.0, is
    right with log2 (with ln it would be 3/ln 2 = 4.33), so the first is the slip.
    """
    five_threes = 3 * sum(1 / log2(i + 1) for i in range(1, 6))
    assert near(dcg_at_k([3] * 5, 5), five_threes)
    assert round(five_threes, 3) == 8.845
    assert round(3 * sum(1 / math.log(i + 1) for i in range(1, 6)), 1) == 12.8  # how the notes got theirs
    assert dcg_at_k([3], 1) == 3.0


# --------------------------------------------------------------------------- NDCG
def test_ndcg_at_4_with_ideal_3_3_2_1():
    relevant = {"A": 3, "B": 2, "C": 1, "D": 3}
    ideal = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)  # grades sorted: [3, 3, 2, 1]
    actual = 3 + 2 / log2(3) + 1 / 2 + 3 / log2(5)
    # The notes print IDCG@4 = 6.324: the sum of their rounded terms 3.000 + 1.893 + 1.000 + 0.431.
    # The exact sum is 6.32347, i.e. 6.323 to three places.
    assert round(ideal, 3) == 6.323
    assert round(3.000 + round(3 / log2(3), 3) + 1.000 + round(1 / log2(5), 3), 3) == 6.324
    assert near(ndcg_at_k(relevant, ["A", "B", "C", "D"], 4), actual / ideal)
    assert round(actual / ideal, 3) == 0.957  # the notes' NDCG@4


def test_ndcg_3893_over_4262():
    """Grades 3, 2, 0 ranked as 2, 3, 0: DCG = 2 + 3/log2 3, IDCG = 3 + 2/log2 3."""
    relevant = {"x": 3, "y": 2, "z": 0}
    actual, ideal = 2 + 3 / log2(3), 3 + 2 / log2(3)
    assert (round(actual, 3), round(ideal, 3), round(actual / ideal, 3)) == (3.893, 4.262, 0.913)
    assert near(dcg_at_k([2, 3, 0], 3), actual) and near(dcg_at_k([3, 2, 0], 3), ideal)
    assert near(ndcg_at_k(relevant, ["y", "x", "z"], 3), actual / ideal)
    assert near(ndcg_at_k(relevant, ["x", "y", "z"], 3), 1.0)


GROUND_TRUTH = {101: 3, 205: 2, 309: 1}
RETRIEVED = [999, 205, 101, 888, 309]


def test_ground_truth_example_recall_is_1_but_ndcg_is_not():
    assert recall_at_k(GROUND_TRUTH, RETRIEVED, 5) == 1.0
    actual = 0 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    ideal = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    assert near(ndcg_at_k(GROUND_TRUTH, RETRIEVED, 5), actual / ideal)
    assert round(actual / ideal, 4) == 0.6612 and actual / ideal < 1
    assert near(ndcg_at_k(GROUND_TRUTH, [101, 205, 309, 999, 888], 5), 1.0)


def test_ground_truth_example_with_binary_grades():
    binary = {101: 1, 205: 1, 309: 1}
    actual = 1 / log2(3) + 1 / log2(4) + 1 / log2(6)
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    assert near(ndcg_at_k(binary, RETRIEVED, 5), actual / ideal)
    assert near(ndcg_at_k({101, 205, 309}, RETRIEVED, 5), actual / ideal)  # a set means grade 1


def test_ground_truth_example_through_evaluate():
    scores = evaluate({7: GROUND_TRUTH}, {7: RETRIEVED}, ["recall@5", "ndcg@5", "mrr", "precision@5"])
    row = scores.loc["7"]
    ideal = 3 + 2 / log2(3) + 1 / 2
    assert row["recall@5"] == 1.0 and row["mrr"] == 0.5 and near(row["precision@5"], Fraction(3, 5))
    assert near(row["ndcg@5"], (2 / log2(3) + 3 / 2 + 1 / log2(6)) / ideal)


def test_ndcg_ideal_uses_unretrieved_judged_documents():
    """The ideal ranking holds every judged document with grade > 0, retrieved or not."""
    relevant = {"a": 1, "b": 3}  # b is never retrieved
    assert near(ndcg_at_k(relevant, ["a"], None), 1 / (3 + 1 / log2(3)))
    assert near(ndcg_at_k(relevant, ["a"], 1), 1 / 3)
    assert ndcg_at_k({"a": 0, "b": -1}, ["a", "b"], None) == 0.0  # nothing to gain: 0, not NaN


# --------------------------------------------------------------------------- recall, hit rate, precision
def test_recall_two_of_three():
    """3 relevant documents, the top 5 finds 2: Recall@5 = 2/3."""
    relevant, retrieved = {"r1", "r2", "r3"}, ["r1", "n1", "r3", "n2", "n3", "r2"]
    assert near(recall_at_k(relevant, retrieved, 5), Fraction(2, 3))
    assert near(recall_at_k(relevant, retrieved, 6), 1)
    assert near(precision_at_k(relevant, retrieved, 5), Fraction(2, 5))


def test_hit_rate_versus_recall():
    """The notes: finding 1 of 4 or 4 of 4 both give a hit, recall 0.25 and 1."""
    relevant = ["r1", "r2", "r3", "r4"]
    one, four = ["r1", "n1", "n2", "n3"], ["r4", "r1", "r3", "r2"]
    assert hit_at_k(relevant, one, 4) == hit_at_k(relevant, four, 4) == 1.0
    assert (recall_at_k(relevant, one, 4), recall_at_k(relevant, four, 4)) == (0.25, 1.0)


def test_hit_rate_seven_of_ten_queries():
    qrels = {f"q{i}": {"rel": 1} for i in range(10)}
    run = {f"q{i}": (["rel", "x"] if i < 7 else ["x", "y"]) for i in range(10)}
    assert near(evaluate(qrels, run, ["hit_rate@2"])["hit_rate@2"].mean(), Fraction(7, 10))


def test_precision_divides_by_k_even_when_fewer_were_retrieved():
    assert near(precision_at_k({"a"}, ["a"], 5), Fraction(1, 5))
    assert precision_at_k({"a"}, [], 5) == 0.0


# --------------------------------------------------------------------------- MRR and AP
def test_mrr_of_ranks_1_3_2():
    expected = (Fraction(1, 1) + Fraction(1, 3) + Fraction(1, 2)) / 3
    assert expected == Fraction(11, 18) and round(float(expected), 4) == 0.6111
    relevant = {"hit"}
    lists = [["hit", "a", "b"], ["a", "b", "hit"], ["a", "hit", "b"]]
    per_query = [reciprocal_rank(relevant, ranking) for ranking in lists]
    assert per_query == [1.0, 1 / 3, 0.5]
    assert near(np.mean(per_query), expected)
    scores = evaluate({q: {"hit": 1} for q in "xyz"}, dict(zip("xyz", lists)), ["mrr", "mrr@2"])
    assert near(scores["mrr"].mean(), expected)
    assert near(scores["mrr@2"].mean(), (Fraction(1) + 0 + Fraction(1, 2)) / 3)  # rank 3 is cut


def test_mrr_counts_the_rank_of_the_first_relevant_not_the_first_result():
    assert reciprocal_rank({"b"}, ["a", "b"]) == 0.5
    assert reciprocal_rank({"z"}, ["a", "b"]) == 0.0


AP_RANKING = ["R1", "N2", "N3", "R4", "N5", "N6", "R7", "N8", "N9", "N10"]
AP_RELEVANT = {"R1", "R4", "R7"}


def test_average_precision_r_n_n_r_n_n_r():
    expected = (Fraction(1, 1) + Fraction(2, 4) + Fraction(3, 7)) / 3
    assert expected == Fraction(9, 14) and round(float(expected), 4) == 0.6429
    assert near(average_precision(AP_RELEVANT, AP_RANKING), expected)
    # the notes' pitfall: Precision@7 = 3/7 is not AP
    assert near(precision_at_k(AP_RELEVANT, AP_RANKING, 7), Fraction(3, 7))
    assert round(3 / 7, 2) == 0.43


def test_average_precision_divides_by_every_relevant_document():
    relevant = AP_RELEVANT | {"never_retrieved"}
    assert near(average_precision(relevant, AP_RANKING), (1 + Fraction(2, 4) + Fraction(3, 7)) / 4)
    assert near(average_precision(AP_RELEVANT, AP_RANKING, k=5), (1 + Fraction(2, 4)) / 3)


def test_map_keeps_queries_with_nothing_found():
    """A query whose relevant documents were all missed has AP 0 and stays in the mean."""
    qrels = {"good": {d: 1 for d in AP_RELEVANT}, "miss": {"r": 1}}
    run = {"good": AP_RANKING, "miss": ["x", "y"]}
    scores = evaluate(qrels, run, ["map"])
    assert near(scores.loc["miss", "map"], 0)
    assert near(scores["map"].mean(), Fraction(9, 14) / 2)


def test_r_precision_table():
    """R = 3 relevant: precision in the top 3."""
    assert near(r_precision({"a", "b", "c"}, ["a", "x", "b", "c"]), Fraction(2, 3))
    assert near(r_precision(AP_RELEVANT, AP_RANKING), Fraction(1, 3))
    assert r_precision({"a": 0}, ["a"]) == 0.0


def test_relevance_level_2_table():
    """At level 2 only grades >= 2 are relevant; NDCG still uses every grade."""
    relevant = {"g3": 3, "g1": 1, "g2": 2}
    ranking = ["g1", "g2", "x", "g3"]
    assert near(recall_at_k(relevant, ranking, 2, relevance_level=2), Fraction(1, 2))
    assert reciprocal_rank(relevant, ranking, relevance_level=2) == 0.5
    assert near(average_precision(relevant, ranking, relevance_level=2), (Fraction(1, 2) + Fraction(2, 4)) / 2)
    scores = evaluate({"q": relevant}, {"q": ranking}, ["recall@2", "mrr", "map"], relevance_level=2)
    assert scores.loc["q"].tolist() == [0.5, 0.5, 0.5]


# --------------------------------------------------------------------------- exponential gain
def test_exponential_ndcg_is_linear_ndcg_on_2_to_the_g_minus_1():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(2000):
        docs = [f"d{i}" for i in range(int(rng.integers(1, 15)))]
        grades = {d: int(rng.integers(-1, 5)) for d in docs if rng.random() < 0.7}
        if not grades:
            continue
        exponential = {d: (2**g - 1 if g > 0 else 0) for d, g in grades.items()}
        ranking = list(rng.permutation(docs + ["u1", "u2"]))[: int(rng.integers(0, len(docs) + 3))]
        for k in (None, 1, 3, 10):
            assert abs(ndcg_at_k(grades, ranking, k, gain="exponential") - ndcg_at_k(exponential, ranking, k)) <= EXACT
        checked += 1
    assert checked > 1500


def test_exponential_differs_from_linear_when_grades_differ():
    relevant = {"a": 1, "b": 3}
    linear = (1 + 3 / log2(3)) / (3 + 1 / log2(3))
    exponential = (1 + 7 / log2(3)) / (7 + 1 / log2(3))
    assert near(ndcg_at_k(relevant, ["a", "b"], 2), linear)
    assert near(ndcg_at_k(relevant, ["a", "b"], 2, gain="exponential"), exponential)
    assert exponential < linear  # exponential gain punishes a misplaced top document harder
    # with binary grades 2**1 - 1 = 1: the two gains agree
    assert ndcg_at_k({"a": 1, "b": 1}, ["x", "a"], 2) == ndcg_at_k({"a": 1, "b": 1}, ["x", "a"], 2, gain="exponential")


def test_dcg_at_k_on_evaluate_matches_the_table():
    qrels = {"q": {"A": 3, "B": 2, "C": 1, "D": 3}}
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": list("ABCD"), "score": [4.0, 3.0, 2.0, 1.0]})
    scores = evaluate(qrels, run, ["dcg@4", "dcg@2", "ndcg@4"])
    assert near(scores.loc["q", "dcg@4"], 3 + 2 / log2(3) + 1 / 2 + 3 / log2(5))
    assert near(scores.loc["q", "dcg@2"], 3 + 2 / log2(3))
    assert near(scores.loc["q", "ndcg@4"],
                (3 + 2 / log2(3) + 1 / 2 + 3 / log2(5)) / (3 + 3 / log2(3) + 1 + 1 / log2(5)))


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_ndcg_at_k_table_by_cut_off(k):
    """NDCG@k of grades [3, 2, 1, 3] against the ideal [3, 3, 2, 1], cut by cut."""
    actual = [3, 2 / log2(3), 1 / 2, 3 / log2(5)]
    ideal = [3, 3 / log2(3), 2 / 2, 1 / log2(5)]
    relevant = {"A": 3, "B": 2, "C": 1, "D": 3}
    assert near(ndcg_at_k(relevant, ["A", "B", "C", "D"], k), sum(actual[:k]) / sum(ideal[:k]))
