"""What is particular to the retrieval exercises q01-q07 and q03_r_precision.

What every exercise must do is tested once, over the registry, in
test_exercise_registry.py. Here: wrong answers written as a learner writes them
(the source notes' slips among them) earn the right diagnosis, three messages
are pinned word for word, the expected values are the helper's,
and the cases reach the edges of these metrics.
"""
from __future__ import annotations

import math

import pytest

import ragmetrics_lite
from ragmetrics_lite.course.exercises import REGISTRY
from tests.helpers import assert_wrong_answer_diagnosed, disagrees, wrong_answer, wrong_answers

q01_recall = REGISTRY["q01_recall"]
q02_hit_rate = REGISTRY["q02_hit_rate"]
q03_precision = REGISTRY["q03_precision"]
q03_r_precision = REGISTRY["q03_r_precision"]
q04_mrr = REGISTRY["q04_mrr"]
q05_average_precision = REGISTRY["q05_average_precision"]
q06_dcg = REGISTRY["q06_dcg"]
q07_ndcg = REGISTRY["q07_ndcg"]


# ------------------------------------------------------------------ wrong answers, as a learner writes them
@wrong_answer(q01_recall, "Precision@k")
def recall_over_k(relevant, retrieved, k):
    return len([d for d in retrieved[:k] if d in relevant]) / k


@wrong_answer(q01_recall, "found by themselves")
def recall_over_retrieved_relevant(relevant, retrieved, k):
    found = [d for d in retrieved[:k] if d in relevant]
    return len(found) / len(found) if found else 0.0


@wrong_answer(q01_recall, "the hit (success@k)")
def recall_as_hit(relevant, retrieved, k):
    # success@k: 1 when any relevant document is in the top k
    for doc in retrieved[:k]:
        if doc in relevant:
            return 1
    return 0


@wrong_answer(q01_recall, "returns True or False")
def recall_as_hit_bool(relevant, retrieved, k):
    return any(doc in relevant for doc in retrieved[:k])


@wrong_answer(q02_hit_rate, "mean Recall@k")
def hit_rate_as_recall(relevant_sets, rankings, k):
    scores = []
    for relevant, ranking in zip(relevant_sets, rankings):
        found = len(set(ranking[:k]) & relevant)
        scores.append(found / len(relevant) if relevant else 0.0)
    return sum(scores) / len(scores)


@wrong_answer(q03_precision, "divides by the number of documents retrieved")
def precision_over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    if not top:
        return 0.0
    return len([d for d in top if d in relevant]) / len(top)


@wrong_answer(q04_mrr, "the score of the first result, relevant or not")
def mrr_first_result_always(predictions, ground_truths):
    # the source notes' warning: the first result's rank taken whether it is relevant or not
    return sum(1 / 1 for _ in predictions) / len(predictions)


@wrong_answer(q04_mrr, "the score of the first result, relevant or not")
def mrr_first_result_of_each_list(predictions, ground_truths):
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        for rank, doc in enumerate(preds, start=1):
            score += 1.0 / rank  # forgot to test `doc in truths`
            break
    return score / len(predictions)


@wrong_answer(q04_mrr, "which is the hit rate")
def mrr_as_hit_rate(predictions, ground_truths):
    # rank 1 used whenever something relevant was retrieved: really the hit rate
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        if any(doc in truths for doc in preds):
            score += 1.0 / 1
    return score / len(predictions)


@wrong_answer(q04_mrr, "every relevant result")
def mrr_without_break(predictions, ground_truths):
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        for rank, doc in enumerate(preds, start=1):
            if doc in truths:
                score += 1.0 / rank
    return score / len(predictions)


@wrong_answer(q05_average_precision, "AP divides by all relevant documents")
def ap_over_retrieved_relevant(relevant, retrieved):
    # the source notes' formula: average of the precisions at the retrieved relevant documents
    precisions, found = [], 0
    for rank, doc in enumerate(retrieved, start=1):
        if doc in relevant:
            found += 1
            precisions.append(found / rank)
    if not precisions:
        return 0.0
    return sum(precisions) / len(precisions)


@wrong_answer(q05_average_precision, "this is Precision@K")
def ap_is_precision_at_k(relevant, retrieved):
    if not retrieved:
        return 0.0
    return len(set(retrieved) & relevant) / len(retrieved)


@wrong_answer(q06_dcg, "log2(rank)")
def dcg_log2_i(relevances, k):
    return sum(rel / math.log2(i) for i, rel in enumerate(relevances[:k], start=1))


@wrong_answer(q06_dcg, "counting from 0")
def dcg_zero_based(relevances, k):
    total = 0.0
    for i, rel in enumerate(relevances[:k]):
        total += rel / math.log2(i + 1)
    return total


@wrong_answer(q06_dcg, "a negative grade subtract")
def dcg_raw_grades(relevances, k):
    return sum(rel / math.log2(i + 1) for i, rel in enumerate(relevances[:k], start=1))


@wrong_answer(q06_dcg, "natural log")
def dcg_natural_log(relevances, k):
    return sum(max(rel, 0) / math.log(i + 1) for i, rel in enumerate(relevances[:k], start=1))


def _dcg(grades, k):
    return sum(max(g, 0) / math.log2(i + 1) for i, g in enumerate(grades[:k], start=1))


@wrong_answer(q07_ndcg, "ideal ranking from the retrieved documents only")
def ndcg_idcg_from_retrieved(ground_truth, retrieved_ids, k):
    # the source notes' pitfall: the ideal ranking built from the retrieved documents only
    grades = [ground_truth.get(d, 0) for d in retrieved_ids[:k]]
    idcg = _dcg(sorted(grades, reverse=True), k)
    return _dcg(grades, k) / idcg if idcg > 0 else 0.0


@wrong_answer(q07_ndcg, "not cut at k")
def ndcg_idcg_uncut(ground_truth, retrieved_ids, k):
    grades = [ground_truth.get(d, 0) for d in retrieved_ids[:k]]
    ideal = sorted(ground_truth.values(), reverse=True)
    idcg = _dcg(ideal, len(ideal))
    return _dcg(grades, k) / idcg if idcg > 0 else 0.0


@wrong_answer(q01_recall, "R_cap@k of notebook 01")
def recall_capped(relevant, retrieved, k):
    # BEIR's R_cap@k, which notebook 01 shows as a variant
    if not relevant:
        return 0.0
    return len([d for d in retrieved[:k] if d in relevant]) / min(len(relevant), k)


@wrong_answer(q07_ndcg, "negative gain")
def ndcg_raw_grades(ground_truth, retrieved_ids, k):
    # notebook 07's "wrong (raw grades)": a negative grade as a negative gain
    def dcg(grades):
        return sum(g / math.log2(i + 1) for i, g in enumerate(grades[:k], start=1))

    idcg = dcg(sorted((g for g in ground_truth.values() if g > 0), reverse=True))
    return dcg([ground_truth.get(d, 0) for d in retrieved_ids]) / idcg if idcg else 0.0


@wrong_answer(q07_ndcg, "log2(1) = 0 at rank 1")
def ndcg_log2_i(ground_truth, retrieved_ids, k):
    def dcg(grades):
        return sum(max(g, 0) / math.log2(i) for i, g in enumerate(grades[:k], start=1))

    idcg = dcg(sorted((g for g in ground_truth.values() if g > 0), reverse=True))
    return dcg([ground_truth.get(d, 0) for d in retrieved_ids]) / idcg if idcg else 0.0


@wrong_answer(q03_r_precision, "divides by R")
def r_precision_over_retrieved(relevant, retrieved):
    top = retrieved[: len(relevant)]
    return len([d for d in top if d in relevant]) / len(retrieved) if retrieved else 0.0


@wrong_answer(q03_r_precision, "Precision@10")
def r_precision_at_10(relevant, retrieved):
    # K = 10 as in notebook 03's comparison, instead of R
    return len([d for d in retrieved[:10] if d in relevant]) / 10


@wrong_answer(q03_r_precision, "min(R, len(retrieved))")
def r_precision_over_shorter(relevant, retrieved):
    top = retrieved[: len(relevant)]
    return len([d for d in top if d in relevant]) / len(top) if top else 0.0


WRONG = wrong_answers(globals())


@pytest.mark.parametrize("function", WRONG, ids=lambda function: function.__name__)
def test_a_wrong_answer_as_a_learner_writes_it_gets_its_diagnosis(function):
    assert_wrong_answer_diagnosed(function)


# ------------------------------------------------------------------ the messages that once misled
def test_capped_recall_is_named_as_such_not_as_precision():
    lines = q01_recall.evaluate(recall_capped).message.splitlines()
    assert lines[1:5] == [
        "  case:     more relevant documents than k",
        "  inputs:   relevant={'d1', 'd2', 'd3'}, retrieved=['d1', 'd4'], k=2",
        "  expected: 0.3333333333333333",
        "  got:      0.5",
    ]
    assert "Precision@k" not in lines[5] and "R_cap@k" in lines[5]


def test_negative_grades_as_gains_are_caught():
    # the example: 0.1309 where the helper gives 0.6309
    case = ({"d1": -1, "d2": 2}, ["d1", "d2"], 2)
    assert round(ndcg_raw_grades(*case), 4) == 0.1309 and round(ragmetrics_lite.ndcg_at_k(*case), 4) == 0.6309
    assert any(-1 in c.args[0] for c in q06_dcg.edge_cases)
    assert any(-1 in c.args[0].values() for c in q07_ndcg.edge_cases)
    assert "max(g, 0)" in q07_ndcg.solution_text() and "max(grade, 0)" in q06_dcg.solution_text()
    assert "  case:     a negative grade on top" in q07_ndcg.evaluate(ndcg_raw_grades).message


def test_an_error_at_rank_1_is_shown_at_rank_1_with_the_line_that_raised():
    assert q07_ndcg.evaluate(ndcg_log2_i).message.splitlines() == [
        "Incorrect: your function raised ZeroDivisionError: float division by zero",
        "  case:     the relevant document is at rank 1",
        "  inputs:   ground_truth={'d1': 1}, retrieved_ids=['d1'], k=1",
        "  expected: 1.0",
        "  at line:  return sum(max(g, 0) / math.log2(i) for i, g in enumerate(grades[:k], start=1))",
        "  Diagnosis: this divides by log2(rank), and log2(1) = 0 at rank 1; the discount at rank r is "
        "log2(r + 1).",
    ]


def test_hit_answers_are_named_as_the_hit_rate():
    recall_lines = q01_recall.evaluate(recall_as_hit).message.splitlines()
    assert recall_lines[1:4] == [
        "  case:     k is larger than the list",
        "  inputs:   relevant={'d1', 'd2'}, retrieved=['d1'], k=3",
        "  expected: 0.5",
    ]
    assert recall_lines[5].startswith("  Diagnosis: this gives the hit (success@k)")
    mrr_lines = q04_mrr.evaluate(mrr_as_hit_rate).message.splitlines()
    assert mrr_lines[2] == "  inputs:   predictions=[['d2', 'd1']], ground_truths=[{'d1'}]"
    assert mrr_lines[5].startswith("  Diagnosis: this scores 1 for every query with a relevant result")


# ------------------------------------------------------------------ expected values: the helper's
def test_the_helper_itself_is_a_correct_answer_where_signatures_match():
    pairs = [
        (q01_recall, ragmetrics_lite.recall_at_k),
        (q03_precision, ragmetrics_lite.precision_at_k),
        (q03_r_precision, ragmetrics_lite.r_precision),
        (q05_average_precision, ragmetrics_lite.average_precision),
        (q06_dcg, ragmetrics_lite.dcg_at_k),
        (q07_ndcg, ragmetrics_lite.ndcg_at_k),
    ]
    assert [exercise.evaluate(helper).status for exercise, helper in pairs] == ["correct"] * len(pairs)


@pytest.mark.parametrize(
    "exercise, helper_name",
    [
        (q01_recall, "recall_at_k"),
        (q02_hit_rate, "hit_at_k"),
        (q03_precision, "precision_at_k"),
        (q03_r_precision, "r_precision"),
        (q04_mrr, "reciprocal_rank"),
        (q05_average_precision, "average_precision"),
        (q06_dcg, "dcg_at_k"),
        (q07_ndcg, "ndcg_at_k"),
    ],
)
def test_expected_values_come_from_the_helper(exercise, helper_name, monkeypatch):
    monkeypatch.setattr(ragmetrics_lite, helper_name, lambda *args, **kwargs: 0.125)
    assert all(exercise.expected(case) == 0.125 for case in exercise.cases()[:20])


# ------------------------------------------------------------------ cases reach the edges of these metrics
def test_random_cases_have_empty_lists_k_beyond_the_list_and_hits():
    args = [c.args for c in q01_recall.random_cases()]
    assert any(not relevant for relevant, _, _ in args) and any(not retrieved for _, retrieved, _ in args)
    assert any(k > len(retrieved) for _, retrieved, k in args)
    assert sum(q01_recall.expected(c) > 0 for c in q01_recall.random_cases()) >= 90, "hits are common"
    assert any(len(relevant) > len(retrieved) for relevant, retrieved in (c.args for c in q03_r_precision.cases()))


def test_random_graded_cases_have_negative_zero_and_tied_grades():
    grades = [g for c in q06_dcg.random_cases() for g in c.args[0]]
    assert min(grades) == -1 and 0 in grades
    judged = [c.args[0] for c in q07_ndcg.random_cases()]
    assert any(0 in gt.values() for gt in judged) and any(-1 in gt.values() for gt in judged)
    positive = [[g for g in gt.values() if g > 0] for gt in judged]
    assert any(len(set(grades)) < len(grades) for grades in positive), "tied grades"


@pytest.mark.parametrize(
    "exercise, label, notes_value, places",
    [
        # each worked example of the source notes (and notebook 03's), recomputed by the helper
        (q01_recall, "2 of 3 relevant documents in the top 5", 2 / 3, 9),
        (q02_hit_rate, "10 queries, 7 with a hit", 0.7, 9),
        (q02_hit_rate, "1 of 4 relevant documents found: a hit all the same", 1.0, 9),
        (q03_r_precision, "notebook 03's list: relevant documents at ranks 1, 4 and 7 of 10", 0.33, 2),
        (q04_mrr, "first relevant results at ranks 1, 3 and 2", 0.611, 3),
        (q05_average_precision, "relevant documents at ranks 1, 4 and 7 of 10", 0.6429, 4),
        (q06_dcg, "grades 3, 2, 1, 3", 6.054, 3),
        (q06_dcg, "grades 2, 3, 0", 3.893, 3),
        (q07_ndcg, "grades 3, 2, 1, 3 retrieved in that order", 0.957, 3),
        (q07_ndcg, "grades 2, 3, 0 retrieved in that order", 0.913, 3),
        (q07_ndcg, "unjudged ids 999 and 888 in the list", 0.6612, 4),
    ],
)
def test_worked_examples_are_edge_cases(exercise, label, notes_value, places):
    case = next(c for c in exercise.edge_cases if c.label == label)
    assert round(exercise.expected(case), places) == round(notes_value, places)


def test_a_wrong_value_only_random_inputs_reach_gets_no_diagnosis():
    def recall_wrong_on_long_lists(relevant, retrieved, k):
        value = ragmetrics_lite.recall_at_k(relevant, retrieved, k)
        return value + 1 if len(retrieved) >= 6 and len(relevant) >= 2 else value

    message = q01_recall.evaluate(recall_wrong_on_long_lists).message
    assert "  case:     a random case" in message and "Diagnosis" not in message
    assert any(disagrees(q01_recall, recall_wrong_on_long_lists, c) for c in q01_recall.random_cases())
