"""The old import path of :mod:`ragmetrics_lite.text.rouge`, kept while the exercises use it."""
from .text.rouge import *  # noqa: F401,F403
from .text.rouge import __all__  # noqa: F401
