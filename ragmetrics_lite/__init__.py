"""ragmetrics_lite: small, readable RAG evaluation metrics, each derived in a notebook.

Retrieval metrics agree with trec_eval per query (``retrieval``; ``evaluate`` in ``batch``, over
the metric table in ``metric_table``); TREC files are read by ``trec_io``; exercises for the
notebooks live in ``ragmetrics_lite.exercises``.
"""
from ._validation import RagMetricsWarning
from .batch import evaluate
from .metric_table import METRICS, trec_eval_measure
from .retrieval import (
    average_precision,
    dcg_at_k,
    hit_at_k,
    judged_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from .trec_io import read_qrels, read_run
from .tokenization import ngrams, tokenize, word_list_entries
from .bleu_score import (
    SMOOTHING_DEFAULTS,
    bleu,
    brevity_penalty,
    clipped_precision,
    closest_reference_length,
    corpus_bleu,
)
from .rouge import LCS, Score, lcs, rouge_l, rouge_n, rouge_scores
from .meteor_score import count_chunks, meteor, meteor_alignment
from .course.notes import notes_check, notes_claim, on_notes_example, same_inputs
from .latency import PERCENTILE_METHODS, StageTimer, latency_percentiles
from .agreement import cohens_kappa, fleiss_kappa, rating_counts
from .significance import bootstrap_ci, holm_rejections, paired_permutation_test
from .course.playground import rank_playground
from . import triad
from .triad import (
    AGREEMENT_BAR,
    TRIAD_TASKS,
    Judge,
    LexicalJudge,
    LLMJudge,
    LLMReplyError,
    Verdict,
    agreement_summary,
    answer_relevancy,
    answer_relevancy_verdicts,
    context_precision,
    context_precision_verdicts,
    context_relevancy,
    context_relevancy_verdicts,
    faithfulness,
    faithfulness_verdicts,
    judge_items,
    llm_judge_from_environment,
    openai_compatible_complete,
    meets_agreement_bar,
    read_second_labels,
    read_triad_labels,
    ScriptedJudge,
    split_statements,
)

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
    "judged_at_k",
    "evaluate",
    "trec_eval_measure",
    "read_qrels",
    "read_run",
    "METRICS",
    "RagMetricsWarning",
    "tokenize",
    "ngrams",
    "word_list_entries",
    "bleu",
    "corpus_bleu",
    "brevity_penalty",
    "closest_reference_length",
    "clipped_precision",
    "SMOOTHING_DEFAULTS",
    "rouge_n",
    "rouge_l",
    "rouge_scores",
    "lcs",
    "Score",
    "LCS",
    "meteor",
    "meteor_alignment",
    "count_chunks",
    "notes_check",
    "notes_claim",
    "same_inputs",
    "on_notes_example",
    "latency_percentiles",
    "PERCENTILE_METHODS",
    "StageTimer",
    "cohens_kappa",
    "fleiss_kappa",
    "rating_counts",
    "paired_permutation_test",
    "bootstrap_ci",
    "holm_rejections",
    "rank_playground",
    "triad",
    "split_statements",
    "Verdict",
    "Judge",
    "LexicalJudge",
    "LLMJudge",
    "LLMReplyError",
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
    "ScriptedJudge",
]
