"""The old import path of :mod:`ragmetrics_lite.stats.latency`, kept while the exercises use it."""
from .stats.latency import *  # noqa: F401,F403
from .stats.latency import __all__  # noqa: F401
