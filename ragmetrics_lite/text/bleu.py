r"""BLEU on token lists, sentence and corpus level, agreeing with sacrebleu.

Reference replicated: sacrebleu 2.6.0 (``sacrebleu/metrics/bleu.py``). The
equivalent call for one sentence is::

    sacrebleu.metrics.BLEU(tokenize="none", max_ngram_order=max_n,
                           smooth_method=smoothing, smooth_value=smooth_value,
                           effective_order=effective_order,
    ).sentence_score(" ".join(candidate), [" ".join(r) for r in references]).score / 100

and :func:`corpus_bleu` equals ``.corpus_score(candidate_strings, reference_streams)``,
where stream k holds every candidate's k-th reference, padded with ``None``
when a candidate has fewer references (sacrebleu drops ``None``; an empty
string would count as a reference of length 0).

Conventions, all sacrebleu's:

* Uniform weights 1/N over the orders n = 1..N; clipped counts take, for
  each n-gram, the largest count in any one reference.
* The reference length r is the one closest to the candidate length,
  the shorter one on a tie; a corpus sums c and r over its sentences.
* Smoothing (平滑), for an order with no match (Chen & Cherry 2014):
  ``"none"`` keeps p_n = 0, so BLEU = 0 (the classic formula, our default;
  sacrebleu's own default is ``"exp"``); ``"floor"`` uses p_n = ε/total
  (ε = 0.1); ``"add-k"`` adds k (k = 1) to matches and totals of every
  order n >= 2, even when the candidate has no n-grams of that order;
  ``"exp"`` uses p_n = 1/(2^j total) for the j-th order without a match.
* No unigram match at all gives 0 under every smoothing.
* An order with no candidate n-grams (candidate shorter than n) stops the
  loop: BLEU is 0, unless ``effective_order=True``, which averages over the
  orders seen so far. (It does not skip orders whose precision is 0.)

Deliberate differences: a ``smooth_value`` given with ``"none"`` or ``"exp"``
is an error (sacrebleu silently ignores it); tokens must be non-empty and free
of whitespace, since sacrebleu would re-split them. Scores are fractions, not
percentages: where sacrebleu's arithmetic in percent gives 100.00000000000004,
we give exactly 1.0.

Derived in ``notebooks/08_bleu.ipynb``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .._validation import as_references, as_tokens, check_finite, check_k, check_length
from ..fast.text import bleu_statistics
from .tokenization import ngram_counts

__all__ = ["SMOOTHING_DEFAULTS", "bleu", "corpus_bleu", "brevity_penalty", "closest_reference_length",
           "clipped_precision"]

#: Smoothing methods and their default values (sacrebleu's ``BLEU.SMOOTH_DEFAULTS``).
SMOOTHING_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


def _check_smoothing(smoothing: str, smooth_value: float | None) -> float | None:
    """The smoothing value to use; refuses unknown methods and values they would ignore."""
    if smoothing not in SMOOTHING_DEFAULTS:
        raise ValueError(f"smoothing must be one of {tuple(SMOOTHING_DEFAULTS)}, got {smoothing!r}")
    if smooth_value is None:
        return SMOOTHING_DEFAULTS[smoothing]
    if SMOOTHING_DEFAULTS[smoothing] is None:
        raise ValueError(f"smooth_value is only used by 'floor' and 'add-k', not by {smoothing!r}")
    value = check_finite(smooth_value, "smooth_value")
    if value < 0:
        raise ValueError(f"smooth_value must be >= 0, got {smooth_value}")
    return smooth_value


def closest_reference_length(candidate_len: int, reference_lens: Sequence[int]) -> int:
    r"""The reference length closest to the candidate's; the shorter one on a tie.

    .. math:: r = \arg\min_{r_k} \left(|c - r_k|,\ r_k\right)

    Derived in ``08_bleu.ipynb``.

    >>> closest_reference_length(6, [4, 8, 9])
    4
    """
    c = check_length(candidate_len, "candidate_len")
    lengths = [check_length(r, "reference length") for r in reference_lens]
    if not lengths:
        raise ValueError("reference_lens must hold at least one length")
    return min(lengths, key=lambda r: (abs(c - r), r))


def brevity_penalty(candidate_len: int, reference_len: int) -> float:
    r"""BLEU's brevity penalty (长度惩罚) for a candidate of c tokens against r.

    .. math:: \mathrm{BP} = 1 \text{ if } c \ge r, \text{ else } e^{1 - r/c} \quad (0 \text{ if } c = 0)

    Derived in ``08_bleu.ipynb``.

    >>> [round(brevity_penalty(c, 6), 4) for c in (6, 5, 7)]
    [1.0, 0.8187, 1.0]
    """
    c = check_length(candidate_len, "candidate_len")
    r = check_length(reference_len, "reference_len")
    if c >= r:
        return 1.0
    return math.exp(1 - r / c) if c > 0 else 0.0


def _max_reference_counts(references: list[list[str]], max_n: int) -> dict[tuple[str, ...], int]:
    """For every n-gram (n <= max_n) its largest count in any one reference."""
    merged: dict[tuple[str, ...], int] = {}
    for reference in references:
        for gram, count in ngram_counts(reference, max_n, up_to=True).items():
            if count > merged.get(gram, 0):
                merged[gram] = count
    return merged


def _clipped_counts(candidate: list[str], reference_counts: dict, max_n: int) -> tuple[list, list]:
    """Clipped matches and candidate n-gram totals for each order 1..max_n."""
    matches, totals = [0] * max_n, [0] * max_n
    for gram, count in ngram_counts(candidate, max_n, up_to=True).items():
        order = len(gram) - 1
        totals[order] += count
        matches[order] += min(count, reference_counts.get(gram, 0))
    return matches, totals


def clipped_precision(candidate: list[str], references: list[list[str]], n: int) -> tuple[int, int]:
    r"""Clipped n-gram matches (截断计数) and the candidate's n-gram count; p_n is their ratio.

    .. math:: p_n = \frac{\sum_{g} \min\big(\mathrm{count}_{cand}(g),
                                      \max_k \mathrm{count}_{ref_k}(g)\big)}
                         {\sum_{g} \mathrm{count}_{cand}(g)}

    Derived in ``08_bleu.ipynb``.

    >>> clipped_precision(["的", "的", "的"], [["的", "高度", "的"]], 1)
    (2, 3)
    """
    candidate = as_tokens(candidate, "candidate")
    references = as_references(references)
    n = check_k(n, name="n")
    matches, totals = _clipped_counts(candidate, _max_reference_counts(references, n), n)
    return matches[-1], totals[-1]


def _segment_stats(candidate: list[str], references: list[list[str]], max_n: int) -> list:
    """sacrebleu's sufficient statistics: [c, r, matches_1..N, totals_1..N]."""
    matches, totals = _clipped_counts(candidate, _max_reference_counts(references, max_n), max_n)
    r = closest_reference_length(len(candidate), [len(ref) for ref in references])
    return [len(candidate), r] + matches + totals


def _score_from_stats(stats: list, max_n: int, smoothing: str, value, effective_order: bool) -> float:
    """BLEU from summed statistics, step for step as sacrebleu's ``compute_bleu``."""
    c, r, matches, totals = stats[0], stats[1], stats[2 : 2 + max_n], stats[2 + max_n :]
    if not any(matches):
        return 0.0
    log_precisions, halvings = [], 1
    for n, (m, t) in enumerate(zip(matches, totals), start=1):
        if smoothing == "add-k" and n > 1:
            m, t = m + value, t + value
        if t == 0:
            break
        if m > 0:
            precision = m / t
        elif smoothing == "exp":
            halvings *= 2
            precision = 1 / (halvings * t)
        elif smoothing == "floor":
            precision = value / t
        else:
            precision = 0.0
        if precision == 0:
            return 0.0
        log_precisions.append(math.log(precision))
    if len(log_precisions) < max_n and not effective_order:
        return 0.0  # an order without n-grams has precision 0
    return brevity_penalty(c, r) * math.exp(sum(log_precisions) / len(log_precisions))


def _check_options(max_n, smoothing, smooth_value, effective_order):
    max_n = check_k(max_n, name="max_n")
    value = _check_smoothing(smoothing, smooth_value)
    if not isinstance(effective_order, bool):
        raise TypeError(f"effective_order must be True or False, got {effective_order!r}")
    return max_n, value


def bleu(
    candidate: list[str],
    references: list[list[str]],
    max_n: int = 4,
    smoothing: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> float:
    r"""Sentence BLEU in [0, 1]: brevity penalty times the geometric mean of p_1..p_N.

    .. math:: \mathrm{BLEU} = \mathrm{BP} \cdot \exp\Big(\sum_{n=1}^{N} \tfrac{1}{N} \log p_n\Big)

    ``references`` is a list of token lists (one or more references).
    See the module docstring for smoothing and ``effective_order``.
    Derived in ``08_bleu.ipynb``.

    >>> ref = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
    >>> cand = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
    >>> round(bleu(cand, [ref], max_n=2), 4)  # sqrt(5/6 * 3/5)
    0.7071
    >>> bleu(cand, [ref]), round(bleu(cand, [ref], smoothing="exp"), 4)
    (0.0, 0.3799)
    """
    max_n, value = _check_options(max_n, smoothing, smooth_value, effective_order)
    stats = _segment_stats(as_tokens(candidate, "candidate"), as_references(references), max_n)
    return _score_from_stats(stats, max_n, smoothing, value, effective_order)


def corpus_bleu(
    candidates: list[list[str]],
    references: list[list[list[str]]],
    max_n: int = 4,
    smoothing: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> float:
    r"""Corpus BLEU: matches, totals and lengths are summed over sentences first.

    .. math:: p_n = \frac{\sum_s \mathrm{matches}_{s,n}}{\sum_s \mathrm{total}_{s,n}}, \quad
              \mathrm{BP} = \mathrm{BP}\big(\textstyle\sum_s c_s, \sum_s r_s\big)

    ``references[i]`` is the list of references (token lists) of ``candidates[i]``;
    the number may differ from candidate to candidate. This is not the mean
    of sentence BLEU scores. An empty corpus is an error (sacrebleu fails with
    an IndexError). Derived in ``08_bleu.ipynb``. As in sacrebleu, the segments'
    statistics (those :func:`bleu` computes) are summed, then scored once; they come from
    ``ragmetrics_lite.fast.text.bleu_statistics`` (tested equal), which counts the whole corpus at once.

    >>> cands = [["a", "b", "c"], ["d", "e"]]
    >>> refs = [[["a", "b", "c"]], [["d", "x"], ["d", "e", "f"]]]
    >>> round(corpus_bleu(cands, refs, max_n=2), 4)  # p1 = 5/5, p2 = 3/3, BP(5, 5)
    1.0
    """
    max_n, value = _check_options(max_n, smoothing, smooth_value, effective_order)
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise TypeError("candidates must be a list of token lists; call tokenize on each sentence first")
    if not isinstance(references, Sequence) or len(references) != len(candidates):
        raise ValueError("references must hold one list of references per candidate")
    if len(candidates) == 0:
        raise ValueError("candidates must hold at least one sentence")
    candidates = [as_tokens(candidate, f"candidates[{i}]") for i, candidate in enumerate(candidates)]
    references = [as_references(refs, f"references[{i}]") for i, refs in enumerate(references)]
    summed = bleu_statistics(candidates, references, max_n).sum(axis=0).tolist()
    return _score_from_stats(summed, max_n, smoothing, value, effective_order)
