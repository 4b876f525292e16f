"""The old import path of :mod:`ragmetrics_lite.text.bleu`, kept while the exercises use it."""
from .text.bleu import *  # noqa: F401,F403
from .text.bleu import __all__  # noqa: F401
