"""q11_meteor_chunks: METEOR's chunk count written by hand, for ``notebooks/11_meteor.ipynb``.

Expected values come from ``ragmetrics_lite.count_chunks`` (the chunks behind
nltk's ``meteor_score`` fragmentation penalty, except that no match gives 0).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 207 cases (7 edge cases, 200 random).
"""
from __future__ import annotations

import ragmetrics_lite as rml
from . import _cases
from ._cases import EIFFEL_CANDIDATE, EIFFEL_REFERENCE
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or (i, j) != (alignment[k - 1][0] + 1, alignment[k - 1][1] + 1):
            chunks += 1
    return chunks


def _matches(alignment):
    return len(alignment)


def _breaks_only(alignment):
    return sum(1 for (i, j), nxt in zip(alignment, alignment[1:]) if nxt != (i + 1, j + 1))


def _one_when_empty(alignment):
    return 1 + _breaks_only(alignment)


def _candidate_side(alignment):
    return sum(1 for k, (i, _) in enumerate(alignment) if k == 0 or i != alignment[k - 1][0] + 1)


def _reference_side(alignment):
    return sum(1 for k, (_, j) in enumerate(alignment) if k == 0 or j != alignment[k - 1][1] + 1)


_ONE_SIDE = (
    "this checks adjacency on one side only; a chunk continues only when the next match is the next "
    "token in the candidate AND in the reference"
)

q11_meteor_chunks = FunctionExercise(
    "q11_meteor_chunks",
    """
    Write my_count_chunks(alignment): alignment lists METEOR's matches as (candidate index, reference
    index) pairs, sorted by candidate index. A chunk (匹配块) is a run of matches that are adjacent in
    both texts: (i, j) followed by (i + 1, j + 1). Return the number of chunks; no match gives 0.
    """,
    notebook="11_meteor",
    reference=lambda alignment: rml.count_chunks(alignment),
    argnames=("alignment",),
    edge_cases=[
        Case(([],), "no match"),
        Case(([(0, 0)],), "one match"),
        Case(([(0, 0), (1, 1)],), "two matches in one chunk"),
        Case(([(0, 1), (1, 0)],), "adjacent in the candidate, reversed in the reference"),
        Case(([(0, 0), (2, 1)],), "adjacent in the reference, a gap in the candidate"),
        Case(([(0, 0), (1, 1), (2, 5), (4, 6)],), "three chunks"),
        Case(
            (rml.meteor_alignment(EIFFEL_CANDIDATE, EIFFEL_REFERENCE),),
            "the Eiffel pair: 是 against 为 splits the five matches",
        ),
    ],
    random_case=_cases.alignment,
    hints=(
        "Walk through the matches in order. When does a match carry on the current chunk, and when does "
        "it start a new one? Mind the first match, and an alignment with none.",
        "The first pair opens a chunk, and each later pair (i, j) opens a new one unless the pair before "
        "it is exactly (i - 1, j - 1). An empty alignment has no chunk.",
    ),
    solution=reference_solution,
    mistakes=[
        Mistake(_matches, "this counts the matches; adjacent matches share one chunk"),
        Mistake(
            _breaks_only,
            "this counts the breaks between chunks, one fewer than the chunks; the first match opens a chunk too",
        ),
        Mistake(_one_when_empty, "this gives 1 for an empty alignment; no match means no chunk"),
        Mistake(_candidate_side, _ONE_SIDE),
        Mistake(_reference_side, _ONE_SIDE),
    ],
)

check = q11_meteor_chunks.check
hint = q11_meteor_chunks.hint
solution = q11_meteor_chunks.solution
