"""Self-checked exercises for the notebooks, modelled on Kaggle Learn's checkers.

A starter cell leaves the blank ``____`` for the learner to fill in::

    from ragmetrics_lite.exercises import ____, q04_mrr

    def my_mrr(predictions, ground_truths):
        return ____  # your code here

    q04_mrr.check(my_mrr)   # Not attempted: ... / Incorrect: ... / Correct: ...
    q04_mrr.hint()          # prints a hint
    q04_mrr.solution()      # prints a reference solution you can paste

Exercises, one per notebook:

==========================  ===============================================  =======================
exercise                    the learner writes                               notebook
==========================  ===============================================  =======================
``q01_recall``              ``recall_at_k(relevant, retrieved, k)``          ``01_recall_at_k``
``q02_hit_rate``            ``hit_rate(relevant_sets, rankings, k)``         ``02_hit_rate_at_k``
``q03_precision``           ``precision_at_k(relevant, retrieved, k)``       ``03_precision_at_k``
``q04_mrr``                 ``mrr(predictions, ground_truths)``              ``04_mrr``
``q05_average_precision``   ``average_precision(relevant, retrieved)``       ``05_map``
``q06_dcg``                 ``dcg_at_k(relevances, k)``                      ``06_dcg``
``q07_ndcg``                ``ndcg_at_k(ground_truth, retrieved_ids, k)``    ``07_ndcg``
``q08_bleu``                ``bleu(candidate, reference, max_n)``            ``08_bleu``
``q09_rouge_n``             ``rouge_n_recall(candidate, reference, n)``      ``09_rouge_n``
``q10_lcs``                 ``lcs_length(a, b)``                             ``10_rouge_l``
``q11_meteor_chunks``       ``count_chunks(alignment)``                      ``11_meteor``
==========================  ===============================================  =======================

Each exercise's docstring names its notebook (``notebooks/NN_name.ipynb``).

New exercises take a few lines with :class:`FunctionExercise` (the answer is a
function, checked against a reference on edge and random cases) or
:class:`ValueExercise` (the answer is a number worked out by hand). A topic
module (``retrieval`` for notebooks 01-07, ``text`` for 08-11) lists its
exercises in ``__all__`` and is re-exported here.
"""
from __future__ import annotations

from . import _checker, retrieval, text
from ._checker import *  # noqa: F403  (____, the checker classes, the status names)
from .retrieval import *  # noqa: F403  (the exercises q01_recall ... q07_ndcg)
from .text import *  # noqa: F403  (the exercises q08_bleu ... q11_meteor_chunks)

__all__ = [*_checker.__all__, *retrieval.__all__, *text.__all__]
