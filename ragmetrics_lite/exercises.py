"""The old path of :mod:`ragmetrics_lite.course.exercises`, kept until the notebooks and tests import it from there.

``from ragmetrics_lite.exercises import ____, q01_recall`` gives the same objects as the new path,
and ``ragmetrics_lite.exercises.q01_recall`` (or ``._checker``) names the same module as
``ragmetrics_lite.course.exercises.q01_recall``, never a second copy of it.
"""
import sys

from .course import exercises as _exercises
from .course.exercises import *  # noqa: F401,F403
from .course.exercises import REGISTRY, RegistryError  # noqa: F401

for _name in [*REGISTRY, "_cases", "_checker", "_registry"]:
    sys.modules[f"{__name__}.{_name}"] = sys.modules[f"{_exercises.__name__}.{_name}"]
