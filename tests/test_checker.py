"""The checker's mechanics (ragmetrics_lite.course.exercises._checker), on small exercises made up here.

What a message looks like, which case it shows, when a diagnosis is given,
how the placeholder is recognised, and the two kinds of exercise.
"""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from ragmetrics_lite.course.exercises import (
    CheckResult,
    ChoiceExercise,
    FunctionExercise,
    Mistake,
    Question,
    ____,
)
from ragmetrics_lite.course.exercises._checker import same, show


def reciprocal(x):
    return 1 / x if x else 0.0


def _raises_at_zero(x):
    return 1 / x


def _raises_value_error_at_zero(x):
    if x == 0:
        raise ValueError("zero")
    return 1 / x


q_reciprocal = FunctionExercise(
    "q_reciprocal",
    "Write reciprocal(x): 1 / x, and 0.0 for x = 0.",
    reference=reciprocal,
    argnames=("x",),
    edge_cases=[(0,), (1,), (2,)],
    random_case=lambda rng: (rng.randint(-30, 30),),
    n_random=50,
    hints=("What is special about 0?", "Return 0.0 for x == 0, else 1 / x."),
    solution=reciprocal,
    mistakes=[
        Mistake(_raises_at_zero, "this fails at x = 0"),
        Mistake(_raises_value_error_at_zero, "this refuses x = 0 with a ValueError"),
        Mistake(lambda x: x, "this returns x itself"),
    ],
)


# ------------------------------------------------------------------ function exercises
def test_a_correct_answer_counts_the_cases():
    assert q_reciprocal.evaluate(lambda x: 1 / x if x != 0 else 0.0) == CheckResult(
        "correct", "Correct: your function agrees with the reference on all 53 cases (3 edge cases, 50 random)."
    )


def test_any_parameter_names_and_a_float_for_an_int_work():
    q_count = FunctionExercise("q_count", "Count.", reference=len, argnames=("items",),
                               edge_cases=[([],), ([1, 2],)], hints=("h", "r"), solution=len)
    assert q_count.evaluate(lambda whatever: float(len(whatever))).status == "correct"


def test_a_wrong_value_shows_the_case_the_inputs_and_both_values():
    q_labelled = FunctionExercise("q_labelled", "Double.", reference=lambda x: 2 * x, argnames=("x",),
                                  edge_cases=[(0,), (3,)],
                                  hints=("h", "r"), solution=reciprocal)
    assert q_labelled.evaluate(lambda x: x + 3).message == (
        "Incorrect: your function gives a wrong value.\n  inputs:   x=0\n  expected: 0\n  got:      3"
    )


def test_a_raising_answer_gets_a_diagnosis_only_from_a_mistake_raising_the_same_type():
    def zero_division(x):
        return 1 / x

    def type_error(x):
        if x == 0:
            raise TypeError("no zero here")
        return 1 / x

    first = q_reciprocal.evaluate(zero_division).message.splitlines()
    assert first == [
        "Incorrect: your function raised ZeroDivisionError: division by zero",
        "  inputs:   x=0",
        "  expected: 0.0",
        "  at line:  return 1 / x",
        "  Diagnosis: this fails at x = 0.",
    ]
    assert "Diagnosis: this refuses x = 0 with a ValueError." in q_reciprocal.evaluate(
        _raises_value_error_at_zero
    ).message
    other = q_reciprocal.evaluate(type_error).message
    assert other.startswith("Incorrect: your function raised TypeError: no zero here\n  inputs:   x=0\n")
    assert "Diagnosis" not in other, "no declared mistake raises a TypeError there"


def test_the_line_shown_is_the_innermost_of_the_answers_own_code():
    def helper(x):
        return {}[x]

    def calls_a_helper(x):
        value = helper(x)
        return value

    def calls_the_library(x):
        return math.log(x) + 1

    assert "  at line:  return {}[x]" in q_reciprocal.evaluate(calls_a_helper).message.splitlines()
    lines = q_reciprocal.evaluate(calls_the_library).message.splitlines()
    assert lines[0] == "Incorrect: your function raised ValueError: math domain error"
    assert "  at line:  return math.log(x) + 1" in lines
    builtin = q_reciprocal.evaluate((1).__truediv__).message
    assert builtin.startswith("Incorrect: your function raised ZeroDivisionError") and "at line" not in builtin


def test_a_mistake_matching_every_wrong_case_and_more_cases_wins():
    # x itself is wrong at 0 and 2 and every random case but 1 and -1; only "returns x" explains it all
    assert "Diagnosis: this returns x itself." in q_reciprocal.evaluate(lambda x: x).message
    partly = q_reciprocal.evaluate(lambda x: x if x != 2 else 7).message
    assert "Diagnosis" not in partly, "a mistake that explains only some wrong cases is not named"


def test_a_case_only_random_inputs_reach_is_reported_shortest_first():
    def wrong_below_minus_nine(x):
        return reciprocal(x) + (1 if x < -9 else 0)

    message = q_reciprocal.evaluate(wrong_below_minus_nine).message
    assert "  case:     a random case" in message or "  inputs:   x=-" in message
    failing = [c for c in q_reciprocal.random_cases() if c.args[0] < -9]
    shortest = min(len(q_reciprocal.format_inputs(c)) for c in failing)
    shown = next(line for line in message.splitlines() if line.startswith("  inputs:   "))
    assert len(shown) - len("  inputs:   ") == shortest


def test_placeholder_forms_are_not_attempted():
    def starter(x):
        return ____  # your code here

    def half_done(x):
        if x == 0:
            return 0.0
        return ____

    def not_implemented(x):
        raise NotImplementedError

    for answer in (____, starter, half_done, not_implemented, lambda x: ____ + 1):
        assert q_reciprocal.evaluate(answer).status == "not attempted", answer
    assert q_reciprocal.evaluate(starter).message == (
        "Not attempted: your function still returns ____ (for x=0). Replace ____ with your answer, then check again."
    )
    with pytest.raises(TypeError, match="blank"):
        bool(____)
    assert repr(____) == "____"


def test_missing_return_and_non_function_answers_are_incorrect():
    def forgot_return(x):
        reciprocal(x)

    assert "returned None" in q_reciprocal.evaluate(forgot_return).message
    assert "expects a function, got float 0.5" in q_reciprocal.evaluate(0.5).message
    assert q_reciprocal.evaluate(lambda x: x == 1).status == "incorrect", "True is not the number 1.0"


def test_the_learner_gets_copies_of_the_inputs():
    q_total = FunctionExercise("q_total", "Sum.", reference=sum, argnames=("xs",),
                               edge_cases=[([1, 2],), ([3],)], hints=("h", "r"), solution=sum)

    def total_that_empties(xs):
        value = sum(xs)
        xs.clear()
        return value

    assert q_total.evaluate(total_that_empties).status == "correct"
    assert [c.args for c in q_total.edge_cases] == [([1, 2],), ([3],)]


def test_seed_comes_from_the_name_and_cases_need_the_right_arity():
    again = FunctionExercise("q_reciprocal", "x", reference=reciprocal, argnames=("x",), edge_cases=[],
                             random_case=lambda rng: (rng.randint(-30, 30),), n_random=50,
                             hints=("h", "r"), solution=reciprocal)
    assert again.random_cases() == q_reciprocal.random_cases()
    with pytest.raises(ValueError, match="arguments"):
        FunctionExercise("q_bad", "p", reference=abs, argnames=("x",), edge_cases=[(1, 2)],
                         hints=("h", "r"), solution=abs)
    with pytest.raises(ValueError, match="hints"):
        FunctionExercise("q_bad", "p", reference=abs, argnames=("x",), edge_cases=[], hints="one string",
                         solution=abs)


def test_tuples_and_dicts_are_compared_item_by_item():
    assert same(0.1 + 0.2, 0.3) and same([1, 0.5], (1.0, 0.5)) and same({"p": 1.0}, {"p": 1})
    assert not same(None, 0.0) and not same(True, 1) and not same(float("nan"), float("nan"))
    assert not same((0.5,), (0.5, 1.0)) and not same({"a": 1}, [1])


def test_printed_values_are_deterministic():
    assert show({10, 9, 100}) == "{9, 10, 100}" and show({"d2", "d10", "d1"}) == "{'d1', 'd10', 'd2'}"
    assert show([np.float64(0.5), np.int64(3)]) == "[0.5, 3]"
    assert show(frozenset()) == "frozenset()" and show(set()) == "set()" and show((1,)) == "(1,)"


def test_solution_answer_is_the_printed_function():
    printed = q_reciprocal.solution_answer()
    assert printed.__name__ == "solution" and printed is not reciprocal and printed(4) == 0.25


def test_the_printed_solution_is_the_reference_function_named_solution(capsys):
    q_reciprocal.solution()
    printed = capsys.readouterr().out
    assert printed.startswith("def solution(x):\n") and "reciprocal" not in printed
    assert printed.splitlines()[1:] == inspect.getsource(reciprocal).splitlines()[1:]


# ------------------------------------------------------------------ hints
def test_hint_levels(capsys):
    q_reciprocal.hint()
    q_reciprocal.hint(2)
    q_reciprocal.hint(3)
    q_reciprocal.hint("2")
    assert capsys.readouterr().out.splitlines() == [
        "Hint 1 of 2: What is special about 0? (More: q_reciprocal.hint(2).)",
        "Hint 2 of 2: Return 0.0 for x == 0, else 1 / x.",
        "There are 2 hints: call hint() or hint(level) with a level from 1 to 2, not 3.",
        "There are 2 hints: call hint() or hint(level) with a level from 1 to 2, not '2'.",
    ]


# ------------------------------------------------------------------ choice exercises
q_two = ChoiceExercise(
    "q_two",
    "Pick.",
    questions=[
        Question("First?", {"A": "MRR", "B": "MAP"}, "A", "it is MRR", {"B": "MAP is not it"}),
        Question("Second?", {"A": "MRR", "B": "MAP", "C": "NDCG"}, "C", "it is NDCG",
                 {"A": "MRR misses grades", "B": "MAP misses grades too"}),
    ],
    hints=("h", "r"),
)


def test_choice_letters_are_case_insensitive_and_keys_may_be_digit_strings():
    assert q_two.evaluate({1: "a", 2: " C "}).status == "correct"
    assert q_two.evaluate({"1": "A", "2": "c"}).status == "correct"


def test_choice_messages():
    assert q_two.evaluate({1: "A", 2: "b"}).message == (
        "Incorrect: 1 of 2 answers is wrong.\n"
        "  1. A (MRR): it is MRR.\n"
        "  2. B (MAP) is not it.\n"
        "     Diagnosis: MAP misses grades too."
    )
    assert q_two.evaluate({1: "B", 2: "A"}).message.startswith("Incorrect: 2 of 2 answers are wrong.")
    assert q_two.evaluate({1: "A", 2: ____}).message == (
        "Not attempted: 1 of 2 questions answered. Replace ____ with your answer, then check again."
    )
    assert q_two.evaluate({1: "B"}).status == "incorrect", "a wrong answer is said even with one missing"


@pytest.mark.parametrize(
    "answers, message",
    [
        ({3: "A"}, "Incorrect: there is no question 3; the questions are numbered 1 to 2."),
        ({"one": "A"}, "Incorrect: there is no question 'one'; the questions are numbered 1 to 2."),
        ({True: "A"}, "Incorrect: there is no question True; the questions are numbered 1 to 2."),
        ({1: "C"}, "Incorrect: question 1: 'C' is not one of the choices A, B."),
        ({1: 1}, "Incorrect: question 1: 1 is not one of the choices A, B."),
        ({1: "AB"}, "Incorrect: question 1: 'AB' is not one of the choices A, B."),
        (["A", "C"], "Incorrect: this exercise expects a dict like {1: 'A', 2: 'C'}, one letter for each "
                     "question 1 to 2; got list."),
    ],
)
def test_choice_bad_keys_and_letters_get_a_clear_message(answers, message):
    assert q_two.evaluate(answers) == CheckResult("incorrect", message)


def test_choice_show_solution_and_mistakes(capsys):
    q_two.show()
    assert capsys.readouterr().out == (
        "Pick.\n\n1. First?\n   A. MRR\n   B. MAP\n\n2. Second?\n   A. MRR\n   B. MAP\n   C. NDCG\n"
    )
    assert q_two.solution_answer() == q_two.reference_answer == {1: "A", 2: "C"}
    assert q_two.known_mistakes() == [
        ({1: "B", 2: "C"}, "MAP is not it"),
        ({1: "A", 2: "A"}, "MRR misses grades"),
        ({1: "A", 2: "B"}, "MAP misses grades too"),
    ]


@pytest.mark.parametrize(
    "question",
    [
        Question("?", {"A": "x", "B": "y"}, "C", "why", {"A": "a", "B": "b"}),
        Question("?", {"a": "x", "B": "y"}, "B", "why", {"a": "a"}),
        Question("?", {"A": "x", "B": "y"}, "A", "why", {}),
    ],
    ids=["answer not a choice", "lower-case letter", "a wrong letter without a diagnosis"],
)
def test_choice_declarations_are_validated(question):
    with pytest.raises(ValueError, match="question 1"):
        ChoiceExercise("q_bad", "p", questions=[question], hints=("h", "r"))
