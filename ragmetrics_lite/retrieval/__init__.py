"""Retrieval metrics (notebooks 01-07 and 18): did the retriever find the documents the answer needs?

* ``metrics``: the per-query functions, the definitions a learner reads (``recall_at_k`` ...), each
  agreeing with trec_eval per query; re-exported here.
* ``table``: ``METRICS``, one declaration per metric that ``evaluate`` knows.
* ``evaluate``: a whole run against judgments, one row per query, computed by the fast engine
  (``ragmetrics_lite.fast``), which is tested equal to the per-query functions.
"""
from . import metrics
from .metrics import *  # noqa: F401,F403

__all__ = list(metrics.__all__)
