"""The old import path of :mod:`ragmetrics_lite.text.meteor`, kept while the exercises use it."""
from .text.meteor import *  # noqa: F401,F403
from .text.meteor import __all__  # noqa: F401
