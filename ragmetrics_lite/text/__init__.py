"""Text metrics (notebooks 08-11): a generated answer compared with reference answers, word by word.

``tokenization`` cuts Chinese and English text into tokens (jieba's precise mode) and lists
n-grams; ``bleu`` (sentence and corpus BLEU, as sacrebleu), ``rouge`` (ROUGE-N and ROUGE-L, as
rouge-score) and ``meteor`` (METEOR with exact matches, as nltk) score token lists. The batch
functions ``corpus_bleu`` and ``rouge_scores`` count with ``ragmetrics_lite.fast.text``.
"""
from .bleu import (
    SMOOTHING_DEFAULTS,
    bleu,
    brevity_penalty,
    clipped_precision,
    closest_reference_length,
    corpus_bleu,
)
from .meteor import count_chunks, meteor, meteor_alignment
from .rouge import LCS, Score, lcs, rouge_l, rouge_n, rouge_scores
from .tokenization import ngrams, tokenize, word_list_entries

__all__ = [
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
]
