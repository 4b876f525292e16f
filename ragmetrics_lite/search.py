"""The old path of :mod:`ragmetrics_lite.course.search`, kept until the notebooks import it from there."""
from .course.search import *  # noqa: F401,F403
