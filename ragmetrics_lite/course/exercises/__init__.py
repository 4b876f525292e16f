"""Self-checked exercises for the notebooks, modelled on Kaggle Learn's checkers.

A starter cell leaves the blank ``____`` for the learner to fill in::

    from ragmetrics_lite.exercises import ____, q04_mrr

    def my_mrr(predictions, ground_truths):
        return ____  # your code here

    q04_mrr.check(my_mrr)   # Not attempted: ... / Incorrect: ... / Correct: ...
    # q04_mrr.hint()        # a nudge
    # q04_mrr.hint(2)       # the recipe
    # q04_mrr.solution()    # a reference solution you can paste

Each exercise is one module, ``qNN_<topic>.py``, that defines one exercise of
the same name: its reference ``solution``, its known mistakes with their
diagnoses, two hints and the notebook it belongs to. This package finds every
such module (:func:`~ragmetrics_lite.exercises._registry.discover`), keeps them
in ``REGISTRY`` and re-exports each exercise under its name. Note that the
exercise object then stands where the submodule would:
``import ragmetrics_lite.exercises.q01_recall as m`` gives the exercise; reach
the module with ``importlib.import_module`` or ``from ... import solution``.
The machinery (the kinds :class:`FunctionExercise`, :class:`ValueExercise`,
:class:`ChoiceExercise`) is in ``_checker``, shared random cases in ``_cases``.

The exercises, as registered (this table is generated from ``REGISTRY``):

"""
from __future__ import annotations

import sys
from types import MappingProxyType

from . import _checker
from ._checker import *  # noqa: F403  (____, the checker classes, the status names)
from ._registry import RegistryError, discover, table

REGISTRY = MappingProxyType(discover(sys.modules[__name__]))
globals().update(REGISTRY)  # each exercise replaces the attribute of its submodule's name
__all__ = [*_checker.__all__, *REGISTRY]
__doc__ = (__doc__ or "") + table(REGISTRY) + "\n"  # (or "": python -OO drops docstrings)
