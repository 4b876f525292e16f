"""Notebook 12: the exercise teaches the same context precision as ``rml.triad.context_precision``.

The exercise ``q12_context_precision`` takes a list of chunk verdicts; the helper asks a judge for
them. With a scripted judge the two must agree on every verdict pattern, and both must call an
empty retrieval NaN (nothing to judge), not 0.0 as ragas' epsilon does.
"""
from __future__ import annotations

import math
import random

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning
from ragmetrics_lite.course.exercises.q12_context_precision import reference_solution as solution


def _helper(verdicts):
    return rml.triad.context_precision("q", [f"chunk {k}" for k in range(len(verdicts))], rml.triad.ScriptedJudge(verdicts))


def test_the_exercise_solution_matches_the_helper_on_random_verdicts():
    rng = random.Random(12)
    for _ in range(300):
        verdicts = [rng.random() < rng.choice((0.0, 0.3, 0.7, 1.0)) for _ in range(rng.randint(1, 9))]
        assert math.isclose(_helper(verdicts), solution(verdicts), rel_tol=0, abs_tol=1e-12), verdicts


@pytest.mark.parametrize("verdicts, expected", [([False, False], 0.0), ([True, False], 1.0),
                                                ([False, True], 0.5), ([False, True, False, True], 0.5)])
def test_the_edge_patterns(verdicts, expected):
    assert _helper(verdicts) == solution(verdicts) == expected


def test_no_chunks_is_nan_in_both():
    with pytest.warns(RagMetricsWarning, match="nothing to judge"):
        helper = _helper([])
    assert math.isnan(helper) and math.isnan(solution([]))
