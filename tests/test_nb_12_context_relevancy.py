"""Notebook 12: the exercise teaches the same context precision as ``rml.triad.context_precision``,
and the default judge tells a reworded question's noise from its answer.

The exercise ``q12_context_precision`` takes a list of chunk verdicts; the helper asks a judge for
them. With a scripted judge the two must agree on every verdict pattern, and both must call an
empty retrieval NaN (nothing to judge), not 0.0 as ragas' epsilon does.

Issue 28: the notebook's chunks with its question reworded to 公司的退款政策是怎样的？, which shares 公司 with
every company chunk: the embedding judge (context relevancy's default) scores every refund chunk above
every company chunk; the lexical judge, counting shared words, does not.
"""
from __future__ import annotations

import math
import random
from pathlib import Path

import nbformat
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import RagMetricsWarning
from ragmetrics_lite.course.exercises.q12_context_precision import reference_solution as solution
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "12_context_relevancy.ipynb"
harness = load_script(ROOT / "scripts" / "run_parameter_sets.py")


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


def test_the_reworded_question_scores_the_refund_chunks_above_the_company_chunks():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    p = harness.stored_parameters(notebook.cells[harness.parameters_cell_index(notebook)])
    question = p["reworded_question"]
    assert question == "公司的退款政策是怎样的？" and all("公司" in chunk for chunk in p["noisy_contexts"])

    def per_chunk(judge, chunks):
        return [rml.triad.context_relevancy(question, [chunk], judge) for chunk in chunks]

    for judge in (rml.triad.EmbeddingJudge(), None):   # None: the default judge, the embedding judge here
        assert max(per_chunk(judge, p["noisy_contexts"])) < min(per_chunk(judge, p["refund_contexts"]))
    lexical = rml.triad.LexicalJudge()
    assert max(per_chunk(lexical, p["noisy_contexts"])) >= min(per_chunk(lexical, p["refund_contexts"]))
