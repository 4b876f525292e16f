"""ragmetrics_lite: small, readable RAG evaluation metrics, each derived in a notebook.

The library is grouped by course stage, each subpackage declaring its public names once (its
``__all__``), all re-exported here: ``retrieval`` (notebooks 01-07, computed in bulk by the fast
engine in ``fast``), ``text`` (08-11), ``triad`` (12-14, the judged metrics), ``stats`` (15-17);
TREC, CSV and JSON Lines files are read by ``trec_io``. Exercises, plotting and the other
course machinery live in ``ragmetrics_lite.course``; the few names a notebook calls as ``rml.…``
are re-exported here.
"""
from . import retrieval, stats, text, triad
from ._validation import RagMetricsWarning
from .course.notes import notes_check, notes_claim, on_notes_example, same_inputs
from .course.playground import rank_playground
from .retrieval import *  # noqa: F401,F403  (the names of each stage's __all__)
from .retrieval.evaluate import evaluate
from .retrieval.table import METRICS, trec_eval_measure
from .stats import *  # noqa: F401,F403
from .text import *  # noqa: F401,F403
from .trec_io import read_qrels, read_run
from .triad import *  # noqa: F401,F403

__version__ = "0.1.0"

__all__ = [
    *retrieval.__all__, "evaluate", "trec_eval_measure", "read_qrels", "read_run", "METRICS",
    "RagMetricsWarning",
    *text.__all__,
    *stats.__all__,
    "triad", *triad.__all__,
    "notes_check", "notes_claim", "same_inputs", "on_notes_example", "rank_playground",
]
