"""The text metrics' fast path: the n-grams of a whole batch counted at once with numpy.

An optimisation of named functions, tested equal to them on random inputs, never a second
definition of a metric:

* :func:`bleu_statistics` gives one row per segment, equal to that segment's sacrebleu statistics
  as ``ragmetrics_lite.text.bleu`` computes them for sentence BLEU (``tests/test_bleu.py``);
  ``corpus_bleu`` sums the rows, as sacrebleu sums its segments' statistics.
* :func:`rouge_statistics` gives, per (candidate, reference) pair, the n-gram overlap of
  ``rouge_n`` and the LCS length of ``rouge_l`` (``tests/test_rouge.py``); ``rouge_scores`` turns
  them into precision, recall and F1 with the same formulas.

How the counting works: each token becomes an integer id (one hash per token); each n-gram an
exact integer code, built order by order from the code of the (n-1)-gram and the id of the next
token. Counting is one ``np.unique`` per order on integer keys that pack the sentence and the
code. No tuple is hashed, so there are no collisions: the counts equal ``ngram_counts``.
"""
from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["bleu_statistics", "rouge_statistics"]


class Tokens(NamedTuple):
    """Every sentence of a batch as one stream of token ids."""

    ids: np.ndarray  # token ids, sentence after sentence
    lengths: np.ndarray  # tokens per sentence
    sentence: np.ndarray  # per token: its sentence
    position: np.ndarray  # per token: its position within the sentence


def token_stream(sentences: list[list[str]]) -> Tokens:
    """Token ids shared by every sentence of the batch (equal tokens, equal ids)."""
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = np.fromiter(chain.from_iterable(sentences), dtype=object, count=int(lengths.sum()))
    ids = pd.factorize(flat)[0].astype(np.int64) if len(flat) else np.zeros(0, np.int64)
    sentence = np.repeat(np.arange(len(sentences)), lengths)
    starts = np.cumsum(lengths) - lengths
    return Tokens(ids, lengths, sentence, np.arange(len(ids)) - starts[sentence])


def ngram_codes(tokens: Tokens, max_n: int, room: int = 1):
    """For n = 1..max_n: ``(n, sentence, code)`` of every n-gram; equal n-grams share a code.

    The code of an n-gram is the code of its first n-1 tokens times the vocabulary size plus the
    id of its last token. Codes stay below ``2**62 // room`` (the caller packs them into keys up to
    ``room`` times larger): past that they are renumbered 0, 1, 2, ... first, which keeps them exact.
    """
    limit = 2**62 // room
    width = int(tokens.ids.max(initial=0)) + 1
    code = tokens.ids
    for n in range(1, max_n + 1):
        if n > 1:
            if (int(code.max(initial=0)) + 1) * width > limit:
                code = pd.factorize(code)[0].astype(np.int64)
                if (int(code.max(initial=0)) + 1) * width > limit:
                    raise ValueError("too many distinct n-grams to count in one batch: split the batch")
            # code[t] is the (n-1)-gram starting at t; extend it by token t + n - 1
            nxt = np.zeros_like(tokens.ids)  # past the end: 0, never part of a valid n-gram
            nxt[: max(len(nxt) - (n - 1), 0)] = tokens.ids[n - 1:]
            code = code * width + nxt
        starts = tokens.position <= tokens.lengths[tokens.sentence] - n
        yield n, tokens.sentence[starts], code[starts]


def clipped_matches(tokens: Tokens, size: int, owner: np.ndarray, max_n: int) -> np.ndarray:
    """Clipped n-gram matches of each candidate, one row per candidate, one column per order 1..max_n.

    Sentences ``0..size-1`` of ``tokens`` are the candidates, the rest their references
    (``owner[k]``: the candidate of reference ``k``, ascending). Row s, column n-1: the sum over the
    n-grams g of candidate s of min(count of g in s, the largest count of g in one of s's references).
    """
    # every sentence's candidate, and its place among that candidate's texts (0: the candidate itself)
    group = np.concatenate([np.arange(size), owner])
    place = np.concatenate([np.zeros(size, np.int64), np.arange(len(owner)) - np.searchsorted(owner, owner) + 1])
    places = int(place.max(initial=0)) + 1
    matches = np.zeros((size, max_n), dtype=np.int64)
    for n, sentence, code in ngram_codes(tokens, max_n, room=(size + 1) * places):
        if len(code) == 0:
            continue
        width = int(code.max()) + 1
        # one sort: how often each (candidate, n-gram) occurs in each of the candidate's texts
        keys, count = np.unique((group[sentence] * width + code) * places + place[sentence], return_counts=True)
        gram, in_candidate = keys // places, keys % places == 0
        starts = np.flatnonzero(np.r_[True, gram[1:] != gram[:-1]])  # the candidate's own count comes first
        candidate_count = np.where(in_candidate[starts], count[starts], 0)
        most_in_a_reference = np.maximum.reduceat(np.where(in_candidate, 0, count), starts)
        clipped = np.minimum(candidate_count, most_in_a_reference)
        matches[:, n - 1] = np.bincount(gram[starts] // width, weights=clipped, minlength=size).astype(np.int64)
    return matches


def closest_lengths(candidate_lengths: np.ndarray, reference_lengths: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Per candidate, its reference length closest to its own length, the shorter one on a tie."""
    distance = np.abs(candidate_lengths[owner] - reference_lengths)
    order = np.lexsort((reference_lengths, distance, owner))  # by candidate, then nearest, then shorter
    first = np.r_[True, owner[order][1:] != owner[order][:-1]]
    return reference_lengths[order[first]]


def bleu_statistics(candidates: list[list[str]], references: list[list[list[str]]], max_n: int) -> np.ndarray:
    """sacrebleu's statistics of every segment, one row each: c, r, matches_1..N, totals_1..N.

    Every candidate needs at least one reference. Row s equals the statistics that sentence BLEU
    computes for ``candidates[s]`` and ``references[s]``.
    """
    size = len(candidates)
    owner = np.repeat(np.arange(size), [len(refs) for refs in references])
    tokens = token_stream(candidates + [ref for refs in references for ref in refs])
    c = tokens.lengths[:size]
    r = closest_lengths(c, tokens.lengths[size:], owner)
    totals = np.maximum(c[:, None] - np.arange(max_n), 0)  # a candidate of c tokens has c - n + 1 n-grams
    return np.column_stack([c, r, clipped_matches(tokens, size, owner, max_n), totals])


def lcs_lengths(tokens: Tokens, pairs: int, chunk: int = 256) -> np.ndarray:
    """LCS length of every (candidate i, reference i): ``rouge_l``'s row-at-a-time table, filled for a
    chunk of pairs at once (pairs sorted by size; padding that never matches).

    LCS(a, b) = LCS(b, a), so the shorter text of each pair gives the rows: fewer steps.
    """
    starts = np.cumsum(tokens.lengths) - tokens.lengths
    candidate, reference = np.arange(pairs), pairs + np.arange(pairs)
    swap = tokens.lengths[candidate] > tokens.lengths[reference]
    short, long = np.where(swap, reference, candidate), np.where(swap, candidate, reference)
    lengths = np.empty(pairs, dtype=np.int64)
    by_size = np.lexsort((tokens.lengths[long], tokens.lengths[short]))
    for group in np.array_split(by_size, max(1, -(-pairs // chunk))):
        if len(group) == 0:
            continue
        row_len, col_len = tokens.lengths[short[group]], tokens.lengths[long[group]]
        rows = np.full((len(group), int(row_len.max(initial=0))), -1)
        cols = np.full((len(group), int(col_len.max(initial=0))), -2)
        for matrix, first, size in ((rows, starts[short[group]], row_len), (cols, starts[long[group]], col_len)):
            row, col = np.nonzero(np.arange(matrix.shape[1]) < size[:, None])
            matrix[row, col] = tokens.ids[first[row] + col]
        above = np.zeros((len(group), cols.shape[1] + 1), dtype=np.int64)
        for i in range(rows.shape[1]):
            best = np.where(cols == rows[:, i:i + 1], above[:, :-1] + 1, above[:, 1:])
            above[:, 1:] = np.maximum.accumulate(best, axis=1)
        lengths[group] = above[np.arange(len(group)), col_len]
    return lengths


def rouge_statistics(candidates: list[list[str]], references: list[list[str]], max_n: int,
                     with_lcs: bool = True) -> dict[str, np.ndarray]:
    """Per (candidate i, reference i): ``candidate_length``, ``reference_length``, ``overlap<n>`` for
    n = 1..max_n (the clipped n-gram overlap of ``rouge_n``) and, with ``with_lcs``, ``lcs`` (the LCS
    length of ``rouge_l``)."""
    pairs = len(candidates)
    tokens = token_stream(candidates + references)
    stats = {"candidate_length": tokens.lengths[:pairs], "reference_length": tokens.lengths[pairs:]}
    overlaps = clipped_matches(tokens, pairs, np.arange(pairs), max_n)  # one reference per candidate
    stats.update({f"overlap{n}": overlaps[:, n - 1] for n in range(1, max_n + 1)})
    if with_lcs:
        stats["lcs"] = lcs_lengths(tokens, pairs)
    return stats
