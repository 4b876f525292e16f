"""The notebooks' self-checked exercises (ragmetrics_lite.exercises).

Every reference solution passes; the starter's placeholder is "not attempted";
wrong solutions, written as a learner would write them, fail with a real
counterexample, and the source notes' own mistakes get their diagnosis.
"""
from __future__ import annotations

import inspect
import math
import textwrap

import pytest

import ragmetrics_lite
from tests.helpers import disagrees, failing_case, run_with_blocked, stdout_under_hash_seeds
import ragmetrics_lite.retrieval as helper_metrics
from ragmetrics_lite import exercises
from ragmetrics_lite.exercises import (
    CheckResult,
    FunctionExercise,
    ValueExercise,
    ____,
    q01_recall,
    q02_hit_rate,
    q03_precision,
    q04_mrr,
    q05_average_precision,
    q06_dcg,
    q07_ndcg,
)
from ragmetrics_lite.exercises import retrieval as solutions

EXERCISES = {
    "q01_recall": (q01_recall, solutions.recall_at_k, "01_recall_at_k"),
    "q02_hit_rate": (q02_hit_rate, solutions.hit_rate, "02_hit_rate_at_k"),
    "q03_precision": (q03_precision, solutions.precision_at_k, "03_precision_at_k"),
    "q04_mrr": (q04_mrr, solutions.mrr, "04_mrr"),
    "q05_average_precision": (q05_average_precision, solutions.average_precision, "05_map"),
    "q06_dcg": (q06_dcg, solutions.dcg_at_k, "06_dcg"),
    "q07_ndcg": (q07_ndcg, solutions.ndcg_at_k, "07_ndcg"),
}
NAMES = sorted(EXERCISES)
PREFIXES = ("Correct", "Incorrect", "Not attempted")


def _exercise(name):
    return EXERCISES[name][0]


# ------------------------------------------------------------------ wrong answers, as a learner writes them
def recall_over_k(relevant, retrieved, k):
    return len([d for d in retrieved[:k] if d in relevant]) / k


def recall_over_retrieved_relevant(relevant, retrieved, k):
    found = [d for d in retrieved[:k] if d in relevant]
    return len(found) / len(found) if found else 0.0


def recall_as_hit(relevant, retrieved, k):
    # success@k: 1 when any relevant document is in the top k
    for doc in retrieved[:k]:
        if doc in relevant:
            return 1
    return 0


def recall_as_hit_bool(relevant, retrieved, k):
    return any(doc in relevant for doc in retrieved[:k])


def hit_rate_as_recall(relevant_sets, rankings, k):
    scores = []
    for relevant, ranking in zip(relevant_sets, rankings):
        found = len(set(ranking[:k]) & relevant)
        scores.append(found / len(relevant) if relevant else 0.0)
    return sum(scores) / len(scores)


def precision_over_retrieved(relevant, retrieved, k):
    top = retrieved[:k]
    if not top:
        return 0.0
    return len([d for d in top if d in relevant]) / len(top)


def mrr_first_result_always(predictions, ground_truths):
    # the source notes' warning: the first result's rank taken whether it is relevant or not
    return sum(1 / 1 for _ in predictions) / len(predictions)


def mrr_first_result_of_each_list(predictions, ground_truths):
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        for rank, doc in enumerate(preds, start=1):
            score += 1.0 / rank  # forgot to test `doc in truths`
            break
    return score / len(predictions)


def mrr_as_hit_rate(predictions, ground_truths):
    # rank 1 used whenever something relevant was retrieved: really the hit rate
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        if any(doc in truths for doc in preds):
            score += 1.0 / 1
    return score / len(predictions)


def mrr_without_break(predictions, ground_truths):
    score = 0.0
    for preds, truths in zip(predictions, ground_truths):
        for rank, doc in enumerate(preds, start=1):
            if doc in truths:
                score += 1.0 / rank
    return score / len(predictions)


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


def ap_is_precision_at_k(relevant, retrieved):
    if not retrieved:
        return 0.0
    return len(set(retrieved) & relevant) / len(retrieved)


def dcg_log2_i(relevances, k):
    return sum(rel / math.log2(i) for i, rel in enumerate(relevances[:k], start=1))


def dcg_zero_based(relevances, k):
    total = 0.0
    for i, rel in enumerate(relevances[:k]):
        total += rel / math.log2(i + 1)
    return total


def dcg_natural_log(relevances, k):
    return sum(rel / math.log(i + 1) for i, rel in enumerate(relevances[:k], start=1))


def _dcg(grades, k):
    return sum(g / math.log2(i + 1) for i, g in enumerate(grades[:k], start=1))


def ndcg_idcg_from_retrieved(ground_truth, retrieved_ids, k):
    # the source notes' pitfall: the ideal ranking built from the retrieved documents only
    grades = [ground_truth.get(d, 0) for d in retrieved_ids[:k]]
    idcg = _dcg(sorted(grades, reverse=True), k)
    return _dcg(grades, k) / idcg if idcg > 0 else 0.0


def ndcg_idcg_uncut(ground_truth, retrieved_ids, k):
    grades = [ground_truth.get(d, 0) for d in retrieved_ids[:k]]
    ideal = sorted(ground_truth.values(), reverse=True)
    idcg = _dcg(ideal, len(ideal))
    return _dcg(grades, k) / idcg if idcg > 0 else 0.0


# name: (exercise, wrong function, a phrase its diagnosis must contain, or None when none is expected)
WRONG = {
    "recall dividing by k": (q01_recall, recall_over_k, "Precision@k"),
    "recall dividing by retrieved relevant": (q01_recall, recall_over_retrieved_relevant, "found by themselves"),
    "recall as the hit": (q01_recall, recall_as_hit, "the hit (success@k)"),
    "recall as the hit, True/False": (q01_recall, recall_as_hit_bool, "returns True or False"),
    "hit rate as recall": (q02_hit_rate, hit_rate_as_recall, "mean Recall@k"),
    "precision dividing by len(retrieved)": (
        q03_precision, precision_over_retrieved, "divides by the number of documents retrieved"
    ),
    "MRR 1/1 always": (q04_mrr, mrr_first_result_always, "the score of the first result, relevant or not"),
    "MRR first result of each list": (
        q04_mrr, mrr_first_result_of_each_list, "the score of the first result, relevant or not"
    ),
    "MRR as the hit rate": (q04_mrr, mrr_as_hit_rate, "which is the hit rate"),
    "MRR without break": (q04_mrr, mrr_without_break, "every relevant result"),
    "AP over retrieved relevant": (
        q05_average_precision, ap_over_retrieved_relevant, "AP divides by all relevant documents"
    ),
    "AP = Precision@K": (q05_average_precision, ap_is_precision_at_k, "this is Precision@K"),
    "DCG log2(i)": (q06_dcg, dcg_log2_i, "log2(rank)"),
    "DCG 0-based ranks": (q06_dcg, dcg_zero_based, "counting from 0"),
    "DCG natural log": (q06_dcg, dcg_natural_log, "natural log"),
    "NDCG IDCG from retrieved": (
        q07_ndcg, ndcg_idcg_from_retrieved, "ideal ranking from the retrieved documents only"
    ),
    "NDCG IDCG not cut at k": (q07_ndcg, ndcg_idcg_uncut, "not cut at k"),
}





# ------------------------------------------------------------------ reference solutions pass
@pytest.mark.parametrize("name", NAMES)
def test_reference_solution_is_correct(name):
    exercise, solution, _ = EXERCISES[name]
    result = exercise.evaluate(solution)
    assert isinstance(result, CheckResult)
    assert result.status == "correct", result.message
    assert result.message.startswith("Correct")


@pytest.mark.parametrize("name", NAMES)
def test_printed_solution_when_executed_is_correct(name, capsys):
    exercise = _exercise(name)
    exercise.solution()
    source = capsys.readouterr().out
    assert source.strip()
    namespace: dict = {}
    exec(compile(source, f"<{name} solution>", "exec"), namespace)
    functions = [v for v in namespace.values() if inspect.isfunction(v)]
    assert len(functions) == 1, source
    assert exercise.evaluate(functions[0]).status == "correct"
    assert len(source.splitlines()) <= 15, "a solution a learner can read at a glance"


def test_the_helper_itself_is_a_correct_answer_where_signatures_match():
    assert q01_recall.evaluate(ragmetrics_lite.recall_at_k).status == "correct"
    assert q03_precision.evaluate(ragmetrics_lite.precision_at_k).status == "correct"
    assert q05_average_precision.evaluate(ragmetrics_lite.average_precision).status == "correct"
    assert q06_dcg.evaluate(ragmetrics_lite.dcg_at_k).status == "correct"
    assert q07_ndcg.evaluate(ragmetrics_lite.ndcg_at_k).status == "correct"


def test_any_parameter_names_work():
    def my_mrr(runs, qrels):
        return solutions.mrr(runs, qrels)

    assert q04_mrr.evaluate(my_mrr).status == "correct"
    assert q04_mrr.evaluate(lambda p, g: solutions.mrr(p, g)).status == "correct"


# ------------------------------------------------------------------ the placeholder is "not attempted"
@pytest.mark.parametrize("name", NAMES)
def test_placeholder_is_not_attempted(name):
    exercise = _exercise(name)
    n_args = len(exercise.argnames)

    def returns_placeholder(*args):
        return ____  # your code here

    def raises_not_implemented(*args):
        raise NotImplementedError

    def uses_placeholder_in_an_expression(*args):
        return ____ / n_args

    for answer in (____, returns_placeholder, raises_not_implemented, uses_placeholder_in_an_expression):
        result = exercise.evaluate(answer)
        assert result.status == "not attempted", (answer, result.message)
        assert result.message.startswith("Not attempted")


def test_starter_cell_exactly_as_a_notebook_writes_it(capsys):
    def my_mrr(predictions, ground_truths):
        return ____  # your code here

    q04_mrr.check(my_mrr)
    out = capsys.readouterr().out
    assert out.startswith("Not attempted: your function still returns ____")
    assert repr(____) == "____"


def test_half_finished_function_is_not_attempted():
    def recall_half_done(relevant, retrieved, k):
        if not relevant:
            return 0.0
        return ____

    result = q01_recall.evaluate(recall_half_done)
    assert result.status == "not attempted"


def test_placeholder_cannot_be_used_as_a_condition():
    with pytest.raises(TypeError, match="blank"):
        bool(____)


# ------------------------------------------------------------------ wrong answers fail with a counterexample
@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_wrong_solution_fails_with_a_real_counterexample(wrong):
    exercise, function, diagnosis = WRONG[wrong]
    result = exercise.evaluate(function)
    assert result.status == "incorrect", result.message
    message = result.message
    assert message.startswith("Incorrect")
    assert "  inputs:   " in message and "  expected: " in message
    assert "  got:      " in message or "raised" in message
    case = failing_case(exercise, message)
    assert disagrees(exercise, function, case), "the printed case must really be a counterexample"
    expected_line = [line for line in message.splitlines() if line.startswith("  expected: ")][0]
    assert expected_line == f"  expected: {exercises._checker.show(exercise.expected(case))}"
    if diagnosis is None:
        assert "Diagnosis" not in message
    else:
        assert f"Diagnosis: " in message and diagnosis in message, message


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_counterexample_is_the_first_failing_case_in_order(wrong):
    exercise, function, _ = WRONG[wrong]
    case = failing_case(exercise, exercise.evaluate(function).message)
    first = next(c for c in exercise.cases() if disagrees(exercise, function, c))
    assert case == first


def test_a_case_only_random_inputs_reach_is_reported_shortest_first():
    def recall_wrong_on_long_lists(relevant, retrieved, k):
        value = solutions.recall_at_k(relevant, retrieved, k)
        return value + 1 if len(retrieved) >= 6 and len(relevant) >= 2 else value

    result = q01_recall.evaluate(recall_wrong_on_long_lists)
    assert result.status == "incorrect"
    assert "  case:     a random case" in result.message
    case = failing_case(q01_recall, result.message)
    failing = [c for c in q01_recall.random_cases() if disagrees(q01_recall, recall_wrong_on_long_lists, c)]
    assert len(failing) > 1
    assert len(q01_recall.format_inputs(case)) == min(len(q01_recall.format_inputs(c)) for c in failing)
    assert "Diagnosis" not in result.message  # no known mistake explains it


def test_source_notes_mistakes_get_their_diagnosis(capsys):
    q04_mrr.check(mrr_first_result_always)
    q05_average_precision.check(ap_over_retrieved_relevant)
    q07_ndcg.check(ndcg_idcg_from_retrieved)
    out = capsys.readouterr().out
    assert "Diagnosis: this is the score of the first result, relevant or not" in out
    assert "AP divides by all relevant documents" in out
    assert "ideal ranking from the retrieved documents only" in out


@pytest.mark.parametrize("name", NAMES)
def test_every_known_mistake_fails_with_its_own_diagnosis(name):
    exercise = _exercise(name)
    assert exercise.mistakes
    for mistake in exercise.mistakes:
        result = exercise.evaluate(mistake.function)
        assert result.status == "incorrect", (mistake, result.message)
        diagnoses = [line for line in result.message.splitlines() if line.startswith("  Diagnosis: ")]
        assert diagnoses == [f"  Diagnosis: {mistake.diagnosis}."], result.message


def test_hit_answers_are_named_as_the_hit_rate(capsys):
    q01_recall.check(recall_as_hit)
    q04_mrr.check(mrr_as_hit_rate)
    recall_message, mrr_message = capsys.readouterr().out.split("\nIncorrect")
    assert recall_message.splitlines()[1:] == [
        "  case:     k is larger than the list",
        "  inputs:   relevant={'d1', 'd2'}, retrieved=['d1'], k=3",
        "  expected: 0.5",
        "  got:      1",
        "  Diagnosis: this gives the hit (success@k), 1 whenever a relevant document is in the top k "
        "(dividing the relevant documents found by themselves does the same); Recall@k divides by all "
        "relevant documents.",
    ]
    assert mrr_message.splitlines()[1:] == [
        "  case:     the first relevant result is at rank 2",
        "  inputs:   predictions=[['d2', 'd1']], ground_truths=[{'d1'}]",
        "  expected: 0.5",
        "  got:      1.0",
        "  Diagnosis: this scores 1 for every query with a relevant result anywhere, which is the hit "
        "rate; score 1/rank of the first relevant result.",
    ]


def test_raising_answer_is_incorrect_with_exception_and_inputs():
    def mrr_looks_at_the_top_only(predictions, ground_truths):
        pairs = zip(predictions, ground_truths)
        return sum(1.0 if preds[0] in truths else 0.0 for preds, truths in pairs) / len(predictions)

    result = q04_mrr.evaluate(mrr_looks_at_the_top_only)
    assert result.status == "incorrect"
    first_line, *rest = result.message.splitlines()
    assert first_line == "Incorrect: your function raised IndexError: list index out of range"
    assert rest[:3] == [
        "  case:     nothing was retrieved",
        "  inputs:   predictions=[[]], ground_truths=[{'d1'}]",
        "  expected: 0.0",
    ]


def test_missing_return_and_non_function_answers_are_incorrect():
    def forgot_return(relevances, k):
        sum(rel / math.log2(i + 1) for i, rel in enumerate(relevances[:k], start=1))

    result = q06_dcg.evaluate(forgot_return)
    assert result.status == "incorrect" and "returned None" in result.message
    result = q06_dcg.evaluate(6.054)
    assert result.status == "incorrect" and "expects a function" in result.message


def test_learner_gets_copies_of_the_inputs():
    def recall_that_mutates(relevant, retrieved, k):
        value = solutions.recall_at_k(relevant, retrieved, k)
        relevant.clear()
        retrieved.reverse()
        return value

    before = [c.args for c in q01_recall.edge_cases]
    snapshot = repr(before)
    assert q01_recall.evaluate(recall_that_mutates).status == "correct"
    assert repr([c.args for c in q01_recall.edge_cases]) == snapshot


def test_evaluate_prints_nothing(capsys):
    for name in NAMES:
        _exercise(name).evaluate(mrr_without_break)
        _exercise(name).evaluate(EXERCISES[name][1])
    assert capsys.readouterr().out == ""


# ------------------------------------------------------------------ printed text
@pytest.mark.parametrize("name", NAMES)
def test_check_prints_one_deterministic_result(name, capsys):
    exercise, solution, _ = EXERCISES[name]
    for answer in (solution, ____, mrr_first_result_always):
        exercise.check(answer)
        first = capsys.readouterr().out
        exercise.check(answer)
        assert capsys.readouterr().out == first
        assert first.startswith(PREFIXES) and first.endswith("\n")
        assert "0x" not in first


def test_check_output_does_not_depend_on_hash_seed():
    code = textwrap.dedent(
        """
        from tests.test_exercises import WRONG, EXERCISES, NAMES
        for name in sorted(WRONG):
            exercise, function, _ = WRONG[name]
            exercise.check(function)
        for name in NAMES:
            EXERCISES[name][0].check(EXERCISES[name][1])
        """
    )
    outputs = stdout_under_hash_seeds(code)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("Incorrect") == len(WRONG)


@pytest.mark.parametrize("name", NAMES)
def test_hint_and_solution_print_text(name, capsys):
    exercise = _exercise(name)
    exercise.hint()
    hint = capsys.readouterr().out
    assert hint.startswith("Hint: ") and len(hint) > 40
    exercise.solution()
    assert capsys.readouterr().out.strip().startswith(("def ", "import "))


@pytest.mark.parametrize("name", NAMES)
def test_docstring_and_prompt_name_the_task_and_the_notebook(name):
    exercise, _, notebook = EXERCISES[name]
    assert exercise.prompt and exercise.prompt in exercise.__doc__
    assert f"notebooks/{notebook}.ipynb" in exercise.__doc__
    assert exercise.notebook == f"notebooks/{notebook}.ipynb"
    assert repr(exercise) == f"<FunctionExercise {name}>"
    assert name in exercises.__all__


def test_check_result_is_a_named_tuple_of_status_and_message():
    status, message = q01_recall.evaluate(____)
    assert CheckResult._fields == ("status", "message")
    assert status == "not attempted" and message.startswith("Not attempted")


# ------------------------------------------------------------ cases: from the helper, reaching the edges
@pytest.mark.parametrize(
    "name, helper_name",
    [
        ("q01_recall", "recall_at_k"),
        ("q02_hit_rate", "hit_at_k"),
        ("q03_precision", "precision_at_k"),
        ("q04_mrr", "reciprocal_rank"),
        ("q05_average_precision", "average_precision"),
        ("q06_dcg", "dcg_at_k"),
        ("q07_ndcg", "ndcg_at_k"),
    ],
)
def test_expected_values_come_from_the_helper(name, helper_name, monkeypatch):
    exercise = _exercise(name)
    monkeypatch.setattr(helper_metrics, helper_name, lambda *args, **kwargs: 0.125)
    assert all(exercise.expected(case) == 0.125 for case in exercise.cases()[:20])


@pytest.mark.parametrize("name", NAMES)
def test_random_cases_are_seeded_and_reach_the_edges(name):
    exercise = _exercise(name)
    first, again = exercise.random_cases(), exercise.random_cases()
    assert first == again and len(first) == 200
    values = [exercise.expected(c) for c in first]
    assert any(v == 0 for v in values), "some cases score 0"
    assert sum(v > 0 for v in values) >= 90, "hits are common"
    if name != "q06_dcg":
        assert any(v == 1 for v in values), "some cases are perfect"


def test_random_cases_have_empty_lists_and_k_beyond_the_list():
    cases = q01_recall.random_cases()
    assert any(not relevant for relevant, _, _ in (c.args for c in cases))
    assert any(not retrieved for _, retrieved, _ in (c.args for c in cases))
    assert any(k > len(retrieved) for _, retrieved, k in (c.args for c in cases))
    judged = [c.args[0] for c in q07_ndcg.random_cases()]
    assert any(0 in gt.values() for gt in judged), "grade-0 judged documents"
    positive = [[g for g in gt.values() if g > 0] for gt in judged]
    assert any(len(set(grades)) < len(grades) for grades in positive), "tied grades"


@pytest.mark.parametrize("name", NAMES)
def test_edge_cases_are_labelled_and_come_smallest_first(name):
    exercise = _exercise(name)
    sizes = [len(exercise.format_inputs(c)) for c in exercise.edge_cases]
    # smallest first, allowing a few characters where a more telling case goes first
    assert all(size <= min(sizes[i:]) + 8 for i, size in enumerate(sizes)), sizes
    assert all(case.label for case in exercise.edge_cases)
    assert len({case.label for case in exercise.edge_cases}) == len(sizes)


@pytest.mark.parametrize(
    "exercise, label, notes_value, places",
    [
        # each worked example of the source notes, recomputed by the helper
        (q01_recall, "2 of 3 relevant documents in the top 5", 2 / 3, 9),
        (q02_hit_rate, "10 queries, 7 with a hit", 0.7, 9),
        (q02_hit_rate, "1 of 4 relevant documents found: a hit all the same", 1.0, 9),
        (q04_mrr, "first relevant results at ranks 1, 3 and 2", 0.611, 3),
        (q05_average_precision, "relevant documents at ranks 1, 4 and 7 of 10", 0.6429, 4),
        (q06_dcg, "grades 3, 2, 1, 3", 6.054, 3),
        (q06_dcg, "grades 2, 3, 0", 3.893, 3),
        (q07_ndcg, "grades 3, 2, 1, 3 retrieved in that order", 0.957, 3),
        (q07_ndcg, "grades 2, 3, 0 retrieved in that order", 0.913, 3),
        (q07_ndcg, "unjudged ids 999 and 888 among the results", 0.6612, 4),
    ],
)
def test_source_notes_worked_examples_are_edge_cases(exercise, label, notes_value, places):
    case = next(c for c in exercise.edge_cases if c.label == label)
    assert round(exercise.expected(case), places) == round(notes_value, places)


# ------------------------------------------------------------------ the generic classes
def test_function_exercise_in_a_few_lines():
    q_rprec = FunctionExercise(
        "q_rprec",
        "Write r_precision(relevant, retrieved): precision at rank R = len(relevant).",
        reference=lambda relevant, retrieved: ragmetrics_lite.r_precision(relevant, retrieved),
        argnames=("relevant", "retrieved"),
        edge_cases=[(set(), []), ({"d1"}, ["d2", "d1"])],
        random_case=lambda rng: (
            set(rng.sample("abcd", rng.randint(0, 3))),
            rng.sample("abcdef", rng.randint(0, 5)),
        ),
        hint="Cut the list at R.",
        solution="def r_precision(relevant, retrieved):\n    ...\n",
    )
    good = lambda rel, ret: len([d for d in ret[: len(rel)] if d in rel]) / len(rel) if rel else 0.0
    assert q_rprec.evaluate(good).status == "correct"
    assert q_rprec.evaluate(lambda rel, ret: 1.0).status == "incorrect"
    same_name = FunctionExercise(
        "q_rprec", "x", reference=good, argnames=("a", "b"), edge_cases=[], hint="h", solution="s"
    )
    assert q_rprec.seed == same_name.seed, "the seed comes from the name"
    assert q_rprec.random_cases() == q_rprec.random_cases()


def test_function_exercise_compares_tuples_and_dicts():
    q_pair = FunctionExercise(
        "q_pair",
        "Return (x / 2, x / 3).",
        reference=lambda x: (x / 2, x / 3),
        argnames=("x",),
        edge_cases=[(1,), (3,)],
        hint="h",
        solution="s",
    )
    assert q_pair.evaluate(lambda x: [x / 2, x / 3]).status == "correct"
    assert q_pair.evaluate(lambda x: (x / 2,)).status == "incorrect"
    assert q_pair.evaluate(lambda x: {"a": 1}).status == "incorrect"


def test_function_exercise_refuses_a_case_with_the_wrong_arity():
    with pytest.raises(ValueError, match="arguments"):
        FunctionExercise(
            "q_bad", "p", reference=abs, argnames=("x",), edge_cases=[(1, 2)], hint="h", solution="s"
        )


def test_value_exercise():
    q_ap = ValueExercise(
        "q_ap",
        "AP of R N N R N N R with three relevant documents?",
        expected=ragmetrics_lite.average_precision({1, 4, 7}, list(range(1, 8))),
        hint="Precision at each R, averaged over the three.",
        solution="(1/1 + 2/4 + 3/7) / 3",
        mistakes={3 / 7: "this is Precision@7"},
        notebook="notebooks/05_map.ipynb",
    )
    assert q_ap.evaluate(0.643).status == "correct"
    assert q_ap.evaluate(0.642).status == "correct"  # truncated rather than rounded
    assert q_ap.evaluate(9 / 14).status == "correct"
    assert q_ap.evaluate(0.64).status == "incorrect"
    wrong = q_ap.evaluate(0.429)
    assert wrong.status == "incorrect" and "Diagnosis: this is Precision@7." in wrong.message
    assert "0.642" not in wrong.message, "a wrong answer does not give the right one away"
    assert q_ap.evaluate(____).status == "not attempted"
    assert q_ap.evaluate("0.643").status == "incorrect"
    assert q_ap.evaluate(True).status == "incorrect"
    assert q_ap.evaluate(float("nan")).status == "incorrect"
    assert "notebooks/05_map.ipynb" in q_ap.__doc__


def test_value_exercise_with_several_numbers(capsys):
    q_prf = ValueExercise(
        "q_prf", "ROUGE-L precision, recall and F1?", expected=(5 / 12, 0.5, 5 / 11),
        hint="h", solution="s", digits=3,
    )
    assert q_prf.evaluate((0.417, 0.5, 0.455)).status == "correct"
    assert q_prf.evaluate((0.417, 0.5)).status == "incorrect"
    assert q_prf.evaluate((0.417, 0.5, ____)).status == "not attempted"
    q_prf.solution()
    q_prf.hint()
    assert capsys.readouterr().out == "s\nHint: h\n"


def test_works_with_the_reference_libraries_blocked():
    out = run_with_blocked(
        """
        from ragmetrics_lite.exercises import q07_ndcg, retrieval
        q07_ndcg.check(retrieval.ndcg_at_k)
        """
    )
    assert out.startswith("Correct")


def test_printed_sets_are_sorted_and_floats_plain():
    import numpy as np

    show = exercises._checker.show
    assert show({10, 9, 100}) == "{9, 10, 100}"
    assert show([np.float64(0.5), np.int64(3)]) == "[0.5, 3]"
    assert show(frozenset()) == "frozenset()"
