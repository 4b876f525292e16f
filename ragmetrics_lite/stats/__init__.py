"""End-to-end statistics (notebooks 15-17): latency percentiles, significance, annotator agreement.

``latency`` gives percentiles equal to ``numpy.percentile`` and a per-stage timer; ``significance``
a paired permutation test and a bootstrap interval (as scipy) and Holm's correction; ``agreement``
Cohen's kappa (as scikit-learn) and Fleiss' kappa.
"""
from .agreement import cohens_kappa, fleiss_kappa, rating_counts
from .latency import PERCENTILE_METHODS, StageTimer, latency_percentiles
from .ppi import ppi_mean_ci
from .significance import bootstrap_ci, holm_rejections, paired_permutation_test

__all__ = [
    "latency_percentiles",
    "PERCENTILE_METHODS",
    "StageTimer",
    "paired_permutation_test",
    "bootstrap_ci",
    "holm_rejections",
    "cohens_kappa",
    "fleiss_kappa",
    "rating_counts",
    "ppi_mean_ci",
]
