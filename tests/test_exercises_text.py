"""The text-metric exercises q08-q11 (ragmetrics_lite.exercises.text).

Every reference solution passes, also as printed by ``solution()``; the
starter's placeholder is "not attempted"; wrong solutions, written as a
learner would write them, fail with a real counterexample (the first failing
case) and the diagnosis of their mistake, including the source notes' own
BLEU slip; expected values come from the helper; printed text is deterministic.
"""
from __future__ import annotations

import inspect
import math
import textwrap
from collections import Counter

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import exercises
from ragmetrics_lite.exercises import (
    CheckResult,
    ____,
    q08_bleu,
    q09_rouge_n,
    q10_lcs,
    q11_meteor_chunks,
)
from ragmetrics_lite.exercises import text as solutions
from ragmetrics_lite.exercises._checker import show
from tests.helpers import disagrees, failing_case, run_with_blocked, stdout_under_hash_seeds

EXERCISES = {
    "q08_bleu": (q08_bleu, solutions.bleu, "08_bleu"),
    "q09_rouge_n": (q09_rouge_n, solutions.rouge_n_recall, "09_rouge_n"),
    "q10_lcs": (q10_lcs, solutions.lcs_length, "10_rouge_l"),
    "q11_meteor_chunks": (q11_meteor_chunks, solutions.count_chunks, "11_meteor"),
}
NAMES = sorted(EXERCISES)
PREFIXES = ("Correct", "Incorrect", "Not attempted")

EIFFEL_REFERENCE = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
EIFFEL_CANDIDATE = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
SUMMARY_REFERENCE = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
SUMMARY_CANDIDATE = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]


def _exercise(name):
    return EXERCISES[name][0]


# ------------------------------------------------------------------ wrong answers, as a learner writes them
def _grams(tokens, n):
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def bleu_notes_logs(candidate, reference, max_n):
    # the source notes' arithmetic: ln for p1, then "log 0.6 = -0.2218", which is log10
    logs = []
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        matches = sum(min(c, ref[g]) for g, c in cand.items())
        if matches == 0:
            return 0.0
        p = matches / sum(cand.values())
        logs.append(math.log(p) if n == 1 else math.log10(p))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * math.exp(sum(logs) / max_n)


def bleu_log10(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        matches = sum(min(c, ref[g]) for g, c in cand.items())
        if matches == 0:
            return 0.0
        total += math.log10(matches / sum(cand.values()))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * math.exp(total / max_n)


def bleu_unclipped(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = _grams(candidate, n), _grams(reference, n)
        matches = len([g for g in cand if g in ref])
        if matches == 0:
            return 0.0
        total += math.log(matches / len(cand))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * math.exp(total / max_n)


def bleu_without_bp(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        matches = sum(min(c, ref[g]) for g, c in cand.items())
        if matches == 0:
            return 0.0
        total += math.log(matches / sum(cand.values()))
    return math.exp(total / max_n)


def bleu_arithmetic_mean(candidate, reference, max_n):
    if not candidate:
        return 0.0
    precisions = []
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        total = sum(cand.values())
        precisions.append(sum(min(c, ref[g]) for g, c in cand.items()) / total if total else 0.0)
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * sum(precisions) / len(precisions)


def bleu_bp_swapped(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        matches = sum(min(c, ref[g]) for g, c in cand.items())
        if matches == 0:
            return 0.0
        total += math.log(matches / sum(cand.values()))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - c / r)
    return bp * math.exp(total / max_n)


def bleu_log_of_zero(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        total += math.log(sum(min(c, ref[g]) for g, c in cand.items()) / sum(cand.values()))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * math.exp(total / max_n)


def rouge_with_sets(candidate, reference, n):
    ref = _grams(reference, n)
    if not ref:
        return 0.0
    return len(set(_grams(candidate, n)) & set(ref)) / len(ref)


def rouge_counts_candidate_repeats(candidate, reference, n):
    ref = _grams(reference, n)
    if not ref:
        return 0.0
    return sum(1 for g in _grams(candidate, n) if g in ref) / len(ref)


def rouge_counts_reference_repeats(candidate, reference, n):
    cand, ref = _grams(candidate, n), _grams(reference, n)
    if not ref:
        return 0.0
    return sum(1 for g in ref if g in cand) / len(ref)


def rouge_precision(candidate, reference, n):
    cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
    if not cand:
        return 0.0
    return sum((cand & ref).values()) / sum(cand.values())


def rouge_without_guard(candidate, reference, n):
    cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
    return sum((cand & ref).values()) / sum(ref.values())


def lcs_substring(a, b):
    best = 0
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
                best = max(best, table[i][j])
    return best


def lcs_common_tokens(a, b):
    remaining = list(b)
    count = 0
    for token in a:
        if token in remaining:
            remaining.remove(token)
            count += 1
    return count


def lcs_common_words(a, b):
    return len(set(a) & set(b))


def lcs_greedy(a, b):
    j, length = 0, 0
    for token in a:
        for k in range(j, len(b)):
            if b[k] == token:
                length += 1
                j = k + 1
                break
    return length


def lcs_shorter_length(a, b):
    return min(len(a), len(b))


def chunks_are_matches(alignment):
    return len(alignment)


def chunks_without_the_first(alignment):
    chunks = 0
    for (i, j), (i2, j2) in zip(alignment, alignment[1:]):
        if i2 != i + 1 or j2 != j + 1:
            chunks += 1
    return chunks


def chunks_nltk_helper(alignment):
    chunks = 1
    for (i, j), (i2, j2) in zip(alignment, alignment[1:]):
        if i2 != i + 1 or j2 != j + 1:
            chunks += 1
    return chunks


def chunks_candidate_side(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or i != alignment[k - 1][0] + 1:
            chunks += 1
    return chunks


def chunks_reference_side(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or j != alignment[k - 1][1] + 1:
            chunks += 1
    return chunks


# name: (exercise, wrong function, a phrase its diagnosis must contain, or None when none is expected)
WRONG = {
    "BLEU: the notes' ln/log10 mix": (q08_bleu, bleu_notes_logs, "0.7071 into 0.817"),
    "BLEU: log10": (q08_bleu, bleu_log10, "log10"),
    "BLEU: unclipped counts": (q08_bleu, bleu_unclipped, "clip each n-gram's count"),
    "BLEU: no brevity penalty": (q08_bleu, bleu_without_bp, "leaves out the brevity penalty"),
    "BLEU: arithmetic mean": (q08_bleu, bleu_arithmetic_mean, "geometric mean"),
    "BLEU: r and c swapped": (q08_bleu, bleu_bp_swapped, "swaps r and c"),
    "BLEU: log of 0": (q08_bleu, bleu_log_of_zero, "math.log(0)"),
    "ROUGE-N: sets": (q09_rouge_n, rouge_with_sets, "sets of n-grams"),
    "ROUGE-N: candidate repeats": (q09_rouge_n, rouge_counts_candidate_repeats, "a repeat in the candidate"),
    "ROUGE-N: reference repeats": (q09_rouge_n, rouge_counts_reference_repeats, "fewer times"),
    "ROUGE-N: precision": (q09_rouge_n, rouge_precision, "which is precision"),
    "ROUGE-N: no guard": (q09_rouge_n, rouge_without_guard, "no n-grams"),
    "LCS: substring": (q10_lcs, lcs_substring, "longest common substring"),
    "LCS: common tokens": (q10_lcs, lcs_common_tokens, "in any order"),
    "LCS: common words": (q10_lcs, lcs_common_words, "in any order"),
    "LCS: greedy": (q10_lcs, lcs_greedy, "greedily"),
    "LCS: shorter length": (q10_lcs, lcs_shorter_length, None),
    "chunks: matches": (q11_meteor_chunks, chunks_are_matches, "counts the matches"),
    "chunks: breaks only": (q11_meteor_chunks, chunks_without_the_first, "one fewer than the chunks"),
    "chunks: nltk's 1 for no match": (q11_meteor_chunks, chunks_nltk_helper, "empty alignment"),
    "chunks: candidate side": (q11_meteor_chunks, chunks_candidate_side, "one side only"),
    "chunks: reference side": (q11_meteor_chunks, chunks_reference_side, "one side only"),
}





# ------------------------------------------------------------------ reference solutions pass
@pytest.mark.parametrize("name", NAMES)
def test_reference_solution_is_correct(name):
    exercise, solution, _ = EXERCISES[name]
    result = exercise.evaluate(solution)
    assert isinstance(result, CheckResult)
    assert result.status == "correct", result.message
    n_edge = len(exercise.edge_cases)
    assert result.message == (
        f"Correct: your function agrees with the reference on all {n_edge + 200} cases "
        f"({n_edge} edge cases, 200 random)."
    )


@pytest.mark.parametrize("name", NAMES)
def test_printed_solution_when_executed_is_correct(name, capsys):
    exercise = _exercise(name)
    exercise.solution()
    source = capsys.readouterr().out
    namespace: dict = {}
    exec(compile(source, f"<{name} solution>", "exec"), namespace)
    functions = [v for v in namespace.values() if inspect.isfunction(v)]
    assert len(functions) == 1, source
    assert functions[0].__name__ == EXERCISES[name][1].__name__
    assert exercise.evaluate(functions[0]).status == "correct"
    assert len(source.splitlines()) <= 15, "a solution a learner can read at a glance"
    assert "ragmetrics_lite" not in source, "the solution is plain Python"


def test_the_helper_itself_is_a_correct_answer():
    assert q08_bleu.evaluate(lambda c, r, n: rml.bleu(c, [r], max_n=n)).status == "correct"
    assert q09_rouge_n.evaluate(lambda c, r, n: rml.rouge_n(c, r, n).recall).status == "correct"
    assert q10_lcs.evaluate(lambda a, b: rml.lcs(a, b).length).status == "correct"
    assert q11_meteor_chunks.evaluate(rml.count_chunks).status == "correct"


def test_a_float_lcs_length_is_accepted():
    assert q10_lcs.evaluate(lambda a, b: float(solutions.lcs_length(a, b))).status == "correct"


# ------------------------------------------------------------------ the placeholder is "not attempted"
@pytest.mark.parametrize("name", NAMES)
def test_placeholder_is_not_attempted(name):
    exercise = _exercise(name)

    def returns_placeholder(*args):
        return ____  # your code here

    def raises_not_implemented(*args):
        raise NotImplementedError

    def uses_placeholder_in_an_expression(*args):
        return ____ / len(args)

    for answer in (____, returns_placeholder, raises_not_implemented, uses_placeholder_in_an_expression):
        result = exercise.evaluate(answer)
        assert result.status == "not attempted", (answer, result.message)
        assert result.message.startswith("Not attempted")


def test_starter_cells_as_a_notebook_writes_them(capsys):
    def bleu(candidate, reference, max_n):
        return ____  # your code here

    def count_chunks(alignment):
        return ____  # your code here

    q08_bleu.check(bleu)
    q11_meteor_chunks.check(count_chunks)
    assert capsys.readouterr().out == (
        "Not attempted: your function still returns ____ (for candidate=[], reference=['the', 'cat'], "
        "max_n=1). Replace ____ with your answer, then check again.\n"
        "Not attempted: your function still returns ____ (for alignment=[]). "
        "Replace ____ with your answer, then check again.\n"
    )


# ------------------------------------------------------------------ wrong answers
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
    first = next(c for c in exercise.cases() if disagrees(exercise, function, c))
    assert case == first, "the counterexample is the first failing case in order"
    expected_line = [line for line in message.splitlines() if line.startswith("  expected: ")][0]
    assert expected_line == f"  expected: {show(exercise.expected(case))}"
    if diagnosis is None:
        assert "Diagnosis" not in message
    else:
        assert "  Diagnosis: " in message and diagnosis in message, message


@pytest.mark.parametrize("name", NAMES)
def test_every_known_mistake_fails_with_its_own_diagnosis(name):
    exercise = _exercise(name)
    assert len(exercise.mistakes) >= 4
    for mistake in exercise.mistakes:
        result = exercise.evaluate(mistake.function)
        assert result.status == "incorrect", (mistake, result.message)
        diagnoses = [line for line in result.message.splitlines() if line.startswith("  Diagnosis: ")]
        assert diagnoses == [f"  Diagnosis: {mistake.diagnosis}."], result.message


def test_the_source_notes_bleu_slip_is_reproduced_on_the_eiffel_pair(capsys):
    # the notes: exp(0.5 * (ln 0.8333 + log10 0.6)) = exp(-0.20205) = 0.817; the right BLEU-2 is 0.7071
    assert round(bleu_notes_logs(EIFFEL_CANDIDATE, EIFFEL_REFERENCE, 2), 3) == 0.817
    assert round(rml.bleu(EIFFEL_CANDIDATE, [EIFFEL_REFERENCE], max_n=2), 4) == 0.7071
    q08_bleu.check(bleu_notes_logs)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  case:     the Eiffel pair: p1 = 5/6, p2 = 3/5"
    assert lines[3:5] == ["  expected: 0.7071067811865476", "  got:      0.8170253526525276"]


def test_the_source_notes_rouge_1_slip_is_caught():
    # the notes' overlap list leaves out 的 (twice in the candidate, once in the reference): 6/10, not 7/10
    def rouge_1_of_the_notes(candidate, reference, n):
        value = solutions.rouge_n_recall(candidate, reference, n)
        return 0.6 if (candidate, reference, n) == (SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 1) else value

    result = q09_rouge_n.evaluate(rouge_1_of_the_notes)
    assert result.status == "incorrect"
    assert "  case:     the Eiffel summary pair, ROUGE-1 (的 is shared once)" in result.message
    assert "  expected: 0.7\n  got:      0.6" in result.message


def test_raising_answer_is_incorrect_with_exception_and_inputs():
    result = q08_bleu.evaluate(bleu_log_of_zero)
    first_line, *rest = result.message.splitlines()
    assert first_line == "Incorrect: your function raised ZeroDivisionError: division by zero"
    assert rest[:3] == [
        "  case:     an empty candidate",
        "  inputs:   candidate=[], reference=['the', 'cat'], max_n=1",
        "  expected: 0.0",
    ]


def test_evaluate_prints_nothing(capsys):
    for name in NAMES:
        exercise, solution, _ = EXERCISES[name]
        exercise.evaluate(solution)
        for mistake in exercise.mistakes:
            exercise.evaluate(mistake.function)
    assert capsys.readouterr().out == ""


# ------------------------------------------------------------------ printed text
@pytest.mark.parametrize("name", NAMES)
def test_check_prints_one_deterministic_result(name, capsys):
    exercise, solution, _ = EXERCISES[name]
    for answer in (solution, ____, exercise.mistakes[0].function):
        exercise.check(answer)
        first = capsys.readouterr().out
        exercise.check(answer)
        assert capsys.readouterr().out == first
        assert first.startswith(PREFIXES) and first.endswith("\n")
        assert "0x" not in first


def test_check_output_does_not_depend_on_hash_seed():
    code = textwrap.dedent(
        """
        from tests.test_exercises_text import WRONG, EXERCISES, NAMES
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
    assert outputs[0].count("Correct") == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_hint_and_solution_print_text(name, capsys):
    exercise = _exercise(name)
    exercise.hint()
    hint = capsys.readouterr().out
    assert hint.startswith("Hint: ") and len(hint) > 40
    exercise.solution()
    assert capsys.readouterr().out.strip().startswith(("def ", "import ", "from "))


@pytest.mark.parametrize("name", NAMES)
def test_docstring_and_prompt_name_the_task_and_the_notebook(name):
    exercise, solution, notebook = EXERCISES[name]
    assert exercise.prompt and exercise.prompt in exercise.__doc__
    assert f"notebooks/{notebook}.ipynb" in exercise.__doc__
    assert exercise.notebook == f"notebooks/{notebook}.ipynb"
    assert f"{solution.__name__}(" in exercise.prompt, "the prompt names the function to write"
    assert repr(exercise) == f"<FunctionExercise {name}>"
    assert name in exercises.__all__
    assert getattr(exercises, name) is exercise
    assert f"``{name}``" in exercises.__doc__ and f"``{notebook}``" in exercises.__doc__


def test_package_imports_text_exercises_unconditionally():
    source = inspect.getsource(exercises)
    assert "find_spec" not in source
    assert set(solutions.__all__) == {"q08_bleu", "q09_rouge_n", "q10_lcs", "q11_meteor_chunks"}


def test_works_with_the_reference_libraries_blocked():
    out = run_with_blocked(
        """
        from ragmetrics_lite.exercises import q08_bleu, q09_rouge_n, q10_lcs, q11_meteor_chunks, text
        q08_bleu.check(text.bleu)
        q09_rouge_n.check(text.rouge_n_recall)
        q10_lcs.check(text.lcs_length)
        q11_meteor_chunks.check(text.count_chunks)
        """
    )
    assert out.count("Correct") == 4


# ------------------------------------------------------------ cases: from the helper, reaching the edges
@pytest.mark.parametrize(
    "name, module, attribute, fake",
    [
        ("q08_bleu", solutions.bleu_metrics, "bleu", lambda *a, **k: 0.125),
        ("q09_rouge_n", solutions.rouge_metrics, "rouge_n", lambda *a, **k: rml.Score(0.5, 0.125, 0.2)),
        ("q10_lcs", solutions.rouge_metrics, "lcs", lambda *a, **k: rml.LCS(125, [], None, [], [])),
        ("q11_meteor_chunks", solutions.meteor_metrics, "count_chunks", lambda *a, **k: 125),
    ],
)
def test_expected_values_come_from_the_helper(name, module, attribute, fake, monkeypatch):
    exercise = _exercise(name)
    assert module.__name__.startswith("ragmetrics_lite.")
    monkeypatch.setattr(module, attribute, fake)
    assert all(exercise.expected(case) in (0.125, 125) for case in exercise.cases()[:30])


def test_expected_values_are_the_helpers_calls():
    for case in q08_bleu.cases():
        candidate, reference, max_n = case.args
        assert q08_bleu.expected(case) == rml.bleu(candidate, [reference], max_n=max_n)
    for case in q09_rouge_n.cases():
        assert q09_rouge_n.expected(case) == rml.rouge_n(*case.args).recall
    for case in q10_lcs.cases():
        assert q10_lcs.expected(case) == rml.lcs(*case.args).length
    for case in q11_meteor_chunks.cases():
        assert q11_meteor_chunks.expected(case) == rml.count_chunks(*case.args)


@pytest.mark.parametrize("name", NAMES)
def test_random_cases_are_seeded_and_reach_the_edges(name):
    exercise = _exercise(name)
    first, again = exercise.random_cases(), exercise.random_cases()
    assert first == again and len(first) == 200
    values = [exercise.expected(c) for c in first]
    assert any(v == 0 for v in values), "some cases score 0"
    assert sum(v > 0 for v in values) >= 100, "matches are common"
    assert any(v == 1 for v in values), "some cases score exactly 1"
    assert len(set(values)) >= 4


def test_random_text_cases_have_repeats_and_short_candidates():
    for exercise in (q08_bleu, q09_rouge_n, q10_lcs):
        pairs = [c.args[:2] for c in exercise.random_cases()]
        vocabulary = {token for pair in pairs for side in pair for token in side}
        assert len(vocabulary) <= 5
        assert sum(len(set(c)) < len(c) for c, _ in pairs) >= 50, "repeated words in candidates"
        assert sum(len(set(r)) < len(r) for _, r in pairs) >= 50, "repeated words in references"
        assert any(not c for c, _ in pairs), "an empty candidate"
        assert any(len(c) < len(r) for c, r in pairs), "candidates shorter than the reference"
    bleu_cases = [c.args for c in q08_bleu.random_cases()]
    assert any(len(c) < max_n for c, _, max_n in bleu_cases), "candidates shorter than max_n"
    assert {max_n for *_, max_n in bleu_cases} == {1, 2, 3, 4}
    assert any(0 < v < 1 for v in (rml.brevity_penalty(len(c), len(r)) for c, r, _ in bleu_cases))


def test_random_alignments_are_meteor_alignments_with_crossings():
    alignments = [c.args[0] for c in q11_meteor_chunks.random_cases()]
    assert all(a == sorted(a) for a in alignments), "sorted by candidate index"
    assert all(len({j for _, j in a}) == len(a) for a in alignments), "each reference token used once"
    assert any(any(j2 < j for (_, j), (_, j2) in zip(a, a[1:])) for a in alignments), "crossing matches"
    assert any(not a for a in alignments)
    assert max(len(a) for a in alignments) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_edge_cases_are_labelled_and_come_smallest_first(name):
    exercise = _exercise(name)
    sizes = [len(exercise.format_inputs(c)) for c in exercise.edge_cases]
    # smallest first, allowing a few characters where a more telling case goes first
    assert all(size <= min(sizes[i:]) + 8 for i, size in enumerate(sizes)), sizes
    assert all(case.label for case in exercise.edge_cases)
    assert len({case.label for case in exercise.edge_cases}) == len(sizes)


@pytest.mark.parametrize(
    "exercise, args, value, places",
    [
        # edge cases the brief asks for, with values worked out by hand
        (q08_bleu, ([], ["the", "cat"], 1), 0.0, 12),
        (q08_bleu, (["the"], ["the"], 2), 0.0, 12),
        (q08_bleu, (["the", "the", "the"], ["the", "cat"], 1), 1 / 3, 12),  # clipped 1/3, BP 1
        (q08_bleu, (["cat", "the"], ["the", "cat"], 2), 0.0, 12),  # no 2-gram match
        (q08_bleu, (["the", "cat"], ["the", "cat", "sat"], 2), math.exp(1 - 3 / 2), 12),
        # the source notes' examples, recomputed
        (q08_bleu, (EIFFEL_CANDIDATE, EIFFEL_REFERENCE, 2), 0.7071, 4),  # notes: 0.817 (ln/log10 mix)
        (q08_bleu, (EIFFEL_CANDIDATE[:3] + EIFFEL_CANDIDATE[4:], EIFFEL_REFERENCE, 2), 0.8187 * 0.75**0.5, 4),
        (q09_rouge_n, (SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 1), 0.7, 12),  # notes: 0.60 (的 left out)
        (q09_rouge_n, (SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 2), 2 / 9, 12),  # notes: 0.222
        (q10_lcs, (SUMMARY_CANDIDATE, SUMMARY_REFERENCE), 5, 12),  # notes: 5
        (q11_meteor_chunks, (rml.meteor_alignment(EIFFEL_CANDIDATE, EIFFEL_REFERENCE),), 2, 12),
    ],
)
def test_edge_cases_hold_the_brief_and_the_source_notes_examples(exercise, args, value, places):
    case = next(c for c in exercise.edge_cases if c.args == args)
    assert round(exercise.expected(case), places) == round(value, places)


def test_the_notes_brevity_penalty_table():
    # the notes: BP = 1.000, 0.819, 1.000 for c = 6, 5, 7 against r = 6
    assert [round(rml.brevity_penalty(c, 6), 3) for c in (6, 5, 7)] == [1.0, 0.819, 1.0]
