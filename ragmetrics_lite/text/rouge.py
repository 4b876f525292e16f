r"""ROUGE-N and ROUGE-L on token lists, agreeing with Google's rouge-score.

Reference replicated: rouge-score 0.1.2 (``rouge_score/rouge_scorer.py``). The
equivalent call, with a tokenizer that only splits on whitespace, is::

    class SplitTokenizer:
        def tokenize(self, text):
            return text.split()

    rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=SplitTokenizer()).score(
        target=" ".join(reference), prediction=" ".join(candidate))

Mind the order: rouge-score takes the reference (target) first, we take the
candidate first, as every text metric in this package does.

Conventions, all rouge-score's:

* ROUGE-N counts an n-gram shared k times at most min(count in candidate,
  count in reference) times; precision divides by the candidate's n-grams,
  recall by the reference's, each at least 1, so an empty side gives 0.
* ROUGE-L takes the length of the longest common subsequence (最长公共子序列);
  an empty side gives 0.
* F1 is 2PR / (P + R), and 0 when P + R = 0.

The only difference is stricter input: tokens must be non-empty strings
without whitespace (rouge-score would re-split them).

Derived in ``notebooks/09_rouge_n.ipynb`` (ROUGE-N) and ``notebooks/10_rouge_l.ipynb``
(LCS, ROUGE-L).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from .._validation import as_tokens, check_k
from ..fast.text import rouge_statistics
from .tokenization import ngram_counts

__all__ = ["Score", "LCS", "rouge_n", "rouge_l", "lcs", "rouge_scores"]


class Score(NamedTuple):
    """Precision, recall and F1 of one candidate against one reference."""

    precision: float
    recall: float
    fmeasure: float


class LCS(NamedTuple):
    """A longest common subsequence and how it was found.

    ``table[i, j]`` is the LCS length of ``candidate[:i]`` and ``reference[:j]``;
    ``path`` lists the table cells the backtrace visits, first to last;
    ``pairs`` the (candidate index, reference index) of each matched token.
    """

    length: int
    tokens: list[str]
    table: np.ndarray
    path: list[tuple[int, int]]
    pairs: list[tuple[int, int]]


def _fmeasure(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def rouge_n(candidate: list[str], reference: list[str], n: int) -> Score:
    r"""ROUGE-N: overlap of n-grams, as precision, recall and F1.

    .. math:: R = \frac{\sum_g \min(\mathrm{count}_{cand}(g), \mathrm{count}_{ref}(g))}
                       {\sum_g \mathrm{count}_{ref}(g)}, \quad
              P = \frac{\text{same overlap}}{\sum_g \mathrm{count}_{cand}(g)}

    ROUGE-N in the narrow sense is the recall. Derived in ``09_rouge_n.ipynb``.

    >>> ref = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
    >>> cand = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
    >>> rouge_n(cand, ref, 1).recall, round(rouge_n(cand, ref, 2).recall, 4)  # 7/10, 2/9
    (0.7, 0.2222)
    """
    candidate = as_tokens(candidate, "candidate")
    reference = as_tokens(reference, "reference")
    n = check_k(n, name="n")
    cand_counts, ref_counts = ngram_counts(candidate, n), ngram_counts(reference, n)
    overlap = sum(min(count, cand_counts.get(gram, 0)) for gram, count in ref_counts.items())
    precision = overlap / max(sum(cand_counts.values()), 1)
    recall = overlap / max(sum(ref_counts.values()), 1)
    return Score(precision, recall, _fmeasure(precision, recall))


def _lcs_table(candidate: list[str], reference: list[str]) -> np.ndarray:
    """LCS lengths of every pair of prefixes, filled one candidate row at a time.

    Within a row, ``t[i, j] = max(t[i, j-1], t[i-1, j-1] + 1 if the tokens match
    else t[i-1, j])``, so a running maximum along the row fills it at once.
    """
    ids: dict[str, int] = {}
    ref = np.array([ids.setdefault(token, len(ids)) for token in reference], dtype=np.int64)
    table = np.zeros((len(candidate) + 1, len(reference) + 1), dtype=np.int64)
    for i, token in enumerate(candidate, start=1):
        above = table[i - 1]
        best = np.where(ref == ids.get(token, -1), above[:-1] + 1, above[1:])
        table[i, 1:] = np.maximum.accumulate(best)
    return table


def _lcs_length(candidate: list[str], reference: list[str]) -> int:
    """The LCS length alone: :func:`_lcs_table`'s recurrence keeping one row, which runs along the
    shorter text (LCS(a, b) = LCS(b, a)), so memory is O(min(n, m)); the whole table of 10,000 x
    10,000 tokens took 765 MB."""
    short, long = sorted((candidate, reference), key=len)
    ids: dict[str, int] = {}
    row_tokens = np.array([ids.setdefault(token, len(ids)) for token in short], dtype=np.int64)
    row = np.zeros(len(short) + 1, dtype=np.int64)
    for token in long:
        best = np.where(row_tokens == ids.get(token, -1), row[:-1] + 1, row[1:])
        row[1:] = np.maximum.accumulate(best)
    return int(row[-1])


def lcs(candidate: list[str], reference: list[str]) -> LCS:
    r"""One longest common subsequence, with its dynamic-programming table and backtrace.

    .. math:: t_{i,j} = \begin{cases} t_{i-1,j-1} + 1 & c_i = r_j \\
              \max(t_{i-1,j},\ t_{i,j-1}) & \text{otherwise} \end{cases}

    The backtrace starts at the bottom-right cell; equal tokens step
    diagonally; otherwise it drops the candidate token when that keeps a
    strictly longer LCS, else the reference token (rouge-score's rule, so the
    matched reference positions equal ``rouge_scorer.lcs_ind(reference, candidate)``).
    Derived in ``10_rouge_l.ipynb``.

    >>> ref = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
    >>> cand = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
    >>> found = lcs(cand, ref)
    >>> found.length, found.tokens
    (5, ['埃菲尔铁塔', '330', '米', '是', '的'])
    >>> found.pairs
    [(2, 0), (4, 2), (5, 3), (7, 4), (9, 7)]
    """
    candidate = as_tokens(candidate, "candidate")
    reference = as_tokens(reference, "reference")
    table = _lcs_table(candidate, reference)
    i, j = len(candidate), len(reference)
    path, pairs = [(i, j)], []
    while i > 0 and j > 0:
        if candidate[i - 1] == reference[j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i - 1, j] > table[i, j - 1]:
            i -= 1
        else:
            j -= 1
        path.append((i, j))
    pairs.reverse()
    path.reverse()
    tokens = [candidate[a] for a, _ in pairs]
    return LCS(int(table[-1, -1]), tokens, table, path, pairs)


def rouge_l(candidate: list[str], reference: list[str]) -> Score:
    r"""ROUGE-L: precision, recall and F1 of the longest common subsequence.

    .. math:: P = \frac{\mathrm{LCS}}{|cand|}, \quad R = \frac{\mathrm{LCS}}{|ref|}, \quad
              F_1 = \frac{2PR}{P + R}

    Derived in ``10_rouge_l.ipynb``.

    >>> ref = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
    >>> cand = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
    >>> [round(x, 4) for x in rouge_l(cand, ref)]  # 5/12, 5/10
    [0.4167, 0.5, 0.4545]
    """
    candidate = as_tokens(candidate, "candidate")
    reference = as_tokens(reference, "reference")
    if not candidate or not reference:
        return Score(0.0, 0.0, 0.0)
    length = _lcs_length(candidate, reference)
    precision, recall = length / len(candidate), length / len(reference)
    return Score(precision, recall, _fmeasure(precision, recall))


def _score_columns(name: str, overlap: np.ndarray, candidate_total: np.ndarray,
                   reference_total: np.ndarray) -> dict[str, np.ndarray]:
    """Precision, recall and F1 columns, with the formulas of :func:`rouge_n` applied to arrays
    (a total of 0 divides as 1, so an empty side gives 0)."""
    precision = overlap / np.maximum(candidate_total, 1)
    recall = overlap / np.maximum(reference_total, 1)
    total = precision + recall
    fmeasure = np.zeros(len(total))
    np.divide(2 * precision * recall, total, out=fmeasure, where=total > 0)
    return {f"{name}_precision": precision, f"{name}_recall": recall, f"{name}_fmeasure": fmeasure}


def rouge_scores(candidates: list[list[str]], references: list[list[str]], orders=(1, 2),
                 with_lcs: bool = True) -> pd.DataFrame:
    """ROUGE-N for each order in ``orders`` (and ROUGE-L) of every (candidate, reference) pair at once.

    One row per pair, columns ``rouge1_precision, rouge1_recall, rouge1_fmeasure,
    ..., rougeL_fmeasure``; each equals :func:`rouge_n` / :func:`rouge_l` of the pair
    (rouge-score's ``RougeScorer(["rouge1", "rouge2", "rougeL"]).score`` looped). The overlaps and LCS
    lengths come from ``ragmetrics_lite.fast.text.rouge_statistics`` (tested equal to those functions).

    >>> ref = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
    >>> cand = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
    >>> rouge_scores([cand, ref], [ref, ref])[["rouge1_recall", "rouge2_recall", "rougeL_recall"]].round(4)
       rouge1_recall  rouge2_recall  rougeL_recall
    0            0.7         0.2222            0.5
    1            1.0         1.0000            1.0
    """
    if isinstance(candidates, (str, bytes)) or isinstance(references, (str, bytes)):
        raise TypeError("candidates and references must be lists of token lists; call tokenize on each text")
    candidates = [as_tokens(c, f"candidates[{i}]") for i, c in enumerate(candidates)]
    references = [as_tokens(r, f"references[{i}]") for i, r in enumerate(references)]
    if len(candidates) != len(references):
        raise ValueError(f"got {len(candidates)} candidates but {len(references)} references: "
                         "one reference per candidate")
    orders = [check_k(n, name="n") for n in orders]
    stats = rouge_statistics(candidates, references, max(orders, default=0), with_lcs)
    candidate_length, reference_length = stats["candidate_length"], stats["reference_length"]
    columns = {}
    for n in orders:  # a text of L tokens has L - n + 1 n-grams
        columns.update(_score_columns(f"rouge{n}", stats[f"overlap{n}"], candidate_length - n + 1,
                                      reference_length - n + 1))
    if with_lcs:
        columns.update(_score_columns("rougeL", stats["lcs"], candidate_length, reference_length))
    return pd.DataFrame(columns)
