"""End-to-end statistics (notebooks 15-17): latency percentiles, significance, annotator agreement.

``latency`` gives percentiles equal to ``numpy.percentile`` and a per-stage timer; ``significance``
a paired permutation test and a bootstrap interval (as scipy) and Holm's correction; ``agreement``
Cohen's kappa (as scikit-learn) and Fleiss' kappa.
"""
from . import agreement, latency, ppi, significance
from .agreement import *  # noqa: F401,F403
from .latency import *  # noqa: F401,F403
from .ppi import *  # noqa: F401,F403
from .significance import *  # noqa: F401,F403

__all__ = [*latency.__all__, *significance.__all__, *agreement.__all__, *ppi.__all__]
