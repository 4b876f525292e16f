"""The old import path of :mod:`ragmetrics_lite.text.tokenization`, kept while notebook 14 and exercise q14 use it."""
from .text.tokenization import *  # noqa: F401,F403
from .text.tokenization import __all__  # noqa: F401
