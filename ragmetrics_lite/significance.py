"""The old import path of :mod:`ragmetrics_lite.stats.significance`, kept while the exercises use it."""
from .stats.significance import *  # noqa: F401,F403
from .stats.significance import __all__  # noqa: F401
