"""q10_lcs: the longest common subsequence's length written by hand, for ``notebooks/10_rouge_l.ipynb``.

Expected values come from ``ragmetrics_lite.lcs(...).length``, the numerator of
ROUGE-L (rouge-score's ``_lcs_table``, bottom-right cell).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

from collections import Counter

import ragmetrics_lite as rml
from . import _cases
from ._cases import SUMMARY_CANDIDATE, SUMMARY_REFERENCE
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[len(a)][len(b)]


def _longest_common_substring(a, b):
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            run = 0
            while i + run < len(a) and j + run < len(b) and a[i + run] == b[j + run]:
                run += 1
            best = max(best, run)
    return best


def _common_token_count(a, b):
    return sum((Counter(a) & Counter(b)).values())


def _common_word_count(a, b):
    return len(set(a) & set(b))


def _greedy_left_to_right(a, b):
    length, start = 0, 0
    for token in a:
        if token in b[start:]:
            start = b.index(token, start) + 1
            length += 1
    return length


_COMMON = "this counts the tokens the two share, in any order; the LCS keeps them in the same order in both"

q10_lcs = FunctionExercise(
    "q10_lcs",
    """
    Write my_lcs_length(a, b): the length of the longest common subsequence (最长公共子序列) of two
    token lists, the most tokens that appear in both in the same order, gaps allowed. It is the
    numerator of ROUGE-L.
    """,
    notebook="10_rouge_l",
    reference=lambda a, b: rml.lcs(a, b).length,
    argnames=("a", "b"),
    edge_cases=[
        Case(([], ["the"]), "an empty list"),
        Case((["the"], ["cat"]), "nothing in common"),
        Case((["the", "cat"], ["cat", "the"]), "the same words in the opposite order"),
        Case((["the", "on", "cat"], ["the", "cat"]), "a gap in the first list"),
        Case((["the", "cat", "sat"], ["the", "cat", "sat"]), "identical lists"),
        Case((["mat", "the", "cat", "sat"], ["the", "cat", "sat", "mat"]), "matching the first word is a trap"),
        Case((["the", "cat", "on", "the", "mat"], ["the", "mat", "on", "the", "cat"]), "repeated words"),
        Case((SUMMARY_CANDIDATE, SUMMARY_REFERENCE), "the Eiffel summary pair"),
    ],
    random_case=_cases.text_pair,
    hints=(
        "Trying every subsequence is hopeless. Can the answer for two prefixes be built from the answers "
        "for shorter prefixes? Ask what happens when their last tokens are equal, and when they are not.",
        "Fill a table with len(a) + 1 rows and len(b) + 1 columns of zeros: cell [i][j] is the LCS length of "
        "a[:i] and b[:j]. If a[i - 1] == b[j - 1] it is the cell up-left plus 1, else the larger of the cell "
        "above and the cell to the left. The answer is the bottom-right cell.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(
            _longest_common_substring,
            "this is the longest common substring, whose tokens must be adjacent; a subsequence may skip "
            "tokens in either list",
        ),
        Mistake(_common_token_count, _COMMON),
        Mistake(_common_word_count, _COMMON),
        Mistake(
            _greedy_left_to_right,
            "this matches greedily from the left, and an early match can block a longer subsequence; use "
            "the dynamic-programming table",
        ),
    ],
)

check = q10_lcs.check
hint = q10_lcs.hint
solution = q10_lcs.solution
