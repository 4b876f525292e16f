"""The old path of :mod:`ragmetrics_lite.course.plotting`, kept until the notebooks import it from there."""
from .course.plotting import *  # noqa: F401,F403
