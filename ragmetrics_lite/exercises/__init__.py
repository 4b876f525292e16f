"""Self-checked exercises for the notebooks, modelled on Kaggle Learn's checkers.

A starter cell leaves the blank ``____`` for the learner to fill in::

    from ragmetrics_lite.exercises import ____, q04_mrr

    def my_mrr(predictions, ground_truths):
        return ____  # your code here

    q04_mrr.check(my_mrr)   # Not attempted: ... / Incorrect: ... / Correct: ...
    q04_mrr.hint()          # prints a hint
    q04_mrr.solution()      # prints a reference solution you can paste

Exercises, one per notebook:

==========================  ===============================================
exercise                    the learner writes
==========================  ===============================================
``q01_recall``              ``recall_at_k(relevant, retrieved, k)``
``q02_hit_rate``            ``hit_rate(relevant_sets, rankings, k)``
``q03_precision``           ``precision_at_k(relevant, retrieved, k)``
``q04_mrr``                 ``mrr(predictions, ground_truths)``
``q05_average_precision``   ``average_precision(relevant, retrieved)``
``q06_dcg``                 ``dcg_at_k(relevances, k)``
``q07_ndcg``                ``ndcg_at_k(ground_truth, retrieved_ids, k)``
==========================  ===============================================

Each exercise's docstring names its notebook: ``notebooks/01_recall_at_k.ipynb``,
``02_hit_rate_at_k``, ``03_precision_at_k``, ``04_mrr``, ``05_map``, ``06_dcg``,
``07_ndcg``.

New exercises take a few lines with :class:`FunctionExercise` (the answer is a
function, checked against a reference on edge and random cases) or
:class:`ValueExercise` (the answer is a number worked out by hand). A topic
module (``retrieval``; ``text`` for the BLEU/ROUGE notebooks) lists its
exercises in ``__all__`` and is re-exported here.
"""
from __future__ import annotations

import importlib.util as _importlib_util

from . import retrieval
from ._checker import (
    CORRECT,
    INCORRECT,
    NOT_ATTEMPTED,
    Case,
    CheckResult,
    Exercise,
    FunctionExercise,
    Mistake,
    Placeholder,
    ValueExercise,
    ____,
)
from .retrieval import *  # noqa: F403  (the exercises q01_recall ... q07_ndcg)

__all__ = [
    "____",
    "Placeholder",
    "CheckResult",
    "Case",
    "Mistake",
    "Exercise",
    "FunctionExercise",
    "ValueExercise",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    *retrieval.__all__,
]

# The text exercises (BLEU/ROUGE notebooks) arrive in their own module; re-export them once it exists.
if _importlib_util.find_spec(__name__ + ".text") is not None:
    from . import text
    from .text import *  # noqa: F403

    __all__ += text.__all__
