"""The old import path of :mod:`ragmetrics_lite.stats.agreement`, kept while the exercises use it."""
from .stats.agreement import *  # noqa: F401,F403
from .stats.agreement import __all__  # noqa: F401
