"""Self-checked exercises for the notebooks, modelled on Kaggle Learn's checkers.

A starter cell leaves the blank ``____`` for the learner to fill in::

    from ragmetrics_lite.course.exercises import ____, q04_mrr

    def my_mrr(predictions, ground_truths):
        return ____  # your code here

    q04_mrr.check(my_mrr)   # Not attempted: ... / Incorrect: ... / Correct: ...
    # q04_mrr.hint()        # a nudge
    # q04_mrr.hint(2)       # the recipe
    # q04_mrr.solution()    # a reference solution you can paste

Each exercise is one module, ``qNN_<topic>.py``, that declares one exercise of
the same name (its reference solution, its known mistakes with their
diagnoses, two hints and the notebook it belongs to) and exposes that
exercise's ``check``, ``hint`` and ``solution`` as its own functions, so
``q04_mrr`` above is the module. This package finds every such module
(:func:`~ragmetrics_lite.course.exercises._registry.discover`) and keeps the
exercises, by name, in the read-only mapping ``REGISTRY``. The machinery (the
kinds :class:`FunctionExercise` and :class:`ChoiceExercise`) is in
``_checker``, shared random cases in ``_cases``.

The exercises, as registered (this table is generated from ``REGISTRY``):

"""
from __future__ import annotations

import sys
from types import MappingProxyType

from . import _checker
from ._checker import *  # noqa: F403  (____, the checker classes, the status names)
from ._registry import RegistryError, discover, table

REGISTRY = MappingProxyType(discover(sys.modules[__name__]))
__all__ = [*_checker.__all__, *REGISTRY]
__doc__ = (__doc__ or "") + table(REGISTRY) + "\n"  # (or "": python -OO drops docstrings)
