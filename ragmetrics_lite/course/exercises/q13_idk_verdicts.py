"""q13_idk_verdicts: faithfulness from DeepEval-style verdicts, for ``notebooks/13_faithfulness.ipynb``.

DeepEval (4.1.10) judges each claim of an answer "yes", "no" (only for a direct contradiction) or
"idk" (the context does not say), and counts every verdict that is not "no" as faithful; with
``penalize_ambiguous_claims=True`` (since 3.6.5) an "idk" counts as unfaithful. Expected values
come from ``ragmetrics_lite.triad.faithfulness`` driven by a judge that replays the verdicts, so
nothing to judge gives NaN, as in this package (DeepEval itself returns 1 there).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math
import warnings

from ragmetrics_lite import RagMetricsWarning, ScriptedJudge, faithfulness
from ._checker import Case, FunctionExercise, Mistake, same


def reference_solution(verdicts, penalize_ambiguous_claims):
    if not verdicts:
        return float("nan")
    faithful = [v == "yes" or (v == "idk" and not penalize_ambiguous_claims) for v in verdicts]
    return sum(faithful) / len(verdicts)


def _reference(verdicts, penalize_ambiguous_claims):
    supported = [v == "yes" or (v == "idk" and not penalize_ambiguous_claims) for v in verdicts]
    answer = "".join(f"第{i + 1}条陈述。" for i in range(len(verdicts)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)  # nothing to judge: NaN, warned about
        return faithfulness(answer, ["上下文"], judge=ScriptedJudge(supported, reason="replayed"))


def _same_or_both_nan(got, expected):
    if isinstance(got, float) and isinstance(expected, float) and math.isnan(got) and math.isnan(expected):
        return True
    return same(got, expected)


def _share(verdicts, counts):
    return sum(counts(v) for v in verdicts) / len(verdicts) if verdicts else float("nan")


def _switch_ignored(verdicts, penalize_ambiguous_claims):
    return _share(verdicts, lambda v: v != "no")


def _idk_always_unfaithful(verdicts, penalize_ambiguous_claims):
    return _share(verdicts, lambda v: v == "yes")


def _switch_reversed(verdicts, penalize_ambiguous_claims):
    return _share(verdicts, lambda v: v == "yes" or (v == "idk" and penalize_ambiguous_claims))


def _idk_left_out(verdicts, penalize_ambiguous_claims):
    if penalize_ambiguous_claims:
        return _share(verdicts, lambda v: v == "yes")
    judged = [v for v in verdicts if v != "idk"]
    return _share(judged, lambda v: v == "yes") if judged else float("nan")


def _empty_is_one(verdicts, penalize_ambiguous_claims):
    return reference_solution(verdicts, penalize_ambiguous_claims) if verdicts else 1.0


def _empty_is_zero(verdicts, penalize_ambiguous_claims):
    return reference_solution(verdicts, penalize_ambiguous_claims) if verdicts else 0.0


def _unguarded(verdicts, penalize_ambiguous_claims):
    return sum(v == "yes" or (v == "idk" and not penalize_ambiguous_claims) for v in verdicts) / len(verdicts)


def _verdict_list(rng):
    """(0-6 verdicts from yes/no/idk, the switch); now and then an empty list."""
    size = rng.choice((0, 1, 2, 2, 3, 3, 4, 5, 6))
    weights = [rng.random() for _ in range(3)]
    return rng.choices(["yes", "no", "idk"], weights, k=size), rng.random() < 0.5


q13_idk_verdicts = FunctionExercise(
    "q13_idk_verdicts",
    """
    Write my_faithfulness_from_verdicts(verdicts, penalize_ambiguous_claims): verdicts is a list
    of "yes", "no" and "idk", one per statement of an answer, as DeepEval's faithfulness (忠实度)
    judge gives them. "yes" is faithful, "no" is not; "idk" counts as faithful unless
    penalize_ambiguous_claims is True. Return the faithful share of the verdicts, and
    float("nan") when there are none (nothing to judge, as in ragas; DeepEval returns 1 there).
    """,
    notebook="13_faithfulness",
    reference=_reference,
    argnames=("verdicts", "penalize_ambiguous_claims"),
    edge_cases=[
        Case(([], False), "nothing to judge"),
        Case((["no"], True), "one contradicted statement"),
        Case((["idk"], False), "one statement the context does not mention"),
        Case((["idk"], True), "the same, ambiguous claims penalized"),
        Case((["no", "yes"], False), "the notes' example: 30 days contradicts 7 days"),
        Case((["yes", "idk", "no"], False), "one verdict of each kind"),
        Case((["yes", "idk", "no"], True), "one verdict of each kind, penalized"),
        Case((["idk", "idk", "idk", "yes"], False), "mostly unmentioned claims"),
    ],
    random_case=_verdict_list,
    hints=(
        "Which verdicts count as faithful when the switch is off, and which when it is on? And what "
        "is a share of zero verdicts?",
        "Return float('nan') for an empty list. Otherwise count the verdicts equal to 'yes', plus "
        "those equal to 'idk' when penalize_ambiguous_claims is False, and divide by len(verdicts).",
    ),
    solution=reference_solution,
    compare=_same_or_both_nan,
    mistakes=[
        Mistake(_switch_ignored, "this counts every verdict but 'no' as faithful whatever the switch; "
                "with penalize_ambiguous_claims=True an 'idk' counts as unfaithful"),
        Mistake(_idk_always_unfaithful, "this counts only 'yes'; with the switch off (DeepEval's "
                "default) an 'idk' counts as faithful"),
        Mistake(_switch_reversed, "the switch works backwards: 'idk' is faithful when "
                "penalize_ambiguous_claims is False and unfaithful when it is True"),
        Mistake(_idk_left_out, "this leaves the 'idk' verdicts out of the count; they stay in the "
                "denominator, counted as faithful unless penalized"),
        Mistake(_empty_is_one, "this returns 1 when there is nothing to judge (DeepEval's choice); "
                "here nothing to judge is NaN, as in ragas"),
        Mistake(_empty_is_zero, "this returns 0 when there is nothing to judge (TruLens' choice); "
                "here nothing to judge is NaN, as in ragas"),
        Mistake(_unguarded, "this divides by zero when there are no verdicts; return float('nan') "
                "for an empty list"),
    ],
)

check = q13_idk_verdicts.check
hint = q13_idk_verdicts.hint
solution = q13_idk_verdicts.solution
