"""Claims notebook 17 makes, checked on their own.

* Fleiss' kappa generalises Scott's pi, not Cohen's kappa: with two annotators it equals Scott's pi,
  and when annotators use the grades at different rates it can lie far from the mean of the pairwise
  Cohen's kappas (the notebook once said it is "close to" that mean). Three annotators on 12 items,
  two who say "relevant" ten times and one who says it three times, show it: mean pairwise Cohen
  0.08, Fleiss -0.32; the notebook's lenient and strict pair: Cohen 0.08, Fleiss -0.33.
* The re-grading histogram counts whole re-gradings: its y ticks are integers (once 2.5, 7.5, ...).
* A 0-4 grade scale runs (a fixed 0-3 scale once raised IndexError).
* The exercise rejects an answer that divides by zero, or returns 1, where kappa is 0/0.
"""
from __future__ import annotations

import importlib
import itertools
import math
from pathlib import Path

import matplotlib
import nbformat
import numpy as np

import ragmetrics_lite as rml
from tests.helpers import run_main_path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "17_human_evaluation.ipynb"
module = importlib.import_module("ragmetrics_lite.course.exercises.q17_cohens_kappa")
exercise = module.q17_cohens_kappa

# three annotators on 12 items: A and C say 1 to ten of them, B to three, mostly where A and C say 0
SKEWED = {"A": [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1],
          "B": [0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0],
          "C": [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1]}


def scotts_pi(a, b) -> float:
    observed = np.mean(np.equal(a, b))
    labels = sorted(set(a) | set(b))
    pooled = [(a.count(g) + b.count(g)) / (2 * len(a)) for g in labels]
    chance = sum(share**2 for share in pooled)
    return (observed - chance) / (1 - chance)


def test_fleiss_kappa_is_scotts_pi_for_two_annotators():
    rng = np.random.default_rng(17)
    for _ in range(50):
        size = int(rng.integers(3, 15))
        a = rng.integers(0, 4, size).tolist()
        b = [x if rng.random() < 0.6 else int(rng.integers(0, 4)) for x in a]
        if len(set(a) | set(b)) < 2:
            continue
        counts = rml.rating_counts(list(zip(a, b)), categories=[0, 1, 2, 3])
        assert math.isclose(rml.fleiss_kappa(counts), scotts_pi(a, b), abs_tol=1e-12)


def test_fleiss_kappa_can_lie_far_from_the_mean_pairwise_cohen():
    pairs = [rml.cohens_kappa(SKEWED[x], SKEWED[y]) for x, y in itertools.combinations("ABC", 2)]
    fleiss = rml.fleiss_kappa(rml.rating_counts(list(zip(*SKEWED.values())), categories=[0, 1]))
    assert round(np.mean(pairs), 2) == 0.08
    assert round(fleiss, 2) == -0.32
    lenient, strict = [1] * 10 + [0] * 2, [1] * 2 + [0] * 10        # the notebook's pair
    two = rml.fleiss_kappa(rml.rating_counts(list(zip(lenient, strict)), categories=[0, 1]))
    assert rml.cohens_kappa(lenient, strict) > 0 > two


def test_the_notebook_says_what_fleiss_kappa_generalises():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    prose = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert "close to the mean of the pairwise" not in prose
    assert "Scott's π" in prose


def test_the_regrading_histogram_counts_whole_regradings():
    import matplotlib.pyplot as plt

    plt.close("all")
    try:
        run_main_path(NOTEBOOK)[0]
        axes = [ax for number in plt.get_fignums() for ax in plt.figure(number).axes
                if ax.get_ylabel() == "re-gradings"]
        assert len(axes) == 1
        ticks = axes[0].get_yticks()
        assert all(float(tick).is_integer() for tick in ticks), ticks
    finally:
        plt.close("all")


def test_a_0_to_4_grade_scale_runs():
    namespace = run_main_path(
        NOTEBOOK, grade_scale=[0, 1, 2, 3, 4], ranking_grades_a=[2, 4, 0], ranking_grades_b=[2, 3, 0],
        annotator_a=[4, 2, 0, 1, 3, 0, 2, 1, 0, 4, 2, 0], annotator_b=[4, 3, 0, 2, 2, 0, 2, 0, 0, 3, 1, 1],
        annotator_c=[4, 3, 0, 1, 3, 0, 1, 1, 0, 2, 2, 0])[0]
    assert namespace["confusion"].shape == (5, 5)
    assert math.isclose(namespace["kappa_ab"], rml.cohens_kappa(namespace["a"], namespace["b"]), abs_tol=1e-12)


def textbook_kappa(a, b):
    """(p_o - p_e) / (1 - p_e) as written, with no guard: divides by zero where kappa is undefined."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    expected = sum((a.count(g) / n) * (b.count(g) / n) for g in set(a) | set(b))
    return (observed - expected) / (1 - expected)


def test_the_exercise_rejects_a_division_by_zero_where_kappa_is_undefined():
    result = exercise.evaluate(textbook_kappa)
    assert result.status == "incorrect"
    assert "ZeroDivisionError" in result.message


def test_the_exercise_rejects_full_agreement_where_kappa_is_undefined():
    def one_when_undefined(a, b):
        if len(set(a) | set(b)) == 1:
            return 1.0
        return textbook_kappa(a, b)

    result = exercise.evaluate(one_when_undefined)
    assert result.status == "incorrect"
    assert "0/0" in result.message


def test_the_exercise_accepts_nan_where_kappa_is_undefined():
    assert exercise.evaluate(module.reference_solution).status == "correct"
