"""The RAG triad, judged: context relevancy, faithfulness, answer relevancy, context precision.

``import ragmetrics_lite as rml`` then ``rml.triad.faithfulness(answer, contexts)``. The metrics
count a judge's yes/no verdicts (``metrics``); the judge is pluggable (``judges``): the offline
``LexicalJudge`` (word overlap) and ``EmbeddingJudge`` (sentence vectors), or ``LLMJudge`` around
any ``complete(prompt) -> str``. Statements are split by ``split_statements``; the triad labels
(written by model sessions following a guideline) and agreement with them live in ``labels``. Derived in
``12_context_relevancy.ipynb``, ``13_faithfulness.ipynb`` and ``14_answer_relevancy.ipynb``.
"""
from . import endpoint, judges, labels, llm, metrics, statements
from .embedding import EmbeddingJudge
from .endpoint import *  # noqa: F401,F403  (the names of each module's __all__)
from .judges import *  # noqa: F401,F403
from .labels import *  # noqa: F401,F403
from .lexical import LexicalJudge
from .llm import *  # noqa: F401,F403
from .metrics import *  # noqa: F401,F403
from .statements import *  # noqa: F401,F403

# Of the judges' own modules only the judge is public here: their rules and constants stay in the module.
__all__ = [*statements.__all__, *judges.__all__, "LexicalJudge", "EmbeddingJudge", *llm.__all__, *endpoint.__all__,
           *metrics.__all__, *labels.__all__]
