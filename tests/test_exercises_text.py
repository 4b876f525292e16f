"""What is particular to the text exercises q08-q11: BLEU, ROUGE-N recall, the LCS, METEOR's chunks.

What every exercise must do is tested once, over the registry, in
test_exercise_registry.py. Here: wrong answers written as a learner writes them
earn the right diagnosis, the source notes' BLEU and ROUGE-1 slips are caught,
the expected values are the helper's calls, and the cases hold the notes'
examples and reach repeated words, short candidates and crossing alignments.
"""
from __future__ import annotations

import math
from collections import Counter

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.course.exercises import REGISTRY, ____
from ragmetrics_lite.course.exercises._cases import (
    EIFFEL_CANDIDATE,
    EIFFEL_REFERENCE,
    SUMMARY_CANDIDATE,
    SUMMARY_REFERENCE,
)
from ragmetrics_lite.course.exercises.q09_rouge_n import reference_solution as rouge_n_solution
from tests.helpers import assert_wrong_answer_diagnosed, wrong_answer, wrong_answers

q08_bleu = REGISTRY["q08_bleu"]
q09_rouge_n = REGISTRY["q09_rouge_n"]
q10_lcs = REGISTRY["q10_lcs"]
q11_meteor_chunks = REGISTRY["q11_meteor_chunks"]


# ------------------------------------------------------------------ wrong answers, as a learner writes them
def _grams(tokens, n):
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


@wrong_answer(q08_bleu, "0.7071 into 0.817")
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


@wrong_answer(q08_bleu, "log10")
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


@wrong_answer(q08_bleu, "clip each n-gram's count")
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


@wrong_answer(q08_bleu, "leaves out the brevity penalty")
def bleu_without_bp(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        matches = sum(min(c, ref[g]) for g, c in cand.items())
        if matches == 0:
            return 0.0
        total += math.log(matches / sum(cand.values()))
    return math.exp(total / max_n)


@wrong_answer(q08_bleu, "geometric mean")
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


@wrong_answer(q08_bleu, "swaps r and c")
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


@wrong_answer(q08_bleu, "math.log(0)")
def bleu_log_of_zero(candidate, reference, max_n):
    total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
        total += math.log(sum(min(c, ref[g]) for g, c in cand.items()) / sum(cand.values()))
    c, r = len(candidate), len(reference)
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    return bp * math.exp(total / max_n)


@wrong_answer(q09_rouge_n, "sets of n-grams")
def rouge_with_sets(candidate, reference, n):
    ref = _grams(reference, n)
    if not ref:
        return 0.0
    return len(set(_grams(candidate, n)) & set(ref)) / len(ref)


@wrong_answer(q09_rouge_n, "a repeat in the candidate")
def rouge_counts_candidate_repeats(candidate, reference, n):
    ref = _grams(reference, n)
    if not ref:
        return 0.0
    return sum(1 for g in _grams(candidate, n) if g in ref) / len(ref)


@wrong_answer(q09_rouge_n, "fewer times")
def rouge_counts_reference_repeats(candidate, reference, n):
    cand, ref = _grams(candidate, n), _grams(reference, n)
    if not ref:
        return 0.0
    return sum(1 for g in ref if g in cand) / len(ref)


@wrong_answer(q09_rouge_n, "which is precision")
def rouge_precision(candidate, reference, n):
    cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
    if not cand:
        return 0.0
    return sum((cand & ref).values()) / sum(cand.values())


@wrong_answer(q09_rouge_n, "no n-grams")
def rouge_without_guard(candidate, reference, n):
    cand, ref = Counter(_grams(candidate, n)), Counter(_grams(reference, n))
    return sum((cand & ref).values()) / sum(ref.values())


@wrong_answer(q10_lcs, "longest common substring")
def lcs_substring(a, b):
    best = 0
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
                best = max(best, table[i][j])
    return best


@wrong_answer(q10_lcs, "in any order")
def lcs_common_tokens(a, b):
    remaining = list(b)
    count = 0
    for token in a:
        if token in remaining:
            remaining.remove(token)
            count += 1
    return count


@wrong_answer(q10_lcs, "in any order")
def lcs_common_words(a, b):
    return len(set(a) & set(b))


@wrong_answer(q10_lcs, "greedily")
def lcs_greedy(a, b):
    j, length = 0, 0
    for token in a:
        for k in range(j, len(b)):
            if b[k] == token:
                length += 1
                j = k + 1
                break
    return length


@wrong_answer(q10_lcs, None)
def lcs_shorter_length(a, b):
    return min(len(a), len(b))


@wrong_answer(q11_meteor_chunks, "counts the matches")
def chunks_are_matches(alignment):
    return len(alignment)


@wrong_answer(q11_meteor_chunks, "one fewer than the chunks")
def chunks_without_the_first(alignment):
    chunks = 0
    for (i, j), (i2, j2) in zip(alignment, alignment[1:]):
        if i2 != i + 1 or j2 != j + 1:
            chunks += 1
    return chunks


@wrong_answer(q11_meteor_chunks, "empty alignment")
def chunks_nltk_helper(alignment):
    chunks = 1
    for (i, j), (i2, j2) in zip(alignment, alignment[1:]):
        if i2 != i + 1 or j2 != j + 1:
            chunks += 1
    return chunks


@wrong_answer(q11_meteor_chunks, "one side only")
def chunks_candidate_side(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or i != alignment[k - 1][0] + 1:
            chunks += 1
    return chunks


@wrong_answer(q11_meteor_chunks, "one side only")
def chunks_reference_side(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or j != alignment[k - 1][1] + 1:
            chunks += 1
    return chunks


WRONG = wrong_answers(globals())


@pytest.mark.parametrize("function", WRONG, ids=lambda function: function.__name__)
def test_a_wrong_answer_as_a_learner_writes_it_gets_its_diagnosis(function):
    assert_wrong_answer_diagnosed(function)


def test_the_source_notes_bleu_slip_is_reproduced_on_the_eiffel_pair():
    # the notes: exp(0.5 * (ln 0.8333 + log10 0.6)) = exp(-0.20205) = 0.817; the right BLEU-2 is 0.7071
    assert round(bleu_notes_logs(EIFFEL_CANDIDATE, EIFFEL_REFERENCE, 2), 3) == 0.817
    assert round(rml.bleu(EIFFEL_CANDIDATE, [EIFFEL_REFERENCE], max_n=2), 4) == 0.7071
    lines = q08_bleu.evaluate(bleu_notes_logs).message.splitlines()
    assert lines[1] == "  case:     the Eiffel pair: p1 = 5/6, p2 = 3/5"
    assert lines[3:5] == ["  expected: 0.7071067811865476", "  got:      0.8170253526525276"]


def test_the_source_notes_rouge_1_slip_is_caught():
    # the notes' overlap list leaves out 的 (twice in the candidate, once in the reference): 6/10, not 7/10
    def rouge_1_of_the_notes(candidate, reference, n):
        value = rouge_n_solution(candidate, reference, n)
        return 0.6 if (candidate, reference, n) == (SUMMARY_CANDIDATE, SUMMARY_REFERENCE, 1) else value

    message = q09_rouge_n.evaluate(rouge_1_of_the_notes).message
    assert "  case:     the Eiffel summary pair, ROUGE-1 (的 is shared once)" in message
    assert "  expected: 0.7\n  got:      0.6" in message


def test_a_log_of_zero_is_shown_with_its_input_and_line():
    assert q08_bleu.evaluate(bleu_log_of_zero).message.splitlines()[:5] == [
        "Incorrect: your function raised ZeroDivisionError: division by zero",
        "  case:     an empty candidate",
        "  inputs:   candidate=[], reference=['the', 'cat'], max_n=1",
        "  expected: 0.0",
        "  at line:  total += math.log(sum(min(c, ref[g]) for g, c in cand.items()) / sum(cand.values()))",
    ]


def test_starter_cells_name_the_first_case():
    def my_count_chunks(alignment):
        return ____  # your code here

    assert q11_meteor_chunks.evaluate(my_count_chunks).message == (
        "Not attempted: your function still returns ____ (for alignment=[]). "
        "Replace ____ with your answer, then check again."
    )


# ------------------------------------------------------------------ expected values: the helper's calls
def test_the_helper_itself_is_a_correct_answer():
    answers = [
        (q08_bleu, lambda c, r, n: rml.bleu(c, [r], max_n=n)),
        (q09_rouge_n, lambda c, r, n: rml.rouge_n(c, r, n).recall),
        (q10_lcs, lambda a, b: rml.lcs(a, b).length),
        (q11_meteor_chunks, rml.count_chunks),
        (q10_lcs, lambda a, b: float(rml.lcs(a, b).length)),
    ]
    assert [exercise.evaluate(answer).status for exercise, answer in answers] == ["correct"] * len(answers)


@pytest.mark.parametrize(
    "exercise, attribute, fake",
    [
        (q08_bleu, "bleu", lambda *a, **k: 0.125),
        (q09_rouge_n, "rouge_n", lambda *a, **k: rml.Score(0.5, 0.125, 0.2)),
        (q10_lcs, "lcs", lambda *a, **k: rml.LCS(125, [], None, [], [])),
        (q11_meteor_chunks, "count_chunks", lambda *a, **k: 125),
    ],
)
def test_expected_values_come_from_the_helper(exercise, attribute, fake, monkeypatch):
    monkeypatch.setattr(rml, attribute, fake)
    assert {exercise.expected(case) for case in exercise.cases()[:30]} <= {0.125, 125}


def test_expected_values_are_the_helpers_calls():
    for case in q08_bleu.cases():
        candidate, reference, max_n = case.args
        assert q08_bleu.expected(case) == rml.bleu(candidate, [reference], max_n=max_n)
    assert all(q09_rouge_n.expected(c) == rml.rouge_n(*c.args).recall for c in q09_rouge_n.cases())
    assert all(q10_lcs.expected(c) == rml.lcs(*c.args).length for c in q10_lcs.cases())
    assert all(q11_meteor_chunks.expected(c) == rml.count_chunks(*c.args) for c in q11_meteor_chunks.cases())


# ------------------------------------------------------------------ cases: the notes' examples and the edges
def test_random_text_cases_have_repeats_and_short_candidates():
    for exercise in (q08_bleu, q09_rouge_n, q10_lcs):
        pairs = [c.args[:2] for c in exercise.random_cases()]
        assert len({token for pair in pairs for side in pair for token in side}) <= 5
        assert sum(len(set(c)) < len(c) for c, _ in pairs) >= 50, "repeated words in candidates"
        assert sum(len(set(r)) < len(r) for _, r in pairs) >= 50, "repeated words in references"
        assert any(not c for c, _ in pairs) and any(len(c) < len(r) for c, r in pairs)
        assert any(exercise.expected(c) == 1 for c in exercise.random_cases()) or exercise is q10_lcs
    bleu_cases = [c.args for c in q08_bleu.random_cases()]
    assert any(len(c) < max_n for c, _, max_n in bleu_cases), "candidates shorter than max_n"
    assert {max_n for *_, max_n in bleu_cases} == {1, 2, 3, 4}
    assert any(0 < v < 1 for v in (rml.brevity_penalty(len(c), len(r)) for c, r, _ in bleu_cases))


def test_random_alignments_are_meteor_alignments_with_crossings():
    alignments = [c.args[0] for c in q11_meteor_chunks.random_cases()]
    assert all(a == sorted(a) for a in alignments), "sorted by candidate index"
    assert all(len({j for _, j in a}) == len(a) for a in alignments), "each reference token used once"
    assert any(any(j2 < j for (_, j), (_, j2) in zip(a, a[1:])) for a in alignments), "crossing matches"
    assert any(not a for a in alignments) and max(len(a) for a in alignments) >= 5


@pytest.mark.parametrize(
    "exercise, args, value, places",
    [
        # edge cases worked out by hand
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
def test_edge_cases_hold_hand_worked_values_and_the_source_notes_examples(exercise, args, value, places):
    case = next(c for c in exercise.edge_cases if c.args == args)
    assert round(exercise.expected(case), places) == round(value, places)


def test_the_notes_brevity_penalty_table():
    # the notes: BP = 1.000, 0.819, 1.000 for c = 6, 5, 7 against r = 6
    assert [round(rml.brevity_penalty(c, 6), 3) for c in (6, 5, 7)] == [1.0, 0.819, 1.0]
