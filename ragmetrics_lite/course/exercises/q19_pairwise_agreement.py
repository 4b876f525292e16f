"""q19_pairwise_agreement: how often a judge prefers the member people preferred, for
``notebooks/19_do_metrics_agree_with_people.ipynb``.

The ragas paper's Table 1 scores a judge on WikiEval pairs this way: for each pair, the judge's
score of the member people preferred against its score of the other; a win counts 1, a tie 1/2.
A pair where the judge gave no score (NaN: its reply could not be parsed) counts as a failure, 0,
and stays in the denominator, so that a judge cannot look better by failing on hard pairs. Expected
values come from that rule written with numpy (``_expected``), as the notebook computes it beside
ragas' and the recorded Llama-3 runs.

>>> check(reference_solution)
Correct: your function agrees with the reference on all 207 cases (7 edge cases, 200 random).
"""
from __future__ import annotations

import math

import numpy as np

from ._checker import Case, FunctionExercise, Mistake

NAN = float("nan")
SCORES = (0.0, 0.25, 0.5, 0.5, 0.75, 1.0, 1.0, NAN)   # few values, so that ties are common


def reference_solution(preferred, other):
    credit = 0.0
    for good, bad in zip(preferred, other):
        if math.isnan(good) or math.isnan(bad):
            continue  # no score: the pair counts as a failure
        if good > bad:
            credit += 1
        elif good == bad:
            credit += 0.5
    return credit / len(preferred)


def _expected(preferred, other):
    good, bad = np.asarray(preferred, float), np.asarray(other, float)
    scored = ~(np.isnan(good) | np.isnan(bad))
    wins = np.where(scored, (good > bad) + 0.5 * (good == bad), 0.0)
    return float(wins.mean())


def _strict(preferred, other):
    return sum(g > b for g, b in zip(preferred, other)) / len(preferred)


def _ties_win(preferred, other):
    return sum(g >= b for g, b in zip(preferred, other)) / len(preferred)


def _scored_pairs_only(preferred, other):
    scored = [(g, b) for g, b in zip(preferred, other) if not (math.isnan(g) or math.isnan(b))]
    return sum(1.0 if g > b else 0.5 if g == b else 0.0 for g, b in scored) / len(scored)


def _no_score_as_tie(preferred, other):
    credit = [1.0 if g > b else 0.0 if g < b else 0.5 for g, b in zip(preferred, other)]
    return sum(credit) / len(credit)


def _nan_as_zero(preferred, other):
    scores = [(0.0 if math.isnan(g) else g, 0.0 if math.isnan(b) else b) for g, b in zip(preferred, other)]
    return sum(1.0 if g > b else 0.5 if g == b else 0.0 for g, b in scores) / len(scores)


def _other_wins(preferred, other):
    return reference_solution(other, preferred)


def _pairs(rng):
    """(preferred, other): a judge's scores of 1-8 pairs, from few values, NaN now and then."""
    size = rng.randint(1, 8)
    preferred = [rng.choice(SCORES) for _ in range(size)]
    other = [rng.choice(SCORES) for _ in range(size)]
    return preferred, other


q19_pairwise_agreement = FunctionExercise(
    "q19_pairwise_agreement",
    """
    Write my_pairwise_agreement(preferred, other): preferred[i] is a judge's score of the member of
    pair i that people preferred, other[i] its score of the other member (the same pair). Return the
    share of pairs the judge gets right (成对一致率): a pair counts 1 when preferred[i] > other[i], 1/2
    when the scores tie, and 0 otherwise. A NaN score means the judge gave none (its reply did not
    parse): that pair counts 0 and stays in the denominator. There is at least one pair.
    """,
    notebook="19_do_metrics_agree_with_people",
    reference=_expected,
    argnames=("preferred", "other"),
    edge_cases=[
        Case(([1.0], [0.0]), "one pair, the judge prefers the right member"),
        Case(([0.5], [0.5]), "one pair, a tie"),
        Case(([NAN], [0.5]), "one pair with no score"),
        Case(([0.2, 0.9], [0.8, 0.1]), "one pair right, one wrong"),
        Case(([NAN, NAN, 0.7], [0.1, NAN, 0.6]), "two of three pairs without a score"),
        Case(([1.0, 0.5, 0.0, NAN], [0.0, 0.5, 1.0, 0.0]), "a win, a tie, a loss and a pair with no score"),
        Case(([0.9] * 6 + [0.4] * 4, [0.2] * 6 + [0.4] * 4), "six wins and four ties"),
    ],
    random_case=_pairs,
    hints=(
        "A judge that scores both members the same has not picked the wrong one, nor the right one. "
        "What should such a pair count, and what about a pair it could not score at all?",
        "Go through the pairs with zip. Skip a pair (credit 0) when either score is NaN (math.isnan); "
        "else add 1 when preferred > other and 0.5 when they are equal. Divide by the number of "
        "pairs, the unscored ones included.",
    ),
    solution=reference_solution,
    solution_imports="import math",
    mistakes=[
        Mistake(_strict, "this counts a tie as a failure; a tie counts one half"),
        Mistake(_ties_win, "this counts a tie as a win; a tie counts one half"),
        Mistake(_scored_pairs_only, "this leaves the pairs without a score out of the denominator; they "
                "count as failures, so that a judge cannot gain by failing to score the hard pairs"),
        Mistake(_no_score_as_tie, "this counts a pair without a score as a tie (NaN is neither greater "
                "nor smaller than a number, so it falls to the tie branch); such a pair counts 0"),
        Mistake(_other_wins, "this counts the pairs where the other member scores higher: compare "
                "preferred[i] > other[i]"),
        Mistake(_nan_as_zero, "this reads a missing score as 0, so a pair without a score can tie (NaN "
                "against 0) or win (a positive score against NaN); such a pair counts 0"),
    ],
)

check = q19_pairwise_agreement.check
hint = q19_pairwise_agreement.hint
solution = q19_pairwise_agreement.solution
