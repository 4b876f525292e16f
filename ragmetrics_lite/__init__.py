"""ragmetrics_lite: small, readable RAG evaluation metrics, each derived in a notebook.

Retrieval metrics agree with trec_eval per query (``retrieval``, ``evaluate``);
TREC files are read by ``trec_io``; exercises for the notebooks live in
``ragmetrics_lite.exercises``.
"""
from .evaluate import METRICS, RagMetricsWarning, evaluate
from .retrieval import (
    average_precision,
    dcg_at_k,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from .trec_io import read_qrels, read_run

__version__ = "0.1.0"

__all__ = [
    "recall_at_k",
    "precision_at_k",
    "hit_at_k",
    "reciprocal_rank",
    "average_precision",
    "r_precision",
    "dcg_at_k",
    "ndcg_at_k",
    "evaluate",
    "read_qrels",
    "read_run",
    "METRICS",
    "RagMetricsWarning",
]
