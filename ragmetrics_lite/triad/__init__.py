"""The RAG triad, judged: context relevancy, faithfulness, answer relevancy, context precision.

``import ragmetrics_lite as rml`` then ``rml.triad.faithfulness(answer, contexts)``. The metrics
count a judge's yes/no verdicts (``metrics``); the judge is pluggable (``judges``): the offline
``LexicalJudge`` (word overlap) and ``EmbeddingJudge`` (sentence vectors), or ``LLMJudge`` around
any ``complete(prompt) -> str``. Statements are split by ``split_statements``; the triad labels
(written by model sessions following a guideline) and agreement with them live in ``labels``. Derived in
``12_context_relevancy.ipynb``, ``13_faithfulness.ipynb`` and ``14_answer_relevancy.ipynb``.
"""
from .judges import Judge, ScriptedJudge, Verdict
from .labels import (
    AGREEMENT_BAR,
    TRIAD_TASKS,
    agreement_summary,
    judge_items,
    meets_agreement_bar,
    read_judge_scores,
    read_second_labels,
    read_triad_labels,
)
from .lexical import LexicalJudge
from .embedding import EmbeddingJudge
from .llm import LLMEndpointError, LLMJudge, LLMReplyError, llm_judge_from_environment, openai_compatible_complete
from .metrics import (
    answer_relevancy,
    answer_relevancy_verdicts,
    context_precision,
    context_precision_verdicts,
    context_relevancy,
    context_relevancy_verdicts,
    faithfulness,
    faithfulness_verdicts,
)
from .statements import split_statements

__all__ = [
    "split_statements",
    "Verdict",
    "Judge",
    "ScriptedJudge",
    "LexicalJudge",
    "EmbeddingJudge",
    "LLMJudge",
    "LLMReplyError",
    "LLMEndpointError",
    "openai_compatible_complete",
    "llm_judge_from_environment",
    "faithfulness",
    "faithfulness_verdicts",
    "context_relevancy",
    "context_relevancy_verdicts",
    "answer_relevancy",
    "answer_relevancy_verdicts",
    "context_precision",
    "context_precision_verdicts",
    "TRIAD_TASKS",
    "read_triad_labels",
    "read_second_labels",
    "judge_items",
    "agreement_summary",
    "AGREEMENT_BAR",
    "meets_agreement_bar",
    "read_judge_scores",
]
